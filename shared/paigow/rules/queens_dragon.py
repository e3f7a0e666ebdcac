"""The Queen's Dragon side bet of EZ Pai Gow (docs/rules.md §4a): it wins 50 to 1 when the house dealer's
seven cards are a queen-high pai gow (``queen_high``), and loses otherwise, whatever the bettor holds.

The exact count is combinatorial, not a loop over hands. A queen-high pai gow has the queen and six of the
ten ranks 2 to J, C(10, 6) = 210 sets of ranks, less the 35 that hold five consecutive ranks (counted by
inclusion and exclusion over the runs, ``_straight_free_rank_sets``): 175. Each set takes any suits but
those putting five or more of the seven cards in one suit: 4**7 - 4 * (C(7,5) 3**2 + C(7,6) 3 + 1) =
16,384 - 844 = 15,540. So 175 x 15,540 = 2,719,500 of the C(53, 7) = 154,143,080 hands; at 50 to 1 the
house keeps 1 - 51 x 2,719,500 / 154,143,080 = 10.0222% of each bet.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from itertools import combinations
from math import comb, prod

from .cards import Card
from .queen_high import QUEEN, is_queen_high_pai_gow

__all__ = [
    "QUEENS_DRAGON_HANDS",
    "QUEENS_DRAGON_PAYS",
    "SEVEN_CARD_HANDS",
    "count_queen_high_pai_gow",
    "queens_dragon_house_edge",
    "queens_dragon_net",
]

QUEENS_DRAGON_PAYS = 50
"""The Queen's Dragon pays 50 to 1."""
SEVEN_CARD_HANDS = comb(53, 7)
"""154,143,080: every seven-card hand of the 53-card deck."""
QUEENS_DRAGON_HANDS = 2_719_500
"""The published count of queen-high pai gows (``count_queen_high_pai_gow()`` reproduces it)."""


def _straight_free_rank_sets() -> int:
    """Sets of seven ranks from 2 to Q holding the queen with no five consecutive ranks, by counting every
    set and taking out, by inclusion and exclusion, those that hold a run (a union of runs is a set of
    ranks; its sets are the supersets of that size)."""
    others = list(range(2, QUEEN))  # 2..J: six of them join the queen
    runs = [frozenset(range(low, low + 5)) for low in range(2, QUEEN - 3)]
    total = 0
    for k in range(len(runs) + 1):
        for chosen in combinations(runs, k):
            held = frozenset({QUEEN}).union(*chosen)
            if len(held) <= 7:
                free = len(others) - len(held - {QUEEN})
                sets = comb(free, 7 - len(held))
                total += -sets if k % 2 else sets
    return total


def _flush_free_suitings() -> int:
    """Ways to give seven cards of seven different ranks suits with no five (or more) in one suit."""
    flush = sum(comb(7, k) * prod([3] * (7 - k)) for k in range(5, 8))  # k cards of the suit, 3 for the rest
    return 4 ** 7 - 4 * flush


def count_queen_high_pai_gow() -> int:
    """How many of the 154,143,080 seven-card hands are a queen-high pai gow, counted combinatorially."""
    return _straight_free_rank_sets() * _flush_free_suitings()


def queens_dragon_house_edge(hands: int = QUEENS_DRAGON_HANDS, total: int = SEVEN_CARD_HANDS,
                             pays: int = QUEENS_DRAGON_PAYS) -> Fraction:
    """What the house keeps per unit bet, exactly: ``1 - (pays + 1) * hands / total``."""
    if not 0 <= hands <= total or total <= 0 or pays < 1:
        raise ValueError(f"need 0 <= hands <= total, total > 0 and pays >= 1, not hands={hands}, "
                         f"total={total}, pays={pays}")
    return 1 - Fraction((pays + 1) * hands, total)


def queens_dragon_net(dealer_cards7: Sequence[Card], pays: int = QUEENS_DRAGON_PAYS) -> int:
    """The bettor's result per unit of Queen's Dragon bet on this dealer hand: ``pays`` or -1."""
    return pays if is_queen_high_pai_gow(dealer_cards7) else -1
