"""A stale owner cannot write: the store's commit checks the fencing token in the same script as the
version compare-and-set, and the router routes a fenced command again."""

from __future__ import annotations

import asyncio

from redis.asyncio import Redis

from paigow.table.commands import PauseTable, ResumeTable
from paigow.table.machine import apply
from paigow.table.state import new_table
from paigow_server.lease import Lease, LeaseManager
from paigow_server.metrics import Metrics
from paigow_server.router import Router
from paigow_server.store import keys
from paigow_server.store.tables import CommitResult, TableRepo
from paigow_server.tables import TableService


async def test_a_commit_with_an_old_token_is_refused_and_writes_nothing(redis: Redis) -> None:
    repo = TableRepo(redis)
    assert await repo.create(new_table("t1", "fenced"))
    a = LeaseManager(redis, "proc-a", ttl_ms=100)
    b = LeaseManager(redis, "proc-b")
    old = await a.acquire("t1")
    assert isinstance(old, Lease)
    before = await repo.load("t1")
    assert before is not None
    after, events = apply(before, PauseTable(), seed=bytes(32))
    await asyncio.sleep(0.15)  # a "pauses" past its lease; b takes the table over
    new = await b.acquire("t1")
    assert isinstance(new, Lease)
    assert new.token > old.token
    assert await repo.commit(before, after, events, fence=old.token) is CommitResult.FENCED
    unchanged = await repo.load("t1")
    assert unchanged == before, "a fenced commit writes nothing"
    assert await redis.llen(keys.table_log("t1")) == 0
    assert await repo.commit(before, after, events, fence=new.token) is CommitResult.OK
    written = await repo.load("t1")
    assert written is not None
    assert written.paused


async def test_a_stale_owner_that_wakes_up_routes_its_command_to_the_new_owner(redis: Redis) -> None:
    repo = TableRepo(redis)
    assert await repo.create(new_table("t1", "fenced"))
    services = [TableService(repo, Metrics()) for _ in range(2)]
    routers = [Router(redis, LeaseManager(redis, f"proc-{i}", ttl_ms=200, renew_every_ms=60_000),
                      services[i].execute_owned, answer_timeout_s=2) for i in range(2)]
    for service, router in zip(services, routers, strict=True):
        service.attach_router(router)
        await router.start()
    try:
        stale, fresh = routers
        await services[0].execute("t1", PauseTable())
        assert stale.leases.held("t1") is not None
        await asyncio.sleep(0.25)  # no renewal (renew_every_ms is huge): the lease expires
        await services[1].execute("t1", ResumeTable())  # fresh takes over with a larger token
        # The stale process wakes up still believing in its old lease (as if its clock had stopped):
        token = int(await redis.get(keys.table_fence("t1")))
        stale.leases._held["t1"] = (token - 1, float("inf"))
        executed = await services[0].execute("t1", PauseTable())
        assert executed.state.paused
        assert stale.leases.held("t1") is None, "the fenced write made it forget the stale lease"
        assert fresh.served == 1, "the command ran on the new owner"
        state = await repo.load("t1")
        assert state is not None
        assert state.version == executed.version
    finally:
        for router in routers:
            await router.stop()
