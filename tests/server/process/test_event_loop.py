"""The event loop of the command-line programs (``paigow_server.process.event_loop``)."""

from __future__ import annotations

import asyncio

from paigow_server.process import event_loop


def test_run_uses_uvloop_and_returns_the_result() -> None:
    async def main() -> str:
        await asyncio.sleep(0)
        async with asyncio.timeout(1.0):  # the bots rely on asyncio.timeout around recv
            await asyncio.sleep(0.001)
        return type(asyncio.get_running_loop()).__module__

    assert event_loop.loop_factory() is not None  # uvloop is a dependency on this platform
    assert event_loop.run(main()).startswith("uvloop")
