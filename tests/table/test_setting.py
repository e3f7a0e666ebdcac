"""Setting hands: low cards or the House Way, resets, fouls under both policies, the banker's foul."""

from __future__ import annotations

from dataclasses import replace

from paigow.rules.house_rules import FoulPolicy, HouseRules
from paigow.rules.house_way import house_way
from paigow.rules.splits import Split
from paigow.table import Phase, RejectCode, SetBy, cards_from_text
from paigow.table import commands as c
from paigow.table import events as ev

NO_PAIR = ("As", "Kd", "9h", "7s", "5c", "3d", "2h")


def _rig(d, position: int, cards: tuple[str, ...]) -> None:
    """Test set-up: give the hand at ``position`` known cards (the state is a plain value)."""
    rnd = d.state.round
    hands = tuple(replace(h, cards=cards) if h.position == position else h for h in rnd.hands)
    d.state = replace(d.state, round=replace(rnd, hands=hands))


def _setting(driver, rules: HouseRules | None = None, players: int = 2):
    d = driver(rules) if rules else driver()
    d.sit(players)
    d.start_round()
    d.bet_all()
    assert d.state.phase == Phase.SETTING
    return d


def test_a_foul_is_refused_naming_both_hands_then_the_player_sets_again_and_resets(driver) -> None:
    d = _setting(driver)
    _rig(d, 1, NO_PAIR)
    rejection = d.refuse(c.SetHand("p1", ("As", "Kd")), RejectCode.FOUL)
    assert "low hand A-K outranks high hand 9-7-5-3-2" in rejection.message
    d.do(c.SetHand("p1", ("9h", "7s")))
    hand = d.state.round.hands[1]
    assert (hand.low, hand.set_by, hand.fouled) == (("9h", "7s"), SetBy.PLAYER, False)
    assert set(hand.high) == {"As", "Kd", "5c", "3d", "2h"}
    d.do(c.SetHand("p1", ("Kd", "9h")))  # a reset before the banker's hand is exposed
    assert d.state.round.hands[1].low == ("Kd", "9h")
    d.do(c.UseHouseWay("p1"))
    hand = d.state.round.hands[1]
    assert hand.set_by == SetBy.HOUSE_WAY
    assert Split(cards_from_text(hand.high), cards_from_text(hand.low)) == house_way(cards_from_text(NO_PAIR))


def test_under_the_lose_policy_a_foul_is_accepted_and_loses(driver) -> None:
    d = _setting(driver, HouseRules(foul_policy=FoulPolicy.LOSE))
    _rig(d, 1, NO_PAIR)
    events = d.do(c.SetHand("p1", ("As", "Kd")))
    assert events[0] == ev.HandSet(1, "p1", ("9h", "7s", "5c", "3d", "2h"), ("As", "Kd"), SetBy.PLAYER, True)
    d.do(c.UseHouseWay("p2"))
    record = d.last_record
    assert record.hands[1].fouled
    assert record.hands[1].outcome == "loss"
    assert record.hands[1].net_cents == -10_00


def test_a_player_bankers_foul_is_reset_by_the_house_way(driver) -> None:
    d = driver()
    d.sit(2)
    d.play_round()
    d.start_round()
    d.do(c.AcceptBank("p1"))
    d.bet_all()
    _rig(d, 1, NO_PAIR)
    events = d.do(c.SetHand("p1", ("As", "Kd")))
    hs = events[0]
    assert isinstance(hs, ev.HandSet)
    assert hs.set_by == SetBy.FOUL_RESET
    assert not hs.fouled
    assert Split(cards_from_text(hs.high), cards_from_text(hs.low)) == house_way(cards_from_text(NO_PAIR))


def test_bad_sets_are_refused_and_change_nothing(driver) -> None:
    d = _setting(driver)
    _rig(d, 1, NO_PAIR)
    d.refuse(c.SetHand("p1", ("As",)), RejectCode.INVALID_CARDS)
    d.refuse(c.SetHand("p1", ("As", "As")), RejectCode.INVALID_CARDS)
    d.refuse(c.SetHand("p1", ("As", "Zz")), RejectCode.INVALID_CARDS)
    for spelling in ("as", "AS", " As", "Kd "):  # the table, like the wire, takes only the one text form
        d.refuse(c.SetHand("p1", (spelling, "9h")), RejectCode.INVALID_CARDS)
    d.refuse(c.SetHand("p1", ("As", "Qc")), RejectCode.NOT_YOUR_CARDS)
    d.refuse(c.SetHand("nobody", ("As", "Kd")), RejectCode.NOT_SEATED)
    d.do(c.Sit("late", "Late", 5, 50_00))
    d.refuse(c.UseHouseWay("late"), RejectCode.NOT_IN_ROUND)
    d.refuse(c.PlaceBet("late", 10_00), RejectCode.WRONG_PHASE)


def test_setting_before_the_deal_is_the_wrong_phase(driver) -> None:
    d = driver()
    d.sit(1)
    d.start_round()
    rejection = d.refuse(c.UseHouseWay("p1"), RejectCode.WRONG_PHASE)
    assert "setting" in rejection.message
    assert "betting" in rejection.message


def test_once_the_last_hand_is_set_the_banker_is_exposed_and_nothing_changes(driver) -> None:
    d = _setting(driver)
    d.do(c.UseHouseWay("p1"))
    d.do(c.UseHouseWay("p2"))
    assert d.state.phase == Phase.IDLE
    d.refuse(c.UseHouseWay("p1"), RejectCode.WRONG_PHASE)
