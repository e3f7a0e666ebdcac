"""The Bally's Atlantic City House Way: docs/rules.md §7b, clause by clause.

Source: Wizard of Odds, "Bally's Atlantic City House Way",
https://wizardofodds.com/games/pai-gow-poker/house-way/ballys-atlantic-city (the same text is in the public
repository cammoore/PaiGow-Poker, ``src/Ballys-Atlantic-City.txt``). The clauses are numbered in the order
the page lists them; each covers the hands of its shape, and clause 7 (straights and flushes) takes the
hands with no pair, one pair or trips that can make one.

Where it differs from Trump Plaza: quads 2-9 never split, 10-K split unless an ace can go in front (10);
four aces split even beside a pair or trips, unless that is kings (10); an ace-high straight that needs the
joker beside a natural ace is played as a pair of aces instead (8). The rest (no pair, one pair, two pair
with the same groups, three pair, trips, two trips, full houses, five aces) is Trump Plaza's.

Decisions where the page is open (docs/rules.md §7b says the same):

* Clause 8 applies when the hand holds a natural ace and the joker and every straight / flush back it can
  make is an ace-high straight or straight flush holding both ("if the hand can be played as a lower
  straight, play the straight": a back without one of them, the wheel, any lower straight or a flush
  keeps clause 7). The hand is then set as if it had no straight: the pair of aces in back and the two
  highest other cards in front (with three aces: an ace and the highest singleton in front, as clause 5).
  The joker's royal flush counts (the page says "straight or straight flush which is ace high").
* Four aces "always split" beside a pair or trips too (else the kings exception would say nothing): two
  aces in front, unless a pair of kings (or two of three kings) can go in front.
* Clause 7, equal fronts: the better back (the page does not say).
"""

from __future__ import annotations

from enum import IntEnum

from ..hand_value import HandCategory
from ..house_rules import HouseRules, HouseWayName
from .engine import ACE, ALWAYS, FIRST_STRAIGHT_KEY, JOKER, KING, Rule, backs, make_way, needs_by_rank
from .trump_plaza import two_pair_need

__all__ = ["WAY", "BallysClause"]


class BallysClause(IntEnum):
    """The clause of docs/rules.md §7b that set a hand (its number is the clause number)."""

    NO_PAIR = 1
    ONE_PAIR = 2
    TWO_PAIR = 3
    THREE_PAIR = 4
    THREE_OF_A_KIND = 5
    TWO_THREE_OF_A_KINDS = 6
    STRAIGHT_OR_FLUSH = 7
    JOKER_STRAIGHT_EXCEPTION = 8
    FULL_HOUSE = 9
    FOUR_OF_A_KIND = 10
    FIVE_ACES = 11


_NATURAL_ACES = frozenset(range(48, 52))
_ACE_HIGH_STRAIGHTS = (HandCategory.STRAIGHT, HandCategory.STRAIGHT_FLUSH)


def _is_joker_ace_high(back: tuple[int, ...], key: int) -> bool:
    """An ace-high straight (or straight flush, or the joker's royal flush) holding a natural ace and the
    joker."""
    category = key >> 24
    ace_high = category == HandCategory.ROYAL_FLUSH \
        or (category in _ACE_HIGH_STRAIGHTS and key >> 16 & 15 == ACE)
    return ace_high and JOKER in back and not _NATURAL_ACES.isdisjoint(back)


def _pair_of_aces_instead(h: tuple[int, ...], big: int, front: tuple[int, int], rules: HouseRules
                          ) -> tuple[int, int] | None:
    """Clause 8: when the only straights need both the natural ace and the joker at the top, the aces in
    back and the next two cards in front (``h``: the aces first, the joker leading them, then the
    singletons highest first). Never a foul: the back keeps a pair of aces, the front is no pair."""
    if h[0] != JOKER:  # the joker leads the biggest group only when it makes aces with a natural ace
        return None
    for back, key in backs(h, rules):
        if key >= FIRST_STRAIGHT_KEY and not _is_joker_ace_high(back, key):
            return None
    return h[2], h[3]


C = BallysClause
WAY = make_way(
    HouseWayName.BALLYS_AC, BallysClause,
    {Rule.FIVE_ACES: C.FIVE_ACES, Rule.FOUR_OF_A_KIND: C.FOUR_OF_A_KIND,
     Rule.TWO_TRIPS: C.TWO_THREE_OF_A_KINDS, Rule.FULL_HOUSE: C.FULL_HOUSE,
     Rule.STRAIGHT_OR_FLUSH: C.STRAIGHT_OR_FLUSH, Rule.STRAIGHT_EXCEPTION: C.JOKER_STRAIGHT_EXCEPTION,
     Rule.THREE_OF_A_KIND: C.THREE_OF_A_KIND, Rule.THREE_PAIR: C.THREE_PAIR, Rule.TWO_PAIR: C.TWO_PAIR,
     Rule.ONE_PAIR: C.ONE_PAIR, Rule.NO_PAIR: C.NO_PAIR},
    # Clause 10: 2s-9s never split; 10s-kings split unless an ace can go in front; four aces always split.
    quads_need=needs_by_rank((2, 9, ALWAYS), (10, KING, ACE)),
    two_pair_need=two_pair_need,
    # Clause 9: a pair of twos with an ace and a king: A-K in front.
    twos_with_ace_king=True,
    four_aces_split_beside=True,
    straight_exception=_pair_of_aces_instead,
)
