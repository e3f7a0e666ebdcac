"""``Every`` stops even when a step swallows the cancellation (seen in CI: the outbox sweeper kept running
after ``stop``, and the test's event loop never closed)."""

from __future__ import annotations

import asyncio
import contextlib

from paigow_server.process.tasks import Every


async def test_a_step_that_swallows_its_cancellation_still_stops_the_loop() -> None:
    steps = 0

    async def step() -> None:
        nonlocal steps
        steps += 1
        with contextlib.suppress(asyncio.CancelledError):  # a library call that loses the cancellation
            await asyncio.sleep(0.05)

    every = Every("swallower", 0.001, step, failures=())
    await every.start()
    await asyncio.sleep(0.02)
    task = every._task
    assert task is not None
    await every.stop()
    await asyncio.wait_for(task, 1.0)  # ended: before, it ran on forever
    assert task.done()
    assert steps >= 1
