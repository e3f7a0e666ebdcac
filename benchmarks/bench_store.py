"""Redis persistence speed: ``TableRepo.commit`` (the Lua compare-and-set with its money and history
effects) and ``load``, against a private redis-server with the append-only file on, as ``paigow serve``
runs it.

Six players per table play house-banked rounds (bets, House Way, settlement) on ``--tables`` tables, the
tables' commands interleaved by ``--concurrency`` asyncio tasks; every command is load -> apply -> commit with
each kind of viewer's update (protocol 2's projection), as ``TableService`` does. Reported: commits per
second, and per-command wall time of the load and of the commit (p50, p99), with settlements (ledger, history,
rounds) shown apart, and the bytes that went into Redis (``INFO stats``: ``total_net_input_bytes``, what the
clients sent: the commits' states, logs, effects...) and out of it per settled round, from the first command
on (the tables' creation included), and the Redis commands per commit (``INFO commandstats``: each command's
calls, those a script makes included), the bench process's CPU time per commit, and the round trips per
commit (what the client sent: each command or pipeline is one; the bench's own loads, one ``HGET`` each, and
the tables' and players' creation are counted apart).

    python benchmarks/bench_store.py [--tables 20] [--rounds 10] [--concurrency 20] [--replica [--acks 1]]

``--replica`` attaches a replica to the Redis; ``--acks 1`` makes every commit wait for its acknowledgement
(``WAIT``, as ``paigow serve`` does under Sentinel: ``store/durability.py``), so the two runs side by side
give what that durability costs per commit.
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import statistics
import tempfile
import time
from collections import Counter, defaultdict
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from redis.asyncio import Redis
from redis.asyncio.connection import AbstractConnection

from paigow.protocol.projection import Seen
from paigow.table.commands import Command, DeclineBank, PlaceBet, Sit, Tick, UseHouseWay
from paigow.table.commit import decide_commit
from paigow.table.events import RoundSettled
from paigow.table.machine import next_deadline
from paigow.table.state import Phase, Timers, new_table
from paigow_server.process.embedded_redis import EmbeddedRedis
from paigow_server.store.accounts import Accounts
from paigow_server.store.durability import Durability
from paigow_server.store.tables import CommitResult, TableRepo

TIMERS = Timers(between_rounds_ms=0)
SENDS: Counter[str] = Counter()
"""Every write of one or more commands to Redis (one round trip each), from ``AbstractConnection``, by what
was being done (``DOING``): ``commit``, ``load`` or ``setup`` (the tables and players made)."""
DOING: ContextVar[str] = ContextVar("doing", default="setup")


def _count_sends() -> None:
    send = AbstractConnection.send_packed_command

    async def counted(self: AbstractConnection, command: Any, check_health: bool = True) -> None:
        SENDS[DOING.get()] += 1
        await send(self, command, check_health)

    AbstractConnection.send_packed_command = counted  # type: ignore[method-assign]


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


async def _table(repo: TableRepo, accounts: Accounts, rounds: int, timings: dict[str, list[float]]) -> int:
    state = new_table(await repo.next_id(), "Bench", timers=TIMERS)
    await repo.create(state)
    players = [(await accounts.create(f"P{i}")).player_id for i in range(6)]
    now = 1_000_000
    commits = 0
    seen: Seen | None = None

    async def do(command: Command) -> None:
        nonlocal commits, seen
        started = time.perf_counter()
        doing = DOING.set("load")
        before = await repo.load(state.table_id)
        DOING.reset(doing)
        loaded = time.perf_counter()
        assert before is not None
        commit = decide_commit(before, command, seed=secrets.token_bytes(32), now_ms=now, seen=seen)
        if commit is None:
            return
        seen = commit.seen  # what TableService writes with it
        events = commit.events
        applied = time.perf_counter()
        doing = DOING.set("commit")
        assert await repo.commit(commit) is CommitResult.OK
        DOING.reset(doing)
        done = time.perf_counter()
        kind = "commit (settlement)" if any(isinstance(e, RoundSettled) for e in events) else "commit"
        timings["load"].append(loaded - started)
        timings[kind].append(done - applied)
        commits += 1

    for seat, player in enumerate(players, start=1):
        await do(Sit(player, f"P{seat}", seat, 50_000))
    for _ in range(rounds):
        for _ in range(20):
            doing = DOING.set("load")
            current = await repo.load(state.table_id)
            DOING.reset(doing)
            assert current is not None
            if current.phase == Phase.BETTING:
                break
            if current.phase == Phase.BANK_OFFER and current.round and current.round.offer_player_id:
                await do(DeclineBank(current.round.offer_player_id))
                continue
            now = max(now, next_deadline(current) or now)
            await do(Tick(now))
        for player in players:
            await do(PlaceBet(player, 500))
        await do(Tick(now))  # stamps the setting deadline
        for player in players:
            await do(UseHouseWay(player))
    return commits


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--concurrency", type=int, default=20)
    parser.add_argument("--replica", action="store_true", help="attach a replica to the Redis")
    parser.add_argument("--acks", type=int, default=0, help="replicas each commit waits for (WAIT)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder, EmbeddedRedis(Path(folder) / "primary") as server, \
            EmbeddedRedis(Path(folder) / "replica",
                          extra_args=("--replicaof", "127.0.0.1", str(server.port))) as replica:
        if not args.replica:
            replica.stop()
        redis = Redis.from_url(server.url, decode_responses=True)
        while args.replica and (await redis.info("replication")).get("connected_slaves", 0) < 1:  # noqa: ASYNC110
            await asyncio.sleep(0.05)
        repo = TableRepo(redis, durability=Durability(replica_acks=args.acks))
        accounts = Accounts(redis, starting_balance_cents=1_000_000)
        timings: dict[str, list[float]] = defaultdict(list)
        stats_before = await redis.info("stats")
        commands_before = await redis.info("commandstats")
        gate = asyncio.Semaphore(args.concurrency)

        async def one() -> int:
            async with gate:
                return await _table(repo, accounts, args.rounds, timings)

        _count_sends()
        SENDS.clear()
        started, cpu_started = time.perf_counter(), time.process_time()
        commits = sum(await asyncio.gather(*(one() for _ in range(args.tables))))
        elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu_started
        stats = await redis.info("stats")
        commands = await redis.info("commandstats")
        await redis.aclose()
    settled = args.tables * args.rounds
    bytes_in, bytes_out = (stats[k] - stats_before[k] for k in ("total_net_input_bytes",
                                                                 "total_net_output_bytes"))
    print(f"replica: {'yes' if args.replica else 'no'}, acks per commit: {args.acks}")
    print(f"{args.tables} tables x {args.rounds} rounds, {args.concurrency} at once: {commits} commits in "
          f"{elapsed:.2f} s = {commits / elapsed:.0f} commits/s; this process's CPU (load, apply, "
          f"projection, commit; not Redis's): {cpu / commits * 1000:.3f} ms per commit")
    print(f"{'what':<22}{'count':>7}{'p50 ms':>9}{'p99 ms':>9}{'mean ms':>9}")
    for kind in ("load", "commit", "commit (settlement)"):
        values = timings[kind]
        print(f"{kind:<22}{len(values):>7}{_pct(values, 0.5):>9.2f}{_pct(values, 0.99):>9.2f}"
              f"{statistics.fmean(values) * 1000:>9.2f}")
    print(f"Redis bytes per settled round: {bytes_in / settled / 1000:.1f} kB in (written), "
          f"{bytes_out / settled / 1000:.1f} kB out (read)")
    load, setup = (SENDS[doing] / commits for doing in ("load", "setup"))
    print(f"round trips per commit: {SENDS['commit'] / commits:.2f} (besides, per commit: the bench's own "
          f"loads {load:.2f}, the tables' and players' creation {setup:.2f})")
    calls = _calls(commands_before, commands, commits)
    print(f"Redis commands per commit (the load's HGET included): {calls}")


def _calls(before: dict[str, Any], after: dict[str, Any], commits: int) -> str:
    """Each command's calls per commit between two ``INFO commandstats``, most first (``INFO`` left out)."""
    counts = {name.removeprefix("cmdstat_"): int(stat["calls"]) - int(before.get(name, {}).get("calls", 0))
              for name, stat in after.items() if not name.startswith("cmdstat_info")}
    ranked = sorted(((n, c) for n, c in counts.items() if c), key=lambda item: -item[1])
    total = sum(c for _, c in ranked)
    return f"{total / commits:.2f} in all: " + ", ".join(f"{n} {c / commits:.2f}" for n, c in ranked)


if __name__ == "__main__":
    asyncio.run(main())
