"""The exact counts of the barred dealer hands (docs/rules.md §4a), over every seven-card hand.

Not a loop over the 154,143,080 hands: ``dealer_hands.exact_classes`` puts them in about 292,000 classes
up to suit symmetry (a rank multiset, and where a flush is possible the ranks of the flush suit and the
other cards), each with its exact number of hands. Every hand of a class is set alike by each House Way
(``tests/rules/test_analysis_classes.py``), so its front, and with it whether the low hand is nine-high,
is one ``set_front`` on the class's canonical hand; likewise whether it is a queen-high pai gow (no pair,
no straight and no flush depend on the class alone). A House Way takes about two seconds.

``count_nine_high_low(rules)`` and ``nine_high_low_counts(ways)`` count the nine-high low hands;
``count_queen_high_by_class()`` counts the queen-high pai gows the same way, a check on the combinatorial
``queens_dragon.count_queen_high_pai_gow()``. Each takes ``available``, the deck's card indexes (all 53 by
default), so that the tests can hold them to brute force on small decks.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from types import MappingProxyType

from .dealer_hands import canonical_hand, exact_classes
from .house_rules import DEFAULT_RULES, HouseRules, HouseWayName
from .house_way import set_front
from .nine_high import nine_high_of_indexes
from .queen_high import queen_high_of_indexes

__all__ = ["NINE_HIGH_LOW_COUNTS", "count_nine_high_low", "count_queen_high_by_class",
           "nine_high_low_counts"]

NINE_HIGH_LOW_COUNTS: Mapping[HouseWayName, int] = MappingProxyType({
    HouseWayName.TRUMP_PLAZA: 3_853_596,
    HouseWayName.FOXWOODS: 3_853_596,
    HouseWayName.BALLYS_AC: 3_855_516,
})
"""This project's exact counts of the hands whose House Way low hand is nine-high, by House Way (what
``nine_high_low_counts()`` finds; docs/rules.md §4a compares them with the published figure)."""

_DECK = range(53)


def _classes(available: Iterable[int] | None) -> dict[int, int]:
    return exact_classes(list(_DECK if available is None else available))


def _count_nine_high(classes: Mapping[int, int], rules: HouseRules) -> int:
    total = 0
    for key, hands in classes.items():
        _, i, j = set_front(canonical_hand(key), rules)
        if nine_high_of_indexes(i, j):
            total += hands
    return total


def count_nine_high_low(rules: HouseRules = DEFAULT_RULES, available: Sequence[int] | None = None) -> int:
    """How many seven-card hands of ``available`` (the whole deck by default) the House Way
    ``rules.house_way`` sets with a nine-high low hand."""
    return _count_nine_high(_classes(available), rules)


def nine_high_low_counts(ways: Iterable[HouseWayName] = tuple(HouseWayName),
                         available: Sequence[int] | None = None,
                         rules: HouseRules = DEFAULT_RULES) -> dict[HouseWayName, int]:
    """``count_nine_high_low`` for each House Way (``rules`` with that way), the classes built once."""
    classes = _classes(available)
    return {way: _count_nine_high(classes, replace(rules, house_way=way)) for way in ways}


def count_queen_high_by_class(available: Sequence[int] | None = None) -> int:
    """How many seven-card hands of ``available`` (the whole deck by default) are a queen-high pai gow,
    counted over the classes (``queens_dragon.count_queen_high_pai_gow`` counts them combinatorially)."""
    return sum(hands for key, hands in _classes(available).items()
               if queen_high_of_indexes(canonical_hand(key)))
