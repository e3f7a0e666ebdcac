"""Hand values: the examples of docs/rules.md (§1 Cards, §2 ranking), table-driven."""

from __future__ import annotations

from itertools import pairwise

import pytest

from paigow.rules.cards import DuplicateCardError, InvalidCardError, parse_cards
from paigow.rules.hand_value import (
    CARD_PRIMES,
    CARD_SUITS,
    HandCategory,
    HandValue,
    category_of,
    evaluate_high,
    evaluate_low,
    high_key,
    high_table,
    high_value,
    low_key,
    low_value,
    rank_name,
)
from paigow.rules.house_rules import HouseRules, WheelRank

SECOND = HouseRules(wheel=WheelRank.SECOND)
LOW_WHEEL = HouseRules(wheel=WheelRank.LOW)
C = HandCategory


def high(text: str, rules: HouseRules = SECOND) -> HandValue:
    return evaluate_high(parse_cards(text), rules)


def low(text: str) -> HandValue:
    return evaluate_low(parse_cards(text))


@pytest.mark.parametrize(
    ("text", "category", "ranks", "name"),
    [
        ("As Ah Ad Ac JK", C.FIVE_ACES, (), "five aces"),
        ("As Ks Qs Js Ts", C.ROYAL_FLUSH, (), "royal flush"),
        ("Ah Kh Qh Jh JK", C.ROYAL_FLUSH, (), "royal flush"),
        ("Ah Kh Qh JK Th", C.ROYAL_FLUSH, (), "royal flush"),
        ("Kd Qd Jd Td 9d", C.STRAIGHT_FLUSH, (13,), "straight flush, king high"),
        ("9c Tc Jc Qc JK", C.STRAIGHT_FLUSH, (13,), "straight flush, king high"),
        ("5s 4s 3s 2s As", C.STRAIGHT_FLUSH, (5,), "straight flush, five high"),
        ("9c 9d 9h 9s 4c", C.FOUR_OF_A_KIND, (9, 4), "four of a kind, nines"),
        ("9c 9d 9h 9s JK", C.FOUR_OF_A_KIND, (9, 14), "four of a kind, nines"),
        ("Ac Ad Ah JK 4c", C.FOUR_OF_A_KIND, (14, 4), "four of a kind, aces"),
        ("8c 8d 8h 2s 2c", C.FULL_HOUSE, (8, 2), "full house, eights over twos"),
        ("Kc Kd Kh JK Ac", C.FULL_HOUSE, (13, 14), "full house, kings over aces"),
        ("Ac Ad JK 7h 7s", C.FULL_HOUSE, (14, 7), "full house, aces over sevens"),
        ("Ah Qh 9h 5h JK", C.FLUSH, (14, 13, 12, 9, 5), "flush, ace high"),
        ("Kh Qh 9h 5h JK", C.FLUSH, (14, 13, 12, 9, 5), "flush, ace high"),
        ("Ah Kh Qh 5h JK", C.FLUSH, (14, 13, 12, 11, 5), "flush, ace high"),
        ("Jd 9d 7d 4d 2d", C.FLUSH, (11, 9, 7, 4, 2), "flush, jack high"),
        ("9c Td Jh Qs JK", C.STRAIGHT, (13,), "straight, king high"),
        ("Ac Kd Qh Js Tc", C.STRAIGHT, (14,), "straight, ace high"),
        ("Ac Kd Qh JK Tc", C.STRAIGHT, (14,), "straight, ace high"),
        ("Ac 2d 3h 4s 5c", C.STRAIGHT, (5,), "straight, five high"),
        ("Kc Kd Kh JK 4c", C.THREE_OF_A_KIND, (13, 14, 4), "three of a kind, kings"),
        ("As Ad JK 3c 9d", C.THREE_OF_A_KIND, (14, 9, 3), "three of a kind, aces"),
        ("Jc Jd 4h 4s 2c", C.TWO_PAIR, (11, 4, 2), "two pair, jacks and fours"),
        ("Jc Jd 4h 4s JK", C.TWO_PAIR, (11, 4, 14), "two pair, jacks and fours"),
        ("Ac Jd 4h 4s JK", C.TWO_PAIR, (14, 4, 11), "two pair, aces and fours"),
        ("Ac Ad 9h 7s 2c", C.ONE_PAIR, (14, 9, 7, 2), "pair of aces"),
        ("As 9d 7h 4c JK", C.ONE_PAIR, (14, 9, 7, 4), "pair of aces"),
        ("6c 6d Kh 7s 2c", C.ONE_PAIR, (6, 13, 7, 2), "pair of sixes"),
        ("Kd 9h 7s 5c JK", C.HIGH_CARD, (14, 13, 9, 7, 5), "ace high"),
        ("Ac Kd 9h 5s 3c", C.HIGH_CARD, (14, 13, 9, 5, 3), "ace high"),
        ("7c 5d 4h 3s 2c", C.HIGH_CARD, (7, 5, 4, 3, 2), "seven high"),
    ],
)
def test_categories_ranks_and_names(
    text: str, category: HandCategory, ranks: tuple[int, ...], name: str
) -> None:
    value = high(text)
    assert (value.category, value.ranks, value.name, str(value)) == (category, ranks, name, name)
    assert value.is_low is False


