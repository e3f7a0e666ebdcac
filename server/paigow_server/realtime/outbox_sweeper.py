"""``OutboxSweeper``: every process finishes, every ``SWEEP_S``, what a dead process left between a table
commit and its consequences in ``{global}`` (``TableRepo.sweep``): undelivered outbox entries, holds
whose commit never came, deadline index entries not written. Delivery and release are idempotent, so
several processes sweeping at once do each thing once (docs/cluster.md).

Where one script writes each whole commit (a single Redis without replica acknowledgements:
``TableRepo.leaves_work_behind`` is false) no commit leaves anything behind: the sweeper then sweeps once,
at start (what an earlier version of the server, or a deployment that went through the outbox, left), and
not again. Its periodic sweep read every table's outbox length and deadline (about three commands per
table every five seconds) for nothing."""

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
        if self._repo.leaves_work_behind:
            await self._every.start()
            return
        try:
            await self.sweep_once()
        except (StoreUnavailable, OSError) as exc:
            log.warning("the sweep at start failed: %s", exc)

    async def stop(self) -> None:
        await self._every.stop()

    async def sweep_once(self) -> tuple[int, int]:
        applied, refunded = await self._repo.sweep()
        if applied or refunded:
            log.info("swept: %d outbox entries applied, %d holds refunded", applied, refunded,
                     extra={"applied": applied, "refunded": refunded})
        return applied, refunded
