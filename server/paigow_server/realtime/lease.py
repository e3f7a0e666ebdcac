"""Per-table leases with fencing tokens: which process drives a table right now.

A lease is one Redis key per table holding ``"<owner> <token>"`` with a time-to-live of a few seconds.
Acquiring a free (or expired) lease takes a new fencing token from a per-table counter (``INCR``), so the
tokens of successive owners strictly increase. The owner renews its leases in the background; when it
dies they expire and another process acquires the table with a larger token.

A commit carries the writer's token, and the store compares it with the counter inside the same script
as the version compare-and-set (``TableRepo.commit(..., fence=token)`` answers ``FENCED``): a stale
owner that wakes up after its lease was taken over holds a smaller token than the counter, and its
write is refused. That holds even when
its clock, its renewal loop or its idea of time is wrong, which a TTL alone cannot promise.

Acquire, renew and release are Lua scripts, each atomic in Redis.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from redis.asyncio import Redis
from redis.exceptions import RedisError

from paigow_server.process.tasks import stop_task
from paigow_server.store import keys

__all__ = [
    "DEFAULT_TTL_MS",
    "Lease",
    "LeaseHolder",
    "LeaseManager",
    "new_owner_id",
]

log = logging.getLogger("paigow_server.lease")


DEFAULT_TTL_MS = 5_000
"""How long a lease lives without renewal: a dead process's tables move after at most this long."""

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

_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""

def new_owner_id() -> str:
    """A fresh name for this process: host, pid and a random part (no spaces), so an operator reading
    ``paigow:table:<id>:lease`` sees which process drives the table."""
    host = "".join(c for c in socket.gethostname() if c.isalnum() or c in "-_.") or "host"
    return f"{host}.{os.getpid()}.{secrets.token_hex(4)}"


@dataclass(frozen=True, slots=True)
class Lease:
    """A lease this process holds."""

    table_id: str
    owner: str
    token: int


@dataclass(frozen=True, slots=True)
class LeaseHolder:
    """Somebody else holds the table's lease: who, with which token, for how much longer."""

    table_id: str
    owner: str
    token: int
    ttl_ms: int


class LeaseManager:
    """The leases of one process: acquire on demand, renew in the background, release on stop.

    ``on_lost(table_id)`` is awaited when a renewal finds the lease gone (expired and taken over).
    """

    def __init__(self, redis: Redis, owner: str | None = None, *, ttl_ms: int = DEFAULT_TTL_MS,
                 renew_every_ms: int | None = None,
                 on_lost: Callable[[str], Awaitable[None]] | None = None) -> None:
        if ttl_ms < 100:
            raise ValueError(f"lease ttl_ms={ttl_ms}: must be at least 100 ms")
        self.redis = redis
        self.owner = owner or new_owner_id()
        if " " in self.owner:
            raise ValueError(f"lease owner {self.owner!r}: must not contain spaces")
        self.ttl_ms = ttl_ms
        self.renew_every_s = (renew_every_ms if renew_every_ms is not None else ttl_ms // 3) / 1000
        self.on_lost = on_lost
        self._held: dict[str, tuple[int, float]] = {}  # table id -> (token, monotonic expiry)
        self._acquire = redis.register_script(_ACQUIRE)
        self._renew = redis.register_script(_RENEW)
        self._release = redis.register_script(_RELEASE)
        self._task: asyncio.Task[None] | None = None

    # -- queries ---------------------------------------------------------------------------------------
    def held(self, table_id: str) -> Lease | None:
        """Our lease on ``table_id`` while it is surely still ours by our own clock (else ``None``)."""
        entry = self._held.get(table_id)
        if entry is None or entry[1] <= time.monotonic():
            return None
        return Lease(table_id, self.owner, entry[0])

    def held_ids(self) -> list[str]:
        return [table_id for table_id in self._held if self.held(table_id) is not None]

    async def holder(self, table_id: str) -> LeaseHolder | None:
        """Who holds the lease in Redis now (``None``: nobody)."""
        raw = await self.redis.get(keys.table_lease(table_id))
        if raw is None:
            return None
        text = raw.decode() if isinstance(raw, bytes) else str(raw)
        owner, _, token = text.partition(" ")
        ttl = int(await self.redis.pttl(keys.table_lease(table_id)))
        return LeaseHolder(table_id, owner, int(token), max(ttl, 0))

    # -- acquire / renew / release ---------------------------------------------------------------------
    async def acquire(self, table_id: str) -> Lease | LeaseHolder:
        """Our lease (new or renewed), or who else holds it."""
        started = time.monotonic()
        got, token, owner, ttl = await self._acquire(
            keys=[keys.table_lease(table_id), keys.table_fence(table_id)], args=[self.owner, self.ttl_ms]
        )
        owner_text = owner.decode() if isinstance(owner, bytes) else str(owner)
        if int(got) == 1:
            self._held[table_id] = (int(token), self._expiry(started))
            return Lease(table_id, self.owner, int(token))
        if self._held.pop(table_id, None) is not None:  # ours until now: taken over while we were away
            await self._lost(table_id)
        return LeaseHolder(table_id, owner_text, int(token), max(int(ttl), 0))

    async def renew_all(self) -> list[str]:
        """Renew every lease we hold in one round trip; returns the tables whose lease was lost."""
        if not self._held:
            return []
        started = time.monotonic()
        held = list(self._held.items())
        async with self.redis.pipeline(transaction=False) as pipe:
            for table_id, (token, _) in held:
                await self._renew(keys=[keys.table_lease(table_id), keys.table_fence(table_id)],
                                  args=[f"{self.owner} {token}", self.ttl_ms, token], client=pipe)
            results = await pipe.execute()
        lost: list[str] = []
        for (table_id, (token, _)), ok in zip(held, results, strict=True):
            if self._held.get(table_id, (None, 0.0))[0] != token:
                continue  # released or re-acquired meanwhile
            if int(ok) == 1:
                self._held[table_id] = (token, self._expiry(started))
            else:
                del self._held[table_id]
                lost.append(table_id)
        for table_id in lost:
            await self._lost(table_id)
        return lost

    async def _lost(self, table_id: str) -> None:
        log.warning("lease lost: table %s is driven by another process now", table_id,
                    extra={"table_id": table_id, "owner": self.owner})
        if self.on_lost is not None:
            await self.on_lost(table_id)

    async def release(self, table_id: str) -> bool:
        """Give the table up now (others may take it at once); ``False`` if it was not ours any more."""
        entry = self._held.pop(table_id, None)
        if entry is None:
            return False
        done = await self._release(keys=[keys.table_lease(table_id)], args=[f"{self.owner} {entry[0]}"])
        return int(done) == 1

    async def release_all(self) -> None:
        for table_id in list(self._held):
            with contextlib.suppress(RedisError, OSError):
                await self.release(table_id)

    def forget(self, table_id: str) -> None:
        """Drop a lease we found to be stale (a fenced write) without touching Redis."""
        self._held.pop(table_id, None)

    # -- background renewal ----------------------------------------------------------------------------
    async def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name=f"lease-renewal-{self.owner}")

    async def stop(self, *, release: bool = True) -> None:
        task, self._task = self._task, None
        await stop_task(task)
        if release:
            await self.release_all()

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.renew_every_s)
            try:
                await self.renew_all()
            except (RedisError, OSError):
                log.exception("lease renewal failed", extra={"owner": self.owner})

    def _expiry(self, started: float) -> float:
        # Count the TTL from before the request was sent, minus a margin for clock drift between us and
        # Redis: we stop believing in the lease before Redis lets it go.
        return started + self.ttl_ms / 1000 * 0.9
