"""Stopping background tasks without ever hanging a shutdown."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

__all__ = ["stop_task"]

log = logging.getLogger("paigow_server.tasks")


async def stop_task(task: asyncio.Task[Any] | None, *, timeout_s: float = 2.0) -> None:
    """Cancel ``task`` and wait for it to end, at most ``timeout_s`` seconds (a task stuck in a call that
    ignores cancellation is left behind with a warning rather than blocking the shutdown)."""
    if task is None or task.done():
        return
    task.cancel()
    done, _ = await asyncio.wait([task], timeout=timeout_s)
    if not done:
        log.warning("task %s did not stop within %.1f s", task.get_name(), timeout_s)
