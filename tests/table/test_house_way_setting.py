"""The table's House Way (``HouseRules.house_way``) sets every hand the house sets: the dealer's at the
showdown, the House Way button, a time-out, a player-banker's foul reset; and an operator's change of way
takes effect from the next round."""

from __future__ import annotations

from dataclasses import replace

import pytest

from paigow.rules.house_rules import HouseRules, HouseWayName
from paigow.table import Phase, SetBy
from paigow.table import commands as c
from paigow.table import events as ev
from paigow.table.state import DEALER_POSITION

# Hands where the ways part, with each way's front (ranks, sorted): two pair kings and fours with an ace
# (Foxwoods splits: its big pair A-J always splits), and four tens with a king (Bally's splits: 10s-kings
# stay together only with an ace).
TWO_PAIR = ("Kc", "Kd", "4h", "4s", "Ac", "8d", "2h")
QUAD_TENS = ("Tc", "Td", "Th", "Ts", "Kc", "Qd", "2h")
FRONTS = {
    HouseWayName.TRUMP_PLAZA: {TWO_PAIR: ["8", "A"], QUAD_TENS: ["K", "Q"]},
    HouseWayName.FOXWOODS: {TWO_PAIR: ["4", "4"], QUAD_TENS: ["K", "Q"]},
    HouseWayName.BALLYS_AC: {TWO_PAIR: ["8", "A"], QUAD_TENS: ["T", "T"]},
}
WAYS = list(HouseWayName)


def front_ranks(low: tuple[str, ...]) -> list[str]:
    return sorted(text[0] for text in low)


def rig(d, position: int, cards: tuple[str, ...]) -> None:
    """Test set-up: give the hand at ``position`` known cards (the state is a plain value)."""
    rnd = d.state.round
    hands = tuple(replace(h, cards=cards) if h.position == position else h for h in rnd.hands)
    d.state = replace(d.state, round=replace(rnd, hands=hands))


def setting(driver, way: HouseWayName, players: int = 1):
    d = driver(HouseRules(house_way=way))
    d.sit(players)
    d.start_round()
    d.bet_all()
    assert d.state.phase == Phase.SETTING
    return d


@pytest.mark.parametrize("cards", [TWO_PAIR, QUAD_TENS])
@pytest.mark.parametrize("way", WAYS)
def test_the_dealers_hand_is_set_by_the_tables_house_way(driver, way: HouseWayName, cards) -> None:
    d = setting(driver, way)
    rig(d, DEALER_POSITION, cards)
    events = d.do(c.UseHouseWay("p1"))  # the last hand set: the showdown sets the dealer's
    dealer = next(e for e in events if isinstance(e, ev.HandSet) and e.position == DEALER_POSITION)
    assert dealer.set_by == SetBy.DEALER
    assert front_ranks(dealer.low) == FRONTS[way][cards]
    record = next(h for h in d.last_record.hands if h.position == DEALER_POSITION)
    assert front_ranks(record.low) == FRONTS[way][cards]


@pytest.mark.parametrize("way", WAYS)
def test_the_house_way_button_follows_the_table(driver, way: HouseWayName) -> None:
    d = setting(driver, way, players=2)
    rig(d, 1, TWO_PAIR)
    d.do(c.UseHouseWay("p1"))
    hand = d.state.round.hands[1]
    assert (hand.set_by, front_ranks(hand.low)) == (SetBy.HOUSE_WAY, FRONTS[way][TWO_PAIR])


@pytest.mark.parametrize("way", WAYS)
def test_a_time_out_is_set_by_the_tables_house_way(driver, way: HouseWayName) -> None:
    d = setting(driver, way, players=2)
    rig(d, 1, QUAD_TENS)
    rig(d, 2, TWO_PAIR)
    d.expire()
    record = d.last_record
    by_position = {h.position: h for h in record.hands}
    assert by_position[1].set_by == SetBy.TIMEOUT
    assert front_ranks(by_position[1].low) == FRONTS[way][QUAD_TENS]
    assert front_ranks(by_position[2].low) == FRONTS[way][TWO_PAIR]


@pytest.mark.parametrize("way", WAYS)
def test_a_player_bankers_foul_is_reset_by_the_tables_house_way(driver, way: HouseWayName) -> None:
    d = driver(HouseRules(house_way=way))
    d.sit(2)
    d.play_round()
    d.start_round()
    d.do(c.AcceptBank("p1"))
    d.bet_all()
    rig(d, 1, TWO_PAIR)
    hs = d.do(c.SetHand("p1", ("Kc", "Kd")))[0]  # kings over a pair of fours: a foul
    assert isinstance(hs, ev.HandSet)
    assert (hs.set_by, hs.fouled) == (SetBy.FOUL_RESET, False)
    assert front_ranks(hs.low) == FRONTS[way][TWO_PAIR]


def test_a_change_of_house_way_applies_from_the_next_round(driver) -> None:
    d = driver()
    d.sit(1)
    d.play_round()
    d.do(c.ChangeRules(HouseRules(house_way=HouseWayName.FOXWOODS)))
    assert d.state.rules.house_way is HouseWayName.FOXWOODS
    d.start_round()
    if d.state.phase == Phase.BANK_OFFER:
        d.do(c.DeclineBank("p1"))
    d.bet_all()
    rig(d, 1, TWO_PAIR)
    d.do(c.UseHouseWay("p1"))
    assert front_ranks(d.last_record.hands[1].low) == FRONTS[HouseWayName.FOXWOODS][TWO_PAIR]
