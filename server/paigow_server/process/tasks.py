"""Background tasks: stopping them without ever hanging a shutdown, and ``Every``, a step run periodically."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

__all__ = ["Every", "bounded", "stop_task"]

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


def bounded(step: Callable[[], Awaitable[object]], name: str, *,
            timeout_s: float = 10.0) -> Callable[[], Awaitable[None]]:
    """``step`` as a shutdown callback that never hangs the shutdown: after ``timeout_s`` seconds it is
    cancelled and the rest of the shutdown goes on, with a warning naming it."""

    async def run() -> None:
        try:
            await asyncio.wait_for(step(), timeout_s)
        except TimeoutError:
            log.warning("stopping %s took over %.1f s: left behind", name, timeout_s)

    return run


class Every:
    """``step()`` every ``interval_s`` seconds in a background task, from ``start()`` to ``stop()``. A step
    that fails with one of ``failures`` (the store's ``StoreUnavailable``: Redis is unreachable) is logged;
    the next one runs on time."""

    def __init__(self, name: str, interval_s: float, step: Callable[[], Awaitable[object]], *,
                 failures: tuple[type[Exception], ...]) -> None:
        self.name = name
        self.interval_s = interval_s
        self._step = step
        self._failures = failures
        self._task: asyncio.Task[None] | None = None
        self._stopping = False
        """Set by ``stop``: the loop ends after the step under way even if that step swallowed the
        cancellation (a library call that catches it; Python 3.11's ``wait_for`` can lose one), which
        would otherwise leave the task running forever and hang the event loop's close."""

    async def start(self) -> None:
        self._stopping = False
        self._task = asyncio.create_task(self._run(), name=self.name)

    async def stop(self) -> None:
        self._stopping = True
        task, self._task = self._task, None
        await stop_task(task)

    async def _run(self) -> None:
        while not self._stopping:
            await asyncio.sleep(self.interval_s)
            try:
                await self._step()
            except self._failures as exc:
                log.warning("%s failed: %s", self.name, exc)
