"""The Foxwoods House Way (Connecticut): docs/rules.md §7a, clause by clause.

Source: Wizard of Odds, "Foxwoods Pai Gow Poker House Way",
https://wizardofodds.com/games/pai-gow-poker/house-way/foxwoods/ . The clauses are numbered in the order
the page lists them; each covers the hands of its shape, and clause 7 (straights and flushes) takes the
hands with no pair, one pair or trips that can make one.

Where it differs from Trump Plaza: two pair goes by the big pair alone (3); quads J-K always split (10);
no A-K exception for a full house with twos (9); with one pair of 10s to kings and an ace, a straight or
flush gives way to the ace in front when that front is better (8).

Decisions where the page is open (docs/rules.md §7a says the same):

* "Full house: put highest permissible pair in front" is read over the hand's pairs, never a pair broken
  from the trips (the page names that case separately, "Two sets"): trips + pair puts the pair in front,
  trips + two pairs the higher pair; the back keeps a full house.
* Clause 8 (the one-pair exception): "the Ace in front and pair in back" is the one-pair setting, the ace
  with the highest other singleton in front; "if front hand can be improved" means that front beats the
  front of the best straight / flush setting (clause 7). A lone joker counts as the ace.
* Clause 7, equal fronts: the better back (the page does not say).
"""

from __future__ import annotations

from enum import IntEnum

from ..hand_value import low_key
from ..house_rules import HouseRules, HouseWayName
from .engine import ACE, ALWAYS, KING, NEVER, RANK, Rule, make_way, needs_by_rank

__all__ = ["WAY", "FoxwoodsClause"]


class FoxwoodsClause(IntEnum):
    """The clause of docs/rules.md §7a that set a hand (its number is the clause number)."""

    NO_PAIR = 1
    ONE_PAIR = 2
    TWO_PAIR = 3
    THREE_PAIR = 4
    THREE_OF_A_KIND = 5
    TWO_SETS = 6
    STRAIGHT_OR_FLUSH = 7
    ACE_FRONT_EXCEPTION = 8
    FULL_HOUSE = 9
    FOUR_OF_A_KIND = 10
    FIVE_ACES = 11


def _two_pair_need(high: int, low: int) -> int:
    """Clause 3, by the big pair: A-J split; 10-7 together with an ace; 6-3 together with a king or ace."""
    return NEVER if high >= 11 else ACE if high >= 7 else KING


def _ace_in_front(h: tuple[int, ...], big: int, front: tuple[int, int], rules: HouseRules
                  ) -> tuple[int, int] | None:
    """Clause 8: one pair of 10s to kings and an ace: the ace and the next singleton in front, the pair in
    back, when that front beats the straight / flush setting's (``h``: p p x1 .. x5, highest first).
    Never a foul: the back keeps the pair, the front is no pair."""
    if big == 2 and 10 <= RANK[h[0]] <= KING and RANK[h[2]] == ACE \
            and low_key(h[2], h[3]) > low_key(front[0], front[1]):
        return h[2], h[3]
    return None


C = FoxwoodsClause
WAY = make_way(
    HouseWayName.FOXWOODS, FoxwoodsClause,
    {Rule.FIVE_ACES: C.FIVE_ACES, Rule.FOUR_OF_A_KIND: C.FOUR_OF_A_KIND, Rule.TWO_TRIPS: C.TWO_SETS,
     Rule.FULL_HOUSE: C.FULL_HOUSE, Rule.STRAIGHT_OR_FLUSH: C.STRAIGHT_OR_FLUSH,
     Rule.STRAIGHT_EXCEPTION: C.ACE_FRONT_EXCEPTION, Rule.THREE_OF_A_KIND: C.THREE_OF_A_KIND,
     Rule.THREE_PAIR: C.THREE_PAIR, Rule.TWO_PAIR: C.TWO_PAIR, Rule.ONE_PAIR: C.ONE_PAIR,
     Rule.NO_PAIR: C.NO_PAIR},
    # Clause 10: 6s and below never split; 10s-7s together with at least a king in front; A-J always split.
    quads_need=needs_by_rank((2, 6, ALWAYS), (7, 10, KING)),
    two_pair_need=_two_pair_need,
    straight_exception=_ace_in_front,
)
