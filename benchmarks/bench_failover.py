"""Failover under Sentinel, measured on loopback with real processes (``paigow_server.testing_sentinel``).

1. What waiting for a replica costs per commit: ``TableRepo.commit`` of the same command (a player sitting
   down and leaving, over and over) with and without ``Durability(replica_acks=1)`` against one primary
   with one replica, the two kinds interleaved so that a busy machine disturbs both alike. Reported: p50 and
   p99 of each and the difference of the medians.
2. How long a failover stops play: a primary, ``--replicas`` (2) replicas and three sentinels (down-after
   1 s), two ``paigow serve`` processes, bots at ``--tables`` tables; the primary SIGKILLed mid-round, later
   the new primary SIGSTOPped for 5 s. Reported: seconds until the sentinels agree on a new primary, and
   until every table has committed again (play resumed), from the fault.

    python benchmarks/bench_failover.py [--commits 400] [--tables 2] [--replicas 2]
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import statistics
import tempfile
import time
from pathlib import Path

from paigow.table.commands import Leave, Sit
from paigow.table.machine import apply
from paigow.table.state import new_table
from paigow_server.bots.player import Behaviour
from paigow_server.bots.run import BotsConfig, run_bots
from paigow_server.process.embedded_redis import EmbeddedRedis
from paigow_server.process.redis_client import redis_from_url
from paigow_server.store.accounts import Accounts
from paigow_server.store.durability import Durability
from paigow_server.store.tables import CommitResult, TableRepo
from paigow_server.testing import ServerProcess
from paigow_server.testing_checks import play_resumed, table_versions, wait_for_round_in_play
from paigow_server.testing_sentinel import SentinelTopology

TOKEN = "bench-failover-operator-token-0123456789"


def _ms(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


async def commit_cost(folder: Path, commits: int) -> None:
    with EmbeddedRedis(folder / "primary") as primary, \
            EmbeddedRedis(folder / "replica", extra_args=("--replicaof", "127.0.0.1", str(primary.port))):
        client = redis_from_url(primary.url, decode_responses=True)
        while (await client.info("replication")).get("connected_slaves", 0) < 1:  # noqa: ASYNC110
            await asyncio.sleep(0.05)
        repos = {0: TableRepo(client), 1: TableRepo(client, durability=Durability(replica_acks=1))}
        player = (await Accounts(client, starting_balance_cents=10**9).create("Bench")).player_id
        table = new_table(await repos[0].next_id(), "Bench")
        await repos[0].create(table)
        times: dict[int, list[float]] = {0: [], 1: []}
        for i in range(commits):
            acks = i % 2
            before = await repos[0].load(table.table_id)
            assert before is not None
            command = Sit(player, "B", 1, 1_000) if before.seats[1] is None else Leave(player)
            after, events = apply(before, command, seed=secrets.token_bytes(32))
            started = time.perf_counter()
            assert await repos[acks].commit(before, after, events) is CommitResult.OK
            times[acks].append(time.perf_counter() - started)
        await client.aclose()
    print(f"commit of a sit or leave, {commits // 2} of each kind, interleaved (primary + 1 replica, "
          "loopback)")
    print(f"{'':<28}{'p50 ms':>8}{'p99 ms':>8}")
    for acks, label in ((0, "no wait"), (1, "WAIT 1 (replica_acks=1)")):
        print(f"{label:<28}{_ms(times[acks], 0.5):>8.2f}{_ms(times[acks], 0.99):>8.2f}")
    print(f"cost of the wait, difference of the medians: "
          f"{(statistics.median(times[1]) - statistics.median(times[0])) * 1000:.2f} ms per commit")


async def failover_times(folder: Path, tables: int, replicas: int) -> None:
    topology = SentinelTopology(folder / "redis", replicas=replicas)
    processes: list[ServerProcess] = []
    try:
        await asyncio.to_thread(topology.start)
        processes = [ServerProcess(data_dir=folder / f"server{i}", redis_url=topology.url,
                                   operator_token=TOKEN) for i in range(2)]
        await asyncio.gather(*(asyncio.to_thread(p.start) for p in processes))
        client = redis_from_url(topology.url, decode_responses=True)
        config = BotsConfig(url=processes[0].url, operator_token=TOKEN, tables=tables, players_per_table=3,
                            spectators=1, rounds=40, seed=7, timeout_s=120.0,
                            behaviour=Behaviour(bank_rate=0.3, drop_rate=0.0, bad_input_rate=0.0),
                            table_urls=tuple(p.ws_url for p in processes))
        run: asyncio.Task[object] = asyncio.create_task(run_bots(config))
        print(f"\nfailover with bots at {tables} tables on two server processes, {replicas} replica(s) "
              "(down-after 1 s)")
        for fault in ("SIGKILL of the primary", "SIGSTOP of the new primary for 5 s"):
            await wait_for_round_in_play(client)
            node = topology.primary()
            before = await table_versions(client)
            struck = time.monotonic()
            if fault.startswith("SIGKILL"):
                await asyncio.to_thread(topology.kill, node)
            else:
                await asyncio.to_thread(topology.pause, node)
            await asyncio.to_thread(topology.wait_for_primary, other_than=node.port)
            promoted = time.monotonic() - struck
            resumed = await play_resumed(client, before, struck, over=run.done, within=120)
            print(f"{fault:<38} new primary after {promoted:4.1f} s, every table committing again after "
                  f"{resumed:4.1f} s")
            if fault.startswith("SIGKILL"):
                await asyncio.to_thread(topology.restart, node)
            else:
                await asyncio.sleep(max(0.0, 5.0 - (time.monotonic() - struck)))
                await asyncio.to_thread(topology.resume, node)
            await asyncio.to_thread(topology.wait_for_replica, node)
        run.cancel()
        await client.aclose()
    finally:
        for process in processes:
            process.kill()
        topology.stop()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commits", type=int, default=400)
    parser.add_argument("--tables", type=int, default=2)
    parser.add_argument("--replicas", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        await commit_cost(Path(folder) / "cost", args.commits)
        await failover_times(Path(folder) / "failover", args.tables, args.replicas)


if __name__ == "__main__":
    asyncio.run(main())
