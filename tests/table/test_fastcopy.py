"""``paigow.table.fastcopy.replace`` makes what ``dataclasses.replace`` makes, validation included."""

from __future__ import annotations

import dataclasses

import pytest

from paigow.table.fastcopy import replace
from paigow.table.state import Timers, TimersError
from paigow.table.views import PlayerViewer, SpectatorViewer


def test_a_copy_with_changes_equals_dataclasses_replace_for_any_number_of_fields() -> None:
    timers = Timers(betting_ms=60_000)
    for changes in ({}, {"setting_ms": 1_000}, {"setting_ms": 1_000, "bank_offer_ms": 2_000}):
        copy = replace(timers, **changes)
        assert copy == dataclasses.replace(timers, **changes)
        assert copy is not timers
    assert replace(PlayerViewer("p1"), player_id="p2") == PlayerViewer("p2")
    assert replace(PlayerViewer("p1")) == PlayerViewer("p1")
    assert replace(SpectatorViewer()) == SpectatorViewer()


def test_post_init_runs_and_unknown_fields_are_refused() -> None:
    with pytest.raises(TimersError):
        replace(Timers(), betting_ms=-1)
    with pytest.raises(TypeError, match="no field 'betting'"):
        replace(Timers(), betting=1)
    with pytest.raises(TypeError, match="no field 'name'"):
        replace(SpectatorViewer(), name="x")
