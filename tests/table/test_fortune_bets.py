"""The Fortune bonus at the table: placing it beside the bet (or as the player-banker), its checks, settling
it on the seven dealt cards with the Envy bonus, voiding, the rules change, and what the views show."""

from __future__ import annotations

from dataclasses import replace

import pytest

from paigow.rules.cards import parse_cards
from paigow.rules.fortune import DEFAULT_PAY_TABLE, FortuneHand, fortune_hand
from paigow.rules.house_rules import FoulPolicy, HouseRules, HouseRulesError
from paigow.table import Phase, RejectCode
from paigow.table import commands as c
from paigow.table import events as ev
from paigow.table.can import BetRange, can_of, coverage_left
from paigow.table.views import PlayerViewer, SpectatorViewer, view_for

FORTUNE = HouseRules(fortune_enabled=True)

QUADS = "9c 9d 9h 9s 2c 5d Kh"          # four of a kind: 25 to 1, Envy $5
STRAIGHT_FLUSH = "4h 5h 6h 7h 8h Kc 2s"  # 50 to 1, Envy $20
NOTHING = "2d 4c 7s 8d Jc Qs 3h"
FLUSH = "2s 5s 8s Js Ks Ac 3c"            # 4 to 1, no Envy
DEALER_QUADS = "Tc Td Th Ts 3d 6c Qd"


def _dealt(d, hands: dict[int, str]) -> None:
    """Test set-up: after the deal, give the live hands at these positions these seven cards."""
    rnd = d.state.round
    assert d.state.phase == Phase.SETTING
    new = tuple(replace(h, cards=tuple(hands[h.position].split())) if h.position in hands else h
                for h in rnd.hands)
    d.state = replace(d.state, round=replace(rnd, hands=new))


def test_the_rules_hold_the_bonus_and_refuse_bad_settings() -> None:
    rules = HouseRules()
    assert (rules.fortune_enabled, rules.fortune_pay_table) == (False, "fortune-8000")
    limits = (rules.fortune_min_bet_cents, rules.fortune_max_bet_cents, rules.envy_min_bet_cents)
    assert limits == (100, 10_000, 500)
    five = HouseRules(fortune_pay_table="fortune-5000").fortune_table
    assert five.pays[FortuneHand.SEVEN_CARD_STRAIGHT_FLUSH] == 5000
    with pytest.raises(HouseRulesError,
                       match="fortune_pay_table must be one of 'fortune-8000', 'fortune-5000', not 'x'"):
        HouseRules(fortune_pay_table="x")
    with pytest.raises(HouseRulesError,
                       match=r"fortune_max_bet_cents \(50\) must not be below fortune_min_bet_cents"):
        HouseRules(fortune_max_bet_cents=50)
    with pytest.raises(HouseRulesError, match="fortune_enabled must be true or false, not 1"):
        HouseRules(fortune_enabled=1)  # type: ignore[arg-type]
    with pytest.raises(HouseRulesError, match="envy_min_bet_cents must be from 1"):
        HouseRules(envy_min_bet_cents=0)


def test_a_table_without_the_bonus_refuses_it(driver) -> None:
    d = driver()
    d.sit(2)
    d.start_round()
    d.refuse(c.PlaceBet("p1", 10_00, bonus_cents=5_00), RejectCode.BONUS_OFF)
    d.do(c.PlaceBet("p1", 10_00))
    d.refuse(c.PlaceBonus("p1", 5_00), RejectCode.BONUS_OFF)
    assert can_of(d.state, 1).bonus is None
    assert view_for(d.state, SpectatorViewer()).fortune is None


