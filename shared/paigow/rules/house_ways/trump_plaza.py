"""The Trump Plaza House Way (Atlantic City), the table's default: docs/rules.md §7, clause by clause.

Apply the first clause that matches, in the order of docs/rules.md: 1. five aces, 2. four of a kind,
3. full houses, 4. straight / flush / straight flush, 5. three of a kind, 6. three pair, 7. two pair,
8. one pair, 9. no pair. The shared tree (``engine``) does the setting; this module holds what is Trump
Plaza's own, as data.
"""

from __future__ import annotations

from enum import IntEnum

from ..house_rules import HouseWayName
from .engine import ACE, ALWAYS, KING, NEVER, Rule, make_way, needs_by_rank

__all__ = ["WAY", "HouseWayClause", "two_pair_need"]


class HouseWayClause(IntEnum):
    """The clause of docs/rules.md §7 that set a hand (its number is the clause number)."""

    FIVE_ACES = 1
    FOUR_OF_A_KIND = 2
    FULL_HOUSE = 3
    STRAIGHT_OR_FLUSH = 4
    THREE_OF_A_KIND = 5
    THREE_PAIR = 6
    TWO_PAIR = 7
    ONE_PAIR = 8
    NO_PAIR = 9


def _group(rank: int) -> int:
    """Clause 7's groups: 0 low (2-6), 1 medium (7-10), 2 high (J-K), 3 aces."""
    return 0 if rank <= 6 else 1 if rank <= 10 else 2 if rank <= KING else 3


def two_pair_need(high: int, low: int) -> int:
    """Clause 7: the lowest singleton that keeps the pairs together (Bally's uses the same table)."""
    pair = (_group(high), _group(low))
    if pair[0] == 3 or pair in ((2, 1), (2, 2)):
        return NEVER  # medium + high, high + high, aces + any pair: always split
    if pair[0] == 2 or pair == (1, 1):
        return ACE  # low + high, medium + medium: split unless an ace
    return KING  # low + low, low + medium: split unless a king or an ace


C = HouseWayClause
WAY = make_way(
    HouseWayName.TRUMP_PLAZA, HouseWayClause,
    {Rule.FIVE_ACES: C.FIVE_ACES, Rule.FOUR_OF_A_KIND: C.FOUR_OF_A_KIND, Rule.TWO_TRIPS: C.FULL_HOUSE,
     Rule.FULL_HOUSE: C.FULL_HOUSE, Rule.STRAIGHT_OR_FLUSH: C.STRAIGHT_OR_FLUSH,
     Rule.STRAIGHT_EXCEPTION: C.STRAIGHT_OR_FLUSH,  # no exception in this way
     Rule.THREE_OF_A_KIND: C.THREE_OF_A_KIND, Rule.THREE_PAIR: C.THREE_PAIR, Rule.TWO_PAIR: C.TWO_PAIR,
     Rule.ONE_PAIR: C.ONE_PAIR, Rule.NO_PAIR: C.NO_PAIR},
    # Clause 2: quads 2-6 together; 7-10 split unless a king or an ace; J-K split unless an ace; aces split.
    quads_need=needs_by_rank((2, 6, ALWAYS), (7, 10, KING), (11, KING, ACE)),
    two_pair_need=two_pair_need,
    # Clause 3: trips + a pair of twos with an ace and a king: A-K in front.
    twos_with_ace_king=True,
)
