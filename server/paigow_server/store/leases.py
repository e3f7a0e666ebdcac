"""``Leases``: the table leases' Redis side — one key per table and a fencing counter, three Lua scripts.

A lease is ``keys.table_lease(id)`` holding ``"<owner> <token>"`` with a time-to-live; a free (or expired)
lease takes a new token from ``keys.table_fence(id)`` (``INCR``), so successive owners' tokens strictly
increase. Acquire, renew and release are each one atomic script; ``renew`` sends every lease of a process
in one round trip. What a lease means, and who renews it when, is ``realtime/lease.py``'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from redis.asyncio import Redis

from paigow_server.store import keys
from paigow_server.store.client import is_cluster
from paigow_server.store.errors import store_boundary

__all__ = ["Held", "Leases"]

_ACQUIRE = """
local current = redis.call('GET', KEYS[1])
if current then
  local sep = string.find(current, ' ', 1, true)
  local owner = string.sub(current, 1, sep - 1)
  local token = tonumber(string.sub(current, sep + 1))
  if owner == ARGV[1] then
    redis.call('PEXPIRE', KEYS[1], ARGV[2])
    return {1, token, owner, tonumber(ARGV[2])}
  end
  return {0, token, owner, redis.call('PTTL', KEYS[1])}
end
local token = redis.call('INCR', KEYS[2])
redis.call('SET', KEYS[1], ARGV[1] .. ' ' .. token, 'PX', ARGV[2])
return {1, token, ARGV[1], tonumber(ARGV[2])}
"""

_RENEW = """
local current = redis.call('GET', KEYS[1])
if current == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
if not current and redis.call('GET', KEYS[2]) == ARGV[3] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0
"""
"""Renew our lease; one that expired while nobody else took it (the fence is still our token) is ours
again."""

_RENEW_MANY = """
local out = {}
for i = 1, #KEYS / 2 do
  local lease, fence, value, token = KEYS[2 * i - 1], KEYS[2 * i], ARGV[2 * i], ARGV[2 * i + 1]
  local current = redis.call('GET', lease)
  if current == value then
    out[i] = redis.call('PEXPIRE', lease, ARGV[1])
  elseif not current and redis.call('GET', fence) == token then
    redis.call('SET', lease, value, 'PX', ARGV[1])
    out[i] = 1
  else
    out[i] = 0
  end
end
return out
"""
"""``_RENEW`` of many leases in one script, where every key is on the one Redis (not a cluster's slots).
KEYS: each lease and its fence; ARGV: 1 the time to live, then each lease's value and token."""

RENEW_CHUNK = 1_000
"""Leases renewed by one script call at most (a short script: Redis serves nobody else meanwhile)."""

_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""


class Held(NamedTuple):
    """Who holds a table's lease in Redis: its owner, its fencing token, how long it still lives."""

    owner: str
    token: int
    ttl_ms: int


def _text(value: str | bytes) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


@store_boundary
class Leases:
    def __init__(self, redis: Redis) -> None:
        self._redis = redis
        self._acquire = redis.register_script(_ACQUIRE)
        self._renew = redis.register_script(_RENEW)
        self._renew_many = None if is_cluster(redis) else redis.register_script(_RENEW_MANY)
        self._release = redis.register_script(_RELEASE)

    async def acquire(self, table_id: str, owner: str, ttl_ms: int) -> Held:
        """Take (or renew) the lease for ``owner``; the holder after: ``owner`` itself when it got it."""
        _, token, holder, ttl = await self._acquire(
            keys=[keys.table_lease(table_id), keys.table_fence(table_id)], args=[owner, ttl_ms])
        return Held(_text(holder), int(token), max(int(ttl), 0))

    async def renew(self, owner: str, leases: Sequence[tuple[str, int]], ttl_ms: int) -> list[bool]:
        """Renew each (table id, token) of ``owner`` for ``ttl_ms``, in one round trip: which are still
        ours (one that expired while nobody took it, the fence still at our token, is ours again). On one
        Redis one script renews them all (up to ``RENEW_CHUNK`` a call); on a cluster, one script each,
        pipelined."""
        if self._renew_many is not None:
            results: list[bool] = []
            for start in range(0, len(leases), RENEW_CHUNK):
                chunk = leases[start:start + RENEW_CHUNK]
                script_keys: list[str] = []
                args: list[str | int] = [ttl_ms]
                for table_id, token in chunk:
                    script_keys += [keys.table_lease(table_id), keys.table_fence(table_id)]
                    args += [f"{owner} {token}", token]
                results += [int(ok) == 1 for ok in await self._renew_many(keys=script_keys, args=args)]
            return results
        async with self._redis.pipeline(transaction=False) as pipe:
            for table_id, token in leases:
                await self._renew(keys=[keys.table_lease(table_id), keys.table_fence(table_id)],
                                  args=[f"{owner} {token}", ttl_ms, token], client=pipe)
            results = await pipe.execute()
        return [int(ok) == 1 for ok in results]

    async def release(self, table_id: str, owner: str, token: int) -> bool:
        """Give the lease up now; False when it was not ``owner``'s (with ``token``) any more."""
        return int(await self._release(keys=[keys.table_lease(table_id)], args=[f"{owner} {token}"])) == 1

    async def holder(self, table_id: str) -> Held | None:
        """Who holds the lease now (None: nobody)."""
        raw = await self._redis.get(keys.table_lease(table_id))
        if raw is None:
            return None
        owner, _, token = _text(raw).partition(" ")
        ttl = int(await self._redis.pttl(keys.table_lease(table_id)))
        return Held(owner, int(token), max(ttl, 0))
