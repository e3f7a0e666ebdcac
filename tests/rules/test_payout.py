"""Commission and settlement in integer cents (docs/rules.md §4 and §6)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paigow.rules.house_rules import HouseRules
from paigow.rules.payout import (
    PlayerResult,
    Settlement,
    SettlementError,
    Wager,
    commission_cents,
    settle,
)
from paigow.rules.showdown import Outcome

EXACT = HouseRules(commission_round_cents=1)


@pytest.mark.parametrize(
    ("win", "rules", "commission"),
    [
        (1000, HouseRules(), 50),  # a $10 win pays $9.50
        (700, HouseRules(), 50),  # a $7 win: 35¢ rounds up to 50¢, pays $6.50
        (500, HouseRules(), 25),
        (510, HouseRules(), 50),  # 25.5¢ -> 50¢
        (2000, HouseRules(), 100),
        (30000, HouseRules(), 1500),
        (700, EXACT, 35),
        (701, EXACT, 36),  # 35.05¢ rounds up to 36¢
        (0, HouseRules(), 0),
        (-500, HouseRules(), 0),
        (1000, HouseRules(commission_bps=0), 0),
        (1, HouseRules(), 1),  # never more than the win
        (1000, HouseRules(commission_bps=400, commission_round_cents=100), 100),
    ],
)
def test_commission(win: int, rules: HouseRules, commission: int) -> None:
    assert commission_cents(win, rules) == commission


def test_house_banks() -> None:
    s = settle([Wager("alice", 1000, Outcome.WIN), Wager("bob", 700, Outcome.WIN),
                Wager("carol", 500, Outcome.PUSH), Wager("dave", 2500, Outcome.LOSS)])
    assert s.players == (
        PlayerResult("alice", 1000, Outcome.WIN, 1000, 50, 950),
        PlayerResult("bob", 700, Outcome.WIN, 700, 50, 650),
        PlayerResult("carol", 500, Outcome.PUSH, 0, 0, 0),
        PlayerResult("dave", 2500, Outcome.LOSS, -2500, 0, -2500),
    )
    assert s == Settlement(s.players, None, 800, 0, 800, 900)
    s.check_conserved()


def test_player_banks_with_the_house_dealer() -> None:
    s = settle([Wager("alice", 1000, Outcome.LOSS), Wager("bob", 700, Outcome.WIN),
                Wager("dealer", 2000, Outcome.LOSS, is_house=True)], banker_key="carol")
    assert s.players[2] == PlayerResult("dealer", 2000, Outcome.LOSS, -2000, 0, -2000, is_house=True)
    # The banker won 1000 + 2000 - 700 = 2300 net and pays 5% of it: 115 -> 125¢.
    assert (s.banker_gross_cents, s.banker_commission_cents, s.banker_net_cents) == (2300, 125, 2175)
    # The house: bob's 50¢ + the banker's 125¢ commission, less the dealer's 2000 lost.
    assert s.house_net_cents == 50 + 125 - 2000
    s.check_conserved()


def test_player_banker_losing_pays_no_commission() -> None:
    s = settle([Wager("alice", 1000, Outcome.WIN), Wager("dealer", 1000, Outcome.WIN, is_house=True)],
               banker_key="carol")
    assert (s.banker_gross_cents, s.banker_commission_cents, s.banker_net_cents) == (-2000, 0, -2000)
    assert s.players[1].commission_cents == 0  # the house's own wager pays no commission
    assert s.house_net_cents == 50 + 1000
    s.check_conserved()


@pytest.mark.parametrize(
    ("wagers", "banker", "message"),
    [
        ([Wager("a", 0, Outcome.WIN)], None, "wager 'a': amount must be a positive whole number of cents"),
        ([Wager("a", 500, Outcome.WIN), Wager("a", 500, Outcome.LOSS)], None, "wager 'a' appears twice"),
        ([Wager("a", 500, Outcome.WIN)], "a", "wager 'a' is the banker's own"),
        ([Wager("d", 500, Outcome.WIN, is_house=True)], None, "wager 'd' is the house's, but the house"),
        ([Wager("d", 500, Outcome.WIN, is_house=True), Wager("e", 500, Outcome.WIN, is_house=True)], "b",
         "more than one house wager"),
    ],
)
def test_bad_settlements(wagers: list[Wager], banker: str | None, message: str) -> None:
    with pytest.raises(SettlementError, match=message):
        settle(wagers, banker_key=banker)


def test_check_conserved_catches_a_leak() -> None:
    bad = Settlement((PlayerResult("a", 500, Outcome.WIN, 500, 25, 475),), None, -500, 0, -500, 0)
    with pytest.raises(SettlementError, match="does not balance: 475 cents"):
        bad.check_conserved()


rules_st = st.builds(HouseRules, commission_bps=st.integers(0, 10_000),
                     commission_round_cents=st.integers(1, 500))
wagers_st = st.lists(
    st.tuples(st.integers(1, 100_000), st.sampled_from(list(Outcome))), min_size=0, max_size=7)


@settings(max_examples=300, deadline=None)
@given(rules=rules_st, wagers=wagers_st, player_banks=st.booleans(), with_house=st.booleans())
def test_settle_conserves_money(rules: HouseRules, wagers: list[tuple[int, Outcome]], player_banks: bool,
                                with_house: bool) -> None:
    ws = [Wager(f"p{i}", amount, outcome) for i, (amount, outcome) in enumerate(wagers)]
    if player_banks and with_house and ws:
        ws[0] = Wager("dealer", ws[0].amount_cents, ws[0].outcome, is_house=True)
    s = settle(ws, rules, "banker" if player_banks else None)
    s.check_conserved()
    players = sum(r.net_cents for r in s.players if not r.is_house)
    banker = s.banker_net_cents if player_banks else 0
    assert players + banker + s.house_net_cents == 0
    for r in s.players:
        assert 0 <= r.commission_cents <= max(r.gross_cents, 0)
        assert r.net_cents >= 0 if r.outcome is Outcome.WIN else r.commission_cents == 0
    assert 0 <= s.banker_commission_cents <= max(s.banker_gross_cents, 0)