def test_a_bonus_is_placed_with_the_bet_changed_and_taken_back(driver) -> None:
    d = driver(FORTUNE)
    d.sit(2)
    d.start_round()
    assert can_of(d.state, 1).bonus == BetRange(100, 95_00)  # beside the minimum bet, within the chips
    events = d.do(c.PlaceBet("p1", 10_00, bonus_cents=5_00))
    assert [type(e) for e in events] == [ev.BetPlaced, ev.BonusPlaced]
    assert events[1] == ev.BonusPlaced("p1", 1, 5_00)
    view = view_for(d.state, PlayerViewer("p2"))
    assert view.seats[1].bonus_cents == 5_00
    assert view.seats[1].bet_cents == 10_00
    assert [(b.position, b.amount_cents) for b in view.round.bonuses] == [(1, 5_00)]
    assert view_for(d.state, PlayerViewer("p1")).you.bonus_cents == 5_00
    d.do(c.PlaceBet("p1", 20_00))  # no bonus_cents: the bonus stays
    assert d.state.round.bonuses[0].amount_cents == 5_00
    d.do(c.PlaceBonus("p1", 7_00))
    assert d.state.round.bonuses[0].amount_cents == 7_00
    assert [type(e) for e in d.do(c.PlaceBonus("p1", 0))] == [ev.BonusRemoved]
    assert d.state.round.bonuses == ()
    assert d.state.round.bets[0].amount_cents == 20_00
    d.refuse(c.PlaceBonus("p1", 0), RejectCode.NO_BET)
    d.do(c.PlaceBonus("p1", 2_00))
    d.do(c.RemoveBet("p1"))  # the bonus goes with the bet
    assert d.state.round.bets == ()
    assert d.state.round.bonuses == ()


def test_bad_bonuses_are_refused_naming_what_was_wrong(driver) -> None:
    d = driver(FORTUNE)
    d.sit(2, buy_in_cents=30_00)
    d.start_round()
    msg = d.refuse(c.PlaceBonus("p1", 5_00), RejectCode.NO_BET).message
    assert "a Fortune bonus is placed beside a bet" in msg
    msg = d.refuse(c.PlaceBet("p1", 10_00, bonus_cents=50), RejectCode.BELOW_MINIMUM).message
    assert msg == "your Fortune bonus is $0.50; the bonus minimum is $1.00"
    msg = d.refuse(c.PlaceBet("p1", 10_00, bonus_cents=100_01), RejectCode.ABOVE_MAXIMUM).message
    assert msg == "your Fortune bonus is $100.01; the bonus maximum is $100.00"
    msg = d.refuse(c.PlaceBet("p1", 25_00, bonus_cents=6_00), RejectCode.INSUFFICIENT_CHIPS).message
    assert msg == ("your bet of $25.00 and Fortune bonus of $6.00 make $31.00; you have $30.00 at the table")
    d.refuse(c.PlaceBet("p1", 10_00, bonus_cents=-1), RejectCode.INVALID_VALUE)
    d.do(c.PlaceBet("p1", 10_00, bonus_cents=20_00))
    assert can_of(d.state, 1).bet == BetRange(500, 10_00)  # chips less the bonus
    assert can_of(d.state, 1).bonus == BetRange(100, 20_00)  # chips less the bet
    d.refuse(c.PlaceBet("p1", 10_01), RejectCode.INSUFFICIENT_CHIPS)
    d.refuse(c.PlaceBonus("p1", 20_01), RejectCode.INSUFFICIENT_CHIPS)


