"""A command forwarded between processes runs exactly once: the router gives every attempt of one command
the same request id, the commit records it with the state, and a repeated id is answered with its commit."""

from __future__ import annotations

import asyncio

import pytest
from redis.asyncio import Redis

from paigow.table.commands import ChangeLimits
from paigow.table.commit import Commit
from paigow.table.events import RulesChanged
from paigow.table.machine import apply
from paigow.table.state import new_table
from paigow_server.process.metrics import Metrics
from paigow_server.realtime.lease import LeaseManager
from paigow_server.realtime.router import Router
from paigow_server.realtime.tables import TableService
from paigow_server.store import keys
from paigow_server.store import tables as store_tables
from paigow_server.store.channels import Channels
from paigow_server.store.leases import Leases
from paigow_server.store.tables import CommitResult, TableRepo
from support.commits import commit_now


class SlowRepo(TableRepo):
    """An owner that takes ``delay_s`` before each commit (a stalled process, a slow Redis)."""

    delay_s = 0.0

    async def commit(self, commit: Commit, *, fence: int | None = None,
                     request_id: str | None = None) -> CommitResult:
        await asyncio.sleep(self.delay_s)
        return await super().commit(commit, fence=fence, request_id=request_id)


async def test_a_slow_owner_runs_a_command_the_asker_sent_twice_once(redis: Redis) -> None:
    slow = SlowRepo(redis)
    assert await slow.create(new_table("t1", "slow owner"))
    owner = Router(Channels(redis), LeaseManager(Leases(redis), "proc-owner"), answer_timeout_s=0.3)
    asker = Router(Channels(redis), LeaseManager(Leases(redis), "proc-asker"), answer_timeout_s=0.3)
    owner_service = TableService(slow, Metrics(), router=owner)
    asker_service = TableService(TableRepo(redis), Metrics(), router=asker)
    owner.bind(owner_service.execute_owned)
    asker.bind(asker_service.execute_owned)
    await owner.start()
    await asker.start()
    try:
        assert await owner.claim("t1")
        slow.delay_s = 1.0  # longer than the asker waits for an answer: it sends the command again
        executed = await asker_service.execute("t1", ChangeLimits(1_000, 20_000))
        assert owner.served >= 2, "the asker sent the command again while the owner was still at it"
        await asyncio.sleep(0.2)  # let the owner finish whatever it still has in hand
        log = await slow.event_log("t1")
        assert [c.version for c in log] == [1], "one commit, however often the command arrived"
        assert executed.version == 1
        assert [type(e) for e in executed.events] == [RulesChanged]
        state = await slow.load("t1")
        assert state is not None
        assert (state.version, state.rules.min_bet_cents) == (1, 1_000)
    finally:
        await asker.stop()
        await owner.stop()


async def test_the_commit_refuses_a_request_id_it_wrote_and_remembers_its_version(redis: Redis) -> None:
    repo = TableRepo(redis)
    table = new_table("t1", "once")
    assert await repo.create(table)
    after, events = apply(table, ChangeLimits(1_000, 20_000), seed=bytes(32))
    assert await repo.commit(commit_now(table, after, events), request_id="r1") is CommitResult.OK
    assert await repo.committed_version("t1", "r1") == after.version
    again, more = apply(after, ChangeLimits(1_000, 20_000), seed=bytes(32))
    assert await repo.commit(commit_now(after, again, more), request_id="r1") is CommitResult.DUPLICATE
    assert await repo.version("t1") == after.version, "a duplicate writes nothing"
    commit = await repo.commit_at("t1", after.version)
    assert commit is not None
    assert commit.events == tuple(events)
    assert await repo.committed_version("t1", "r2") is None


async def test_only_the_last_request_ids_are_kept(redis: Redis, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store_tables, "REQUESTS_KEPT", 3)
    repo = TableRepo(redis)
    state = new_table("t1", "trimmed")
    assert await repo.create(state)
    for n in range(5):
        after, events = apply(state, ChangeLimits(1_000 + n, 20_000), seed=bytes(32))
        assert await repo.commit(commit_now(state, after, events), request_id=f"r{n}") is CommitResult.OK
        state = after
    kept = await redis.zrange(keys.table_requests("t1"), 0, -1, withscores=True)
    assert kept == [("r2", 3.0), ("r3", 4.0), ("r4", 5.0)]


async def test_a_repeated_request_is_answered_with_its_first_outcome_on_any_process(redis: Redis) -> None:
    repo = TableRepo(redis)
    assert await repo.create(new_table("t1", "taken over"))
    first, second = TableService(repo, Metrics()), TableService(TableRepo(redis), Metrics())
    done = await first.execute_owned("t1", ChangeLimits(1_000, 20_000), request_id="r1")
    # The process that ran it died before answering; the table is now driven by another one, which gets the
    # same request again from the asker.
    again = await second.execute_owned("t1", ChangeLimits(1_000, 20_000), request_id="r1")
    assert (again.version, again.events) == (done.version, done.events)
    assert await repo.version("t1") == done.version
