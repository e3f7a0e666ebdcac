"""The garbage-collector policy of a process whose event loop must answer within milliseconds.

CPython's cyclic collector stops the world while it runs. With the default thresholds (700, 10, 10), a
server holding hundreds of WebSockets ran a full collection every few seconds under load, each walking every
container object alive — modules, the rules' lookup tables, pydantic's schemas, every connection — for
30–190 ms (measured with ``gc.callbacks`` in the load benchmark), and a command that arrived meanwhile
waited that long for its answer. The same held for the bots of the load benchmark, which hold the parsed
views of a thousand connections. Two measures, once the process has started:

- **freeze**: collect once, then move everything alive to the permanent generation (``gc.freeze``):
  code, lookup tables and schemas are never garbage, and no later collection walks them again;
- **thresholds**: the young generations as CPython has them (700 allocations, then every tenth young
  collection), which keep each young collection to a millisecond or so, and a full collection only after
  1,000 middle ones instead of 10 (CPython also waits until the objects that survived since the last one
  are a quarter of those it already holds). Larger young generations were measured too: 7,000 made the
  middle collections walk up to 140,000 objects at once (125 ms) while hundreds of connections opened.

Reference counting still frees every object that is not in a cycle the moment it is unused; what changes
is how often the cycle finder runs, and what it has to walk. The few cycles the server makes (exceptions
with their tracebacks, finished tasks) are still collected, a little later.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["THRESHOLDS", "serving_gc", "settle_gc"]

THRESHOLDS = (700, 10, 1_000)
"""(allocations per young collection, young collections per middle one, middle ones per full one)."""


def settle_gc() -> None:
    """Collect what start-up left behind, freeze what is alive, and set ``THRESHOLDS``."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)


@contextmanager
def serving_gc() -> Iterator[None]:
    """``settle_gc`` for the duration of a block (the bots of one run); the previous settings after it."""
    previous = gc.get_threshold()
    settle_gc()
    try:
        yield
    finally:
        gc.set_threshold(*previous)
        gc.unfreeze()
