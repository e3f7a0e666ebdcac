"""TableService: load → decide with a fresh seed → compare-and-set commit → retry on conflict."""

from __future__ import annotations

import pytest

from paigow.protocol.codes import ErrorCode
from paigow.table.commands import Command, PlaceBet, Sit, Tick
from paigow.table.commit import Commit, VersionedEvents
from paigow.table.events import Event, PlayerSat
from paigow.table.machine import apply
from paigow.table.rejections import RejectCode, Rejection
from paigow.table.state import TableState, new_table
from paigow_server.process.metrics import Metrics
from paigow_server.realtime.tables import (
    Executed,
    FencedError,
    InsufficientBalanceError,
    TableBusyError,
    TableNotFoundError,
    TableService,
)
from paigow_server.store.tables import CommitResult

NOW = 1_800_000_000_000


class FakeStore:
    """An in-memory TableRepo: compare-and-set on the version; scripted results for the next commits."""

    def __init__(self, *states: TableState) -> None:
        self.states = {s.table_id: s for s in states}
        self.commits: list[tuple[int, int, tuple[Event, ...], int | None]] = []
        self.script: list[CommitResult] = []
        self.interfere: list[Command] = []
        """Commands another process commits just before our next commit (a real conflict)."""
        self.requests: dict[str, int] = {}
        """Request id -> the version its commit wrote."""

    async def load(self, table_id: str) -> TableState | None:
        return self.states.get(table_id)

    async def commit(self, commit: Commit, *, fence: int | None = None,
                     request_id: str | None = None) -> CommitResult:
        before, after, events = commit.before, commit.after, commit.events
        if self.interfere:
            current = self.states[before.table_id]
            self.states[before.table_id], _ = apply(current, self.interfere.pop(0), seed=bytes(32))
        if self.script:
            return self.script.pop(0)
        if self.states[before.table_id].version != before.version:
            return CommitResult.CONFLICT
        if request_id is not None and request_id in self.requests:
            return CommitResult.DUPLICATE
        self.states[before.table_id] = after
        self.commits.append((before.version, after.version, tuple(events), fence))
        if request_id is not None:
            self.requests[request_id] = after.version
        return CommitResult.OK

    async def committed_version(self, table_id: str, request_id: str) -> int | None:
        return self.requests.get(request_id)

    async def commit_at(self, table_id: str, version: int) -> VersionedEvents | None:
        return next((VersionedEvents(v, events) for _, v, events, _ in self.commits if v == version), None)


def _service(store: FakeStore) -> tuple[TableService, Metrics]:
    metrics = Metrics()
    return TableService(store, metrics, clock=lambda: NOW), metrics


def _count(metrics: Metrics, kind: str, result: str) -> float:
    value = metrics.registry.get_sample_value("paigow_commands_total", {"type": kind, "result": result})
    return 0.0 if value is None else value


async def test_an_accepted_command_is_committed_once_with_its_events() -> None:
    store = FakeStore(new_table("t1", "Main"))
    service, metrics = _service(store)
    executed = await service.execute("t1", Sit(player_id="p1", name="Ann", seat=2, buy_in_cents=50_000))
    assert executed.version == 1
    assert executed.state.seat_of("p1") == 2
    assert isinstance(executed.events[0], PlayerSat)
    assert store.states["t1"] == executed.state
    assert [(b, a) for b, a, _, _ in store.commits] == [(0, 1)]
    assert _count(metrics, "sit", "accepted") == 1


async def test_a_rejection_changes_nothing_and_is_counted_by_code() -> None:
    store = FakeStore(new_table("t1", "Main"))
    service, metrics = _service(store)
    with pytest.raises(Rejection) as info:
        await service.execute("t1", PlaceBet(player_id="nobody", amount_cents=500))
    assert info.value.code is RejectCode.NOT_SEATED
    assert store.commits == []
    assert store.states["t1"].version == 0
    assert _count(metrics, "place_bet", "NOT_SEATED") == 1


async def test_a_command_that_changes_nothing_writes_nothing() -> None:
    store = FakeStore(new_table("t1", "Main"))
    service, metrics = _service(store)
    executed = await service.execute("t1", Tick(now_ms=NOW))
    assert executed == Executed(0, store.states["t1"], ())
    assert store.commits == []
    assert _count(metrics, "tick", "unchanged") == 1


async def test_a_conflict_decides_the_command_again_on_the_new_state() -> None:
    store = FakeStore(new_table("t1", "Main"))
    store.interfere.append(Sit(player_id="p2", name="Bo", seat=3, buy_in_cents=10_000))
    service, metrics = _service(store)
    executed = await service.execute("t1", Sit(player_id="p1", name="Ann", seat=2, buy_in_cents=50_000))
    assert executed.version == 2  # decided again after Bo's commit
    assert executed.state.seat_of("p1") == 2
    assert executed.state.seat_of("p2") == 3
    assert _count(metrics, "sit", "conflict") == 1
    assert _count(metrics, "sit", "accepted") == 1


