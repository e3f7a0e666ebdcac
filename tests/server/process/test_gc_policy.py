"""The garbage-collector policy of serving processes and of the bots (``paigow_server.process.gc_policy``)."""

from __future__ import annotations

import gc

from paigow_server.process.gc_policy import THRESHOLDS, serving_gc


def test_serving_gc_freezes_what_is_alive_and_sets_the_thresholds_for_the_block_only() -> None:
    before = gc.get_threshold()
    assert gc.get_freeze_count() == 0
    kept = [[i] for i in range(1_000)]  # containers alive when the block starts
    with serving_gc():
        assert gc.get_threshold() == THRESHOLDS
        assert gc.get_freeze_count() >= len(kept)
        walked = {id(o) for generation in range(3) for o in gc.get_objects(generation)}
        assert not any(id(x) in walked for x in kept)  # no collection walks them any more
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0
    assert id(kept[0]) in {id(o) for o in gc.get_objects(2)}  # back in the oldest generation


def test_cycles_made_while_serving_are_still_collected() -> None:
    class Node:
        def __init__(self) -> None:
            self.other: Node | None = None

    with serving_gc():
        a, b = Node(), Node()
        a.other, b.other = b, a
        gc.collect()
        alive_before = sum(isinstance(o, Node) for o in gc.get_objects())
        del a, b
        gc.collect()
        assert sum(isinstance(o, Node) for o in gc.get_objects()) == alive_before - 2
