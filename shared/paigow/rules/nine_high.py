"""The nine-high low hand: the dealer hand that the 9-high commission-free form bars (docs/rules.md §4a).

A two-card low hand is **nine-high** when it is not a pair and its higher card is a nine: 9-8 down to 9-2.
The joker in a low hand is an ace (§1), so a low hand holding it is ace-high, never nine-high; 9-9 is a
pair. What counts is the low hand the dealer actually plays, the House Way's (``rules.house_way``).

* ``is_nine_high_low(low2)`` and ``house_way_low_is_nine_high(cards7, rules)`` take ``Card`` values and
  check them;
* ``nine_high_of_indexes(i, j)`` takes two card indexes (``Card.index``, joker 52) and checks nothing: the
  simulator and the exact count use it on ``house_way.set_front``'s front.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import Card, InvalidCardError, check_distinct, format_cards
from .house_rules import DEFAULT_RULES, HouseRules
from .house_way import house_way

__all__ = ["NINE", "house_way_low_is_nine_high", "is_nine_high_low", "nine_high_of_indexes"]

NINE = 9
_NINES = frozenset(range((NINE - 2) * 4, (NINE - 1) * 4))  # 9c 9d 9h 9s
_BELOW_NINE = (NINE - 2) * 4  # the indexes of 2c..8s are below this one


def nine_high_of_indexes(i: int, j: int) -> bool:
    """Whether the low hand of two distinct card indexes (not checked) is nine-high."""
    return (i in _NINES and j < _BELOW_NINE) or (j in _NINES and i < _BELOW_NINE)


def is_nine_high_low(low2: Sequence[Card]) -> bool:
    """Whether a two-card low hand is nine-high: no pair, a nine its higher card (the joker is an ace)."""
    if len(low2) != 2:
        raise InvalidCardError(f"a low hand is two cards, not {len(low2)}: {format_cards(list(low2))!r}")
    check_distinct(list(low2))
    return nine_high_of_indexes(low2[0].index, low2[1].index)


def house_way_low_is_nine_high(cards7: Sequence[Card], rules: HouseRules = DEFAULT_RULES) -> bool:
    """Whether the House Way (``rules.house_way``) sets these seven distinct cards with a nine-high low
    hand. Raises ``InvalidCardError`` (a ``ValueError``) unless there are exactly seven distinct cards."""
    return is_nine_high_low(house_way(cards7, rules).low)
