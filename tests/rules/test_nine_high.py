"""The nine-high low hand (docs/rules.md §4a): two-card hands, and the dealer's House Way low hand under
each House Way, on hand-picked hands."""

from __future__ import annotations

import pytest

from paigow.rules.cards import InvalidCardError, parse_cards
from paigow.rules.house_rules import HouseRules, HouseWayName
from paigow.rules.house_way import house_way
from paigow.rules.nine_high import house_way_low_is_nine_high, is_nine_high_low, nine_high_of_indexes

TRUMP, FOX, BALLYS = HouseWayName.TRUMP_PLAZA, HouseWayName.FOXWOODS, HouseWayName.BALLYS_AC


@pytest.mark.parametrize(
    ("low", "nine_high"),
    [
        ("9s 8d", True),
        ("2c 9h", True),
        ("9s 9d", False),  # a pair of nines
        ("9s JK", False),  # the joker is an ace: ace-nine
        ("Ts 9d", False),  # ten-high
        ("8s 7d", False),  # eight-high
        ("As 9d", False),
    ],
)
def test_nine_high_low_hands(low: str, nine_high: bool) -> None:
    cards = parse_cards(low)
    assert is_nine_high_low(cards) is nine_high
    assert nine_high_of_indexes(cards[0].index, cards[1].index) is nine_high
    assert nine_high_of_indexes(cards[1].index, cards[0].index) is nine_high


def test_a_low_hand_is_two_cards() -> None:
    with pytest.raises(InvalidCardError, match="two cards"):
        is_nine_high_low(parse_cards("9s 8d 7h"))


# (seven cards, the House Ways under which the House Way low hand is nine-high, why)
DEALER_HANDS = [
    ("Ts 9d 8h 6c 4s 3d 2h", {TRUMP, FOX, BALLYS}, "no pair: T in back, 9-8 in front"),
    ("Ks 9d 8h 6c 4s 3d 2h", {TRUMP, FOX, BALLYS}, "no pair, king-high"),
    ("JK 9d 8h 6c 4s 3d 2h", {TRUMP, FOX, BALLYS}, "the joker is the ace in back"),
    ("As Td 8h 6c 4s 3d 2h", set(), "no pair: T-8 in front"),
    ("Js Jd 9h 8c 6s 4d 2h", {TRUMP, FOX, BALLYS}, "one pair in back, 9-8 in front"),
    ("JK As 9d 8h 6c 4s 2h", {TRUMP, FOX, BALLYS}, "the joker pairs the ace: 9-8 in front"),
    ("Js Jd 9h 9c 6s 4d 2h", set(), "two pair: split, 9-9 in front"),
    ("5s 5d 5h 9c 8s 3d 2h", {TRUMP, FOX, BALLYS}, "three of a kind in back, 9-8 in front"),
    ("As Ad Ah 9c 8s 3d 2h", set(), "three aces: A-9 in front"),
    ("9s 8d 7h 6c 5s 4d 2h", {TRUMP, FOX, BALLYS}, "the lower straight 4-8 puts 9-2 in front"),
    ("Ts 9d 8h 7c 6s 3d 2h", set(), "the straight 6-T leaves 3-2"),
    ("9s 8s 6s 4s 2s Kd 3h", set(), "a flush, K-3 in front"),
    ("9s 7s 6s 4s 3s 2s 8d", {TRUMP, FOX, BALLYS}, "six spades: the lower flush, 9-8 in front"),
    ("Ks 9s 6s 4s 3s 2s 8d", set(), "six spades: the king goes in front, K-8"),
    ("4s 4d 4h 4c 9s 8d 2h", {TRUMP, FOX, BALLYS}, "fours together, 9-8 in front"),
    ("7s 7d 7h 7c 9s 4d 2h", {BALLYS}, "sevens: split (7-7 in front) but at Bally's, kept together"),
    ("8s 8d 8h 8c 9s 4d 2h", {BALLYS}, "eights likewise"),
    ("7s 7d 7h 7c Ks 9d 2h", set(), "sevens together with K-9 in front everywhere"),
]


@pytest.mark.parametrize(("seven", "ways", "why"), DEALER_HANDS, ids=[h[0] for h in DEALER_HANDS])
@pytest.mark.parametrize("way", list(HouseWayName))
def test_the_house_way_low_hand_is_nine_high(seven: str, ways: set[HouseWayName], why: str,
                                              way: HouseWayName) -> None:
    rules = HouseRules(house_way=way)
    cards = parse_cards(seven)
    assert house_way_low_is_nine_high(cards, rules) is (way in ways), (why, str(house_way(cards, rules)))


def test_the_house_way_needs_seven_cards() -> None:
    with pytest.raises(InvalidCardError):
        house_way_low_is_nine_high(parse_cards("9s 8d 7h 6c 5s 4d"))
