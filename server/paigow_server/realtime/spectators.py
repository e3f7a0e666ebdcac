"""``SpectatorCounts``: how many spectators watch each table, over every server process.

Each process counts its own spectators (the fanout knows them) and, every ``every_s`` seconds, rewrites
its hash ``keys.spectators(owner)`` (table id → count) with a time-to-live of a few periods, so the counts
of a process that dies disappear by themselves. The same task reads the other processes' hashes and keeps
their totals, so ``count(table_id)`` — what ``GET /api/tables`` shows — is this process's live count plus
the others' as of the last refresh.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import Counter
from collections.abc import Callable

from redis.asyncio import Redis
from redis.exceptions import RedisError
from redis.typing import EncodableT, FieldT

from paigow_server.process.tasks import stop_task
from paigow_server.store import keys

__all__ = ["SpectatorCounts"]

log = logging.getLogger("paigow_server.spectators")

TTL_PERIODS = 5


class SpectatorCounts:
    def __init__(self, redis: Redis, owner: str, local: Callable[[], dict[str, int]], *,
                 every_s: float = 1.0) -> None:
        self._redis = redis
        self._key = keys.spectators(owner)
        self._local = local
        self._every_s = every_s
        self._remote: Counter[str] = Counter()
        self._task: asyncio.Task[None] | None = None

    def remote(self, table_id: str) -> int:
        """Spectators of ``table_id`` on the other processes (as of the last refresh)."""
        return self._remote[table_id]

    async def start(self) -> None:
        if self._task is None:
            await self.refresh()
            self._task = asyncio.create_task(self._run(), name="paigow-spectator-counts")

    async def stop(self) -> None:
        task, self._task = self._task, None
        await stop_task(task)
        with contextlib.suppress(RedisError, OSError, TimeoutError):
            await asyncio.wait_for(self._redis.delete(self._key), 2.0)

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self._every_s)
            try:
                await self.refresh()
            except (RedisError, OSError) as exc:
                log.warning("spectator counts not refreshed: %s", exc)

    async def refresh(self) -> None:
        """Publish this process's counts; read everyone else's."""
        mine: dict[FieldT, EncodableT] = {table_id: n for table_id, n in self._local().items() if n > 0}
        async with self._redis.pipeline(transaction=True) as pipe:
            pipe.delete(self._key)
            if mine:
                pipe.hset(self._key, mapping=mine)
                pipe.pexpire(self._key, int(self._every_s * 1000 * TTL_PERIODS))
            await pipe.execute()
        totals: Counter[str] = Counter()
        async for key in self._redis.scan_iter(match=keys.SPECTATORS_PATTERN, count=100):
            if _text(key) == self._key:
                continue
            for table_id, n in (await self._redis.hgetall(key)).items():
                totals[_text(table_id)] += int(n)
        self._remote = totals


def _text(value: str | bytes) -> str:
    return value.decode() if isinstance(value, bytes) else value
