"""TableTimers against a real Redis: deadlines become Ticks, also for tables found after a restart or set by
another process (found in the deadline index, without loading states); a Tick that is not due changes
nothing; a process that does not drive a table leaves its timers alone."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Sequence
from typing import Any

from redis.asyncio import Redis

from paigow.table.commands import Sit, Tick
from paigow.table.state import Phase, TableState, Timers, new_table
from paigow_server.process.metrics import Metrics
from paigow_server.realtime.tables import TableService
from paigow_server.realtime.timers import HOLD_BACK_MS, TableTimers
from paigow_server.store import keys
from paigow_server.store.accounts import Accounts
from paigow_server.store.errors import StoreUnavailable
from paigow_server.store.tables import TableRepo

QUICK = Timers(betting_ms=200, between_rounds_ms=50)
T0 = 1_800_000_000_000


class CountingStore:
    """The repo as the timers' store, counting each call."""

    def __init__(self, repo: TableRepo) -> None:
        self.repo = repo
        self.calls: Counter[str] = Counter()
        self.list_ids_failures = 0

    async def list_ids(self) -> list[str]:
        self.calls["list_ids"] += 1
        if self.calls["list_ids"] <= self.list_ids_failures:
            raise StoreUnavailable("connection lost")
        return await self.repo.list_ids()

    async def load(self, table_id: str) -> TableState | None:
        self.calls["load"] += 1
        return await self.repo.load(table_id)

    async def load_many(self, table_ids: Sequence[str]) -> list[TableState | None]:
        self.calls["load_many"] += 1
        return await self.repo.load_many(table_ids)

    async def deadlines_until(self, until_ms: int) -> list[tuple[str, int]]:
        self.calls["deadlines_until"] += 1
        return await self.repo.deadlines_until(until_ms)

    async def sync_deadlines(self, states: Sequence[TableState]) -> None:
        self.calls["sync_deadlines"] += 1
        await self.repo.sync_deadlines(states)

    async def rescans(self, count: int) -> None:
        """Wait until ``count`` more index reads have happened."""
        target = self.calls["deadlines_until"] + count
        for _ in range(500):
            if self.calls["deadlines_until"] >= target:
                return
            await asyncio.sleep(0.01)
        raise AssertionError("the timers never read the deadline index")


async def never_mine(table_id: str) -> bool:
    return False


async def _table_with_player(repo: TableRepo, service: TableService, table_id: str = "t1") -> None:
    assert await repo.create(new_table(table_id, "Main", timers=QUICK))
    player = await Accounts(repo.redis, starting_balance_cents=100_000).create("Ann")
    await service.execute(table_id, Sit(player_id=player.player_id, name="Ann", seat=1, buy_in_cents=10_000))


async def _wait_for(repo: TableRepo, table_id: str, check: Any, within: float = 5.0) -> None:
    loop = asyncio.get_running_loop()
    give_up = loop.time() + within
    while loop.time() < give_up:
        state = await repo.load(table_id)
        if state is not None and check(state):
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"table {table_id} never got there: {await repo.load(table_id)}")


async def test_a_commit_schedules_its_deadline_at_once(redis: Redis) -> None:
    repo = TableRepo(redis)
    service = TableService(repo, Metrics())
    timers = TableTimers(service, repo, rescan_s=60)
    await timers.start()
    try:
        await _table_with_player(repo, service)
        # The sit left a pending next-round timer: ticked at once, the round starts and betting opens...
        await _wait_for(repo, "t1", lambda s: s.phase is Phase.BETTING)
        # ...and with nobody betting, the betting deadline passes and the table waits without a deadline.
        await _wait_for(repo, "t1", lambda s: s.deadline is None, within=3)
        assert timers.scheduled("t1") is None
    finally:
        await timers.stop()


async def test_after_a_restart_the_rescan_finds_every_due_deadline(redis: Redis) -> None:
    repo = TableRepo(redis)
    service = TableService(repo, Metrics())
    for table_id in ("t1", "t2"):
        await _table_with_player(repo, service, table_id)  # no timers running: nothing happens
    for table_id in ("t1", "t2"):
        state = await repo.load(table_id)
        assert state is not None
        assert state.phase is Phase.IDLE
    restarted = TableTimers(TableService(repo, Metrics()), repo, rescan_s=60)
    await restarted.start()  # the first scan happens in start()
    try:
        for table_id in ("t1", "t2"):
            await _wait_for(repo, table_id, lambda s: s.phase is Phase.BETTING)
    finally:
        await restarted.stop()


async def test_a_tick_that_is_not_due_changes_nothing(redis: Redis) -> None:
    repo = TableRepo(redis)
    service = TableService(repo, Metrics())
    await _table_with_player(repo, service)
    await service.execute("t1", Tick(now_ms=service.now_ms()))  # starts the round: betting for 200 ms
    state = await repo.load("t1")
    assert state is not None
    assert state.phase is Phase.BETTING
    early = await service.execute("t1", Tick(now_ms=service.now_ms()))
    assert early.events == ()
    assert await repo.load("t1") == state


async def test_only_the_process_that_drives_a_table_ticks_it(redis: Redis) -> None:
    repo = TableRepo(redis)
    service = TableService(repo, Metrics())
    claims: list[str] = []

    async def not_mine(table_id: str) -> bool:
        claims.append(table_id)
        return False

    timers = TableTimers(service, repo, rescan_s=0.1, claim=not_mine)
    await timers.start()
    try:
        await _table_with_player(repo, service)
        await asyncio.sleep(0.4)
        state = await repo.load("t1")
        assert state is not None
        assert state.phase is Phase.IDLE  # due, but another process drives it
        assert "t1" in claims
    finally:
        await timers.stop()