def test_bonuses_and_envy_settle_on_the_dealt_cards_banked_by_the_house(driver, helpers) -> None:
    d = driver(replace(FORTUNE, foul_policy=FoulPolicy.LOSE))
    d.sit(4)
    d.start_round()
    d.do(c.PlaceBet("p1", 10_00, bonus_cents=5_00))   # quads, Envy-qualifying
    d.do(c.PlaceBet("p2", 10_00, bonus_cents=10_00))  # straight flush, Envy-qualifying
    d.do(c.PlaceBet("p3", 10_00, bonus_cents=4_99))   # flush, below the Envy minimum
    d.do(c.PlaceBet("p4", 10_00))                     # quads without a bonus: still pays others Envy
    _dealt(d, {0: DEALER_QUADS, 1: QUADS, 2: STRAIGHT_FLUSH, 3: FLUSH, 4: "Ac Ad Ah As 4d 7c 8c"})
    chips = {p: d.state.seats[p].chips_cents for p in range(1, 5)}
    house = d.state.ledger.house_net_cents
    # p3 fouls on purpose (A-K low over a jack-high high hand, under "lose"): the bonus still pays on the
    # seven cards.
    d.do(c.SetHand("p3", ("Ks", "Ac")))
    for p in ("p1", "p2", "p4"):
        d.do(c.UseHouseWay(p))
    record = d.last_record
    by_pos = {h.position: h for h in record.hands}
    assert by_pos[3].fouled
    assert by_pos[3].outcome == "loss"
    assert by_pos[0].fortune == "four_of_a_kind"
    assert by_pos[0].bonus_cents == 0
    assert (by_pos[1].fortune, by_pos[1].bonus_win_cents) == ("four_of_a_kind", 25 * 5_00)
    assert [(e.position, e.fortune, e.amount_cents) for e in by_pos[1].envy] == [
        (2, "straight_flush", 20_00), (4, "four_of_a_kind", 5_00)]
    assert (by_pos[2].fortune, by_pos[2].bonus_win_cents) == ("straight_flush", 50 * 10_00)
    assert [(e.position, e.amount_cents) for e in by_pos[2].envy] == [(1, 5_00), (4, 5_00)]
    assert (by_pos[3].fortune, by_pos[3].bonus_win_cents, by_pos[3].envy) == ("flush", 4 * 4_99, ())
    assert (by_pos[4].bonus_cents, by_pos[4].bonus_net_cents) == (0, 0)
    for p in range(1, 5):
        h = by_pos[p]
        assert h.bonus_net_cents == h.bonus_win_cents + sum(e.amount_cents for e in h.envy)
        assert h.commission_cents <= max(h.gross_cents, 0)  # no commission on the bonus
        assert d.state.seats[p].chips_cents == chips[p] + h.net_cents + h.bonus_net_cents
    bonus_house = -sum(by_pos[p].bonus_net_cents for p in range(1, 5))
    assert record.bonus_house_net_cents == bonus_house
    assert record.pay_table == "fortune-8000"
    main_house = sum(h.commission_cents for h in record.hands) + by_pos[0].gross_cents
    assert record.house_net_cents == main_house + bonus_house
    assert d.state.ledger.house_net_cents == house + record.house_net_cents
    assert helpers["chips_balanced"](d.state)


def test_a_losing_bonus_goes_to_the_house(driver, helpers) -> None:
    d = driver(FORTUNE)
    d.sit(1)
    d.start_round()
    d.do(c.PlaceBet("p1", 10_00, bonus_cents=3_00))
    _dealt(d, {1: NOTHING})
    d.house_way_all()
    h = next(h for h in d.last_record.hands if h.position == 1)
    assert (h.fortune, h.bonus_win_cents, h.bonus_net_cents) == ("nothing", -3_00, -3_00)
    assert d.last_record.bonus_house_net_cents == 3_00
    assert helpers["chips_balanced"](d.state)


def _player_banks(d) -> None:
    d.sit(3)
    d.start_round()
    for p in ("p1", "p2", "p3"):
        d.do(c.PlaceBet(p, 10_00))
    d.house_way_all()
    d.start_round()
    assert d.state.round.offer_player_id == "p1"


def test_a_player_banker_makes_a_fortune_bet_and_bonuses_take_nothing_from_the_bank(driver, helpers) -> None:
    d = driver(FORTUNE)
    _player_banks(d)
    d.refuse(c.AcceptBank("p1", bonus_cents=50), RejectCode.BELOW_MINIMUM)
    events = d.do(c.AcceptBank("p1", bonus_cents=5_00))
    assert [type(e) for e in events[:2]] == [ev.BettingOpened, ev.BonusPlaced]
    left = coverage_left(d.state)
    d.do(c.PlaceBet("p2", 10_00, bonus_cents=50_00))
    assert coverage_left(d.state) == left - 10_00  # the players' bonus is the house's, not the bank's
    assert can_of(d.state, 1).bet is None
    d.do(c.PlaceBonus("p1", 6_00))  # the banker changes it
    assert coverage_left(d.state) == left - 10_00 - 1_00
    d.do(c.PlaceBet("p3", 10_00))
    _dealt(d, {1: QUADS, 2: STRAIGHT_FLUSH, 3: NOTHING, 0: DEALER_QUADS})
    d.house_way_all()
    by_pos = {h.position: h for h in d.last_record.hands}
    assert by_pos[1].is_banker
    assert by_pos[1].bonus_win_cents == 25 * 6_00
    assert [(e.position, e.amount_cents) for e in by_pos[1].envy] == [(2, 20_00)]
    assert [(e.position, e.amount_cents) for e in by_pos[2].envy] == [(1, 5_00)]  # the banker's hand counts
    assert helpers["chips_balanced"](d.state)


