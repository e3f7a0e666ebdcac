"""The queen-high pai gow: the dealer hand that EZ Pai Gow bars and the Queen's Dragon pays on (§4a).

A **pai gow** is seven cards from which no five make a pair, a straight or a flush: seven different ranks,
no five of them consecutive, no five of one suit. It is **queen-high** when its highest card is a queen.

The joker never belongs to one. It is an ace (docs/rules.md §1), so beside any six natural cards it is
either the ace above them (the hand is ace-high) or the card that completes a straight or a flush; either
way not a queen-high pai gow. Without an ace or a king the wheel (A-2-3-4-5) cannot be made, so the
straights that matter are five consecutive ranks from 2 to Q.

* ``is_queen_high_pai_gow(cards7)`` takes ``Card`` values and checks them (seven distinct cards);
* ``queen_high_of_indexes(indexes7)`` works on card indexes (``Card.index``, joker 52) and checks nothing:
  the simulator and the exact counts use it.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import Card, InvalidCardError, check_distinct, format_cards

__all__ = ["QUEEN", "is_queen_high_pai_gow", "queen_high_of_indexes"]

QUEEN = 12
_JOKER = 52
_FIVE_RUN = 0b11111


def queen_high_of_indexes(indexes: Sequence[int]) -> bool:
    """Whether seven distinct card indexes (not checked) are a queen-high pai gow."""
    mask = 0
    suits = [0, 0, 0, 0]
    for c in indexes:
        if c == _JOKER:
            return False
        mask |= 1 << (c // 4 + 2)
        suits[c % 4] += 1
    if mask.bit_count() != 7 or mask >> (QUEEN + 1) or not mask >> QUEEN & 1 or max(suits) >= 5:
        return False
    # No five consecutive ranks (an ace is absent, so the wheel cannot be made).
    return not any(mask >> low & _FIVE_RUN == _FIVE_RUN for low in range(2, QUEEN - 3))


def is_queen_high_pai_gow(cards7: Sequence[Card]) -> bool:
    """Whether seven distinct cards are a queen-high pai gow: no pair, straight or flush among them, a
    queen their highest card, so no joker (an ace). Raises ``InvalidCardError`` (a ``ValueError``) unless
    there are exactly seven distinct cards."""
    if len(cards7) != 7:
        raise InvalidCardError(
            f"a pai gow is seven cards, not {len(cards7)}: {format_cards(list(cards7))!r}")
    check_distinct(list(cards7))
    return queen_high_of_indexes([c.index for c in cards7])
