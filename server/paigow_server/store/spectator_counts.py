"""``SpectatorCountStore``: each process's spectator counts in Redis, for every other process to read.

A process's counts are one hash, ``keys.spectators(owner)`` (table id → spectators), rewritten whole each
time with a time-to-live, so the counts of a process that dies disappear by themselves. Each put also marks
the owner in ``keys.SPECTATOR_COUNTERS`` with the time its hash lives until, so ``others`` reads every
other live process's hash in two round trips, whatever the size of the keyspace (it scanned the whole
keyspace every second before: a hundred ``SCAN`` calls a second at a hundred thousand keys), and forgets
the owners whose hashes expired. What the counts mean is ``realtime/spectators.py``'s.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from collections.abc import Mapping

from redis.asyncio import Redis
from redis.typing import EncodableT

from paigow_server.store import keys
from paigow_server.store.errors import store_boundary

__all__ = ["SpectatorCountStore"]


_PUT = """
redis.call('DEL', KEYS[1])
if #ARGV < 4 then
  redis.call('ZREM', KEYS[2], ARGV[1])
  return 0
end
for i = 4, #ARGV, 2 do
  redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1])
end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
return 1
"""
"""KEYS: the owner's hash, ``keys.SPECTATOR_COUNTERS`` (both in the ``{global}`` slot). ARGV: the owner, the
time to live, the time the hash lives until, then each table id and its count (none: the owner leaves the
counters). One command a put, where a transaction was six."""


def _text(value: str | bytes) -> str:
    return value.decode() if isinstance(value, bytes) else value


def _now_ms() -> int:
    return time.time_ns() // 1_000_000


@store_boundary
class SpectatorCountStore:
    def __init__(self, redis: Redis, owner: str) -> None:
        self._redis = redis
        self._owner = owner
        self._key = keys.spectators(owner)
        self._put = redis.register_script(_PUT)

    async def put(self, counts: Mapping[str, int], ttl_ms: int) -> None:
        """This process's counts now (tables with none left out), living ``ttl_ms`` unless put again."""
        args: list[EncodableT] = [self._owner, ttl_ms, _now_ms() + ttl_ms]
        for table_id, n in counts.items():
            if n > 0:
                args += [table_id, n]
        await self._put(keys=[self._key, keys.SPECTATOR_COUNTERS], args=args)

    async def others(self) -> Counter[str]:
        """Spectators per table over every other live process, as each last put them."""
        async with self._redis.pipeline(transaction=False) as pipe:
            pipe.zremrangebyscore(keys.SPECTATOR_COUNTERS, "-inf", _now_ms())
            pipe.zrange(keys.SPECTATOR_COUNTERS, 0, -1)
            _, owners = await pipe.execute()
        others = [_text(owner) for owner in owners if _text(owner) != self._owner]
        totals: Counter[str] = Counter()
        if not others:
            return totals
        async with self._redis.pipeline(transaction=False) as pipe:
            for owner in others:
                pipe.hgetall(keys.spectators(owner))
            for counts in await pipe.execute():
                for table_id, n in counts.items():
                    totals[_text(table_id)] += int(n)
        return totals

    async def clear(self, timeout_s: float = 2.0) -> None:
        """Remove this process's counts (at shutdown), waiting at most ``timeout_s``."""
        async with self._redis.pipeline(transaction=True) as pipe:
            pipe.delete(self._key)
            pipe.zrem(keys.SPECTATOR_COUNTERS, self._owner)
            await asyncio.wait_for(pipe.execute(), timeout_s)
