"""The exact counts of the barred dealer hands (docs/rules.md §4a): brute force on small decks, then every
one of the 154,143,080 hands of the full deck under each House Way (about ten seconds)."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest

from paigow.rules.commission_free_count import (
    NINE_HIGH_LOW_COUNTS,
    count_nine_high_low,
    count_queen_high_by_class,
    nine_high_low_counts,
)
from paigow.rules.dealer_hands import canonical_hand, exact_classes
from paigow.rules.house_rules import HouseRules, HouseWayName
from paigow.rules.house_way import set_front
from paigow.rules.nine_high import nine_high_of_indexes
from paigow.rules.queen_high import queen_high_of_indexes
from paigow.rules.queens_dragon import QUEENS_DRAGON_HANDS

RANK = [i // 4 + 2 for i in range(52)] + [14]


def small_decks() -> list[list[int]]:
    rng = random.Random("nine-high decks")
    low = [i for i in range(48)]  # no aces: queen-high and nine-high hands come often
    return [
        [*rng.sample(low, 15), 52],
        rng.sample(low, 16),
        [r * 4 for r in range(11)] + [5, 9, 13, 52],  # clubs 2..Q and three more: flushes everywhere
        [i for i in range(32) if i % 4 < 2],  # two suits, 2..9
    ]


@pytest.mark.parametrize("deck", small_decks(), ids=["random-joker", "random", "clubs", "two-suits"])
def test_the_counts_are_brute_forces(deck: list[int]) -> None:
    hands = list(combinations(deck, 7))
    for way in HouseWayName:
        rules = HouseRules(house_way=way)
        brute = sum(nine_high_of_indexes(*set_front(hand, rules)[1:]) for hand in hands)
        assert count_nine_high_low(rules, deck) == brute, way
    assert nine_high_low_counts(available=deck) == {
        way: count_nine_high_low(HouseRules(house_way=way), deck) for way in HouseWayName}
    assert count_queen_high_by_class(deck) == sum(queen_high_of_indexes(hand) for hand in hands)


def test_every_hand_of_the_deck() -> None:
    """The full deck, every House Way, and where the ways part: only Bally's four of a kind clause (7s
    and 8s never split) changes a nine-high front, on 1,920 hands; Foxwoods' clauses never do."""
    classes = exact_classes(range(53))
    assert sum(classes.values()) == 154_143_080
    fronts = {way: {key: set_front(canonical_hand(key), HouseRules(house_way=way)) for key in classes}
              for way in HouseWayName}
    counts = {way: sum(n for key, n in classes.items() if nine_high_of_indexes(*fronts[way][key][1:]))
              for way in HouseWayName}
    assert counts == dict(NINE_HIGH_LOW_COUNTS) == {
        HouseWayName.TRUMP_PLAZA: 3_853_596, HouseWayName.FOXWOODS: 3_853_596,
        HouseWayName.BALLYS_AC: 3_855_516}
    parted: Counter[tuple[str, int]] = Counter()
    for key, n in classes.items():
        trump = nine_high_of_indexes(*fronts[HouseWayName.TRUMP_PLAZA][key][1:])
        assert nine_high_of_indexes(*fronts[HouseWayName.FOXWOODS][key][1:]) is trump
        ballys = fronts[HouseWayName.BALLYS_AC][key]
        if nine_high_of_indexes(*ballys[1:]) is not trump:
            ranks = Counter(RANK[c] for c in canonical_hand(key))
            quads = next(r for r, k in ranks.items() if k == 4)
            assert not trump
            assert ballys[0].name == "FOUR_OF_A_KIND"
            assert max(r for r in ranks if r != quads) == 9
            parted[("quads", quads)] += n
    assert parted == {("quads", 7): 960, ("quads", 8): 960}
    assert sum(n for key, n in classes.items() if queen_high_of_indexes(canonical_hand(key))) \
        == QUEENS_DRAGON_HANDS
