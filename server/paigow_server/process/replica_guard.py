"""Does the primary refuse writes without a replica in sync? (``min-replicas-to-write``, docs/failover.md)

With replica acknowledgements on (``--redis-replica-acks N``) the server shows nobody a commit no replica
holds, whatever the data nodes' configuration (``store/confirmed.py``). But a primary with
``min-replicas-to-write 0`` keeps taking writes while no replica is in sync — a promoted node without a
replica, or one cut off by a partition — and answers every one of them ``UNCONFIRMED``: play stops
until a replica is back, and a frozen primary can take writes a failover then throws away. So at start
the server asks the primary (``CONFIG GET``), warns when it is 0, and the answer stays visible: the gauge
``paigow_redis_min_replicas_to_write`` (-1: unknown, e.g. a managed Redis that refuses ``CONFIG``) and
the ``replicas`` part of ``/healthz``. It is asked again, in the background, at most every
``RECHECK_S`` seconds when ``/healthz`` is read (a failover may have promoted a node configured
otherwise): the health answer never waits for Redis. The server starts either way.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from paigow_server.process.metrics import Metrics

__all__ = ["RECHECK_S", "ReplicaGuard"]

log = logging.getLogger("paigow_server.replicas")

RECHECK_S = 30.0


class ReplicaGuard:
    """What the server knows of the primary's ``min-replicas-to-write`` while replicas must acknowledge
    commits (``replica_acks`` > 0; with 0 it asks nothing)."""

    def __init__(self, min_replicas_to_write: Callable[[], Awaitable[int | None]], metrics: Metrics,
                 replica_acks: int) -> None:
        """``min_replicas_to_write``: asks the primary (``store.primary_config.PrimaryConfig``); None when
        it cannot tell."""
        self._read = min_replicas_to_write
        self._metrics = metrics
        self.replica_acks = replica_acks
        self.min_replicas: int | None = None
        self._checked_at: float | None = None
        self._recheck: asyncio.Task[None] | None = None

    async def check(self, *, warn: bool = True) -> None:
        if self.replica_acks == 0:
            return
        first = self._checked_at is None
        found = await self._read()
        self._checked_at = time.monotonic()
        changed = found != self.min_replicas
        self.min_replicas = found
        self._metrics.min_replicas_to_write.set(-1 if found is None else found)
        warning = self.warning()
        if warn and (changed or first) and warning is not None:
            log.warning("%s", warning)

    def warning(self) -> str | None:
        if self.replica_acks == 0 or (self.min_replicas is not None and self.min_replicas > 0):
            return None
        said = "unknown (CONFIG GET refused)" if self.min_replicas is None else "0"
        return (f"replica acknowledgements are on (--redis-replica-acks {self.replica_acks}) but the "
                f"primary's min-replicas-to-write is {said}: while no replica is in sync it takes writes "
                "that every command answers UNCONFIRMED, and play stops until a replica is back; set "
                "min-replicas-to-write 1 and min-replicas-max-lag 2 on every data node (docs/failover.md)")

    def health(self) -> dict[str, Any] | None:
        """The ``replicas`` part of ``/healthz`` (None when replica acknowledgements are off), as last
        found; a check older than ``RECHECK_S`` starts another in the background."""
        if self.replica_acks == 0:
            return None
        stale = self._checked_at is None or time.monotonic() - self._checked_at >= RECHECK_S
        if stale and (self._recheck is None or self._recheck.done()):
            self._recheck = asyncio.create_task(self.check(), name="paigow-replica-guard")
        return {"replica_acks": self.replica_acks,
                "min_replicas_to_write": "unknown" if self.min_replicas is None else self.min_replicas,
                "warning": self.warning()}

    async def stop(self) -> None:
        if self._recheck is not None:
            self._recheck.cancel()
            await asyncio.gather(self._recheck, return_exceptions=True)
