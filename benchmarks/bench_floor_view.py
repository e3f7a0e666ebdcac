"""The floor view (issue 34): ``GET /api/operator/floor``'s answer time over 30 days of simulated history, and
what the per-round aggregates cost the commit that writes them.

    python benchmarks/bench_floor_view.py [--tables 200] [--days 30] [--rounds-per-hour 30] [--calls 20]
                                          [--commit-rounds 60] [--repeat 5]

On a private ``redis-server`` (append-only, as ``paigow serve`` runs it):

1. **History**: ``--tables`` tables (their states stored, as the server's), each settling
   ``--rounds-per-hour`` rounds an hour for ``--days`` days, written straight to Redis through the floor's
   own bucket writer (``FloorStats.add_many``: the commit's ``apply_floor``): the last ``--recent-hours``
   (48: the minute buckets are kept that long) round by round, the days before one call per table and
   hour carrying the sum of its rounds' figures (the same hour and day buckets as round by round), the
   tables' rounds spread over the minutes. Each round's figures are random but shaped like a busy table's
   (five bettors at $5 to $50, Fortune bets, a 2.7% edge), drawn from a pool of 2,000 (an hour's, from 500
   sums of them). Reported: the rounds written and the Redis memory of every floor bucket (``MEMORY USAGE``).
2. **The answer**: the app (``create_app`` on that Redis, in process through ASGI: no socket) answers
   ``--calls`` GETs of each of: the deployment and one table, over ``30d`` and ``7d`` (and ``today`` and
   ``hour``); the median and worst wall time, and the process CPU per call.
3. **The commit**: ``--commit-rounds`` recorded rounds (``bench_table``'s: a player bank, five bettors, 14
   commits a round) committed through ``TableRepo.commit`` (one Redis: the direct script), with the floor
   effect and without it (``seating_effects.floor_effects`` replaced by one that finds none), the two in
   turn ``--repeat`` times (the machine is shared): this process's CPU (``process_time``) and Redis's
   time in the commit script (``INFO commandstats``, ``evalsha`` usec) per round, best of the repetitions,
   and their ratios; and the bytes the effect adds to the settling commit's call (its JSON argument and its
   nine key names).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import httpx
from redis.asyncio import Redis

from bench_table import _record_round, _start_state
from paigow.ledger.floor_figures import FloorFigures
from paigow.protocol.projection import Seen
from paigow.table.commit import Commit, decide_commit
from paigow.table.state import new_table
from paigow_server.app import create_app
from paigow_server.process.embedded_redis import EmbeddedRedis
from paigow_server.process.settings import Settings
from paigow_server.store import keys, seating_effects
from paigow_server.store.direct_commit import compact
from paigow_server.store.floor_stats import (
    DAY_MS,
    HOUR_MS,
    MINUTE_MS,
    FloorStats,
    floor_effect_keys,
    floor_effects,
)
from paigow_server.store.tables import CommitResult, TableRepo

TOKEN = "bench-floor-view-operator-token-0123456789"


def _round(rng: random.Random) -> FloorFigures:
    """A busy table's round: five bettors at $5 to $50, most with a Fortune bet, the house's edge 2.7%."""
    wagers = [rng.randrange(500, 5_001, 100) for _ in range(5)]
    fortune = sum(rng.choice((0, 100, 500)) for _ in range(5))
    handle = sum(wagers) + fortune
    win = int(rng.gauss(0.027 * sum(wagers), 0.95 * sum(wagers) / 2))
    win += int(rng.gauss(0.078 * fortune, fortune))
    return FloorFigures(rounds=1, handle=handle, win=win, win_sq=win * win, theo_micro=27_000 * sum(wagers),
                        commission=rng.choice((0, 25, 50, 100, 125)), fortune_handle=fortune,
                        fortune_win=int(0.078 * fortune), seated=5)


def _add(a: FloorFigures, b: FloorFigures) -> FloorFigures:
    return FloorFigures(**{name: getattr(a, name) + getattr(b, name) for name in FloorFigures.__slots__})


async def _history(redis: Redis, table_ids: Sequence[str], days: int, per_hour: int, now_ms: int,
                   recent_hours: int = 48) -> int:
    stats = FloorStats(redis)
    rng = random.Random(34)
    singles = [_round(rng) for _ in range(2_000)]  # drawn from pools: the figures' making is not measured
    hours = []
    for _ in range(500):
        figures = rng.choice(singles)
        for _ in range(per_hour - 1):
            figures = _add(figures, rng.choice(singles))
        hours.append(figures)
    rounds = 0
    recent_from = now_ms - recent_hours * HOUR_MS
    batch: list[tuple[str, int, FloorFigures]] = []

    async def flush(force: bool = False) -> None:
        if len(batch) >= 5_000 or (force and batch):
            await stats.add_many(batch)
            batch.clear()

    gap = HOUR_MS // per_hour
    for n, table_id in enumerate(table_ids):
        offset = n * gap // len(table_ids)  # the tables' rounds spread over the minutes
        for at in range(recent_from + offset, now_ms, gap):  # the last hours: round by round
            batch.append((table_id, at, rng.choice(singles)))
            rounds += 1
            await flush()
        for hour in range(now_ms - days * DAY_MS, recent_from, HOUR_MS):  # before: an hour at a time
            batch.append((table_id, hour - hour % HOUR_MS + 30 * MINUTE_MS, rng.choice(hours)))
            rounds += per_hour
            await flush()
    await flush(force=True)
    return rounds


async def _floor_memory(redis: Redis) -> tuple[int, int]:
    count = used = 0
    async for key in redis.scan_iter(match=keys.GLOBAL + "floor:*", count=1_000):
        count += 1
        used += int(await redis.memory_usage(key) or 0)
    return count, used


async def _answers(redis: Redis, url: str, folder: Path, table_id: str, calls: int) -> list[str]:
    settings = Settings(redis_url=url, data_dir=folder / "app", operator_token=TOKEN, log_format="plain")
    app = create_app(settings, redis=redis)
    rows = []
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        headers = {"Authorization": f"Bearer {TOKEN}"}
        async with httpx.AsyncClient(transport=transport, base_url="http://localhost", timeout=60) as client:
            for window in ("30d", "7d", "today", "hour"):
                for table in (None, table_id):
                    params = {"window": window, **({"table": table} if table else {})}
                    walls: list[float] = []
                    cpu = time.process_time()
                    body: dict[str, Any] = {}
                    for _ in range(calls):
                        t = time.perf_counter()
                        response = await client.get("/api/operator/floor", params=params, headers=headers)
                        walls.append(time.perf_counter() - t)
                        assert response.status_code == 200, response.text
                        body = response.json()
                    cpu = (time.process_time() - cpu) / calls
                    view = "one table" if table else "deployment"
                    buckets = f"{len(body['series'])} × {body['bucket_ms'] // 60_000} min"
                    rows.append(f"| {view} | {window} | {buckets} | {body['totals']['rounds']:,} | "
                                f"{statistics.median(walls) * 1e3:.1f} | {max(walls) * 1e3:.1f} | "
                                f"{cpu * 1e3:.1f} |")
    return rows


def _commits(count: int, now_ms: int) -> list[list[Commit]]:
    """``count`` recorded rounds' commits, each from the same start state, decided at ``now_ms``."""
    start, due = _start_state()
    out = []
    for k in range(count):
        s, seen = start, None
        commits: list[Commit] = []
        seen_: Seen | None = seen
        for cmd, seed in _record_round(start, due, k):
            commit = decide_commit(s, cmd, seed=seed, now_ms=now_ms, seen=seen_)
            assert commit is not None
            commits.append(commit)
            s, seen_ = commit.after, commit.seen
        out.append(commits)
    return out


