"""The deadline index (``keys.DEADLINES``): written with the state by create and commit, emptied when a table
has no deadline, untouched by a refused commit, read by due time, and filled in for tables stored before
it existed without overwriting a newer commit."""

from __future__ import annotations

import pytest
from redis.asyncio import Redis

from paigow.table.commands import CloseTable, Command, Leave, Sit, Tick
from paigow.table.machine import apply, next_deadline
from paigow.table.state import Phase, TableState, Timers, new_table
from paigow_server.store import keys
from paigow_server.store.accounts import Accounts
from paigow_server.store.tables import CommitResult, TableRepo
from support.commits import commit_now

T0 = 1_800_000_000_000
QUICK = Timers(betting_ms=20_000)


@pytest.fixture
def repo(redis: Redis) -> TableRepo:
    return TableRepo(redis)


@pytest.fixture
def accounts(redis: Redis) -> Accounts:
    return Accounts(redis, starting_balance_cents=100_000)


async def _index(redis: Redis) -> dict[str, int]:
    return {str(member): int(score)
            for member, score in await redis.zrange(keys.DEADLINES, 0, -1, withscores=True)}


def _next(state: TableState, command: Command) -> TableState:
    after, events = apply(state, command, seed=bytes(32))
    assert events, command
    return after


async def _commit(repo: TableRepo, before: TableState, command: Command) -> TableState:
    after, events = apply(before, command, seed=bytes(32))
    assert await repo.commit(commit_now(before, after, events)) is CommitResult.OK
    return after


async def test_create_writes_the_entry_only_for_a_table_with_a_deadline(repo: TableRepo,
                                                                       redis: Redis) -> None:
    empty = new_table("t1", "Empty")
    waiting = _next(new_table("t2", "Waiting"), Sit("p_ann", "Ann", 1, 1_000))  # next round: pending (0)
    assert next_deadline(empty) is None
    assert await repo.create(empty)
    assert await repo.create(waiting)
    assert await _index(redis) == {"t2": 0}
    assert not await repo.create(new_table("t2", "Duplicate"))
    assert await _index(redis) == {"t2": 0}


async def _seated(repo: TableRepo, accounts: Accounts) -> tuple[str, TableState]:
    """Table t1 with Ann seated (the next round pending); her player id and the table."""
    ann = await accounts.create("Ann")
    state = new_table("t1", "Main", timers=QUICK)
    await repo.create(state)
    return ann.player_id, await _commit(repo, state, Sit(ann.player_id, "Ann", 1, 1_000))


async def test_each_commit_sets_the_entry_and_one_without_a_deadline_removes_it(
        repo: TableRepo, accounts: Accounts, redis: Redis) -> None:
    ann, state = await _seated(repo, accounts)
    assert await _index(redis) == {"t1": 0}
    state = await _commit(repo, state, Tick(now_ms=T0))  # the round starts: betting until T0 + 20 s
    assert state.phase is Phase.BETTING
    assert await _index(redis) == {"t1": T0 + 20_000}
    state = await _commit(repo, state, Tick(now_ms=T0 + 20_000))  # nobody bet: no deadline any more
    assert next_deadline(state) is None
    assert await _index(redis) == {}
    state = await _commit(repo, state, Leave(ann))
    state = await _commit(repo, state, Sit(ann, "Ann", 1, 1_000))
    assert await _index(redis) == {"t1": 0}
    await _commit(repo, state, CloseTable())
    assert await _index(redis) == {}


async def test_a_refused_commit_leaves_the_entry_as_it_was(
        repo: TableRepo, accounts: Accounts, redis: Redis) -> None:
    ann, state = await _seated(repo, accounts)
    betting = await _commit(repo, state, Tick(now_ms=T0))
    assert await _index(redis) == {"t1": T0 + 20_000}
    # CONFLICT: a decision on the old version would clear the deadline (the player leaves).
    stale, stale_events = apply(state, Leave(ann), seed=bytes(32))
    assert await repo.commit(commit_now(state, stale, stale_events)) is CommitResult.CONFLICT
    # FENCED: a closing written with an old token.
    await redis.set(keys.table_fence("t1"), 5)
    closed, close_events = apply(betting, CloseTable(), seed=bytes(32))
    assert await repo.commit(commit_now(betting, closed, close_events), fence=4) is CommitResult.FENCED
    # INSUFFICIENT_BALANCE: a buy-in over the balance at an empty table would set a deadline there.
    empty = new_table("t2", "Empty")
    await repo.create(empty)
    broke, broke_events = apply(empty, Sit(ann, "Ann", 1, 10**9), seed=bytes(32))
    assert next_deadline(broke) == 0
    assert await repo.commit(commit_now(empty, broke, broke_events)) is CommitResult.INSUFFICIENT_BALANCE
    assert await _index(redis) == {"t1": T0 + 20_000}


async def test_deadlines_until_reads_the_due_entries_earliest_first(repo: TableRepo, redis: Redis) -> None:
    await redis.zadd(keys.DEADLINES, {"t1": T0 + 5_000, "t2": 0, "t3": T0 + 60_000, "t4": T0})
    assert await repo.deadlines_until(T0 + 5_000) == [("t2", 0), ("t4", T0), ("t1", T0 + 5_000)]
    assert await repo.deadlines_until(-1) == []


async def test_sync_fills_in_missing_and_wrong_entries_but_never_overwrites_a_newer_commit(
        repo: TableRepo, accounts: Accounts, redis: Redis) -> None:
    ann = await accounts.create("Ann")
    tables = {}
    for table_id in ("t1", "t2", "t3", "t4"):
        tables[table_id] = new_table(table_id, "Main", timers=QUICK)
        await repo.create(tables[table_id])
        tables[table_id] = await _commit(repo, tables[table_id], Sit(ann.player_id, "Ann", 1, 1_000))
    # As an older version left them: t1 and t2 have no entry, t3 has a wrong one (its state has none).
    tables["t3"] = await _commit(repo, tables["t3"], Leave(ann.player_id))
    await redis.zadd(keys.DEADLINES, {"t3": T0})
    await redis.zrem(keys.DEADLINES, "t1", "t2")
    loaded = list(tables.values())
    # t2 is committed after it was loaded: its commit's entry stays, whatever the loaded state says.
    await _commit(repo, tables["t2"], Tick(now_ms=T0))
    await redis.zadd(keys.DEADLINES, {"t4": T0 + 1})  # ... and t4's too (an entry from a newer commit)
    await redis.hincrby(keys.table("t4"), "version", 1)
    await repo.sync_deadlines(loaded)
    assert await _index(redis) == {"t1": 0, "t2": T0 + 20_000, "t4": T0 + 1}
    await repo.sync_deadlines([])
