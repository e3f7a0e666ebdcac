"""Failover under Sentinel, measured on loopback with real processes (``support.sentinel``).

1. What waiting for a replica costs per commit: ``TableRepo.commit`` of the same command (a player sitting
   down and leaving, over and over) with and without ``Durability(replica_acks=1)`` against one primary
   with one replica, the two kinds interleaved so that a busy machine disturbs both alike. Reported: p50 and
   p99 of each and the difference of the medians.
2. What a failover shows and costs, in two topologies: two replicas with ``min-replicas-to-write 1`` (as
   deploy/ configures them) and one replica without it (a deployment that missed that line, issue 21).
   Each: three sentinels (down-after 1 s), two ``paigow serve`` processes, bots (two players) at
   ``--tables`` tables and a spectator per table on each process (``Witness``: every version it is shown,
   and when); the primary SIGKILLed, or SIGSTOPped for 5 s, mid-round, on a fresh topology per line. With
   one replica the promoted node runs without a replica for 8 s before the old one is back as its
   replica. Reported: seconds until the sentinels agree on a new primary and until every table has
   committed again (from the fault); versions shown to a spectator before a replica held them (a sampler
   reads every node's role and versions every 20 ms; a version counts as held if a replica's sample had
   it within 50 ms after it was shown); accepted commands missing from the final log; versions shown with
   other events than the final log keeps; rounds settled twice; whether money and ledger balance.

    python benchmarks/bench_failover.py [--commits 400] [--tables 1]   (--commits 0: skip part 1)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import secrets
import statistics
import tempfile
import threading
import time
from collections.abc import Awaitable
from dataclasses import dataclass
from pathlib import Path

import redis

import harness_path  # noqa: F401  (puts tests/ on sys.path: the harness, support)
from paigow.protocol.projection import SPECTATOR
from paigow.table.commands import Leave, Sit
from paigow.table.commit import VersionedEvents
from paigow.table.machine import apply
from paigow.table.state import new_table
from paigow_server.bots.player import Behaviour
from paigow_server.bots.run import BotsConfig, run_bots
from paigow_server.process.embedded_redis import EmbeddedRedis
from paigow_server.process.redis_client import redis_from_url
from paigow_server.store import keys
from paigow_server.store.accounts import Accounts
from paigow_server.store.durability import Durability
from paigow_server.store.tables import CommitResult, TableRepo
from support.checks import (
    assert_money_and_ledger_intact,
    assert_rounds_settled_once,
    play_resumed,
    table_versions,
    wait_for_round_in_play,
)
from support.commits import commit_now
from support.harness import ServerProcess
from support.sentinel import SentinelTopology
from support.witness import Witness

TOKEN = "bench-failover-operator-token-0123456789"
UNHELD_S = 8.0
SAMPLE_SLACK_S = 0.1
"""A version shown at most this long before a replica's first sample of it counts as held (sampling)."""


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
            assert await repos[acks].commit(commit_now(before, after, events)) is CommitResult.OK
            times[acks].append(time.perf_counter() - started)
        await client.aclose()
    print(f"commit of a sit or leave, {commits // 2} of each kind, interleaved (primary + 1 replica, "
          "loopback)")
    print(f"{'':<28}{'p50 ms':>8}{'p99 ms':>8}")
    for acks, label in ((0, "no wait"), (1, "WAIT 1 (replica_acks=1)")):
        print(f"{label:<28}{_ms(times[acks], 0.5):>8.2f}{_ms(times[acks], 0.99):>8.2f}")
    print(f"cost of the wait, difference of the medians: "
          f"{(statistics.median(times[1]) - statistics.median(times[0])) * 1000:.2f} ms per commit")


class Sampler:
    """Each data node's role and version of each table, every 10 ms, one thread and connection per node
    (a frozen node slows only its own): when a replica first held each version (``held_at``)."""

    def __init__(self, topology: SentinelTopology, table_ids: list[str]) -> None:
        self.table_ids = table_ids
        self.held_at: dict[tuple[str, int], float] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._threads = [threading.Thread(target=self._run, args=(node.port,), daemon=True)
                         for node in topology.nodes]
        for thread in self._threads:
            thread.start()

    def _run(self, port: int) -> None:
        client = redis.Redis(port=port, socket_timeout=0.2, socket_connect_timeout=0.2, decode_responses=True)
        while not self._stop.wait(0.01):
            try:
                role = str(client.execute_command("ROLE")[0])  # type: ignore[no-untyped-call]
                versions = [client.hget(keys.table(t), "version") for t in self.table_ids]
            except (redis.RedisError, OSError):
                continue
            if role != "slave":
                continue
            now = time.monotonic()
            with self._lock:
                for table_id, version in zip(self.table_ids, versions, strict=True):
                    for held in range(-1 if version is None else int(str(version)), -1, -1):
                        if self.held_at.setdefault((table_id, held), now) != now:
                            break
        client.close()

    def stop(self) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join()


@dataclass
class Outcome:
    promoted_s: float
    resumed_s: float
    shown_unheld: int
    worst_s: float
    """The longest a version was shown before a replica held it (0: never)."""
    lost: int
    reused: int
    settled_twice: int
    money: str


async def _count(check: Awaitable[object]) -> int:
    try:
        await check
    except AssertionError:
        return 1
    return 0


