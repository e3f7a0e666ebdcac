"""``SpectatorCountStore``: each process's spectator counts in Redis, for every other process to read.

A process's counts are one hash, ``keys.spectators(owner)`` (table id → spectators), rewritten whole each
time with a time-to-live, so the counts of a process that dies disappear by themselves. ``others`` sums
every other process's hash. What the counts mean is ``realtime/spectators.py``'s.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Mapping

from redis.asyncio import Redis
from redis.typing import EncodableT, FieldT

from paigow_server.store import keys
from paigow_server.store.errors import store_boundary

__all__ = ["SpectatorCountStore"]


def _text(value: str | bytes) -> str:
    return value.decode() if isinstance(value, bytes) else value


@store_boundary
class SpectatorCountStore:
    def __init__(self, redis: Redis, owner: str) -> None:
        self._redis = redis
        self._key = keys.spectators(owner)

    async def put(self, counts: Mapping[str, int], ttl_ms: int) -> None:
        """This process's counts now (tables with none left out), living ``ttl_ms`` unless put again."""
        mine: dict[FieldT, EncodableT] = {table_id: n for table_id, n in counts.items() if n > 0}
        async with self._redis.pipeline(transaction=True) as pipe:
            pipe.delete(self._key)
            if mine:
                pipe.hset(self._key, mapping=mine)
                pipe.pexpire(self._key, ttl_ms)
            await pipe.execute()

    async def others(self) -> Counter[str]:
        """Spectators per table over every other process, as each last put them."""
        totals: Counter[str] = Counter()
        async for key in self._redis.scan_iter(match=keys.SPECTATORS_PATTERN, count=100):
            if _text(key) == self._key:
                continue
            for table_id, n in (await self._redis.hgetall(key)).items():
                totals[_text(table_id)] += int(n)
        return totals

    async def clear(self, timeout_s: float = 2.0) -> None:
        """Remove this process's counts (at shutdown), waiting at most ``timeout_s``."""
        await asyncio.wait_for(self._redis.delete(self._key), timeout_s)
