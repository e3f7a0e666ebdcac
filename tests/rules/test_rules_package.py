"""``paigow.rules`` re-exports every public name of its modules."""

from __future__ import annotations

import importlib

import pytest

import paigow.rules

MODULES = ["cards", "house_rules", "hand_value", "splits", "house_way", "showdown", "payout", "fortune",
           "fortune_count", "analysis", "queen_high", "nine_high", "commission_free", "queens_dragon",
           "commission_free_count"]


@pytest.mark.parametrize("module", MODULES)
def test_reexports_every_public_name(module: str) -> None:
    mod = importlib.import_module(f"paigow.rules.{module}")
    for name in mod.__all__:
        assert getattr(paigow.rules, name) is getattr(mod, name)
        assert name in paigow.rules.__all__


def test_all_names_exist() -> None:
    assert sorted(paigow.rules.__all__) == sorted(set(paigow.rules.__all__))
    for name in paigow.rules.__all__:
        assert hasattr(paigow.rules, name)
