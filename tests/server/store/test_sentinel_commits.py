"""Confirmed commits against a real primary and replica (``store/durability.py``): a commit is answered
``OK`` and published only once the replica holds it; one the replica does not acknowledge (frozen) is
``UNCONFIRMED``, published to nobody, and the service answers it with the ``UNCONFIRMED`` code; a primary
with ``min-replicas-to-write`` and no replica writes nothing. And the pub/sub probe drops a listener that
is subscribed somewhere the publications no longer go."""

from __future__ import annotations

import asyncio
import os
import secrets
import signal
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import redis
from redis.asyncio import Redis

from paigow.protocol.codes import ErrorCode
from paigow.table.commands import Leave, Sit
from paigow.table.machine import apply
from paigow.table.state import new_table
from paigow_server.process.embedded_redis import EmbeddedRedis
from paigow_server.process.metrics import Metrics
from paigow_server.process.redis_client import redis_from_url
from paigow_server.process.replica_guard import ReplicaGuard
from paigow_server.realtime.pubsub_probe import PubSubProbe
from paigow_server.realtime.tables import TableService, UnconfirmedError
from paigow_server.store import keys
from paigow_server.store.accounts import Accounts
from paigow_server.store.channels import Channels
from paigow_server.store.durability import Durability
from paigow_server.store.money import ledger_mismatches, money_totals
from paigow_server.store.primary_config import PrimaryConfig
from paigow_server.store.tables import CommitResult, TableRepo
from support.commits import commit_now


@pytest.fixture
def pair(tmp_path: Path) -> Iterator[tuple[EmbeddedRedis, EmbeddedRedis]]:
    """A primary and its replica, in sync."""
    primary = EmbeddedRedis(tmp_path / "primary")
    primary.start()
    replica = EmbeddedRedis(tmp_path / "replica", extra_args=("--replicaof", "127.0.0.1", str(primary.port)))
    try:
        replica.start()
        client = redis.Redis(port=primary.port, socket_timeout=5)
        deadline = time.monotonic() + 20
        while client.set("sync", "1") and client.wait(1, 200) < 1:
            assert time.monotonic() < deadline, "the replica never came in sync"
        client.close()
        yield primary, replica
    finally:
        if replica.pid is not None:
            os.kill(replica.pid, signal.SIGCONT)
        replica.stop()
        primary.stop()


@pytest.fixture
async def primary_client(pair: tuple[EmbeddedRedis, EmbeddedRedis]) -> AsyncIterator[Redis]:
    client = redis_from_url(pair[0].url, decode_responses=True)
    yield client
    await client.aclose()


async def _table(repo: TableRepo, redis_client: Redis) -> tuple[str, str]:
    """A new table and a player with money: (table id, player id)."""
    accounts = Accounts(redis_client, starting_balance_cents=100_000)
    player = await accounts.create(f"P{secrets.token_hex(3)}")
    table = new_table(await repo.next_id(), "Confirmed")
    assert await repo.create(table)
    return table.table_id, player.player_id


async def _sit(repo: TableRepo, table_id: str, player_id: str, seat: int) -> tuple[CommitResult, int]:
    before = await repo.load(table_id)
    assert before is not None
    after, events = apply(before, Sit(player_id=player_id, name="P", seat=seat, buy_in_cents=10_000),
                          seed=secrets.token_bytes(32))
    return await repo.commit(commit_now(before, after, events)), after.version


async def _published(client: Redis, channel: str, action: asyncio.Future[object]) -> list[str]:
    """What ``channel`` carried while ``action`` ran, and half a second after."""
    pubsub = client.pubsub(ignore_subscribe_messages=True)
    await pubsub.subscribe(channel)
    await pubsub.get_message(timeout=0.2)
    await action
    got: list[str] = []
    give_up = time.monotonic() + 0.5
    while time.monotonic() < give_up:
        message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=0.1)
        if message is not None and message["type"] == "message":
            got.append(str(message["data"]))
    await pubsub.aclose()  # type: ignore[no-untyped-call]
    return got


async def test_a_commit_is_ok_and_published_once_the_replica_holds_it(
        pair: tuple[EmbeddedRedis, EmbeddedRedis], primary_client: Redis) -> None:
    repo = TableRepo(primary_client, durability=Durability(replica_acks=1, ack_timeout_ms=2_000))
    table_id, player_id = await _table(repo, primary_client)
    outcome: list[tuple[CommitResult, int]] = []

    async def sit() -> None:
        outcome.append(await _sit(repo, table_id, player_id, seat=1))

    published = await _published(primary_client, keys.table_channel(table_id), asyncio.ensure_future(sit()))
    result, version = outcome[0]
    assert result is CommitResult.OK
    assert [f'{{"version":{version},' in text for text in published] == [True]
    replica = redis.Redis(port=pair[1].port, decode_responses=True)
    try:
        assert replica.hget(keys.table(table_id), "version") == str(version), "the replica holds it"
    finally:
        replica.close()


