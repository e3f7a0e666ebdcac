"""The event loop of the command-line programs: uvloop where it is installed (a dependency on Linux and
macOS), else asyncio's own. uvicorn makes the same choice for ``paigow serve`` (``loop="auto"``).

uvloop runs the same asyncio code with its sockets, timers and callbacks in C: in the load benchmark the
socket writes, ``select`` and callback dispatch were about a fifth of the server's CPU under asyncio's
pure-Python loop, and the bots, which share the machine, spend most of their time there too.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

__all__ = ["loop_factory", "run"]

T = TypeVar("T")


def loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's ``new_event_loop`` when uvloop is installed; None (asyncio's default) otherwise."""
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


def run(main: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(main)`` on the loop of ``loop_factory``."""
    with asyncio.Runner(loop_factory=loop_factory()) as runner:
        return runner.run(main)
