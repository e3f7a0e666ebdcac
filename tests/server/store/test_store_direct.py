"""The commit on one Redis (``direct_commit``): one script call per commit writes the table and everything
it causes, buy-ins included; what it stores reads back exactly as the outbox path's, and the money and the
ledger agree after every commit.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
from redis.asyncio import Redis
from redis.asyncio.connection import AbstractConnection

from paigow.table.commands import Command, Leave, Sit
from paigow.table.machine import apply
from paigow.table.state import new_table
from paigow_server.store import keys
from paigow_server.store.accounts import Accounts
from paigow_server.store.direct_commit import state_delta
from paigow_server.store.durability import Durability
from paigow_server.store.history import History
from paigow_server.store.ledger import Ledger
from paigow_server.store.money import ledger_mismatches, money_totals
from paigow_server.store.tables import CommitResult, TableRepo
from support.commits import commit_now
from support.tables import TableDriver

START = 100_000
BUY_IN = 20_000


class SeededDriver(TableDriver):
    """A ``TableDriver`` whose seeds are a counter's: two runs of the same commands deal the same cards."""

    seeds = 0

    async def do(self, command: Command) -> CommitResult:
        before = await self.state()
        self.seeds += 1
        after, events = apply(before, command, seed=hashlib.sha256(str(self.seeds).encode()).digest())
        assert events, f"{command} changed nothing"
        return await self.repo.commit(commit_now(before, after, events, now_ms=self.now_ms))


@pytest.fixture
async def other(redis_url: str) -> AsyncIterator[Redis]:
    """The same Redis's database 1, emptied: where the outbox path runs beside the direct one."""
    client = Redis.from_url(f"{redis_url}/1", decode_responses=True)
    await client.flushdb()
    yield client
    await client.flushdb()
    await client.aclose()


async def _balanced(redis: Redis) -> None:
    totals = await money_totals(redis)
    assert totals.balanced, totals
    assert totals.holds_cents == 0
    assert await ledger_mismatches(redis) == []


async def _play(redis: Redis, repo: TableRepo) -> tuple[list[str], SeededDriver]:
    accounts = Accounts(redis, starting_balance_cents=START)
    await repo.create(new_table("t1", "Main"))
    table = SeededDriver(repo, "t1")
    ids = [(await accounts.create(f"P{seat}")).player_id for seat in (1, 2)]
    for seat, player_id in enumerate(ids, start=1):
        assert await table.do(Sit(player_id, f"P{seat}", seat, BUY_IN)) is CommitResult.OK
    for _ in range(2):
        await table.play_house_round({ids[0]: 1_000, ids[1]: 2_000})
    assert await table.do(Leave(ids[0])) is CommitResult.OK
    return ids, table


def _same_ids(value: Any, ids: dict[str, str]) -> Any:
    """``value`` (JSON data) with the player ids of one run replaced by the other's."""
    text = json.dumps(value, sort_keys=True)
    for theirs, ours in ids.items():
        text = text.replace(theirs, ours)
    return json.loads(text)


