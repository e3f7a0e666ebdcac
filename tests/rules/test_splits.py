"""Splits and fouls: docs/rules.md §3, boundary cases, and properties."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paigow.rules.cards import DECK, Card, DuplicateCardError, InvalidCardError, parse_cards
from paigow.rules.hand_value import (
    HandCategory,
    evaluate_high,
    evaluate_low,
    high_table,
    high_value,
    low_key,
    low_value,
)
from paigow.rules.house_rules import HouseRules, WheelRank
from paigow.rules.splits import (
    FoulError,
    Split,
    all_splits,
    check_split,
    foul_keys,
    high_outranks_low,
    is_foul,
    legal_splits,
    split_from_low,
    split_keys,
)


def split(high: str, low: str) -> Split:
    return Split(parse_cards(high), parse_cards(low))


@pytest.mark.parametrize(
    ("high", "low", "foul"),
    [
        # A low pair needs two pair or better, or a pair at least as high.
        ("8c 8d Kh 5s 3c", "8h 8s", False),  # the same pair with kickers outranks the bare pair
        ("9c 9d 4h 3s 2c", "8h 8s", False),
        ("7c 7d Ah Ks Qc", "8h 8s", True),
        ("Ac Kd Qh Js 9c", "2h 2s", True),  # no pair behind a pair: foul
        ("3c 3d 2h 2s 4c", "Ah Ad", False),  # two pair beats any low pair
        ("Ac 2d 3h 4s 5c", "Kh Ks", False),  # a straight (the wheel) beats any low pair
        ("Ac Ad 9h 7s 2c", "As JK", False),  # A + JK is a pair of aces; a pair of aces behind it
        ("Kc Kd 9h 7s 2c", "As JK", True),
        ("Ac Kd 9h 7s JK", "Ah As", False),  # joker + ace in the high hand: a pair of aces
        # A low non-pair needs a pair or better, or top two cards not below the low hand's.
        ("Kc Jd 8h 5s 3c", "Kd Qh", True),
        ("Kc Qd 8h 5s 3c", "Kd Qh", False),  # equal top two: the kickers make the high hand higher
        ("Kc Qd 3h 4s 2c", "Ks Qh", False),
        ("Ac 2d 4h 6s 7c", "Kd Qh", False),  # a higher top card
        ("2c 2d 4h 6s 7c", "Ad Kh", False),  # any pair behind a non-pair
        ("Ac Qd 8h 5s 3c", "Kd JK", True),  # JK + K is ace-king: A-Q behind it is a foul
        ("JK Kd 8h 5s 3c", "Ac Qh", False),  # the joker is an ace at the top of the high hand
        ("JK Qd 8h 5s 3c", "Ac Kh", True),
        ("9c 8d 7h 6s 4c", "Tc 2d", True),
        ("Tc 8d 7h 6s 4c", "Th 9d", True),  # equal top card, lower second card
        ("Tc 9d 7h 6s 4c", "Th 9h", False),
    ],
)
def test_foul_rule(high: str, low: str, foul: bool) -> None:
    s = split(high, low)
    assert is_foul(s) is foul
    high_key, low_key = split_keys(s)
    assert foul_keys(high_key, low_key) is foul
    if foul:
        with pytest.raises(FoulError, match="outranks high hand") as info:
            check_split(s)
        assert info.value.split == s
    else:
        check_split(s)


def test_foul_message_names_both_hands_and_the_rule() -> None:
    with pytest.raises(FoulError) as info:
        check_split(split("Kc Jd 8h 5s 3c", "Kd Qh"))
    assert str(info.value).startswith("low hand K-Q outranks high hand K-J-8-5-3: foul (")
    assert "top two cards at least king-queen" in str(info.value)
    eights = r"low hand 8-8 outranks high hand A-K-Q-7-7: foul \(.*pair of eights"
    with pytest.raises(FoulError, match=eights):
        check_split(split("7c 7d Ah Ks Qc", "8h 8s"))
    with pytest.raises(FoulError, match="low hand JK-K outranks high hand A-Q-8-5-3"):
        check_split(split("Ac Qd 8h 5s 3c", "Kd JK"))


def test_split_values() -> None:
    s = split("As Ks Qs Js Ts", "2c 3d")
    assert s.cards == parse_cards("As Ks Qs Js Ts 2c 3d")
    assert str(s) == "As Ks Qs Js Ts | 2c 3d"
    assert s == split("Ts Js Qs Ks As", "3d 2c")
    assert hash(s) == hash(split("Ts Js Qs Ks As", "3d 2c"))
    assert s != split("As Ks Qs Js 2c", "Ts 3d")
    assert s != "As Ks Qs Js Ts | 2c 3d"


@pytest.mark.parametrize(
    ("high", "low", "error", "message"),
    [
        ("As Ks Qs Js", "2c 3d", InvalidCardError, "5-card high hand and a 2-card low hand, not 4 and 2"),
        ("As Ks Qs Js Ts", "2c", InvalidCardError, "not 5 and 1"),
        ("As Ks Qs Js Ts", "2c As", DuplicateCardError, "duplicate card As"),
    ],
)
def test_bad_splits(high: str, low: str, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        Split(parse_cards(high), parse_cards(low))


def test_split_from_low() -> None:
    seven = parse_cards("Ac Kd 9h 7s 5c 3d 2h")
    s = split_from_low(seven, parse_cards("9h Kd"))
    assert s.high == parse_cards("Ac 7s 5c 3d 2h")
    assert s.low == parse_cards("9h Kd")
    with pytest.raises(InvalidCardError, match="low hand card Qs is not one of the seven cards"):
        split_from_low(seven, parse_cards("Qs Kd"))
    with pytest.raises(InvalidCardError, match="a low hand has 2 cards, not 3"):
        split_from_low(seven, parse_cards("9h Kd Ac"))
    with pytest.raises(InvalidCardError, match="a pai gow hand has 7 cards, not 6"):
        split_from_low(seven[:6], parse_cards("9h Kd"))
    with pytest.raises(DuplicateCardError):
        all_splits([*seven[:6], seven[0]])


def test_wheel_setting_both_ways_in_a_split() -> None:
    # The wheel straight is never a foul whatever the wheel rule; its ranking is what the setting moves.
    s = split("Ac 2d 3h 4s 5c", "Kh Ks")
    for wheel in WheelRank:
        assert not is_foul(s, HouseRules(wheel=wheel))
    second, low = HouseRules(wheel=WheelRank.SECOND), HouseRules(wheel=WheelRank.LOW)
    assert split_keys(s, second)[0] > split_keys(s, low)[0]


def test_literal_rule_equals_key_comparison_for_every_pair_of_values() -> None:
    """For every distinct high-hand value and every low-hand value, the clauses agree with the keys."""
    lows = {low_value(low_key(a.index, b.index)) for a, b in combinations(DECK, 2)}
    assert len(lows) == 13 + 78
    highs = {high_value(k) for k in high_table().values()}
    assert len(highs) > 7000
    for h in highs:
        for lo in lows:
            assert high_outranks_low(h, lo) is not foul_keys(h.key, lo.key)


def test_high_outranks_low_takes_values_in_order() -> None:
    with pytest.raises(TypeError, match="high-hand value, then a low-hand value"):
        high_outranks_low(evaluate_low(parse_cards("Ac Kd")), evaluate_high(parse_cards("Ac Kd 9h 5s 3c")))


sevens = st.lists(st.sampled_from(DECK), min_size=7, max_size=7, unique=True)
rules_st = st.sampled_from([HouseRules(wheel=w) for w in WheelRank])


@settings(max_examples=150, deadline=None)
@given(cards=sevens, rules=rules_st)
def test_legal_splits_consistent_with_is_foul(cards: list[Card], rules: HouseRules) -> None:
    splits = all_splits(cards)
    assert len(splits) == 21
    assert len(set(splits)) == 21
    for s in splits:
        assert sorted(s.cards) == sorted(cards)
    legal = legal_splits(cards, rules)
    assert legal == tuple(s for s in splits if not is_foul(s, rules))
    assert legal  # every seven cards can be set without a foul
    for s in splits:
        if s in legal:
            check_split(s, rules)
            assert evaluate_high(s.high, rules).category >= HandCategory.HIGH_CARD
        else:
            with pytest.raises(FoulError):
                check_split(s, rules)