def _reused(witness: Witness, logs: dict[str, list[VersionedEvents]]) -> int:
    """Versions this spectator was shown with other events than the final log keeps (or not kept)."""
    updates = {commit.version: commit.views for commit in logs[witness.table_id]}
    bad = 0
    for seen in witness.seen:
        events: list[object] = []
        for version in range(seen.since + 1, seen.version + 1):
            views = updates.get(version)
            if views is None:
                bad += 1
                continue
            events += json.loads(views[SPECTATOR])["events"]
        bad += events != seen.events and all(updates.get(v) for v in range(seen.since + 1, seen.version + 1))
    return bad


async def scenario(folder: Path, *, replicas: int, min_replicas: int, fault: str, tables: int) -> Outcome:
    """One topology, one fault of the primary mid-round; the counts over the whole run."""
    topology = SentinelTopology(folder / "redis", replicas=replicas, min_replicas_to_write=min_replicas)
    processes: list[ServerProcess] = []
    witnesses: list[Witness] = []
    try:
        await asyncio.to_thread(topology.start)
        processes = [ServerProcess(data_dir=folder / f"server{i}", redis_url=topology.url,
                                   operator_token=TOKEN) for i in range(2)]
        await asyncio.gather(*(asyncio.to_thread(p.start) for p in processes))
        client = redis_from_url(topology.url, decode_responses=True)
        config = BotsConfig(url=processes[0].url, operator_token=TOKEN, tables=tables, players_per_table=2,
                            spectators=0, rounds=4, seed=7, timeout_s=150.0,
                            behaviour=Behaviour(bank_rate=0.3, drop_rate=0.0, bad_input_rate=0.0),
                            table_urls=tuple(p.ws_url for p in processes))
        run = asyncio.create_task(run_bots(config))
        repo = TableRepo(client)
        while len(table_ids := await repo.list_ids()) < tables:  # noqa: ASYNC110
            await asyncio.sleep(0.05)
        sampler = Sampler(topology, table_ids)  # before any spectator is shown anything
        await asyncio.sleep(0.2)
        bases = [p.ws_url for p in processes]
        witnesses = [Witness(bases[i:] + bases[:i], t) for t in table_ids for i in range(2)]
        for witness in witnesses:
            witness.start()
        await wait_for_round_in_play(client)
        node = topology.primary()
        before = await table_versions(client)
        struck = time.monotonic()
        await asyncio.to_thread(topology.kill if fault == "SIGKILL" else topology.pause, node)
        await asyncio.to_thread(topology.wait_for_primary, other_than=node.port)
        promoted = time.monotonic() - struck
        if replicas == 1:  # the promoted node has no replica until the old one is back
            await asyncio.sleep(UNHELD_S)
            resumed = 0.0
        else:
            resumed = await play_resumed(client, before, struck, over=run.done, within=120)
            await asyncio.sleep(max(0.0, 5.0 - (time.monotonic() - struck)))
        await asyncio.to_thread(topology.restart if fault == "SIGKILL" else topology.resume, node)
        await asyncio.to_thread(topology.wait_for_replica, node)
        if replicas == 1:
            resumed = await play_resumed(client, before, struck, over=run.done, within=120)
        result = await run
        await asyncio.sleep(1.0)  # the last pushes
        await asyncio.to_thread(sampler.stop)
        for witness in witnesses:
            await witness.stop()
        logs = {t: await repo.event_log(t) for t in table_ids}
        kept = {(t, c.version) for t, log in logs.items() for c in log}
        end = time.monotonic()
        gaps = [sampler.held_at.get((w.table_id, v), end) - at
                for w in witnesses for v, at in w.shown_at.items()]
        unheld = sum(1 for gap in gaps if gap > SAMPLE_SLACK_S)
        lost = len(set(result.stats.accepted_versions) - kept)
        twice = await _count(assert_rounds_settled_once(client))
        money = "balanced" if not await _count(assert_money_and_ledger_intact(client, result)) else "NOT"
        await client.aclose()
        reused = sum(_reused(w, logs) for w in witnesses)
        return Outcome(promoted, resumed, unheld, max([0.0, *gaps]), lost, reused, twice, money)
    finally:
        for witness in witnesses:
            await witness.stop()
        for process in processes:
            process.kill()
        await asyncio.to_thread(topology.stop)


async def failover_counts(folder: Path, tables: int) -> None:
    print(f"\nfailover: bots (2 players) at {tables} table(s) on two server processes, a spectator on each "
          "process per table, down-after 1 s; one fresh topology per line")
    print(f"{'topology':<34}{'fault':<9}{'promoted s':>11}{'resumed s':>10}{'after prom.':>12}"
          f"{'unheld':>7}{'worst s':>8}{'lost':>5}{'reused':>7}{'twice':>6}  money")
    for replicas, min_replicas in ((2, 1), (1, 0)):
        for fault in ("SIGKILL", "SIGSTOP"):
            name = f"{replicas} replica(s), min-replicas-to-write {min_replicas} "
            out = await scenario(folder / f"{replicas}-{min_replicas}-{fault}", replicas=replicas,
                                 min_replicas=min_replicas, fault=fault, tables=tables)
            print(f"{name:<34}{fault:<9}{out.promoted_s:>11.1f}{out.resumed_s:>10.1f}"
                  f"{out.resumed_s - out.promoted_s:>12.1f}{out.shown_unheld:>7}{out.worst_s:>8.2f}"
                  f"{out.lost:>5}{out.reused:>7}{out.settled_twice:>6}  {out.money}", flush=True)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commits", type=int, default=400)
    parser.add_argument("--tables", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        if args.commits:
            await commit_cost(Path(folder) / "cost", args.commits)
        await failover_counts(Path(folder) / "failover", args.tables)


if __name__ == "__main__":
    asyncio.run(main())
