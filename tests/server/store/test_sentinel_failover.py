"""Failover under Sentinel, with real processes on loopback: a primary, its replica(s) and three sentinels
(quorum 2, down-after 1 s; ``support.sentinel``), two ``paigow serve`` processes on
``redis+sentinel://``, bot players at two tables spread over both, and spectators (``Witness``) on both
that write down every version they are shown.

- The primary SIGKILLed mid-round: the servers follow the promotion, play resumes, and the killed node,
  started again, comes back as a replica.
- The primary SIGSTOPped for 5 s (a partition, as the primary sees it), then the new primary too: each
  time a replica is promoted while the frozen one still believes it is the primary; it wakes up into a
  world that moved on and is made a replica.

After each run: every command answered ``accepted`` is in the final log, every version a spectator saw
is there with the very events it was shown (no version reused with other events), no round settled twice,
and the money and the ledger agree.

- Without ``min-replicas-to-write`` (one replica, as a deployment that missed that line runs: issue 21):
  the primary SIGKILLed, or SIGSTOPped, mid-round; the promoted node takes writes with no replica for 8 s
  (every one ``UNCONFIRMED``), then the old node comes back as its replica. No spectator, on either
  process — watching from before, resuming with an older version meanwhile, or joining afresh — is shown
  a version the promoted node wrote before a replica could hold it; and both servers' ``/healthz`` said
  that the primary takes writes without a replica.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from redis.asyncio import Redis

from paigow_server.bots.player import Behaviour
from paigow_server.bots.run import BotsConfig, RunResult, run_bots
from paigow_server.process.redis_client import redis_from_url
from paigow_server.store.tables import TableRepo
from support.checks import (
    assert_money_and_ledger_intact,
    assert_rounds_settled_once,
    play_resumed,
    table_versions,
    wait_for_round_in_play,
)
from support.harness import ServerProcess
from support.sentinel import SentinelTopology, node_version
from support.witness import Witness

OPERATOR_TOKEN = "sentinel-test-operator-token-0123456789"
TABLES = 2
UNHELD_S = 8.0
"""How long the promoted node runs without a replica (past the fanout's 5 s check and a resubscription)."""
QUIET = Behaviour(bank_rate=0.3, drop_rate=0.0, bad_input_rate=0.0)


@dataclass
class Rig:
    """The topology, a client that follows it, the two servers, the bots' run and the witnesses."""

    topology: SentinelTopology
    redis: Redis
    processes: list[ServerProcess]
    run: asyncio.Task[RunResult]
    witnesses: list[Witness]
    tables: int = TABLES

    async def finish(self) -> None:
        """Let the bots finish, then check that nothing was lost (``_assert_nothing_lost``)."""
        result = await self.run
        for witness in self.witnesses:
            await witness.stop()
        await _assert_nothing_lost(self.redis, result, self.witnesses, self.tables)


StartRig = Callable[..., Awaitable[Rig]]


@pytest.fixture
async def rig(tmp_path: Path) -> AsyncIterator[StartRig]:
    """``await rig(replicas, rounds, min_replicas=1, tables=2, players=3)``: start the topology and two
    servers on it, start the bots' run and the witnesses; everything is stopped at the end of the test."""
    topologies: list[SentinelTopology] = []
    processes: list[ServerProcess] = []
    rigs: list[Rig] = []

    async def start(replicas: int, rounds: int, *, min_replicas: int = 1, tables: int = TABLES,
                    players: int = 3) -> Rig:
        topology = SentinelTopology(tmp_path / "redis", replicas=replicas, min_replicas_to_write=min_replicas)
        topologies.append(topology)
        await asyncio.to_thread(topology.start)
        redis = redis_from_url(topology.url, decode_responses=True)
        started = [ServerProcess(data_dir=tmp_path / f"server{i}", redis_url=topology.url,
                                 operator_token=OPERATOR_TOKEN) for i in range(2)]
        processes.extend(started)
        await asyncio.gather(*(asyncio.to_thread(p.start) for p in started))
        run = asyncio.create_task(run_bots(_bots(started, rounds, tables, players)))
        made = Rig(topology, redis, started, run, [], tables)
        rigs.append(made)
        made.witnesses = await _witnesses(redis, started, tables)
        return made

    yield start
    for made in rigs:
        made.run.cancel()
        for witness in made.witnesses:
            await witness.stop()
        await made.redis.aclose()
    for process in processes:
        process.kill()
    for topology in topologies:
        await asyncio.to_thread(topology.stop)


def _bots(processes: list[ServerProcess], rounds: int, tables: int, players: int) -> BotsConfig:
    return BotsConfig(url=processes[0].url, operator_token=OPERATOR_TOKEN, tables=tables,
                      players_per_table=players,
                      spectators=0, rounds=rounds, seed=15, timeout_s=100.0, behaviour=QUIET,
                      table_urls=tuple(p.ws_url for p in processes))


async def _witnesses(redis: Redis, processes: list[ServerProcess], tables: int) -> list[Witness]:
    """Two spectators per table, one on each process (each falls back to the other), once the bots'
    tables are open."""
    repo = TableRepo(redis)
    loop = asyncio.get_running_loop()
    give_up = loop.time() + 30
    while len(table_ids := await repo.list_ids()) < tables:
        assert loop.time() < give_up, "the bots opened no tables"
        await asyncio.sleep(0.05)
    bases = [p.ws_url for p in processes]
    witnesses = [Witness(bases[i:] + bases[:i], table_id) for table_id in table_ids for i in range(2)]
    for witness in witnesses:
        witness.start()
    return witnesses


async def _assert_nothing_lost(redis: Redis, result: RunResult, witnesses: list[Witness],
                               tables: int) -> None:
    assert result.completed_tables == tables, result.summary()
    repo = TableRepo(redis)
    logs = {table_id: await repo.event_log(table_id) for table_id in result.table_ids}
    kept = {(table_id, commit.version) for table_id, log in logs.items() for commit in log}
    accepted = set(result.stats.accepted_versions)
    assert accepted, "the bots had commands accepted"
    lost = sorted(accepted - kept)
    assert not lost, f"commands answered accepted but missing from the final log: {lost}"
    checked = 0
    for witness in witnesses:
        checked += witness.check_against(logs[witness.table_id])
    assert checked > 0, "the spectators saw the tables move"
    assert await assert_rounds_settled_once(redis) >= tables
    await assert_money_and_ledger_intact(redis, result)


@pytest.mark.failover
async def test_a_killed_primary_loses_no_accepted_command_and_comes_back_as_a_replica(rig: StartRig) -> None:
    run = await rig(2, 4)  # two replicas: the promoted one still has one, so writes go on at once
    await wait_for_round_in_play(run.redis)
    old = run.topology.primary()
    before = await table_versions(run.redis)
    killed_at = time.monotonic()
    await asyncio.to_thread(run.topology.kill, old)  # mid-round: no flush, no goodbye
    await asyncio.to_thread(run.topology.wait_for_primary, other_than=old.port)
    await play_resumed(run.redis, before, killed_at, over=run.run.done)
    await asyncio.to_thread(run.topology.restart, old)
    await asyncio.to_thread(run.topology.wait_for_replica, old)
    assert run.topology.role(old) == "slave", "the old primary came back as a replica"
    await run.finish()


@pytest.mark.failover
async def test_a_frozen_primary_and_then_a_frozen_new_primary_lose_nothing(rig: StartRig) -> None:
    run = await rig(1, 6)  # one replica: while the frozen primary is away, the promoted one has none
    for _ in range(2):  # the first primary, then the one promoted in its place
        await wait_for_round_in_play(run.redis)
        frozen = run.topology.primary()
        before = await table_versions(run.redis)
        paused_at = time.monotonic()
        await asyncio.to_thread(run.topology.pause, frozen)
        await asyncio.to_thread(run.topology.wait_for_primary, other_than=frozen.port)
        await asyncio.sleep(max(0.0, 5.0 - (time.monotonic() - paused_at)))
        await asyncio.to_thread(run.topology.resume, frozen)  # it still believes it is the primary
        await asyncio.to_thread(run.topology.wait_for_replica, frozen)
        assert run.topology.role(frozen) == "slave"
        await play_resumed(run.redis, before, paused_at, over=run.run.done)
    await run.finish()


class ReplicaWatch:
    """Samples a replica's version of ``table_id`` while it says it is a replica (every 20 ms, in a
    thread): ``held`` is the last version it held by replication, before it was promoted."""

    def __init__(self, port: int, table_id: str) -> None:
        self.port, self.table_id = port, table_id
        self.held = -1
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(0.02):
            role, version = node_version(self.port, self.table_id)
            if role == "slave" and version is not None:
                self.held = max(self.held, version)
            elif role == "master":
                return

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()


async def _strike_without_min_replicas(rig: StartRig, fault: str) -> None:
    """One replica, no ``min-replicas-to-write``, one table, two players and a spectator on each process.
    Strike the primary mid-round (``kill`` or ``pause``); the promoted node runs without a replica for
    ``UNHELD_S``; then the old node comes back as its replica. No version the promoted node wrote is
    shown to a spectator before that moment, and nothing is lost, reused or settled twice."""
    run = await rig(1, 3, min_replicas=0, tables=1, players=2)
    async with httpx.AsyncClient(timeout=5) as http:  # the servers say what the data nodes lack
        answers = [(await http.get(f"{process.url}/healthz")).json() for process in run.processes]
    for answer in answers:
        replicas = answer["replicas"]
        assert replicas["min_replicas_to_write"] == 0
        assert "min-replicas-to-write is 0" in replicas["warning"]
    table_id, _ = await wait_for_round_in_play(run.redis)
    old, (replica,) = run.topology.primary(), run.topology.replicas()
    watch = ReplicaWatch(replica.port, table_id)
    await asyncio.to_thread(getattr(run.topology, fault), old)
    await asyncio.to_thread(run.topology.wait_for_primary, other_than=old.port)
    await asyncio.to_thread(watch.stop)
    assert watch.held >= 0, "the replica held the table before its promotion"
    await asyncio.sleep(UNHELD_S / 2)
    bases = [p.ws_url for p in run.processes]  # a viewer resuming from an older version, and a new one
    late = [Witness(bases[i:] + bases[:i], table_id, version=version)
            for i in range(2) for version in (max(0, watch.held - 1), None)]
    for witness in late:
        witness.start()
    run.witnesses += late
    await asyncio.sleep(UNHELD_S / 2)
    # The promoted node takes commits with no replica: the bots' reconnection may take longer than that half
    # on a loaded machine, so its first commit is awaited (the old node stays out until then).
    give_up = time.monotonic() + 60
    while (promoted := node_version(replica.port, table_id)[1]) is None or promoted <= watch.held:
        assert time.monotonic() < give_up, "the promoted node took no commit with no replica (UNCONFIRMED)"
        await asyncio.sleep(0.25)
    held_again_from = time.monotonic()  # until now no node but the promoted one could hold its versions
    if fault == "kill":
        await asyncio.to_thread(run.topology.restart, old)
    else:
        await asyncio.to_thread(run.topology.resume, old)
    await asyncio.to_thread(run.topology.wait_for_replica, old)
    shown_unheld = {(w.ws_bases[0], v) for w in run.witnesses for v, at in w.shown_at.items()
                    if v > watch.held and at < held_again_from}
    assert not shown_unheld, (f"versions shown to spectators before any replica held them (the replica "
                              f"held up to {watch.held}): {sorted(shown_unheld)}")
    await run.finish()


@pytest.mark.failover
async def test_without_min_replicas_a_killed_primary_shows_nobody_what_no_replica_holds(
        rig: StartRig) -> None:
    await _strike_without_min_replicas(rig, "kill")


@pytest.mark.failover
async def test_without_min_replicas_a_frozen_primary_shows_nobody_what_no_replica_holds(
        rig: StartRig) -> None:
    await _strike_without_min_replicas(rig, "pause")
