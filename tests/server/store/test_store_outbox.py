"""The table outbox and buy-in holds, run on one Redis (``TableRepo(outbox=True)``: the scripts a cluster
runs; a single Redis commits in one script, ``direct_commit``, by default): a commit's
consequences outside its table's slot take effect exactly once, whatever dies between the two steps, and
the money check counts what is between them.

A crash between a commit and its outbox delivery is made by a repo whose delivery fails (as the process
would have died there); a crash between a hold and its commit, by a hold reserved and never committed.
"""

from __future__ import annotations

import json

import pytest
from redis.asyncio import Redis
from redis.exceptions import ConnectionError as RedisConnectionError

from paigow.ledger.accounts import player_account
from paigow.table.commands import Leave, Sit, Tick
from paigow.table.machine import apply, next_deadline
from paigow.table.state import new_table
from paigow_server.store import keys
from paigow_server.store.accounts import Accounts
from paigow_server.store.durability import Durability
from paigow_server.store.history import History
from paigow_server.store.holds import HOLD_STALE_MS, Hold
from paigow_server.store.ledger import Ledger
from paigow_server.store.money import ledger_mismatches, money_totals
from paigow_server.store.outbox import entry_seq
from paigow_server.store.tables import CommitResult, TableRepo
from support.commits import commit_now
from support.tables import TableDriver

START = 100_000
BUY_IN = 20_000


class _Crash:
    """Stands in for ``Outbox.after_commit`` of a process that dies right after its commit."""

    calls = 0

    async def __call__(self, table_id: str, text: str, *, now_ms: int,
                       publish: tuple[str, str] | None = None) -> None:
        self.calls += 1
        raise RedisConnectionError("the process died here")


@pytest.fixture
def repo(redis: Redis) -> TableRepo:
    return TableRepo(redis, outbox=True)


@pytest.fixture
def accounts(redis: Redis) -> Accounts:
    return Accounts(redis, starting_balance_cents=START)


async def _balanced(redis: Redis) -> None:
    totals = await money_totals(redis)
    assert totals.balanced, totals
    assert await ledger_mismatches(redis) == []


async def _seated_table(repo: TableRepo, accounts: Accounts,
                        players: int = 2) -> tuple[TableDriver, list[str]]:
    await repo.create(new_table("t1", "Main"))
    table = TableDriver(repo, "t1")
    ids = []
    for seat in range(1, players + 1):
        player = await accounts.create(f"P{seat}")
        assert await table.do(Sit(player.player_id, f"P{seat}", seat, BUY_IN)) is CommitResult.OK
        ids.append(player.player_id)
    return table, ids


async def test_a_settlement_left_in_the_outbox_is_counted_in_transit_then_applied_exactly_once(
        redis: Redis, repo: TableRepo, accounts: Accounts, monkeypatch: pytest.MonkeyPatch) -> None:
    table, (ann, bob) = await _seated_table(repo, accounts)
    crash = _Crash()
    monkeypatch.setattr(repo.outbox, "after_commit", crash)
    settled = await table.play_house_round({ann: 1_000, bob: 2_000})
    assert crash.calls == 1  # the settling commit's entry was never delivered
    assert await History(redis).recent(ann) == []
    assert (await redis.xlen(keys.ROUNDS)) == 0
    totals = await money_totals(redis)
    assert totals.house_net_cents == settled.record.house_net_cents  # counted where it is going
    assert totals.in_transit_cents == 0  # no chips left the table: they stay at the seats
    await _balanced(redis)

    assert await repo.sweep() == (1, 0)  # a sweep (any process) delivers it
    assert [h["round_id"] for h in await History(redis).recent(ann)] == [settled.record.round_id]
    assert int(await redis.get(keys.HOUSE_NET) or 0) == settled.record.house_net_cents
    assert (await money_totals(redis)).in_transit_cents == 0
    await _balanced(redis)
    ledger_before = await redis.xlen(keys.LEDGER)
    assert await repo.sweep() == (0, 0)  # trimmed: nothing left to deliver
    assert await redis.llen(keys.table_outbox("t1")) == 0
    assert await redis.xlen(keys.LEDGER) == ledger_before
    assert len(await History(redis).recent(ann)) == 1


