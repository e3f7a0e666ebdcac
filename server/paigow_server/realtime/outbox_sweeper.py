"""``OutboxSweeper``: every process finishes, every ``SWEEP_S``, what a dead process left between a table
commit and its consequences in ``{global}`` (``TableRepo.sweep``): undelivered outbox entries, holds
whose commit never came, deadline index entries not written. Delivery and release are idempotent, so
several processes sweeping at once do each thing once (docs/cluster.md)."""

from __future__ import annotations

import logging

from paigow_server.process.tasks import Every
from paigow_server.store.errors import StoreUnavailable
from paigow_server.store.tables import TableRepo

__all__ = ["SWEEP_S", "OutboxSweeper"]

log = logging.getLogger("paigow_server.outbox")

SWEEP_S = 5.0


class OutboxSweeper:
    def __init__(self, repo: TableRepo, *, interval_s: float = SWEEP_S) -> None:
        self._repo = repo
        self._every = Every("paigow-outbox-sweeper", interval_s, self.sweep_once,
                            failures=(StoreUnavailable, OSError))

    async def start(self) -> None:
        await self._every.start()

    async def stop(self) -> None:
        await self._every.stop()

    async def sweep_once(self) -> tuple[int, int]:
        applied, refunded = await self._repo.sweep()
        if applied or refunded:
            log.info("swept: %d outbox entries applied, %d holds refunded", applied, refunded,
                     extra={"applied": applied, "refunded": refunded})
        return applied, refunded
