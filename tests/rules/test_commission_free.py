"""The commission-free forms (docs/rules.md §4a): the setting, the bar, the showdown's push and the
settlement without commission; only when the house banks."""

from __future__ import annotations

import pytest

from paigow.rules.cards import InvalidCardError, parse_cards
from paigow.rules.commission_free import bars_of_indexes, dealer_bars
from paigow.rules.house_rules import CommissionForm, FoulPolicy, HouseRules, HouseRulesError, HouseWayName
from paigow.rules.house_way import set_front
from paigow.rules.payout import Wager, settle
from paigow.rules.showdown import HandResult, Outcome, showdown
from paigow.rules.splits import Split

EZ = HouseRules(commission_form=CommissionForm.EZ)
NINE = HouseRules(commission_form=CommissionForm.NINE_HIGH)
COMMISSIONED = HouseRules()


def test_the_setting_reads_its_names_and_refuses_others() -> None:
    assert HouseRules().commission_form is CommissionForm.COMMISSIONED
    assert HouseRules(commission_form="ez").commission_form is CommissionForm.EZ  # type: ignore[arg-type]
    rules = HouseRules(commission_form="nine_high")  # type: ignore[arg-type]
    assert rules.commission_form is CommissionForm.NINE_HIGH
    assert [f.is_commission_free for f in CommissionForm] == [False, True, True]
    with pytest.raises(HouseRulesError, match="commission_form must be one of 'commissioned', 'ez', "
                                              "'nine_high', not 'nine-high'"):
        HouseRules(commission_form="nine-high")  # type: ignore[arg-type]


QUEEN_HIGH = "Qs Jd 9h 7c 5s 3d 2h"  # House Way: Q 7 5 3 2 | J 9
NINE_HIGH = "Ts 9d 8h 6c 4s 3d 2h"  # House Way: T 6 4 3 2 | 9 8
NEITHER = "Ks Qd Jh 7c 5s 3d 2h"  # K-high: K 7 5 3 2 | Q J


@pytest.mark.parametrize(
    ("dealer", "rules", "house_banks", "bars"),
    [
        (QUEEN_HIGH, EZ, True, True),
        (QUEEN_HIGH, EZ, False, False),  # a player banks: the round is commissioned
        (QUEEN_HIGH, NINE, True, False),  # J-9 in front is jack-high
        (QUEEN_HIGH, COMMISSIONED, True, False),
        (NINE_HIGH, NINE, True, True),
        (NINE_HIGH, NINE, False, False),
        (NINE_HIGH, EZ, True, False),  # ten-high is no queen-high pai gow
        (NEITHER, EZ, True, False),
        (NEITHER, NINE, True, False),
        ("Qs Jd 9h 7c 5s 3d JK", EZ, True, False),  # the joker is an ace
        ("7s 7d 7h 7c 9s 4d 2h", NINE, True, False),  # Trump Plaza splits the sevens: 7-7 in front
        ("7s 7d 7h 7c 9s 4d 2h", HouseRules(commission_form=CommissionForm.NINE_HIGH,
                                            house_way=HouseWayName.BALLYS_AC), True, True),
    ],
)
def test_which_dealer_hands_are_barred(dealer: str, rules: HouseRules, house_banks: bool,
                                       bars: bool) -> None:
    cards = parse_cards(dealer)
    assert dealer_bars(cards, rules, house_banks=house_banks) is bars
    if house_banks:
        indexes = [c.index for c in cards]
        _, i, j = set_front(indexes, rules)
        assert bars_of_indexes(indexes, (i, j), rules.commission_form) is bars


@pytest.mark.parametrize("rules", [EZ, NINE, COMMISSIONED])
def test_the_bar_checks_the_cards(rules: HouseRules) -> None:
    with pytest.raises(InvalidCardError):
        dealer_bars(parse_cards("Qs Jd 9h 7c 5s 3d"), rules)


def split(high: str, low: str) -> Split:
    return Split(parse_cards(high), parse_cards(low))


BANKER = split("Qs 7c 5s 3d 2h", "Jd 9h")  # the queen-high pai gow, set by the House Way
WINNER = split("Ac Ad 9d 7h 3c", "Kh 2d")
LOSER = split("Jc 8d 6d 4h 3c", "Ts 7s")


def test_a_barred_banker_hand_pushes_but_keeps_the_hands_results() -> None:
    won = showdown(WINNER, BANKER, EZ, banker_barred=True)
    assert (won.high, won.low, won.outcome) == (HandResult.WIN, HandResult.WIN, Outcome.PUSH)
    assert won.barred
    lost = showdown(LOSER, BANKER, EZ, banker_barred=True)
    assert (lost.high, lost.low, lost.outcome) == (HandResult.LOSS, HandResult.LOSS, Outcome.PUSH)
    assert showdown(WINNER, BANKER, EZ).outcome is Outcome.WIN  # not barred: the hands decide
    assert not showdown(WINNER, BANKER, EZ).barred


def test_a_foul_still_loses_against_a_barred_hand() -> None:
    rules = HouseRules(commission_form=CommissionForm.EZ, foul_policy=FoulPolicy.LOSE)
    foul = split("Kc Qd 9d 7h 3c", "As Ad")  # a pair of aces in front of king-high
    result = showdown(foul, BANKER, rules, banker_barred=True)
    assert (result.outcome, result.fouled, result.barred) == (Outcome.LOSS, True, False)
    assert showdown(WINNER, BANKER, rules, player_fouled=True, banker_barred=True).outcome is Outcome.LOSS


def test_only_a_commission_free_form_bars() -> None:
    with pytest.raises(ValueError, match="commission-free"):
        showdown(WINNER, BANKER, COMMISSIONED, banker_barred=True)


@pytest.mark.parametrize("rules", [EZ, NINE])
def test_a_commission_free_house_banked_win_pays_even_money(rules: HouseRules) -> None:
    s = settle([Wager("a", 1000, Outcome.WIN), Wager("b", 700, Outcome.LOSS), Wager("c", 500, Outcome.PUSH)],
               rules)
    assert [(r.gross_cents, r.commission_cents, r.net_cents) for r in s.players] == [
        (1000, 0, 1000), (-700, 0, -700), (0, 0, 0)]
    assert s.house_net_cents == -300
    s.check_conserved()


@pytest.mark.parametrize("rules", [EZ, NINE])
def test_a_player_banked_round_is_commissioned(rules: HouseRules) -> None:
    s = settle([Wager("a", 1000, Outcome.WIN), Wager("b", 2000, Outcome.LOSS),
                Wager("house", 500, Outcome.LOSS, is_house=True)], rules, banker_key="banker")
    assert [r.commission_cents for r in s.players] == [50, 0, 0]
    assert (s.banker_gross_cents, s.banker_commission_cents) == (1500, 75)
    assert s.house_net_cents == 50 + 75 - 500
    s.check_conserved()
