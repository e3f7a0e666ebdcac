"""The queen-high pai gow and the Queen's Dragon (docs/rules.md §4a): hand-picked hands, a reference by the
best five-card hand, the combinatorial count and the house edge."""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import combinations

import pytest

from paigow.rules import (
    DECK,
    QUEENS_DRAGON_HANDS,
    QUEENS_DRAGON_PAYS,
    SEVEN_CARD_HANDS,
    Card,
    HandCategory,
    InvalidCardError,
    count_queen_high_pai_gow,
    evaluate_high,
    is_queen_high_pai_gow,
    parse_cards,
    queen_high_of_indexes,
    queens_dragon_house_edge,
    queens_dragon_net,
)


@pytest.mark.parametrize(
    ("seven", "queen_high"),
    [
        ("Qs Jd 9h 7c 5s 3d 2h", True),
        ("Qs Td 8h 7c 6s 4d 2h", True),  # 6-7-8 and no more in a row
        ("Qs Jd 9h 8c 7s 6d 2h", True),  # 6-7-8-9 is four, J-Q is not next to it
        ("Qs Jd 9h 5c 4s 3d 2h", True),  # 2-3-4-5 without an ace is no wheel
        ("Qs Js 9s 7s 5d 3d 2h", True),  # four of a suit is no flush
        ("Qs Jd 9h 7c 5s 3d JK", False),  # the joker is an ace: ace-high
        ("Qs Jd Th 7c 5s 3d JK", False),  # ... or it completes the straight 8/9-Q: no pai gow at all
        ("Ks Jd 9h 7c 5s 3d 2h", False),  # king-high
        ("As Jd 9h 7c 5s 3d 2h", False),  # ace-high
        ("Jd 9h 7c 5s 4d 3h 2c", False),  # jack-high
        ("Qs Jd Th 9c 8s 3d 2h", False),  # a queen-high straight
        ("Qs 8d 7h 6c 5s 4d 2h", False),  # an 8-high straight below the queen
        ("Qs Js 9s 7s 5s 3d 2h", False),  # a flush
        ("Qs Qd 9h 7c 5s 3d 2h", False),  # a pair of queens
        ("Qs Jd 9h 7c 5s 5d 2h", False),  # a pair below the queen
        ("Qs Jd 9h 7c 7s 7d 2h", False),  # three of a kind
    ],
)
def test_queen_high_pai_gow_table(seven: str, queen_high: bool) -> None:
    cards = parse_cards(seven)
    assert is_queen_high_pai_gow(cards) is queen_high
    assert queens_dragon_net(cards) == (QUEENS_DRAGON_PAYS if queen_high else -1)


@pytest.mark.parametrize("text", ["Qs Jd 9h 7c 5s 3d", "Qs Jd 9h 7c 5s 3d 2h 4h"])
def test_a_pai_gow_is_seven_cards(text: str) -> None:
    with pytest.raises(InvalidCardError, match="seven cards"):
        is_queen_high_pai_gow(parse_cards(text))


def test_the_same_card_twice_is_refused() -> None:
    qs = parse_cards("Qs")[0]
    with pytest.raises(InvalidCardError, match="duplicate"):
        is_queen_high_pai_gow([qs, *parse_cards("Jd 9h 7c 5s 3d"), qs])


def best_five_is_queen_high(cards: list[Card]) -> bool:
    """Wizard of Odds' wording: the best five-card hand of the seven is exactly a queen high."""
    best = max((evaluate_high(five) for five in combinations(cards, 5)), key=lambda v: v.key)
    return best.category is HandCategory.HIGH_CARD and best.ranks[0] == 12


def test_it_is_the_hand_whose_best_five_cards_are_queen_high() -> None:
    rng = random.Random("queen-high")
    low_deck = [c for c in DECK if c.rank <= 12]  # no ace or king (the joker stays): more queen-highs
    hands = [rng.sample(DECK, 7) for _ in range(600)] + [rng.sample(low_deck, 7) for _ in range(1400)]
    found = 0
    for hand in hands:
        expected = best_five_is_queen_high(hand)
        found += expected
        assert is_queen_high_pai_gow(hand) is expected, hand
        assert queen_high_of_indexes([c.index for c in hand]) is expected
    assert found > 30


def test_the_count_is_the_published_one() -> None:
    assert count_queen_high_pai_gow() == QUEENS_DRAGON_HANDS == 2_719_500
    assert SEVEN_CARD_HANDS == 154_143_080
    assert round(QUEENS_DRAGON_HANDS / SEVEN_CARD_HANDS, 6) == 0.017643


def test_the_house_edge_at_50_to_1() -> None:
    edge = queens_dragon_house_edge()
    assert edge == 1 - Fraction(51 * 2_719_500, 154_143_080)
    assert round(float(edge), 6) == 0.100222
    assert queens_dragon_house_edge(hands=0) == 1
    with pytest.raises(ValueError, match="hands"):
        queens_dragon_house_edge(hands=-1)