async def test_an_entry_delivered_twice_takes_effect_once_and_one_ahead_of_its_turn_is_refused(
        redis: Redis, repo: TableRepo, accounts: Accounts, monkeypatch: pytest.MonkeyPatch) -> None:
    table, (ann, bob) = await _seated_table(repo, accounts)
    monkeypatch.setattr(repo.outbox, "after_commit", _Crash())
    assert await table.do(Leave(ann)) is CommitResult.OK
    assert await table.do(Leave(bob)) is CommitResult.OK
    assert (await money_totals(redis)).in_transit_cents == 2 * BUY_IN
    first, second = await repo.outbox.pending("t1")
    assert (entry_seq(first), entry_seq(second)) == (3, 4)  # after the two buy-ins' entries, delivered
    assert await accounts.balance(ann) == START - BUY_IN
    await _balanced(redis)
    assert await repo.outbox.apply_entry("t1", second, now_ms=1) == "GAP"  # not before the first
    assert await accounts.balance(bob) == START - BUY_IN
    assert await repo.outbox.deliver("t1", now_ms=1) == 2
    assert await repo.outbox.apply_entry("t1", first, now_ms=1) == "DONE"
    assert await repo.outbox.apply_entry("t1", second, now_ms=1) == "DONE"
    assert [await accounts.balance(p) for p in (ann, bob)] == [START, START]
    cash_outs = [e for e in await Ledger(redis).entries() if e["kind"] == "cash_out"]
    assert sorted(e["player_id"] for e in cash_outs) == sorted([ann, bob])
    await _balanced(redis)


async def test_a_buy_in_moves_through_a_hold_that_its_commit_consumes(
        redis: Redis, repo: TableRepo, accounts: Accounts) -> None:
    _table, (ann,) = await _seated_table(repo, accounts, players=1)
    kinds = [(e["kind"], e["from_account"], e["to_account"]) for e in await Ledger(redis).entries()
             if e.get("player_id") == ann]
    hold = kinds[1][2]
    assert kinds == [("opening", "bank", player_account(ann)), ("hold", player_account(ann), hold),
                     ("buy_in", hold, "seat:t1:" + ann)]
    assert await redis.hlen(keys.HOLDS) == 0  # the commit's entry removed the consumed hold's record
    assert await redis.hlen(keys.table_holds("t1")) == 0  # and, once applied, the trim its mark
    await _balanced(redis)


async def test_a_hold_whose_commit_never_came_is_counted_then_refunded_by_the_sweep(
        redis: Redis, repo: TableRepo, accounts: Accounts) -> None:
    await repo.create(new_table("t1", "Main"))
    ann = (await accounts.create("Ann")).player_id
    hold = await repo.holds.reserve(ann, "t1", BUY_IN, now_ms=1_000)  # ... and the process died
    assert hold is not None
    assert await accounts.balance(ann) == START - BUY_IN
    totals = await money_totals(redis)
    assert (totals.holds_cents, totals.balances_cents) == (BUY_IN, START)
    await _balanced(redis)
    assert await repo.holds.sweep(now_ms=1_000 + HOLD_STALE_MS - 1) == 0  # not stale yet
    assert await repo.holds.sweep(now_ms=1_000 + HOLD_STALE_MS) == 1
    assert await accounts.balance(ann) == START
    assert await redis.hget(keys.table_holds("t1"), hold.hold_id) == "void"
    assert [e["kind"] for e in await Ledger(redis).entries()][-2:] == ["hold", "release"]
    assert await repo.holds.sweep(now_ms=10 * HOLD_STALE_MS) == 0  # refunded once
    assert await accounts.balance(ann) == START
    await _balanced(redis)


