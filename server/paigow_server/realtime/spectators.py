"""``SpectatorCounts``: how many spectators watch each table, over every server process.

Each process counts its own spectators (the fanout knows them) and, every ``every_s`` seconds, rewrites
its counts in Redis (``store/spectator_counts.py``) with a time-to-live of a few periods, so the counts
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

from paigow_server.process.tasks import stop_task
from paigow_server.store.errors import StoreUnavailable
from paigow_server.store.spectator_counts import SpectatorCountStore

__all__ = ["SpectatorCounts"]

log = logging.getLogger("paigow_server.spectators")

TTL_PERIODS = 5


class SpectatorCounts:
    def __init__(self, store: SpectatorCountStore, local: Callable[[], dict[str, int]], *,
                 every_s: float = 1.0) -> None:
        self._store = store
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
        with contextlib.suppress(StoreUnavailable):  # a timeout too
            await self._store.clear()

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self._every_s)
            try:
                await self.refresh()
            except StoreUnavailable as exc:
                log.warning("spectator counts not refreshed: %s", exc)

    async def refresh(self) -> None:
        """Publish this process's counts; read everyone else's."""
        await self._store.put(self._local(), int(self._every_s * 1000 * TTL_PERIODS))
        self._remote = await self._store.others()