async def test_an_unreadable_table_does_not_stop_the_timers_of_the_others(redis: Redis) -> None:
    repo = TableRepo(redis)
    service = TableService(repo, Metrics())
    assert await repo.create(new_table("t0", "Broken"))
    await redis.hset(keys.table("t0"), "state", "{not a table state")
    await _table_with_player(repo, service, "t1")
    timers = TableTimers(TableService(repo, Metrics()), repo, rescan_s=60)
    await timers.start()
    try:
        await _wait_for(repo, "t1", lambda s: s.phase is Phase.BETTING)
        assert timers.scheduled("t0") is None
    finally:
        await timers.stop()


async def test_the_rescan_finds_another_processes_deadlines_in_the_index_without_loading_states(
        redis: Redis) -> None:
    repo = TableRepo(redis)
    store = CountingStore(repo)
    timers = TableTimers(TableService(repo, Metrics()), store, rescan_s=0.05)
    await timers.start()
    try:
        assert store.calls["list_ids"] == 1  # the start-up scan
        store.calls.clear()
        # Another process seats a player: its commit leaves a pending deadline this process never saw.
        await _table_with_player(repo, TableService(repo, Metrics()))
        await _wait_for(repo, "t1", lambda s: s.phase is Phase.BETTING)
        await _wait_for(repo, "t1", lambda s: s.deadline is None, within=3)
        assert store.calls["deadlines_until"] > 0
        assert store.calls["list_ids"] == store.calls["load_many"] == store.calls["load"] == 0
    finally:
        await timers.stop()


async def test_a_rescan_schedules_the_index_entries_due_before_the_next_one(redis: Redis) -> None:
    repo = TableRepo(redis)
    store = CountingStore(repo)
    frozen = TableService(repo, Metrics(), clock=lambda: T0)  # nothing ever comes due
    timers = TableTimers(frozen, store, rescan_s=0.2, claim=never_mine)
    await timers.start()
    try:
        await redis.zadd(keys.DEADLINES, {"t1": T0 + 3_000, "t2": T0 + 3_600_000})
        await store.rescans(2)
        assert timers.scheduled("t1") == T0 + 3_000
        assert timers.scheduled("t2") is None  # far off: a later rescan schedules it
        await redis.zadd(keys.DEADLINES, {"t1": T0 + 4_000})  # moved by another process
        await store.rescans(2)
        assert timers.scheduled("t1") == T0 + 4_000
    finally:
        await timers.stop()


async def test_start_writes_the_index_entries_of_tables_stored_without_them(redis: Redis) -> None:
    repo = TableRepo(redis)
    service = TableService(repo, Metrics())
    await _table_with_player(repo, service, "t1")  # a pending deadline
    assert await repo.create(new_table("t2", "Empty"))  # none
    await redis.delete(keys.DEADLINES)  # as a version without the index left them
    timers = TableTimers(TableService(repo, Metrics()), repo, rescan_s=60, claim=never_mine)
    await timers.start()
    try:
        assert await repo.deadlines_until(T0) == [("t1", 0)]
    finally:
        await timers.stop()


async def test_a_failed_start_up_scan_is_tried_again_instead_of_a_rescan(redis: Redis) -> None:
    repo = TableRepo(redis)
    await _table_with_player(repo, TableService(repo, Metrics()), "t1")
    await redis.delete(keys.DEADLINES)  # as a version without the index left it
    store = CountingStore(repo)
    store.list_ids_failures = 1
    timers = TableTimers(TableService(repo, Metrics()), store, rescan_s=0.05, claim=never_mine)
    await timers.start()
    try:
        for _ in range(500):
            if store.calls["sync_deadlines"]:
                break
            await asyncio.sleep(0.01)
        assert store.calls["list_ids"] == 2
        assert await repo.deadlines_until(T0) == [("t1", 0)]
        await store.rescans(1)  # and from then on, the index only
        assert store.calls["list_ids"] == 2
    finally:
        await timers.stop()


async def test_a_process_without_the_table_or_its_viewers_holds_a_due_deadline_back(redis: Redis) -> None:
    """A free lease should go to the process the table's viewers are routed to: another process claims a
    due table only ``HOLD_BACK_MS`` after its deadline, even while its rescans keep finding the deadline."""
    repo = TableRepo(redis)
    service = TableService(repo, Metrics())
    await _table_with_player(repo, service)  # a pending next-round deadline: due at once
    loop = asyncio.get_running_loop()
    claims: dict[str, list[float]] = {"viewers elsewhere": [], "viewers here": []}

    def claimer(name: str) -> Any:
        async def claim(table_id: str) -> bool:
            claims[name].append(loop.time())
            return False
        return claim

    started = loop.time()
    elsewhere = TableTimers(TableService(repo, Metrics()), repo, rescan_s=0.1,
                            claim=claimer("viewers elsewhere"), hold_back=lambda table_id: True)
    here = TableTimers(TableService(repo, Metrics()), repo, rescan_s=0.1,
                       claim=claimer("viewers here"), hold_back=lambda table_id: False)
    await elsewhere.start()
    await here.start()
    try:
        await asyncio.sleep(HOLD_BACK_MS / 1000 * 0.6)
        assert claims["viewers here"], "the process with viewers claims the table when it is due"
        assert not claims["viewers elsewhere"], "the other one waits"
        await asyncio.sleep(HOLD_BACK_MS / 1000 * 1.2)
        assert claims["viewers elsewhere"], "after the hold-back it claims too (the owner may be gone)"
        assert claims["viewers elsewhere"][0] - started >= HOLD_BACK_MS / 1000 * 0.9
    finally:
        await elsewhere.stop()
        await here.stop()