async def test_a_voided_hold_cannot_be_consumed_and_a_consumed_one_cannot_be_refunded(
        redis: Redis, repo: TableRepo, accounts: Accounts, monkeypatch: pytest.MonkeyPatch) -> None:
    state = new_table("t1", "Main")
    await repo.create(state)
    ann = (await accounts.create("Ann")).player_id
    reserve = repo.holds.reserve

    async def reserve_then_stall(player_id: str, table_id: str, amount_cents: int, *,
                                 now_ms: int | None = None) -> Hold | None:
        made = await reserve(player_id, table_id, amount_cents, now_ms=now_ms)
        assert made is not None
        assert await repo.holds.release(made)  # the sweep got there first
        return made

    monkeypatch.setattr(repo.holds, "reserve", reserve_then_stall)
    after, events = apply(state, Sit(ann, "Ann", 1, BUY_IN), seed=bytes(32))
    # decided again by the caller:
    assert await repo.commit(commit_now(state, after, events)) is CommitResult.CONFLICT
    assert await repo.load("t1") == state
    assert await accounts.balance(ann) == START
    await _balanced(redis)

    monkeypatch.setattr(repo.holds, "reserve", reserve)
    marks: list[str] = []
    deliver = repo.outbox.after_commit

    async def look_then_deliver(table_id: str, text: str, *, now_ms: int,
                                publish: tuple[str, str] | None = None) -> None:
        marks.extend((await redis.hgetall(keys.table_holds(table_id))).values())
        await deliver(table_id, text, now_ms=now_ms, publish=publish)

    monkeypatch.setattr(repo.outbox, "after_commit", look_then_deliver)
    assert await repo.commit(commit_now(state, after, events)) is CommitResult.OK
    assert sorted(marks) == ["consumed", "void"]  # the voided first hold, and the one the commit consumed
    (hold_id,) = [e["from_account"].removeprefix("hold:") for e in await Ledger(redis).entries()
                  if e["kind"] == "buy_in"]
    late = Hold(hold_id, ann, "t1", BUY_IN, 0)
    assert not await repo.holds.release(late)  # consumed and delivered: a late release refunds nothing
    assert await accounts.balance(ann) == START - BUY_IN
    seats = json.loads((await redis.hget(keys.table("t1"), "state")) or "{}")["seats"]
    assert seats[1]["chips_cents"] == BUY_IN
    await _balanced(redis)


async def test_a_buy_in_above_the_balance_writes_nothing(redis: Redis, repo: TableRepo,
                                                          accounts: Accounts) -> None:
    state = new_table("t1", "Main")
    await repo.create(state)
    ann = (await accounts.create("Ann")).player_id
    after, events = apply(state, Sit(ann, "Ann", 1, START + 1), seed=bytes(32))
    ledger = await redis.xlen(keys.LEDGER)
    assert await repo.commit(commit_now(state, after, events)) is CommitResult.INSUFFICIENT_BALANCE
    assert await repo.load("t1") == state
    assert (await redis.xlen(keys.LEDGER), await redis.hlen(keys.HOLDS)) == (ledger, 0)
    await _balanced(redis)


async def test_a_credit_for_a_player_gone_meanwhile_goes_to_the_bank(
        redis: Redis, repo: TableRepo, accounts: Accounts, monkeypatch: pytest.MonkeyPatch) -> None:
    table, (ann,) = await _seated_table(repo, accounts, players=1)
    monkeypatch.setattr(repo.outbox, "after_commit", _Crash())
    assert await table.do(Leave(ann)) is CommitResult.OK
    await accounts.debit(ann, START - BUY_IN, "collected", actor="test")  # as guest collection would
    await redis.delete(keys.player(ann))
    await redis.srem(keys.PLAYERS, ann)
    issued = int(await redis.get(keys.MONEY_ISSUED) or 0)
    assert await repo.outbox.deliver("t1", now_ms=5) == 1
    assert await redis.exists(keys.player(ann)) == 0  # not brought back as a balance-only hash
    assert int(await redis.get(keys.MONEY_ISSUED) or 0) == issued - BUY_IN
    last = (await Ledger(redis).entries())[-1]
    assert (last["kind"], last["from_account"], last["to_account"]) == ("guest_expired", player_account(ann),
                                                                       "bank")
    await _balanced(redis)