# Each row: a list of hands from best to worst (under the default wheel="second").
ORDERED = [
    # Ranking, highest first.
    ["As Ah Ad Ac JK", "As Ks Qs Js Ts", "Kd Qd Jd Td 9d", "9c 9d 9h 9s 4c", "8c 8d 8h 2s 2c",
     "Jd 9d 7d 4d 2d", "9c Td Jh Qs Kc", "Kc Kd Kh 4s 2c", "Jc Jd 4h 4s 2c", "Ac Ad 9h 7s 2c",
     "Ac Kd 9h 5s 3c"],
    # The wheel is the second-highest straight and the second-highest straight flush.
    ["Ac Kd Qh Js Tc", "Ac 2d 3h 4s 5c", "Kc Qd Jh Ts 9c", "6c 5d 4h 3s 2c"],
    ["As Ks Qs Js Ts", "5s 4s 3s 2s As", "Kd Qd Jd Td 9d", "6h 5h 4h 3h 2h"],
    # Quads by rank then kicker; the joker with quads is an ace kicker.
    ["Tc Td Th Ts 2c", "9c 9d 9h 9s JK", "9c 9d 9h 9s Kc", "9c 9d 9h 9s 2c"],
    # Full house by trips then pair.
    ["9c 9d 9h 2s 2c", "8c 8d 8h As Ac", "8c 8d 8h 3s 3c"],
    # Flush card by card.
    ["Ah Qh 9h 5h 3h", "Ad Qd 9d 5d 2d", "Ac Qc 9c 4c 3c", "Ah Jh Th 9h 8h"],
    # Straight by its top card.
    ["Kc Qd Jh Ts 9c", "Qc Jd Th 9s 8c", "7c 6d 5h 4s 3c", "6c 5d 4h 3s 2c"],
    # Trips then kickers.
    ["Kc Kd Kh 3s 2c", "Qc Qd Qh As Kc", "Qc Qd Qh As Jc", "Qc Qd Qh Ks Jc"],
    # Two pair: high pair, low pair, kicker.
    ["Kc Kd 2h 2s 3c", "Qc Qd Jh Js 3c", "Qc Qd Th Ts Ac", "Qc Qd Th Ts 9c"],
    # Pair then kickers.
    ["Ac Ad 3h 4s 5c", "Kc Kd Qh Js 9c", "Kc Kd Qh Js 8c", "Kc Kd Qh Ts 9c"],
    # High card, card by card.
    ["Ac Kd 9h 5s 3c", "Ac Qd Jh 9s 8c", "Ac Qd Jh 9s 7c", "Kc Qd Jh 9s 7c"],
]


@pytest.mark.parametrize("row", ORDERED)
def test_ranking_order(row: list[str]) -> None:
    values = [high(t) for t in row]
    for better, worse in pairwise(values):
        assert better > worse
        assert worse < better


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("As Ks Qs Js Ts", "Ah Kh Qh Jh JK"),  # a joker royal equals a natural royal
        ("Ah Qh 9h 5h JK", "Ac Kc Qc 9c 5c"),  # the joker is the highest heart not in the hand
        ("Ac Kd Qh Js Tc", "As Kh Qd Jc Th"),  # suits never break ties
        ("9c Td Jh Qs JK", "9d Th Js Qc Kh"),  # the joker makes the highest straight
        ("Kc Kd Kh JK 4c", "Ks Kd Kh As 4s"),  # with K-K-K the joker is an ace kicker
        ("As Ad JK 3c 9d", "As Ad Ah 3c 9d"),  # joker + pair of aces = three aces
        ("Ac Ad 9h 7s 2c", "As Ah 9d 7c 2d"),
    ],
)
def test_ties(a: str, b: str) -> None:
    assert high(a) == high(b)
    assert hash(high(a)) == hash(high(b))
    assert not high(a) < high(b)
    assert not high(a) > high(b)


def test_joker_never_a_fourth_king() -> None:
    assert high("Kc Kd Kh JK 4c").category is C.THREE_OF_A_KIND
    assert high("Kc Kd Kh JK 4c") < high("2c 2d 2h 2s 3c")


@pytest.mark.parametrize(
    ("text", "second", "low_wheel"),
    [
        # A-2-3-4-5 with the joker: under "second" the wheel is the best straight it can make.
        ("5c 4d 3h 2s JK", "straight, five high", "straight, six high"),
        ("5h 4h 3h 2h JK", "straight flush, five high", "straight flush, six high"),
        ("Ac 2d 3h 4s JK", "straight, five high", "straight, five high"),
        ("Ac 2d 3h 5s JK", "straight, five high", "straight, five high"),
    ],
)
def test_joker_straight_under_both_wheel_settings(text: str, second: str, low_wheel: str) -> None:
    assert high(text).name == second
    assert high(text, LOW_WHEEL).name == low_wheel


