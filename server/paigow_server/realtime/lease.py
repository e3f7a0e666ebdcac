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

Acquire, renew and release are Lua scripts, each atomic in Redis (``store/leases.py``).
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

from paigow_server.process.tasks import stop_task
from paigow_server.store.errors import StoreUnavailable
from paigow_server.store.leases import Leases

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

    def __init__(self, store: Leases, owner: str | None = None, *, ttl_ms: int = DEFAULT_TTL_MS,
                 renew_every_ms: int | None = None,
                 on_lost: Callable[[str], Awaitable[None]] | None = None) -> None:
        if ttl_ms < 100:
            raise ValueError(f"lease ttl_ms={ttl_ms}: must be at least 100 ms")
        self.store = store
        self.owner = owner or new_owner_id()
        if " " in self.owner:
            raise ValueError(f"lease owner {self.owner!r}: must not contain spaces")
        self.ttl_ms = ttl_ms
        self.renew_every_s = (renew_every_ms if renew_every_ms is not None else ttl_ms // 3) / 1000
        self.on_lost = on_lost
        self._held: dict[str, tuple[int, float]] = {}  # table id -> (token, monotonic expiry)
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
        held = await self.store.holder(table_id)
        return None if held is None else LeaseHolder(table_id, held.owner, held.token, held.ttl_ms)

    # -- acquire / renew / release ---------------------------------------------------------------------
    async def acquire(self, table_id: str) -> Lease | LeaseHolder:
        """Our lease (new or renewed), or who else holds it."""
        started = time.monotonic()
        held = await self.store.acquire(table_id, self.owner, self.ttl_ms)
        if held.owner == self.owner:
            self._held[table_id] = (held.token, self._expiry(started))
            return Lease(table_id, self.owner, held.token)
        if self._held.pop(table_id, None) is not None:  # ours until now: taken over while we were away
            await self._lost(table_id)
        return LeaseHolder(table_id, held.owner, held.token, held.ttl_ms)

    async def renew_all(self) -> list[str]:
        """Renew every lease we hold in one round trip; returns the tables whose lease was lost."""
        if not self._held:
            return []
        started = time.monotonic()
        held = list(self._held.items())
        results = await self.store.renew(self.owner, [(table_id, token) for table_id, (token, _) in held],
                                         self.ttl_ms)
        lost: list[str] = []
        for (table_id, (token, _)), ok in zip(held, results, strict=True):
            if self._held.get(table_id, (None, 0.0))[0] != token:
                continue  # released or re-acquired meanwhile
            if ok:
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
        return await self.store.release(table_id, self.owner, entry[0])

    async def release_all(self) -> None:
        for table_id in list(self._held):
            with contextlib.suppress(StoreUnavailable):
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
            except StoreUnavailable:
                log.exception("lease renewal failed", extra={"owner": self.owner})

    def _expiry(self, started: float) -> float:
        # Count the TTL from before the request was sent, minus a margin for clock drift between us and
        # Redis: we stop believing in the lease before Redis lets it go.
        return started + self.ttl_ms / 1000 * 0.9