async def test_a_hold_no_replica_acknowledges_is_released_and_the_buy_in_unconfirmed(
        redis: Redis, accounts: Accounts) -> None:
    """A lone Redis has no replica: with one required, the hold's ``WAIT`` counts none."""
    repo = TableRepo(redis, durability=Durability(replica_acks=1, ack_timeout_ms=50), outbox=True)
    state = new_table("t1", "Main")
    await repo.create(state)
    ann = (await accounts.create("Ann")).player_id
    after, events = apply(state, Sit(ann, "Ann", 1, BUY_IN), seed=bytes(32))
    assert await repo.commit(commit_now(state, after, events)) is CommitResult.UNCONFIRMED
    assert await repo.load("t1") == state  # the commit was never sent
    assert await accounts.balance(ann) == START
    assert await redis.hlen(keys.HOLDS) == 0
    assert [e["kind"] for e in await Ledger(redis).entries()][-2:] == ["hold", "release"]
    await _balanced(redis)


async def test_a_commit_with_consequences_is_published_once_they_are_delivered(
        redis: Redis, repo: TableRepo, accounts: Accounts, monkeypatch: pytest.MonkeyPatch) -> None:
    """A viewer shown a cash-out finds the chips in the balance; one whose delivery failed is published
    all the same (the sweep delivers it later)."""
    table, (ann, bob) = await _seated_table(repo, accounts)
    pubsub = redis.pubsub(ignore_subscribe_messages=True)
    await pubsub.subscribe(keys.table_channel("t1"))
    await pubsub.get_message(timeout=0.2)  # the subscription's confirmation
    try:
        early: list[object] = []
        apply_entry = repo.outbox.apply_entry

        async def look_then_apply(table_id: str, text: str, *, now_ms: int) -> str:
            early.append(await pubsub.get_message(timeout=0.1))  # published before its delivery?
            return await apply_entry(table_id, text, now_ms=now_ms)

        monkeypatch.setattr(repo.outbox, "apply_entry", look_then_apply)
        assert await table.do(Leave(ann)) is CommitResult.OK
        assert early == [None]
        message = await pubsub.get_message(timeout=2.0)
        assert message is not None
        assert json.loads(message["data"])["version"] == (await table.state()).version
        assert await accounts.balance(ann) == START

        monkeypatch.setattr(repo.outbox, "after_commit", _Crash())
        assert await table.do(Leave(bob)) is CommitResult.OK
        message = await pubsub.get_message(timeout=2.0)
        assert message is not None
        assert json.loads(message["data"])["version"] == (await table.state()).version
        assert await accounts.balance(bob) == START - BUY_IN  # in transit: the sweep delivers it
        assert await repo.sweep() == (1, 0)
        assert await accounts.balance(bob) == START
    finally:
        await pubsub.aclose()  # type: ignore[no-untyped-call]


async def test_a_deadline_index_entry_a_dead_process_never_wrote_is_repaired_by_the_sweep(
        redis: Redis, repo: TableRepo, accounts: Accounts, monkeypatch: pytest.MonkeyPatch) -> None:
    """The index is written after the commit; the deadline recorded with the state repairs it."""
    table, _ids = await _seated_table(repo, accounts)
    due_before = dict(await repo.deadlines_until(2**62))

    async def died(table_id: str, deadline: int | str) -> None:
        raise RedisConnectionError("the process died here")

    monkeypatch.setattr(repo, "_set_deadline", died)
    state = await table.state()
    due = next_deadline(state)
    assert due is not None
    table.now_ms = due
    assert await table.do(Tick(due)) is CommitResult.OK  # the round moves on: a new deadline
    moved = next_deadline(await table.state())
    assert moved is not None
    assert moved != due
    assert dict(await repo.deadlines_until(2**62)) == due_before  # stale: the write never happened
    monkeypatch.undo()
    await repo.sweep()
    assert dict(await repo.deadlines_until(2**62)) == {"t1": moved}