def test_wheel_low_setting() -> None:
    straights = ["Ac Kd Qh Js Tc", "Kc Qd Jh Ts 9c", "6c 5d 4h 3s 2c", "Ac 2d 3h 4s 5c"]
    values = [high(t, LOW_WHEEL) for t in straights]
    assert values == sorted(values, reverse=True)
    assert values[0] > values[1] > values[2] > values[3]
    flushes = ["As Ks Qs Js Ts", "Kd Qd Jd Td 9d", "6h 5h 4h 3h 2h", "5s 4s 3s 2s As"]
    fvalues = [high(t, LOW_WHEEL) for t in flushes]
    assert fvalues[0] > fvalues[1] > fvalues[2] > fvalues[3]
    assert high("Ac 2d 3h 4s 5c", LOW_WHEEL) > high("Ac Kd Qh Js 9c", LOW_WHEEL)  # still a straight


@pytest.mark.parametrize(
    ("text", "category", "ranks", "name"),
    [
        ("As JK", C.ONE_PAIR, (14,), "pair of aces"),
        ("JK 4c", C.HIGH_CARD, (14, 4), "ace-four"),
        ("7c 7d", C.ONE_PAIR, (7,), "pair of sevens"),
        ("Kc Ad", C.HIGH_CARD, (14, 13), "ace-king"),
        ("2c 3d", C.HIGH_CARD, (3, 2), "three-two"),
    ],
)
def test_low_hands(text: str, category: HandCategory, ranks: tuple[int, ...], name: str) -> None:
    value = low(text)
    assert (value.category, value.ranks, value.name, value.is_low) == (category, ranks, name, True)


def test_low_ordering() -> None:
    row = ["As JK", "Ac Ad", "Kc Kd", "2c 2d", "Ac Kd", "JK Qd", "Ac 2d", "Kc Qd", "3c 2d"]
    values = [low(t) for t in row]
    assert values[0] == values[1]  # A + JK is a pair of aces
    for better, worse in pairwise(values[1:]):
        assert better > worse
    assert low("Ac Kd") == low("As Kh") == low("JK Kc")


def test_high_and_low_values_do_not_compare() -> None:
    with pytest.raises(TypeError, match="low-hand value"):
        _ = high("Ac Kd 9h 5s 3c") < low("Ac Kd")
    with pytest.raises(TypeError, match="cannot compare"):
        _ = high("Ac Kd 9h 5s 3c") < 3  # type: ignore[operator]
    assert high("Ac Kd 9h 5s 3c") != low("Ac Kd")
    assert high("Ac Kd 9h 5s 3c") != "ace high"


@pytest.mark.parametrize(
    ("cards", "error", "message"),
    [
        ("As Kd Qh Js", InvalidCardError, "a high hand has 5 cards, not 4: 'As Kd Qh Js'"),
        ("As Kd Qh Js Tc 9c", InvalidCardError, "not 6"),
    ],
)
def test_evaluate_high_rejects_wrong_size(cards: str, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        evaluate_high(parse_cards(cards))


def test_duplicates_and_low_size_rejected() -> None:
    ace = parse_cards("As")[0]
    with pytest.raises(DuplicateCardError, match="duplicate card As"):
        evaluate_high([ace, ace, *parse_cards("Kd Qh Js")])
    with pytest.raises(DuplicateCardError, match="duplicate card As"):
        evaluate_low([ace, ace])
    with pytest.raises(InvalidCardError, match="a low hand has 2 cards, not 3"):
        evaluate_low(parse_cards("As Kd Qh"))


def test_int_api_agrees_with_values() -> None:
    cards = parse_cards("Ah Qh 9h 5h JK")
    indexes = [c.index for c in cards]
    key = high_key(indexes)
    assert key == evaluate_high(cards).key
    assert high_value(key) is evaluate_high(cards)
    assert category_of(key) is C.FLUSH
    code = 1
    suits = 0b1111
    for i in indexes:
        code *= CARD_PRIMES[i]
        suits &= CARD_SUITS[i]
    assert suits
    assert high_table()[-code] == key
    i, j = (c.index for c in parse_cards("JK 4c"))
    assert low_key(i, j) == low_key(j, i) == evaluate_low(parse_cards("4c JK")).key
    assert low_value(low_key(i, j)).name == "ace-four"
    assert category_of(low_key(i, i)) is C.ONE_PAIR
    assert high_key(indexes, LOW_WHEEL) == key  # a flush does not depend on the wheel
    wheel = [c.index for c in parse_cards("Ac 2d 3h 4s 5c")]
    assert high_key(wheel) > high_key([c.index for c in parse_cards("Kc Qd Jh Ts 9c")])
    assert high_key(wheel, LOW_WHEEL) < high_key([c.index for c in parse_cards("6c 5d 4h 3s 2c")], LOW_WHEEL)


def test_rank_names() -> None:
    assert (rank_name(13), rank_name(6, plural=True), rank_name(14, plural=True)) == ("king", "sixes", "aces")
