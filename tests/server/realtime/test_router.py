"""``Router``: commands reach the table's owner through Redis; dead owners are taken over; fenced writes
are retried. The local executor is a fake that records who ran what with which fencing token."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import pytest
from redis.asyncio import Redis

from paigow.table.commands import Command, PlaceBet, Tick
from paigow.table.rejections import RejectCode, Rejection
from paigow.table.state import new_table
from paigow_server.realtime.lease import LeaseManager
from paigow_server.realtime.router import Router, RouteTimeoutError
from paigow_server.realtime.tables import Executed, FencedError, TableNotFoundError
from paigow_server.store.channels import Channels
from paigow_server.store.leases import Leases


@dataclass
class FakeTables:
    """Stands in for ``TableService.execute_owned`` of one process."""

    name: str
    ran: list[tuple[str, str, int | None]] = field(default_factory=list)
    fence_once: bool = False

    async def __call__(self, table_id: str, command: Command, *, received_at: float | None,
                       fence: int | None, request_id: str | None = None) -> Executed:
        if self.fence_once:
            self.fence_once = False
            raise FencedError("the fence moved")
        self.ran.append((table_id, command.kind, fence))
        if table_id == "missing":
            raise TableNotFoundError(f"no table {table_id!r}")
        if isinstance(command, PlaceBet) and command.amount_cents < 0:
            raise Rejection(RejectCode.BELOW_MINIMUM, f"bet {command.amount_cents} is below the minimum",
                            amount_cents=command.amount_cents, limit_cents=500)
        state = dataclasses.replace(new_table(table_id, f"ran by {self.name}"), version=len(self.ran))
        return Executed(state.version, state, ())


@pytest.fixture
async def routers(redis: Redis) -> AsyncIterator[tuple[Router, FakeTables, Router, FakeTables]]:
    a_tables, b_tables = FakeTables("a"), FakeTables("b")
    a = Router(Channels(redis), LeaseManager(Leases(redis), "proc-a", ttl_ms=400), a_tables, deadline_s=3,
               answer_timeout_s=1)
    b = Router(Channels(redis), LeaseManager(Leases(redis), "proc-b", ttl_ms=400), b_tables, deadline_s=3,
               answer_timeout_s=1)
    await a.start()
    await b.start()
    yield a, a_tables, b, b_tables
    await a.stop()
    await b.stop()


async def test_a_command_sent_to_any_process_runs_on_the_owner(
        routers: tuple[Router, FakeTables, Router, FakeTables]) -> None:
    a, a_tables, b, b_tables = routers
    first = await a.execute("t1", Tick(1))
    assert first.state.name == "ran by a"
    through_b = await b.execute("t1", PlaceBet("p1", 500))
    assert through_b.state.name == "ran by a", "b forwarded to the owner"
    assert through_b.state.version == 2
    assert a_tables.ran == [("t1", "tick", 1), ("t1", "place_bet", 1)]
    assert b_tables.ran == []
    assert (b.forwarded, a.served) == (1, 1)
    assert await b.claim("t1") is False
    assert await a.claim("t1") is True


async def test_rejections_and_service_errors_cross_processes_with_their_codes(
        routers: tuple[Router, FakeTables, Router, FakeTables]) -> None:
    a, _, b, _ = routers
    await a.execute("t1", Tick(1))
    with pytest.raises(Rejection) as rejected:
        await b.execute("t1", PlaceBet("p1", -5))
    assert rejected.value.code is RejectCode.BELOW_MINIMUM
    assert "below the minimum" in rejected.value.message
    assert rejected.value.fields == {"amount_cents": -5, "limit_cents": 500}  # its amounts cross too
    with pytest.raises(TableNotFoundError):
        await a.execute("missing", Tick(1))  # a owns "missing" now
    with pytest.raises(TableNotFoundError, match="no table 'missing'"):
        await b.execute("missing", Tick(2))


async def test_a_dead_owners_tables_are_taken_over_after_the_lease_expires(
        routers: tuple[Router, FakeTables, Router, FakeTables]) -> None:
    a, _, b, b_tables = routers
    await a.execute("t1", Tick(1))
    # a dies: no more listening, no more renewals, leases not released
    assert a._listener is not None
    a._listener.cancel()
    await a.leases.stop(release=False)
    loop = asyncio.get_running_loop()
    started = loop.time()
    executed = await b.execute("t1", Tick(2))
    waited = loop.time() - started
    assert executed.state.name == "ran by b"
    assert b_tables.ran == [("t1", "tick", 2)], "the new owner writes with the next fencing token"
    assert waited < 2.0


async def test_a_fenced_write_forgets_the_lease_and_routes_again(
        routers: tuple[Router, FakeTables, Router, FakeTables]) -> None:
    a, a_tables, _, _ = routers
    await a.execute("t1", Tick(1))
    a_tables.fence_once = True
    executed = await a.execute("t1", Tick(2))
    assert executed.state.name == "ran by a"
    assert a_tables.ran == [("t1", "tick", 1), ("t1", "tick", 1)]


async def test_an_owner_that_never_answers_makes_the_command_time_out(redis: Redis) -> None:
    silent = LeaseManager(Leases(redis), "proc-silent", ttl_ms=60_000)
    await silent.acquire("t1")
    listener = redis.pubsub()
    await listener.subscribe("paigow:proc:proc-silent")  # it hears, but never answers
    asker = Router(Channels(redis), LeaseManager(Leases(redis), "proc-b"), FakeTables("b"), deadline_s=0.6,
                   answer_timeout_s=0.2)
    await asker.start()
    try:
        with pytest.raises(RouteTimeoutError, match="nothing changed"):
            await asker.execute("t1", Tick(1))
    finally:
        await asker.stop()
        await listener.aclose()
