"""Exhaustive: the category of every one of the 2,869,685 five-card hands from 53 cards.

The first five counts are the published ones (docs/rules.md §8). The others were checked
independently by running the reference evaluator of ``test_hand_value_reference.py`` (the joker tried as
every card) over all 2,869,685 hands under both wheel settings, which also agreed hand by hand with the
tables on category, tie-break ranks and order.
"""

from __future__ import annotations

from itertools import combinations

import pytest

from paigow.rules.hand_value import CARD_PRIMES, CARD_SUITS, HandCategory, high_table
from paigow.rules.house_rules import HouseRules, WheelRank

EXPECTED = {
    HandCategory.FIVE_ACES: 1,
    HandCategory.ROYAL_FLUSH: 24,
    HandCategory.STRAIGHT_FLUSH: 180,
    HandCategory.FOUR_OF_A_KIND: 828,
    HandCategory.FULL_HOUSE: 4_368,
    HandCategory.FLUSH: 7_804,
    HandCategory.STRAIGHT: 20_532,
    HandCategory.THREE_OF_A_KIND: 63_360,
    HandCategory.TWO_PAIR: 138_600,
    HandCategory.ONE_PAIR: 1_215_024,
    HandCategory.HIGH_CARD: 1_418_964,
}


@pytest.mark.slow
@pytest.mark.parametrize("wheel", list(WheelRank))
def test_category_counts_of_all_five_card_hands(wheel: WheelRank) -> None:
    primes, suits, table = CARD_PRIMES, CARD_SUITS, high_table(HouseRules(wheel=wheel))
    counts = [0] * len(HandCategory)
    for a, b, c, d, e in combinations(range(53), 5):
        code = primes[a] * primes[b] * primes[c] * primes[d] * primes[e]
        if suits[a] & suits[b] & suits[c] & suits[d] & suits[e]:
            code = -code
        counts[table[code] >> 24] += 1
    assert {HandCategory(i): n for i, n in enumerate(counts)} == EXPECTED
    assert sum(counts) == 2_869_685