async def test_a_conflict_can_turn_into_a_rejection() -> None:
    store = FakeStore(new_table("t1", "Main"))
    store.interfere.append(Sit(player_id="p2", name="Bo", seat=2, buy_in_cents=10_000))
    service, _ = _service(store)
    with pytest.raises(Rejection) as info:
        await service.execute("t1", Sit(player_id="p1", name="Ann", seat=2, buy_in_cents=50_000))
    assert info.value.code is RejectCode.SEAT_TAKEN


async def test_endless_conflicts_give_up_with_busy() -> None:
    store = FakeStore(new_table("t1", "Main"))
    store.script = [CommitResult.CONFLICT] * 100
    service = TableService(store, Metrics(), clock=lambda: NOW, max_attempts=3)
    with pytest.raises(TableBusyError) as info:
        await service.execute("t1", Sit(player_id="p1", name="Ann", seat=2, buy_in_cents=50_000))
    assert info.value.code is ErrorCode.BUSY
    assert len(store.script) == 97
    assert store.states["t1"].version == 0


async def test_a_buy_in_over_the_balance_is_refused() -> None:
    store = FakeStore(new_table("t1", "Main"))
    store.script = [CommitResult.INSUFFICIENT_BALANCE]
    service, metrics = _service(store)
    with pytest.raises(InsufficientBalanceError, match=r"\$500.00"):
        await service.execute("t1", Sit(player_id="p1", name="Ann", seat=2, buy_in_cents=50_000))
    assert _count(metrics, "sit", "INSUFFICIENT_BALANCE") == 1


async def test_a_fenced_write_raises_for_the_router() -> None:
    store = FakeStore(new_table("t1", "Main"))
    store.script = [CommitResult.FENCED]
    service, _ = _service(store)
    with pytest.raises(FencedError):
        await service.execute_owned("t1", Sit(player_id="p1", name="Ann", seat=2, buy_in_cents=500), fence=7)


async def test_the_fence_token_reaches_the_store() -> None:
    store = FakeStore(new_table("t1", "Main"))
    service, _ = _service(store)
    await service.execute_owned("t1", Sit(player_id="p1", name="Ann", seat=2, buy_in_cents=500), fence=7)
    assert store.commits[0][3] == 7


async def test_an_unknown_table() -> None:
    service, _ = _service(FakeStore())
    with pytest.raises(TableNotFoundError, match="no table 'nope'"):
        await service.execute("nope", Tick(now_ms=NOW))


async def test_each_new_round_gets_a_fresh_seed() -> None:
    store = FakeStore(*(new_table(f"t{i}", "Main") for i in range(3)))
    service, _ = _service(store)
    seeds = set()
    for i in range(3):
        await service.execute(f"t{i}", Sit(player_id="p1", name="Ann", seat=2, buy_in_cents=50_000))
        await service.execute(f"t{i}", Tick(now_ms=NOW))  # stamps the pending next-round timer
        executed = await service.execute(f"t{i}", Tick(now_ms=NOW + 10**7))  # starts a round
        assert executed.state.round is not None
        seeds.add(executed.state.round.server_seed)
    assert len(seeds) == 3


async def test_observers_hear_of_commits_and_of_executed_commands() -> None:
    store = FakeStore(new_table("t1", "Main"))
    service, _ = _service(store)
    commits: list[tuple[str, int]] = []
    executed_seen: list[tuple[str, int, float | None]] = []
    service.observe_commits(lambda table_id, state: commits.append((table_id, state.version)))
    service.observe_executed(lambda table_id, ex, at: executed_seen.append((table_id, ex.version, at)))
    await service.execute("t1", Sit(player_id="p1", name="Ann", seat=2, buy_in_cents=500), received_at=1.5)
    await service.execute("t1", Tick(now_ms=0))  # may or may not change the table; counted only if it did
    assert commits[0] == ("t1", 1)
    assert executed_seen[0] == ("t1", 1, 1.5)
    assert len(commits) == len(executed_seen)


async def test_with_a_router_commands_go_through_it() -> None:
    store = FakeStore(new_table("t1", "Main"))
    routed: list[str] = []

    class Router:
        async def execute(self, table_id: str, command: Command, *,
                          received_at: float | None = None) -> Executed:
            routed.append(command.kind)
            return await service.execute_owned(table_id, command, received_at=received_at, fence=3)

    service = TableService(store, Metrics(), router=Router(), clock=lambda: NOW)
    executed = await service.execute("t1", Sit(player_id="p1", name="Ann", seat=2, buy_in_cents=500))
    assert routed == ["sit"]
    assert executed.version == 1
    assert store.commits[0][3] == 3