async def _evalsha_usec(redis: Redis) -> int:
    stats = await redis.info("commandstats")
    return int(stats.get("cmdstat_evalsha", {}).get("usec", 0))


async def _commit_run(redis: Redis, repo: TableRepo, rounds: list[list[Commit]]) -> tuple[float, float]:
    """(this process's CPU, Redis's usec in EVALSHA) of committing every round, each from the start."""
    start = rounds[0][0].before
    cpu = 0.0
    redis_before = await _evalsha_usec(redis)
    for commits in rounds:
        await redis.delete(keys.table(start.table_id), keys.table_log(start.table_id))
        assert await repo.create(start)
        t = time.process_time()
        for commit in commits:
            assert await repo.commit(commit) is CommitResult.OK
        cpu += time.process_time() - t
    return cpu, (await _evalsha_usec(redis) - redis_before) / 1e6


async def _commit_cost(redis: Redis, count: int, repeat: int) -> list[str]:
    now_ms = time.time_ns() // 1_000_000
    rounds = _commits(count, now_ms)
    settling = [c for r in rounds for c in r if floor_effects(c)]
    assert len(settling) == count
    effect = floor_effects(settling[0])[0]
    effect_bytes = len(compact(effect)) + 2 + sum(len(k) for k in floor_effect_keys(effect))
    repo = TableRepo(redis)
    real: Callable[[Commit], list[list[str]]] = seating_effects.floor_effects
    best: dict[str, tuple[float, float]] = {}
    for _ in range(repeat):
        for arm in ("with", "without"):
            seating_effects.floor_effects = real if arm == "with" else (lambda commit: [])  # type: ignore[assignment]
            cpu, usec = await _commit_run(redis, repo, rounds)
            old = best.get(arm, (float("inf"), float("inf")))
            best[arm] = (min(old[0], cpu), min(old[1], usec))
    seating_effects.floor_effects = real  # type: ignore[assignment]
    per = {arm: (cpu / count * 1e6, usec / count * 1e6) for arm, (cpu, usec) in best.items()}
    commits = sum(len(r) for r in rounds)
    return [
        f"{count} rounds of {commits // count} commits each, best of {repeat} interleaved runs",
        "",
        "| | process CPU per round (µs) | Redis time in the commit script per round (µs) |",
        "|---|---:|---:|",
        f"| without the floor effect | {per['without'][0]:.0f} | {per['without'][1]:.0f} |",
        f"| with it | {per['with'][0]:.0f} | {per['with'][1]:.0f} |",
        f"| with / without | {per['with'][0] / per['without'][0]:.3f} | "
        f"{per['with'][1] / per['without'][1]:.3f} |",
        "",
        f"The effect adds {effect_bytes} bytes to the settling commit's call (its JSON, {len(effect)} "
        "strings, and nine key names); the other commits of a round carry none.",
    ]


