"""The sweeper sweeps every few seconds where a commit can leave work behind (the outbox of a Redis Cluster,
a commit no replica confirmed), and only once, at start, where one script writes each whole commit."""

from __future__ import annotations

import asyncio

from redis.asyncio import Redis

from paigow_server.realtime.outbox_sweeper import OutboxSweeper
from paigow_server.store.durability import Durability
from paigow_server.store.tables import TableRepo


class CountingRepo(TableRepo):
    sweeps = 0

    async def sweep(self, *, now_ms: int | None = None) -> tuple[int, int]:
        self.sweeps += 1
        return await super().sweep(now_ms=now_ms)


async def _sweeps_in(repo: CountingRepo, seconds: float) -> int:
    sweeper = OutboxSweeper(repo, interval_s=0.02)
    await sweeper.start()
    try:
        await asyncio.sleep(seconds)
    finally:
        await sweeper.stop()
    return repo.sweeps


async def test_one_script_per_commit_is_swept_once_at_start(redis: Redis) -> None:
    repo = CountingRepo(redis)
    assert repo.direct
    assert not repo.leaves_work_behind
    assert await _sweeps_in(repo, 0.3) == 1


async def test_the_outbox_and_unconfirmed_commits_are_swept_again_and_again(redis: Redis) -> None:
    through_outbox = CountingRepo(redis, outbox=True)
    confirming = CountingRepo(redis, durability=Durability(replica_acks=1, ack_timeout_ms=50))
    for repo in (through_outbox, confirming):
        assert repo.leaves_work_behind
        assert await _sweeps_in(repo, 0.3) >= 3