def _no_ids(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Stream entries without their ids (the time they were written)."""
    return [{name: value for name, value in entry.items() if name != "id"} for entry in entries]


async def test_what_a_direct_commit_stores_reads_back_as_the_outbox_path_s(redis: Redis,
                                                                          other: Redis) -> None:
    direct = TableRepo(redis)
    assert direct.direct
    ours, _ = await _play(redis, direct)
    theirs, _ = await _play(other, TableRepo(other, outbox=True))
    ids = dict(zip(theirs, ours, strict=True))
    mine, their_history = History(redis), History(other)
    for player_id, their_id in zip(ours, theirs, strict=True):
        assert await mine.recent(player_id) == _same_ids(await their_history.recent(their_id), ids)
    assert await mine.table_rounds("t1", 100) == _same_ids(await their_history.table_rounds("t1", 100), ids)
    assert len(await mine.table_rounds("t1", 100)) == 2
    exported = _no_ids((await their_history.rounds()).entries)
    assert _no_ids((await mine.rounds()).entries) == _same_ids(exported, ids)
    assert await mine.rounds(player_id=ours[0]) == (await mine.rounds())
    assert [json.loads(t) for t in await redis.lrange(keys.table_log("t1"), 0, -1)] == _same_ids(
        [json.loads(t) for t in await other.lrange(keys.table_log("t1"), 0, -1)], ids)
    assert json.loads(await redis.hget(keys.table("t1"), "state") or "") == _same_ids(
        json.loads(await other.hget(keys.table("t1"), "state") or ""), ids)
    for player_id, their_id in zip(ours, theirs, strict=True):
        assert await redis.hget(keys.player(player_id), "balance") == await other.hget(keys.player(their_id),
                                                                                      "balance")
    assert await redis.get(keys.HOUSE_NET) == await other.get(keys.HOUSE_NET)
    assert await redis.exists(keys.table_outbox("t1"), keys.HOLDS, keys.table_holds("t1")) == 0
    await _balanced(redis)
    await _balanced(other)
    # the buy-in went straight from the player to the seat: no hold account on this path
    buy_ins = [e for e in await Ledger(redis).entries() if e["kind"] in ("buy_in", "hold", "release")]
    assert [(e["kind"], e["from_account"]) for e in buy_ins] == [("buy_in", f"player:{p}") for p in ours]


async def test_each_commit_is_one_round_trip(redis: Redis, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = TableRepo(redis)
    accounts = Accounts(redis, starting_balance_cents=START)
    await repo.create(new_table("t1", "Main"))
    table = SeededDriver(repo, "t1")
    ann = (await accounts.create("Ann")).player_id
    await table.state()
    sends: list[int] = []
    send = AbstractConnection.send_packed_command

    async def counted(self: AbstractConnection, command: Any, check_health: bool = True) -> None:
        sends.append(1)
        await send(self, command, check_health)

    monkeypatch.setattr(AbstractConnection, "send_packed_command", counted)
    before = await table.state()
    sends.clear()
    after, events = apply(before, Sit(ann, "Ann", 1, BUY_IN), seed=bytes(32))
    assert await repo.commit(commit_now(before, after, events, now_ms=table.now_ms)) is CommitResult.OK
    assert len(sends) == 1  # the buy-in, the seat, the log, the deadline index and the publication
    monkeypatch.undo()
    await table.play_house_round({ann: 1_000})
    monkeypatch.setattr(AbstractConnection, "send_packed_command", counted)
    before = await table.state()
    sends.clear()
    after, events = apply(before, Leave(ann), seed=bytes(32))
    assert await repo.commit(commit_now(before, after, events, now_ms=table.now_ms)) is CommitResult.OK
    assert len(sends) == 1  # the cash-out's credit too
    monkeypatch.undo()
    assert await accounts.balance(ann) == START + sum(
        e["amount_cents"] * (1 if e["to_account"] == f"player:{ann}" else -1)
        for e in await Ledger(redis).entries()
        if f"player:{ann}" in (e["to_account"], e["from_account"]) and e["kind"] != "opening")
    await _balanced(redis)


async def test_a_buy_in_above_the_balance_is_refused_by_the_script_and_nothing_is_written(
        redis: Redis) -> None:
    repo = TableRepo(redis)
    accounts = Accounts(redis, starting_balance_cents=START)
    state = new_table("t1", "Main")
    await repo.create(state)
    ann = (await accounts.create("Ann")).player_id
    ledger_before = await Ledger(redis).entries()
    after, events = apply(state, Sit(ann, "Ann", 1, START + 1), seed=bytes(32))
    assert await repo.commit(commit_now(state, after, events)) is CommitResult.INSUFFICIENT_BALANCE
    assert await repo.load("t1") == state
    assert await accounts.balance(ann) == START
    assert await Ledger(redis).entries() == ledger_before
    assert await redis.llen(keys.table_log("t1")) == 0
    gone = "p_nobody"
    after, events = apply(state, Sit(gone, "Nobody", 2, BUY_IN), seed=bytes(32))
    assert await repo.commit(commit_now(state, after, events)) is CommitResult.INSUFFICIENT_BALANCE
    # the whole balance: allowed
    after, events = apply(state, Sit(ann, "Ann", 1, START), seed=bytes(32))
    assert await repo.commit(commit_now(state, after, events)) is CommitResult.OK
    assert await accounts.balance(ann) == 0
    await _balanced(redis)


async def test_a_stored_state_other_than_the_one_remembered_is_sent_whole(redis: Redis) -> None:
    """The state goes as the part that changed over the text the process knows; a text that differs in
    Redis (here: the same state written with spaces) is caught by its digest and the state sent whole."""
    repo = TableRepo(redis)
    accounts = Accounts(redis, starting_balance_cents=START)
    await repo.create(new_table("t1", "Main"))
    table = SeededDriver(repo, "t1")
    ann = (await accounts.create("Ann")).player_id
    assert await table.do(Sit(ann, "Ann", 1, BUY_IN)) is CommitResult.OK
    before = await table.state()
    stored = await redis.hget(keys.table("t1"), "state")
    assert stored is not None
    await redis.hset(keys.table("t1"), "state", json.dumps(json.loads(stored), indent=1))
    after, events = apply(before, Leave(ann), seed=bytes(32))
    assert await repo.commit(commit_now(before, after, events, now_ms=table.now_ms)) is CommitResult.OK
    assert await repo.load("t1") == after
    assert await TableRepo(redis).load("t1") == after
    await _balanced(redis)


async def test_under_durability_a_commit_no_replica_acknowledges_is_unconfirmed_and_its_effects_wait(
        redis: Redis) -> None:
    """A lone Redis has no replica: with one required, the commit's ``WAIT`` counts none. The commit stays on
    the node (the writer goes on from it), is published to nobody and shown to nobody; its buy-in is debited
    with it, the rest of what it causes waits in the table's outbox until a replica holds it, and the money
    check counts the table as of its confirmed version."""
    repo = TableRepo(redis, durability=Durability(replica_acks=1, ack_timeout_ms=50))
    assert repo.direct
    accounts = Accounts(redis, starting_balance_cents=START)
    state = new_table("t1", "Main")
    await repo.create(state)
    ann = (await accounts.create("Ann")).player_id
    pubsub = redis.pubsub(ignore_subscribe_messages=True)
    await pubsub.subscribe(keys.table_channel("t1"))
    await pubsub.get_message(timeout=0.2)
    try:
        after, events = apply(state, Sit(ann, "Ann", 1, BUY_IN), seed=bytes(32))
        assert await repo.commit(commit_now(state, after, events)) is CommitResult.UNCONFIRMED
        assert await pubsub.get_message(timeout=0.3) is None
    finally:
        await pubsub.aclose()  # type: ignore[no-untyped-call]
    assert await repo.load("t1") == after
    assert await repo.shown.load("t1") == state
    assert await accounts.balance(ann) == START - BUY_IN
    assert [e["kind"] for e in await Ledger(redis).entries()] == ["opening"]  # the buy_in waits with it
    assert await redis.llen(keys.table_outbox("t1")) == 1
    assert await repo.sweep() == (0, 0), "nothing is delivered before a replica holds it"
    totals = await money_totals(redis)
    assert totals.balanced, totals
    assert totals.chips_at_tables_cents == 0
    assert await ledger_mismatches(redis) == []


def test_a_state_delta_rebuilds_the_new_text() -> None:
    for old, new in [(b"abcdef", b"abXYef"), (b"abc", b"abc"), (b"", b"xyz"), (b"xyz", b""),
                     (b"aaaa", b"aaaaaa"), (b'{"v":9}', b'{"v":10}'), ("é€".encode(), "éx€".encode())]:
        part, delta = state_delta(old, new)
        prefix, suffix, digest = delta.split()
        assert digest == hashlib.sha1(old).hexdigest()
        assert old[:int(prefix)] + part + old[len(old) - int(suffix):] == new
