"""The timing helper the micro-benchmarks share (run as scripts, so ``from timing import ...`` finds it)."""

from __future__ import annotations

import time
from collections.abc import Callable


def best_per_call(fn: Callable[[], object], calls: int, repeat: int) -> float:
    """Best CPU time per call, in microseconds, of ``fn`` (which makes ``calls`` calls). CPU time
    (``process_time``) rather than wall time, so other processes on a shared machine disturb it less."""
    times = []
    for _ in range(repeat):
        t = time.process_time()
        fn()
        times.append(time.process_time() - t)
    return min(times) / calls * 1e6