@pytest.mark.failover
async def test_a_commit_no_replica_acknowledges_is_unconfirmed_and_shown_to_nobody(
        pair: tuple[EmbeddedRedis, EmbeddedRedis], primary_client: Redis) -> None:
    repo = TableRepo(primary_client, durability=Durability(replica_acks=1, ack_timeout_ms=300))
    table_id, player_id = await _table(repo, primary_client)
    replica = pair[1]
    assert replica.pid is not None
    os.kill(replica.pid, signal.SIGSTOP)  # frozen: it acknowledges nothing
    outcome: list[tuple[CommitResult, int]] = []

    async def sit() -> None:
        outcome.append(await _sit(repo, table_id, player_id, seat=1))

    published = await _published(primary_client, keys.table_channel(table_id), asyncio.ensure_future(sit()))
    assert outcome[0][0] is CommitResult.UNCONFIRMED
    assert published == [], "an unconfirmed commit is published to nobody"
    other = await Accounts(primary_client, starting_balance_cents=100_000).create("Other")
    service = TableService(repo, Metrics())
    with pytest.raises(UnconfirmedError) as raised:
        await service.execute(table_id, Sit(player_id=other.player_id, name="O", seat=2, buy_in_cents=10_000))
    assert raised.value.code is ErrorCode.UNCONFIRMED
    assert "may or may not have taken effect" in raised.value.message


@pytest.mark.failover
async def test_a_primary_that_requires_a_replica_writes_nothing_without_one(
        pair: tuple[EmbeddedRedis, EmbeddedRedis], primary_client: Redis) -> None:
    repo = TableRepo(primary_client, durability=Durability(replica_acks=1, ack_timeout_ms=300))
    table_id, player_id = await _table(repo, primary_client)
    await primary_client.config_set("min-replicas-to-write", 1)
    await primary_client.config_set("min-replicas-max-lag", 1)
    pair[1].kill()
    deadline = time.monotonic() + 10
    while (await primary_client.info("replication")).get("min_slaves_good_slaves") != 0:
        assert time.monotonic() < deadline, "the primary never noticed its replica was gone"
        await asyncio.sleep(0.05)
    before = await repo.version(table_id)
    with pytest.raises(redis.ResponseError, match="NOREPLICAS"):
        await _sit(repo, table_id, player_id, seat=1)
    assert await repo.version(table_id) == before, "the refused commit wrote nothing"


async def test_the_probe_drops_a_listener_subscribed_where_the_publications_no_longer_go(
        pair: tuple[EmbeddedRedis, EmbeddedRedis], tmp_path: Path) -> None:
    with EmbeddedRedis(tmp_path / "elsewhere") as elsewhere:
        stale = redis_from_url(elsewhere.url, decode_responses=True)
        current = redis_from_url(pair[0].url, decode_responses=True)
        try:
            subscription = Channels(stale).subscription()
            probe = PubSubProbe(Channels(current), subscription, "test listener", every_s=0.0)
            await probe.start()
            assert await probe.check() is True, "PUBLISH on the primary reached nobody: dropped"
            assert probe.dropped == 1
            await subscription.close()
            healthy = Channels(current).subscription()
            probe = PubSubProbe(Channels(current), healthy, "test listener", every_s=0.0)
            await probe.start()
            assert await probe.check() is False
            heard = False
            for _ in range(20):
                heard = probe.heard(await healthy.receive(0.1)) or heard
            assert heard, "the probe's own message came back"
            assert await probe.check() is False
            assert probe.dropped == 0
            await healthy.close()
        finally:
            await stale.aclose()
            await current.aclose()


@pytest.mark.failover
async def test_readers_stop_at_the_confirmed_version_until_a_replica_holds_the_rest(
        pair: tuple[EmbeddedRedis, EmbeddedRedis], primary_client: Redis) -> None:
    """Issue 21: an unconfirmed commit (a cash-out) stays on the primary; the snapshot, the versions, the
    catch-up from the log, the money and the outbox sweep go as far as a replica holds the table, until
    a replica holds the rest (``repair``, as the fanout's check runs it): then it is visible, and its
    chips reach the balance."""
    repo = TableRepo(primary_client, durability=Durability(replica_acks=1, ack_timeout_ms=300))
    table_id, player_id = await _table(repo, primary_client)
    accounts = Accounts(primary_client, starting_balance_cents=100_000)
    other = (await accounts.create("Other")).player_id
    assert (await _sit(repo, table_id, player_id, seat=1))[0] is CommitResult.OK
    result, held = await _sit(repo, table_id, other, seat=2)
    assert result is CommitResult.OK
    replica = pair[1]
    assert replica.pid is not None
    os.kill(replica.pid, signal.SIGSTOP)
    try:
        before = await repo.load(table_id)
        assert before is not None
        after, events = apply(before, Leave(other), seed=secrets.token_bytes(32))
        assert await repo.commit(commit_now(before, after, events)) is CommitResult.UNCONFIRMED
        assert await repo.version(table_id) == after.version, "the primary keeps it: the writer goes on"
        shown = await repo.shown.load(table_id)
        assert shown is not None
        assert shown.version == held
        assert [p.player_id for p in shown.seats if p is not None] == [player_id, other]
        assert await repo.shown.versions([table_id]) == [held], "the repair finds no replica: still held"
        caught_up = await repo.shown.events_since(table_id, held - 1)
        assert caught_up is not None
        assert [c.version for c in caught_up] == [held]
        assert await repo.shown.events_since(table_id, held) == []
        await repo.sweep()
        assert await accounts.balance(other) == 90_000, "the unconfirmed cash-out is not delivered"
        totals = await money_totals(primary_client)
        assert totals.balanced, totals
        assert totals.chips_at_tables_cents == 20_000, "counted as a replica holds the table"
    finally:
        os.kill(replica.pid, signal.SIGCONT)
    client = redis.Redis(port=replica.port, decode_responses=True)
    deadline = time.monotonic() + 20
    while client.hget(keys.table(table_id), "version") != str(after.version):
        assert time.monotonic() < deadline, "the replica never caught up"
        await asyncio.sleep(0.05)
    client.close()
    assert await repo.shown.versions([table_id]) == [after.version], "a replica holds it now: shown"
    shown = await repo.shown.load(table_id)
    assert shown is not None
    assert shown.version == after.version
    await repo.sweep()
    assert await accounts.balance(other) == 100_000, "and its chips reach the balance"
    totals = await money_totals(primary_client)
    assert totals.balanced, totals
    assert totals.chips_at_tables_cents == 10_000


