"""Showdown: docs/rules.md §4 (copies to the banker, fouls under both policies)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paigow.rules.cards import DECK, Card, parse_cards
from paigow.rules.hand_value import evaluate_high, evaluate_low
from paigow.rules.house_rules import FoulPolicy, HouseRules, WheelRank
from paigow.rules.showdown import HandResult, Outcome, Showdown, resolve, showdown
from paigow.rules.splits import FoulError, Split, legal_splits

LOSE = HouseRules(foul_policy=FoulPolicy.LOSE)
W, L, C = HandResult.WIN, HandResult.LOSS, HandResult.COPY


def split(high: str, low: str) -> Split:
    return Split(parse_cards(high), parse_cards(low))


BANKER = split("Kc Kd 9h 7s 2c", "Qh Jh")  # pair of kings | queen-jack


@pytest.mark.parametrize(
    ("player", "high", "low", "outcome"),
    [
        (split("Ac Ad 9d 7h 3c", "Kh 2d"), W, W, Outcome.WIN),  # both won
        (split("Ac Ad 9d 7h 3c", "Qs Td"), W, L, Outcome.PUSH),  # one won, one lost
        (split("Qc Qd 9d 7h 3c", "Ah 2d"), L, W, Outcome.PUSH),
        (split("Ac Ad 9d 7h 3c", "Qs Jd"), W, C, Outcome.PUSH),  # a copy goes to the banker
        (split("Ks Kh 9c 7d 2h", "Ah 2d"), C, W, Outcome.PUSH),
        (split("Ks Kh 9c 7d 2h", "Qs Jd"), C, C, Outcome.LOSS),  # two copies
        (split("Ks Kh 9c 7d 2h", "Ts 9d"), C, L, Outcome.LOSS),  # a copy with a loss
        (split("Qc Qd 9d 7h 3c", "Ts 9s"), L, L, Outcome.LOSS),  # both lost
        (split("Ks Kh 9c 7d JK", "Qs Jd"), W, C, Outcome.PUSH),  # the joker as an ace kicker wins it
    ],
)
def test_showdown_table(player: Split, high: HandResult, low: HandResult, outcome: Outcome) -> None:
    assert showdown(player, BANKER) == Showdown(high, low, outcome)
    assert resolve(player, BANKER) is outcome


def test_copies_with_suits_ignored_and_joker_royal() -> None:
    banker = split("As Ks Qs Js Ts", "9c 8c")
    player = split("Ah Kh Qh Jh JK", "9d 8d")
    assert showdown(player, banker) == Showdown(C, C, Outcome.LOSS)


def test_wheel_setting_decides_a_showdown() -> None:
    player = split("Ac 2d 3h 4s 5c", "Kh Qd")
    banker = split("Kc Qs Jh Ts 9c", "Ah 2h")
    assert resolve(player, banker, HouseRules(wheel=WheelRank.SECOND)) is Outcome.PUSH
    assert resolve(player, banker, HouseRules(wheel=WheelRank.LOW)) is Outcome.LOSS


FOUL = split("Kc Jd 8h 5s 3c", "Kd Qh")


def test_foul_under_lose_loses_even_with_better_hands() -> None:
    weak_banker = split("7c 6d 5h 3s 2c", "4d 2h")
    assert showdown(FOUL, weak_banker, LOSE) == Showdown(L, L, Outcome.LOSS, fouled=True)
    assert resolve(FOUL, weak_banker, LOSE) is Outcome.LOSS


def test_foul_under_reject_raises() -> None:
    with pytest.raises(FoulError, match="low hand K-Q outranks high hand K-J-8-5-3: foul"):
        showdown(FOUL, BANKER)


def test_player_fouled_flag_is_a_loss() -> None:
    winner = split("Ac Ad 9d 7h 3c", "Kh 2d")
    assert showdown(winner, BANKER, LOSE, player_fouled=True) == Showdown(L, L, Outcome.LOSS, fouled=True)


def test_banker_foul_is_an_error() -> None:
    message = r"banker's split is foul .*low hand K-Q outranks high hand K-J-8-5-3"
    with pytest.raises(FoulError, match=message):
        showdown(BANKER, FOUL, LOSE)


sevens = st.lists(st.sampled_from(DECK), min_size=14, max_size=14, unique=True)


@settings(max_examples=150, deadline=None)
@given(cards=sevens, data=st.data())
def test_showdown_matches_hand_values(cards: list[Card], data: st.DataObject) -> None:
    player = data.draw(st.sampled_from(legal_splits(cards[:7])))
    banker = data.draw(st.sampled_from(legal_splits(cards[7:])))
    result = showdown(player, banker)
    for mine, theirs, got in (
        (evaluate_high(player.high), evaluate_high(banker.high), result.high),
        (evaluate_low(player.low), evaluate_low(banker.low), result.low),
    ):
        assert got is (W if mine > theirs else C if mine == theirs else L)
    wins = [result.high, result.low].count(W)
    assert result.outcome is [Outcome.LOSS, Outcome.PUSH, Outcome.WIN][wins]
    # Swapping sides: a player win is a banker loss, except that copies always favour the banker.
    reverse = showdown(banker, player)
    if result.outcome is Outcome.WIN:
        assert reverse.outcome is Outcome.LOSS
    if reverse.outcome is Outcome.WIN:
        assert result.outcome is Outcome.LOSS
