"""What the second looks cost (docs/floor.md, "Second looks"): per round, and per operator call.

    python benchmarks/bench_second_looks_cost.py                       # 150 rounds; 20,000 pairs
    python benchmarks/bench_second_looks_cost.py --rounds 300 --pairs 50000

1. **Per round**: what the ``look`` effects add to a settling commit (before them it did none of this):
   player-banked rounds (a player banks, five bet; the House Way) played through ``TableRepo`` on a
   private Redis, then their effects worked out again from the records (``round_looks``: the Python the
   commit adds, ``time.process_time``) and applied again by the seating script on their own, one call per
   round (Redis's microseconds, ``INFO commandstats``), and the bytes the figures keep (``MEMORY USAGE``).
2. **Per call**: 30 days of history for ``--pairs`` pairs written straight to Redis (each pair a bucket a
   day, its round list, its player's buckets, in both indexes; a thousand shared networks), then the
   reader's answer time for each window (``SecondLooks.pairs`` + ``fouls`` and ``NetworkSightings.shared``,
   the endpoint's reads), best of 5.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import tempfile
import time
from pathlib import Path
from typing import Any, cast

from redis.asyncio import Redis

import harness_path  # noqa: F401  (puts tests/ on sys.path: the harness, support)
from paigow_server.process.embedded_redis import EmbeddedRedis
from paigow_server.store import keys
from paigow_server.store.networks import NetworkSightings
from paigow_server.store.pair_watch import WINDOWS, buckets_at, round_looks
from paigow_server.store.seating_effects import SEATING_LUA, effect_keys
from paigow_server.store.second_looks import SecondLooks
from paigow_server.store.tables import TableRepo
from support.pair_rounds import banked_table, play_banked_round

DAY_MS = 86_400_000


async def per_round(redis: Redis, rounds: int) -> dict[str, Any]:
    """Play ``rounds`` player-banked rounds (a banker, five bettors), then apply their ``look`` effects again
    on their own, as the commit's script does, to fresh pairs: the Python per round (``round_looks``: the
    figures and the effects) and Redis's script time per round (``INFO commandstats``), and the bytes."""
    await redis.flushall()
    names = ("Bank", "A", "B", "C", "D", "E")
    table, players = await banked_table(TableRepo(redis), redis, "t_cost", names)
    records = [await play_banked_round(table, players[0], {p: 1_000 for p in players[1:]})
               for _ in range(rounds)]
    await redis.flushall()
    cpu = time.process_time()
    effects = [round_looks(r, 500, "t_cost", table.now_ms) for r in records]
    cpu = time.process_time() - cpu
    apply = redis.register_script(SEATING_LUA + "apply_seating(cjson.decode(ARGV[1]), 1) return 1")
    await redis.config_resetstat()
    for looks in effects:
        await apply(keys=effect_keys(looks), args=[json.dumps(looks)])
    stats = cast("dict[str, Any]", await redis.info("commandstats"))
    usec = sum(v["usec"] for k, v in stats.items() if k in ("cmdstat_evalsha", "cmdstat_eval"))
    floor_keys = [k async for k in redis.scan_iter(match=f"{keys.GLOBAL}floor:*", count=1000)]
    sizes = {k: await redis.memory_usage(k) or 0 for k in floor_keys}
    pair_bytes = [v for k, v in sizes.items() if ":floor:pair:" in k]
    return {"rounds": rounds, "python_us_per_round": round(cpu * 1e6 / rounds, 1),
            "redis_script_us_per_round": round(usec / rounds, 1), "floor_keys": len(floor_keys),
            "floor_bytes": sum(sizes.values()), "bytes_per_pair (hash and list)": round(sum(pair_bytes) / 5)}


async def history(redis: Redis, pairs: int, now_ms: int) -> None:
    """30 days of buckets for ``pairs`` pairs (bankers of 50 players each), straight into Redis."""
    await redis.flushall()
    rng = random.Random(34)
    b = buckets_at(now_ms)
    days = [buckets_at(now_ms - d * DAY_MS).day for d in range(30)]
    async with redis.pipeline(transaction=False) as pipe:
        for i in range(pairs):
            banker, player = f"p_b{i // 50}", f"p_p{i}"
            fields = {}
            for day in days:
                w = rng.randrange(500, 2_001, 100)
                flow = rng.randint(-3 * w, 3 * w)
                fields[f"d{day}"] = f"3,3,0,{flow},{round(81.9 * w)},{round(1.67 * w * w)}"
            pipe.hset(keys.floor_pair(banker, player), mapping=fields)
            pipe.hset(keys.floor_player(player), mapping={f"d{d}": "9,0" for d in days})
            pipe.rpush(keys.floor_pair_rounds(banker, player),
                       *(f"{now_ms - j} t{i % 200} t{i % 200}-{j}" for j in range(20)))
            member = f"{banker} {player}"
            for name in ("7d", "30d", f"D{b.day}", f"H{b.hour}"):
                pipe.zadd(keys.floor_looks("pairs", name), {member: abs(rng.gauss(0, 1))})
            if i % 20 == 0:
                for name in ("7d", "30d", f"D{b.day}", f"H{b.hour}"):
                    pipe.zadd(keys.floor_looks("fouls", name), {member: rng.gauss(0, 1)})
            if i % 1_000 == 999:
                await pipe.execute()
        await pipe.execute()
    sightings = NetworkSightings(redis)
    for n in range(1_000):
        for p in range(3):
            await sightings.seen(f"198.{n // 250}.{n % 250}.0/24", f"t{n % 200}", f"p_p{n * 3 + p}", now_ms)


async def answer_ms(redis: Redis, window: str, now_ms: int) -> float:
    best = float("inf")
    looks, sightings = SecondLooks(redis), NetworkSightings(redis)
    for _ in range(5):
        started = time.perf_counter()
        await looks.pairs(window, now_ms, limit=50)
        await looks.fouls(window, now_ms, limit=50)
        await sightings.shared(now_ms - 30 * DAY_MS, limit=50)
        best = min(best, time.perf_counter() - started)
    return round(best * 1000, 1)


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="bench-looks-cost-") as tmp, \
            EmbeddedRedis(Path(tmp) / "redis", appendonly=False) as embedded:
        redis = Redis.from_url(embedded.url, decode_responses=True)
        try:
            cost = await per_round(redis, args.rounds)
            now_ms = time.time_ns() // 1_000_000
            await history(redis, args.pairs, now_ms)
            memory = cast("dict[str, Any]", await redis.info("memory"))["used_memory"]
            answers = {w: await answer_ms(redis, w, now_ms) for w in WINDOWS}
        finally:
            await redis.aclose()
    return {"per_round": cost, "history_pairs": args.pairs, "history_used_memory": memory,
            "answer_ms_best_of_5": answers}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--rounds", type=int, default=150)
    parser.add_argument("--pairs", type=int, default=20_000)
    print(json.dumps(asyncio.run(main_async(parser.parse_args())), indent=2))


if __name__ == "__main__":
    main()