@pytest.mark.failover
async def test_a_confirmed_commit_delivers_what_an_unconfirmed_one_before_it_left_then_is_published(
        pair: tuple[EmbeddedRedis, EmbeddedRedis], primary_client: Redis) -> None:
    """One Redis under ``Durability`` (``direct_commit``): a cash-out no replica acknowledged waits in the
    outbox; the table's next commit, once a replica holds it, finds its own entry not next in turn, so the
    earlier one is delivered first, then its own, and only then is it published."""
    repo = TableRepo(primary_client, durability=Durability(replica_acks=1, ack_timeout_ms=300))
    assert repo.direct
    table_id, player_id = await _table(repo, primary_client)
    accounts = Accounts(primary_client, starting_balance_cents=100_000)
    other = (await accounts.create("Other")).player_id
    assert (await _sit(repo, table_id, player_id, seat=1))[0] is CommitResult.OK
    assert (await _sit(repo, table_id, other, seat=2))[0] is CommitResult.OK
    assert await accounts.balance(other) == 90_000
    replica = pair[1]
    assert replica.pid is not None
    os.kill(replica.pid, signal.SIGSTOP)
    try:
        before = await repo.load(table_id)
        assert before is not None
        after, events = apply(before, Leave(other), seed=secrets.token_bytes(32))
        assert await repo.commit(commit_now(before, after, events)) is CommitResult.UNCONFIRMED
        assert await accounts.balance(other) == 90_000, "not delivered before a replica holds it"
    finally:
        os.kill(replica.pid, signal.SIGCONT)
    outcome: list[CommitResult] = []

    async def leave() -> None:
        current = await repo.load(table_id)
        assert current is not None
        later, events = apply(current, Leave(player_id), seed=secrets.token_bytes(32))
        outcome.append(await repo.commit(commit_now(current, later, events)))

    published = await _published(primary_client, keys.table_channel(table_id), asyncio.ensure_future(leave()))
    assert outcome == [CommitResult.OK]
    assert len(published) == 1
    assert await accounts.balance(other) == 100_000, "the earlier cash-out, delivered first"
    assert await accounts.balance(player_id) == 100_000
    assert await primary_client.llen(keys.table_outbox(table_id)) == 0
    totals = await money_totals(primary_client)
    assert totals.balanced, totals
    assert totals.chips_at_tables_cents == 0
    assert await ledger_mismatches(primary_client) == []


async def test_the_guard_says_when_the_primary_takes_writes_without_a_replica(tmp_path: Path) -> None:
    """``min-replicas-to-write`` 0 is warned about, in the metric and the health answer; a Redis that
    refuses ``CONFIG`` makes it unknown; without replica acknowledgements nothing is asked."""
    with EmbeddedRedis(tmp_path / "plain") as plain, \
            EmbeddedRedis(tmp_path / "managed", extra_args=("--rename-command", "CONFIG", '""')) as managed:
        for node, said in ((plain, 0), (managed, "unknown")):
            client = redis_from_url(node.url, decode_responses=True)
            metrics = Metrics()
            guard = ReplicaGuard(PrimaryConfig(client).min_replicas_to_write, metrics, replica_acks=1)
            await guard.check()
            health = guard.health()
            assert health is not None
            assert health["min_replicas_to_write"] == said
            assert "min-replicas-to-write is" in str(health["warning"])
            assert metrics.registry.get_sample_value("paigow_redis_min_replicas_to_write") == (
                0 if said == 0 else -1)
            if said == 0:
                await client.config_set("min-replicas-to-write", 1)
                await guard.check()
                assert guard.health() == {"replica_acks": 1, "min_replicas_to_write": 1, "warning": None}
            off = ReplicaGuard(PrimaryConfig(client).min_replicas_to_write, Metrics(), replica_acks=0)
            await off.check()
            assert off.health() is None
            await guard.stop()
            await client.aclose()