async def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--days", type=int, default=30)
    parser.add_argument("--rounds-per-hour", type=int, default=30)
    parser.add_argument("--calls", type=int, default=20)
    parser.add_argument("--recent-hours", type=int, default=48,
                        help="hours written round by round (the rest an hour at a time); 48: every minute "
                             "bucket kept, 26: those the windows measured read")
    parser.add_argument("--commit-rounds", type=int, default=60)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as name, EmbeddedRedis(Path(name) / "redis") as server:
        redis = Redis.from_url(server.url, decode_responses=True)
        try:
            repo = TableRepo(redis)
            table_ids = [f"t{n}" for n in range(1, args.tables + 1)]
            for table_id in table_ids:
                assert await repo.create(new_table(table_id, f"Table {table_id}"))
            now_ms = time.time_ns() // 1_000_000
            t = time.perf_counter()
            rounds = await _history(redis, table_ids, args.days, args.rounds_per_hour, now_ms,
                                    args.recent_hours)
            written_s = time.perf_counter() - t
            count, used = await _floor_memory(redis)
            per_day = used / args.tables / args.days / 1e3
            print(f"Python {sys.version.split()[0]}; {args.tables} tables × {args.rounds_per_hour} rounds an "
                  f"hour × {args.days} days = {rounds:,} rounds, written in {written_s:.0f} s; {count:,} "
                  f"floor buckets, {used / 1e6:.1f} MB of Redis memory ({per_day:.1f} kB per table-day)\n")
            print("| view | window | buckets | rounds | median ms | worst ms | process CPU ms per call |")
            print("|---|---|---|---:|---:|---:|---:|")
            for row in await _answers(redis, server.url, Path(name), table_ids[0], args.calls):
                print(row)
            print()
            for line in await _commit_cost(redis, args.commit_rounds, args.repeat):
                print(line)
        finally:
            await redis.aclose()


if __name__ == "__main__":
    asyncio.run(main())
