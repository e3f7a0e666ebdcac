"""``fortune_hand`` against a slow, obviously correct reference on many random hands.

The reference knows nothing of rank masks or lookup tables. For the suited and straight categories it tries
the joker as every card not in the hand and looks at all seven cards and at every five of them the
textbook way; for the rest it counts ranks with the joker as an ace. It keeps the best-paying category.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from itertools import combinations

from hypothesis import event, given, settings
from hypothesis import strategies as st

from paigow.rules import DECK, JOKER, Card, FortuneHand, fortune_hand, parse_cards

H = FortuneHand
NATURALS = DECK[:52]


def consecutive(ranks: Sequence[int]) -> bool:
    """Distinct ranks in one unbroken run, the ace high or low (A-2-3-4-5, A-2-...-7)."""
    for ace in (14, 1):
        rs = sorted(ace if r == 14 else r for r in ranks)
        if len(set(rs)) == len(rs) and rs[-1] - rs[0] == len(rs) - 1:
            return True
    return False


def five_card(five: Sequence[Card]) -> FortuneHand:
    """Straight, flush or straight flush of five natural cards (the joker already substituted)."""
    ranks = [c.rank for c in five]
    flush = len({c.suit for c in five}) == 1
    straight = consecutive(ranks)
    if flush and straight:
        return H.ROYAL_FLUSH if sorted(ranks) == [10, 11, 12, 13, 14] else H.STRAIGHT_FLUSH
    if flush:
        return H.FLUSH
    return H.STRAIGHT if straight else H.NOTHING


def reference(hand: Sequence[Card]) -> FortuneHand:
    naturals = [c for c in hand if not c.is_joker]
    joker = len(naturals) == 6
    best = H.NOTHING
    stand_ins: list[Card | None] = [c for c in NATURALS if c not in naturals] if joker else [None]
    for stand_in in stand_ins:
        cards = naturals + ([stand_in] if stand_in else [])
        if len({c.suit for c in cards}) == 1 and consecutive([c.rank for c in cards]):
            best = max(best, H.SEVEN_CARD_STRAIGHT_FLUSH_WITH_JOKER if joker else H.SEVEN_CARD_STRAIGHT_FLUSH)
        for five in combinations(cards, 5):
            category = five_card(five)
            rest = [c for c in cards if c not in five]
            if (category is H.ROYAL_FLUSH and stand_in not in rest
                    and sorted(c.rank for c in rest) == [12, 13] and rest[0].suit == rest[1].suit):
                category = H.ROYAL_PLUS_ROYAL_MATCH
            best = max(best, category)
    counts = Counter([c.rank for c in naturals] + [14] * joker)
    shape = sorted(counts.values(), reverse=True)
    if shape[0] == 5:
        best = max(best, H.FIVE_ACES)
    elif shape[0] == 4:
        best = max(best, H.FOUR_OF_A_KIND)
    elif shape[0] == 3:
        best = max(best, H.FULL_HOUSE if shape[1] >= 2 else H.THREE_OF_A_KIND)
    return best


def test_the_reference_on_a_few_hands() -> None:
    assert reference(parse_cards("As Ks Qs JK Ts Kh Qh")) is H.ROYAL_PLUS_ROYAL_MATCH
    assert reference(parse_cards("As Ks Qs Js Ts Kh JK")) is H.ROYAL_FLUSH
    assert reference(parse_cards("Ac Ad Ah As JK 2c 3d")) is H.FIVE_ACES
    assert reference(parse_cards("Ah 2h 3h 4h 5h 6h JK")) is H.SEVEN_CARD_STRAIGHT_FLUSH_WITH_JOKER
    assert reference(parse_cards("7c 7d 7h 8s 9d Tc Jh")) is H.THREE_OF_A_KIND


# Decks that make the rare categories common: high cards, one or two suits, few ranks, the full deck.
POOLS = [
    [c for c in NATURALS if c.rank >= 10] + [JOKER],
    [c for c in NATURALS if c.suit in ("s", "h")] + [JOKER],
    [c for c in NATURALS if c.suit == "d" or c.rank in (12, 13)] + [JOKER],
    [c for c in NATURALS if c.rank in (14, 2, 3, 4, 5, 6, 7)] + [JOKER],
    [c for c in NATURALS if c.rank in (14, 13, 9, 5)] + [JOKER],
    [c for c in NATURALS if (c.suit == "s" and c.rank >= 10) or c.rank in (12, 13)] + [JOKER],  # royal match
    [c for c in NATURALS if (c.suit == "h" and c.rank <= 9) or c.rank == 14] + [JOKER],  # seven in a row
    list(DECK),
]


@st.composite
def hands(draw: st.DrawFn) -> list[Card]:
    pool = draw(st.sampled_from(POOLS))
    return draw(st.lists(st.sampled_from(pool), min_size=7, max_size=7, unique=True))


@settings(max_examples=600, deadline=None)
@given(hands())
def test_fortune_hand_matches_the_reference(hand: list[Card]) -> None:
    category = fortune_hand(hand)
    event(category.name)  # shown by --hypothesis-show-statistics: every category turns up
    assert category is reference(hand)


def test_fortune_hand_matches_the_reference_on_random_deals() -> None:
    rng = random.Random(20240613)
    seen: Counter[FortuneHand] = Counter()
    for _ in range(2000):
        hand = rng.sample(DECK, 7)
        category = fortune_hand(hand)
        assert category is reference(hand), hand
        seen[category] += 1
    assert seen[H.NOTHING] > seen[H.STRAIGHT] > 0


SMALL_DECKS = {
    "royal match": "As Ks Qs Js Ts Kh Qh Kd Qc JK",
    "seven in a row": "Ah 2h 3h 4h 5h 6h 7h 8h 8s JK",
    "five aces": "Ac Ad Ah As JK Kc Kd Qh 2s 2d",
    "royal or seven": "8d 9d Td Jd Qd Kd Ad 7d Kc JK",
}


def test_every_hand_of_small_decks_matches_the_reference() -> None:
    seen: set[FortuneHand] = set()
    for deck in SMALL_DECKS.values():
        for hand in combinations(parse_cards(deck), 7):
            category = fortune_hand(hand)
            assert category is reference(hand), hand
            seen.add(category)
    assert seen >= {H.SEVEN_CARD_STRAIGHT_FLUSH, H.ROYAL_PLUS_ROYAL_MATCH,
                    H.SEVEN_CARD_STRAIGHT_FLUSH_WITH_JOKER, H.FIVE_ACES, H.ROYAL_FLUSH, H.STRAIGHT_FLUSH,
                    H.FOUR_OF_A_KIND, H.FULL_HOUSE}