def test_the_bankers_bonus_leaves_the_bank_covering_everyone(driver) -> None:
    d = driver(replace(FORTUNE, fortune_max_bet_cents=1_000_00))
    _player_banks(d)
    d.with_chips(1, 100_00)
    d.do(c.AcceptBank("p1"))
    wager = d.state.round.dealer_wager_cents
    assert can_of(d.state, 1).bonus == BetRange(100, 100_00 - wager - 5_00 * 2)
    msg = d.refuse(c.PlaceBonus("p1", 100_00 - wager - 5_00 * 2 + 1), RejectCode.INSUFFICIENT_CHIPS).message
    assert "you bank" in msg
    d.do(c.PlaceBonus("p1", 100_00 - wager - 5_00 * 2))  # the two players still to bet: $5 each covered
    assert coverage_left(d.state) == 2 * 5_00


def test_a_voided_round_returns_the_bonuses(driver) -> None:
    d = driver(FORTUNE)
    d.sit(2)
    d.start_round()
    d.do(c.PlaceBet("p1", 10_00, bonus_cents=5_00))
    chips = [sp.chips_cents if sp else None for sp in d.state.seats]
    events = d.do(c.VoidRound())
    voided = next(e for e in events if isinstance(e, ev.RoundVoided))
    assert [(b.position, b.amount_cents) for b in voided.returned_bonuses] == [(1, 5_00)]
    assert [sp.chips_cents if sp else None for sp in d.state.seats] == chips


def test_a_player_leaving_during_betting_takes_the_bonus_back(driver) -> None:
    d = driver(FORTUNE)
    d.sit(2)
    d.start_round()
    d.do(c.PlaceBet("p1", 10_00, bonus_cents=5_00))
    d.do(c.Leave("p1"))
    assert d.state.round.bonuses == ()


def test_the_operator_turns_the_bonus_on_between_rounds(driver) -> None:
    d = driver()
    d.sit(1)
    d.start_round()
    d.do(c.ChangeRules(replace(d.state.rules, fortune_enabled=True, fortune_pay_table="fortune-5000")))
    assert d.state.pending_rules.fortune_enabled
    assert not d.state.rules.fortune_enabled
    d.refuse(c.PlaceBet("p1", 10_00, bonus_cents=5_00), RejectCode.BONUS_OFF)
    d.do(c.PlaceBet("p1", 10_00))
    d.house_way_all()
    assert d.state.rules.fortune_pay_table == "fortune-5000"
    assert d.last_record.pay_table is None  # that round had no bonus
    d.start_round()
    d.do(c.DeclineBank("p1"))
    d.do(c.PlaceBet("p1", 10_00, bonus_cents=5_00))
    d.house_way_all()
    assert d.last_record.pay_table == "fortune-5000"


def test_the_view_shows_the_pay_table_and_its_house_edge() -> None:
    from paigow.table import new_table

    view = view_for(new_table("t", "T", FORTUNE), SpectatorViewer())
    f = view.fortune
    assert f is not None
    assert (f.pay_table, f.min_cents, f.max_cents, f.envy_min_bet_cents) == ("fortune-8000", 100, 10_000, 500)
    assert (f.house_edge, f.envy_per_seat_cents) == (0.077656, 4.6342)
    assert [(p.hand, p.pays, p.envy_cents) for p in f.pays][:2] == [
        ("seven_card_straight_flush", 8000, 500_000), ("royal_plus_royal_match", 2000, 100_000)]
    assert [p.label for p in f.pays][-1] == "straight"
    assert len(f.pays) == len(DEFAULT_PAY_TABLE.pays)
    rules = replace(FORTUNE, fortune_pay_table="fortune-5000")
    other = view_for(new_table("t", "T", rules), SpectatorViewer())
    assert other.fortune is not None
    assert other.fortune.house_edge == 0.078279


def test_the_test_hands_are_what_they_say() -> None:
    assert fortune_hand(parse_cards(QUADS)) is FortuneHand.FOUR_OF_A_KIND
    assert fortune_hand(parse_cards(STRAIGHT_FLUSH)) is FortuneHand.STRAIGHT_FLUSH
    assert fortune_hand(parse_cards(FLUSH)) is FortuneHand.FLUSH
    assert fortune_hand(parse_cards(NOTHING)) is FortuneHand.NOTHING
