"""TableRepo against a real Redis: create/load/list, compare-and-set, the event log and the channel, and
the money and history each commit carries (buy-in, settlement, cash-out, void)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from redis.asyncio import Redis

from paigow.ledger.accounts import HOUSE, player_account, seat_account
from paigow.table.commands import (
    AcceptBank,
    Leave,
    PauseTable,
    PlaceBet,
    Sit,
    VoidRound,
)
from paigow.table.machine import apply
from paigow.table.state import Phase, new_table
from paigow_server.store import keys
from paigow_server.store.accounts import Accounts
from paigow_server.store.codec import commit_from_json
from paigow_server.store.history import History
from paigow_server.store.ledger import Ledger
from paigow_server.store.money import ledger_mismatches, money_totals
from paigow_server.store.tables import CommitResult, TableRepo
from support.commits import commit_now
from support.monitor import sent_commands
from support.tables import TableDriver as Table

START = 100_000


@pytest.fixture
def repo(redis: Redis) -> TableRepo:
    return TableRepo(redis, log_length=50)


@pytest.fixture
def accounts(redis: Redis) -> Accounts:
    return Accounts(redis, starting_balance_cents=START)


async def test_create_load_and_list(repo: TableRepo) -> None:
    first = new_table(await repo.next_id(), "Main")
    second = new_table(await repo.next_id(), "High limit")
    assert await repo.create(first)
    assert await repo.create(second)
    assert not await repo.create(new_table(first.table_id, "Duplicate"))
    assert await repo.list_ids() == [first.table_id, second.table_id]
    assert await repo.load(first.table_id) == first
    assert await repo.load("nope") is None
    assert await repo.load_many([second.table_id, "nope"]) == [second, None]
    assert await repo.count() == 2


async def test_a_stale_version_conflicts_and_writes_nothing(repo: TableRepo, accounts: Accounts) -> None:
    ann = await accounts.create("Ann")
    bob = await accounts.create("Bob")
    state = new_table("t1", "Main")
    await repo.create(state)
    after_ann, ann_events = apply(state, Sit(ann.player_id, "Ann", 1, 5_000), seed=bytes(32))
    after_bob, bob_events = apply(state, Sit(bob.player_id, "Bob", 2, 5_000), seed=bytes(32))
    assert await repo.commit(commit_now(state, after_ann, ann_events)) is CommitResult.OK
    assert await repo.commit(commit_now(state, after_bob, bob_events)) is CommitResult.CONFLICT
    assert await repo.load("t1") == after_ann
    assert await accounts.balance(bob.player_id) == START  # the losing commit's buy-in never happened
    assert await accounts.balance(ann.player_id) == START - 5_000


async def test_concurrent_commits_on_one_version_let_exactly_one_through(
        repo: TableRepo, accounts: Accounts) -> None:
    players = [await accounts.create(f"P{i}") for i in range(6)]
    state = new_table("t1", "Main")
    await repo.create(state)
    attempts = [apply(state, Sit(p.player_id, p.name, i + 1, 1_000), seed=bytes(32))
                for i, p in enumerate(players)]
    results = await asyncio.gather(*(repo.commit(commit_now(state, after, events))
                                     for after, events in attempts))
    assert sorted(results) == sorted([CommitResult.OK] + [CommitResult.CONFLICT] * 5)
    assert await accounts.total_balance() == 6 * START - 1_000


async def test_a_buy_in_over_the_balance_is_refused_whole(repo: TableRepo, accounts: Accounts) -> None:
    ann = await accounts.create("Ann")
    state = new_table("t1", "Main")
    await repo.create(state)
    after, events = apply(state, Sit(ann.player_id, "Ann", 1, START + 1), seed=bytes(32))
    assert await repo.commit(commit_now(state, after, events)) is CommitResult.INSUFFICIENT_BALANCE
    assert await repo.load("t1") == state
    assert await repo.event_log("t1") == []
    assert await accounts.balance(ann.player_id) == START
    ghost, ghost_events = apply(state, Sit("p_ghost", "Ghost", 2, 1_000), seed=bytes(32))
    assert await repo.commit(commit_now(state, ghost, ghost_events)) is CommitResult.INSUFFICIENT_BALANCE


async def test_fencing_token_must_be_the_tables_current_one(repo: TableRepo, redis: Redis) -> None:
    state = new_table("t1", "Main")
    await repo.create(state)
    await redis.set(keys.table_fence("t1"), 7)
    after, events = apply(state, PauseTable(), seed=bytes(32))
    assert await repo.commit(commit_now(state, after, events), fence=6) is CommitResult.FENCED
    assert await repo.commit(commit_now(state, after, events), fence=7) is CommitResult.OK


async def test_commits_are_logged_and_published_with_their_version(repo: TableRepo, accounts: Accounts,
                                                                  redis: Redis) -> None:
    ann = await accounts.create("Ann")
    await repo.create(new_table("t1", "Main"))
    table = Table(repo, "t1")
    pubsub = redis.pubsub()
    await pubsub.subscribe(keys.table_channel("t1"))
    await pubsub.get_message(timeout=1)  # the subscription confirmation
    assert await table.do(Sit(ann.player_id, "Ann", 1, 5_000)) is CommitResult.OK
    message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=2)
    assert message is not None
    published = commit_from_json(message["data"])
    assert published.version == 1
    assert [e.kind for e in published.events] == ["player_sat", "deadline_set"]
    assert await repo.events_since("t1", 0) == [published]
    assert await repo.events_since("t1", 1) == []
    assert await repo.events_since("t1", 2) is None  # a version the table never had
    await pubsub.aclose()  # type: ignore[no-untyped-call]


async def test_events_since_a_version_older_than_the_log_asks_for_a_snapshot(
        redis: Redis, accounts: Accounts) -> None:
    repo = TableRepo(redis, log_length=10)
    ann = await accounts.create("Ann")
    await repo.create(new_table("t1", "Main"))
    table = Table(repo, "t1")
    await table.do(Sit(ann.player_id, "Ann", 1, 50_000))
    for _ in range(3):
        await table.play_house_round({ann.player_id: 500})
    version = (await table.state()).version
    assert version > 10
    assert len(await repo.event_log("t1")) == 10
    oldest_reachable = await repo.events_since("t1", version - 10)  # the log holds version-9..version
    assert oldest_reachable is not None
    assert [c.version for c in oldest_reachable] == list(range(version - 9, version + 1))
    assert await repo.events_since("t1", version - 11) is None
    assert await repo.events_since("t1", 0) is None


async def test_settlement_moves_every_cent_once_with_ledger_history_and_house(
        repo: TableRepo, accounts: Accounts, redis: Redis) -> None:
    ann = await accounts.create("Ann")
    bob = await accounts.create("Bob")
    await repo.create(new_table("t1", "Main"))
    table = Table(repo, "t1")
    await table.do(Sit(ann.player_id, "Ann", 1, 20_000))
    await table.do(Sit(bob.player_id, "Bob", 2, 30_000))
    settled = await table.play_house_round({ann.player_id: 1_000, bob.player_id: 2_500})
    record = settled.record
    state = await table.state()
    nets = {h.player_id: h.net_cents for h in record.hands if h.player_id is not None}
    assert state.seats[1] is not None
    assert state.seats[2] is not None
    assert state.seats[1].chips_cents == 20_000 + nets[ann.player_id]
    assert state.seats[2].chips_cents == 30_000 + nets[bob.player_id]
    assert int(await redis.get(keys.HOUSE_NET) or 0) == record.house_net_cents == -sum(nets.values())

    assert await ledger_mismatches(redis) == []
    assert (await money_totals(redis)).balanced
    derived = await Ledger(redis).balances()
    assert sum(derived.values()) == 0
    assert derived[seat_account("t1", ann.player_id)] == state.seats[1].chips_cents
    assert derived[seat_account("t1", bob.player_id)] == state.seats[2].chips_cents
    assert derived.get(HOUSE, 0) == record.house_net_cents
    assert derived[player_account(ann.player_id)] == await accounts.balance(ann.player_id) == START - 20_000

    history = await History(redis).recent(ann.player_id)
    assert len(history) == 1
    entry = history[0]
    assert entry["round_id"] == record.round_id
    assert entry["wager_cents"] == 1_000
    assert entry["net_cents"] == nets[ann.player_id]
    assert entry["balance_before_cents"] == 20_000
    assert entry["balance_after_cents"] == 20_000 + nets[ann.player_id]
    assert entry["server_seed"] == record.server_seed
    assert len(entry["hand"]["dealt"]) == 7
    assert len(entry["hand"]["high"]) == 5
    assert entry["banker_hand"]["position"] == 0
    assert entry["dice"] == list(record.dice)
    exported = await History(redis).rounds()
    assert [r["round"]["round_id"] for r in exported.entries] == [record.round_id]

    # leaving returns the chips to the balance, with a cash-out entry
    chips = state.seats[1].chips_cents
    await table.tick_until(Phase.BETTING)
    assert await table.do(Leave(ann.player_id)) is CommitResult.OK
    assert await accounts.balance(ann.player_id) == START - 20_000 + chips
    ledger = await Ledger(redis).entries()
    assert ledger[-1]["kind"] == "cash_out"
    assert ledger[-1]["amount_cents"] == chips


async def test_history_keeps_the_last_ten_hands_and_exports_all(
        repo: TableRepo, accounts: Accounts, redis: Redis) -> None:
    ann = await accounts.create("Ann")
    await repo.create(new_table("t1", "Main"))
    table = Table(repo, "t1")
    await table.do(Sit(ann.player_id, "Ann", 1, 90_000))
    round_ids = [(await table.play_house_round({ann.player_id: 500})).record.round_id for _ in range(12)]
    recent = await History(redis).recent(ann.player_id)
    assert [h["round_id"] for h in recent] == list(reversed(round_ids))[:10]
    page = await History(redis).rounds(limit=5)
    assert len(page.entries) == 5
    rest = await History(redis).rounds(after=page.next_after, limit=100, player_id=ann.player_id)
    assert [r["round"]["round_id"] for r in page.entries + rest.entries] == round_ids
    assert rest.next_after is None


async def test_a_voided_round_moves_no_money_and_is_exported(
        repo: TableRepo, accounts: Accounts, redis: Redis) -> None:
    ann = await accounts.create("Ann")
    await repo.create(new_table("t1", "Main"))
    table = Table(repo, "t1")
    await table.do(Sit(ann.player_id, "Ann", 1, 10_000))
    await table.tick_until(Phase.BETTING)
    await table.do(PlaceBet(ann.player_id, 2_000))
    await table.tick_until(Phase.SETTING)
    ledger_before = await redis.xlen(keys.LEDGER)
    assert await table.do(VoidRound()) is CommitResult.OK
    state = await table.state()
    assert state.seats[1] is not None
    assert state.seats[1].chips_cents == 10_000
    assert await redis.xlen(keys.LEDGER) == ledger_before
    assert await History(redis).recent(ann.player_id) == []
    exported = (await History(redis).rounds()).entries
    assert exported[0]["status"] == "voided"
    assert exported[0]["returned_bets"][0]["amount_cents"] == 2_000
    assert json.loads(json.dumps(exported[0]))["server_seed"]


async def test_a_player_banked_round_settles_through_the_pot_with_the_dealers_wager(
        repo: TableRepo, accounts: Accounts, redis: Redis) -> None:
    ann, bob, cy = [await accounts.create(n) for n in ("Ann", "Bob", "Cy")]
    await repo.create(new_table("t1", "Main"))
    table = Table(repo, "t1")
    for seat, player in enumerate((ann, bob, cy), start=1):
        await table.do(Sit(player.player_id, player.name, seat, 40_000))
    await table.play_house_round({p.player_id: 500 for p in (ann, bob, cy)})
    await table.tick_until(Phase.BANK_OFFER)
    state = await table.state()
    assert state.round is not None
    assert state.round.offer_player_id == ann.player_id  # the marker moved to seat 1
    assert await table.do(AcceptBank(ann.player_id)) is CommitResult.OK
    settled = await table.play_house_round({bob.player_id: 2_000, cy.player_id: 3_000}, banker=ann.player_id)
    record = settled.record
    assert record.banker_player_id == ann.player_id
    dealer = next(h for h in record.hands if h.player_id is None)
    assert dealer.wager_cents > 0  # the house dealer plays against a player banker
    assert await ledger_mismatches(redis) == []
    assert (await money_totals(redis)).balanced
    entries = [e for e in await Ledger(redis).entries() if e["round_id"] == record.round_id]
    pot = f"round:t1:{record.round_id}"
    assert sum(e["amount_cents"] for e in entries if e["to_account"] == pot) == sum(
        e["amount_cents"] for e in entries if e["from_account"] == pot)
    banker = next(h for h in record.hands if h.is_banker)
    moved = {e["kind"] for e in entries if seat_account("t1", ann.player_id) in (e["from_account"],
                                                                                e["to_account"])}
    if banker.gross_cents > 0:
        assert "stake_won" in moved
    elif banker.gross_cents < 0:
        assert "stake_lost" in moved
    assert len(await History(redis).recent(ann.player_id)) == 2
    assert (await History(redis).recent(ann.player_id))[0]["is_banker"]


async def test_many_tables_versions_and_states_are_one_command_on_one_redis(redis: Redis,
                                                                             repo: TableRepo) -> None:
    """The fanout's version check of every watched table (every 5 s) and a batch load are one script call
    on one Redis, not an HGET each: a pipeline is one round trip but as many commands."""
    ids = [f"many{i}" for i in range(30)]
    for table_id in ids:
        assert await repo.create(new_table(table_id, table_id))
    await repo.versions(ids[:1])  # the script loaded, a connection open: nothing but the reads below
    found: dict[str, Any] = {}

    async def work() -> None:
        found["versions"] = await repo.versions([*ids, "nosuch"])
        found["states"] = await repo.load_many(["nosuch", *ids])

    assert await sent_commands(redis, work) == ["EVALSHA", "EVALSHA"]
    assert found["versions"] == [0] * 30 + [None]
    assert found["states"][0] is None
    assert [s.table_id for s in found["states"][1:]] == ids
    assert await repo.versions([]) == []
    assert await repo.load_many([]) == []
