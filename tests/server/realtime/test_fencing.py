"""A stale owner cannot write: the store's commit checks the fencing token in the same script as the
version compare-and-set, and the router routes a fenced command again."""

from __future__ import annotations

import asyncio

from redis.asyncio import Redis

from paigow.table.commands import PauseTable, ResumeTable
from paigow.table.machine import apply
from paigow.table.state import TableState, new_table
from paigow_server.process.metrics import Metrics
from paigow_server.realtime.lease import Lease, LeaseManager
from paigow_server.realtime.router import Router
from paigow_server.realtime.tables import TableService
from paigow_server.store import keys
from paigow_server.store.channels import Channels
from paigow_server.store.leases import Leases
from paigow_server.store.tables import CommitResult, TableRepo
from support.commits import commit_now


async def test_a_commit_with_an_old_token_is_refused_and_writes_nothing(redis: Redis) -> None:
    repo = TableRepo(redis)
    assert await repo.create(new_table("t1", "fenced"))
    a = LeaseManager(Leases(redis), "proc-a", ttl_ms=100)
    b = LeaseManager(Leases(redis), "proc-b")
    old = await a.acquire("t1")
    assert isinstance(old, Lease)
    before = await repo.load("t1")
    assert before is not None
    after, events = apply(before, PauseTable(), seed=bytes(32))
    await asyncio.sleep(0.15)  # a "pauses" past its lease; b takes the table over
    new = await b.acquire("t1")
    assert isinstance(new, Lease)
    assert new.token > old.token
    assert await repo.commit(commit_now(before, after, events), fence=old.token) is CommitResult.FENCED
    unchanged = await repo.load("t1")
    assert unchanged == before, "a fenced commit writes nothing"
    assert await redis.llen(keys.table_log("t1")) == 0
    assert await repo.commit(commit_now(before, after, events), fence=new.token) is CommitResult.OK
    written = await repo.load("t1")
    assert written is not None
    assert written.paused


async def test_a_stale_owner_that_wakes_up_routes_its_command_to_the_new_owner(redis: Redis) -> None:
    repo = TableRepo(redis)
    assert await repo.create(new_table("t1", "fenced"))
    routers = [Router(Channels(redis),
                      LeaseManager(Leases(redis), f"proc-{i}", ttl_ms=200, renew_every_ms=60_000),
                      answer_timeout_s=2) for i in range(2)]
    services = [TableService(repo, Metrics(), router=router) for router in routers]
    for service, router in zip(services, routers, strict=True):
        router.bind(service.execute_owned)
        await router.start()
    try:
        stale, fresh = routers
        await services[0].execute("t1", PauseTable())
        assert stale.leases.held("t1") is not None
        await asyncio.sleep(0.25)  # no renewal (renew_every_ms is huge): the lease expires
        await services[1].execute("t1", ResumeTable())  # fresh takes over with a larger token
        await services[1].execute("t1", PauseTable())
        # The stale process wakes up still believing in its old lease (as if its clock had stopped), with
        # its own memory of the table (paused, two versions ago): ResumeTable is valid there, so it tries
        # to write, and the fence refuses it.
        token = int(await redis.get(keys.table_fence("t1")))
        stale.leases._held["t1"] = (token - 1, float("inf"))
        executed = await services[0].execute("t1", ResumeTable())
        assert not executed.state.paused
        assert stale.leases.held("t1") is None, "the fenced write made it forget the stale lease"
        assert fresh.served == 1, "the command ran on the new owner"
        state = await repo.load("t1")
        assert state is not None
        assert state.version == executed.version
    finally:
        for router in routers:
            await router.stop()


class CountingRepo(TableRepo):
    loads = 0

    async def load(self, table_id: str) -> TableState | None:
        self.loads += 1
        return await super().load(table_id)


async def test_the_lease_holder_decides_on_its_own_copy_and_reloads_after_a_conflict(redis: Redis) -> None:
    repo = CountingRepo(redis)
    assert await repo.create(new_table("t1", "cached"))
    service = TableService(repo, Metrics())
    await redis.set(keys.table_fence("t1"), 1)  # as if we had acquired the lease with token 1
    await service.execute_owned("t1", PauseTable(), fence=1)
    await service.execute_owned("t1", ResumeTable(), fence=1)
    assert repo.loads == 1, "with a fencing token, the state written last is the next command's start"
    await redis.set(keys.table_fence("t1"), 2)
    await service.execute_owned("t1", PauseTable(), fence=2)
    assert repo.loads == 2, "a new token (the lease changed hands meanwhile): read the table again"
    # someone writes behind our back (impossible under a lease, but the compare-and-set still guards it)
    other = TableService(TableRepo(redis), Metrics())
    await other.execute_owned("t1", ResumeTable(), fence=None)
    await other.execute_owned("t1", PauseTable(), fence=None)
    executed = await service.execute_owned("t1", ResumeTable(), fence=2)
    assert not executed.state.paused
    assert repo.loads == 3, "the conflict dropped the copy and the command was decided on a fresh load"
    await service.execute_owned("t1", PauseTable())
    assert repo.loads == 4, "without a fencing token every command reads the table"
