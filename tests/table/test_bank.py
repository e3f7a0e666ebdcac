"""The rotating bank: the marker, offers, accept / decline / time-out, eligibility, the dealer's wager
against a player-banker, and coverage."""

from __future__ import annotations

from paigow.rules.payout import Wager, settle
from paigow.rules.showdown import showdown
from paigow.rules.splits import Split
from paigow.table import BankReason, Phase, RejectCode, cards_from_text
from paigow.table import commands as c
from paigow.table import events as ev
from paigow.table.records import HOUSE_KEY


def _split(h) -> Split:
    return Split(cards_from_text(h.high), cards_from_text(h.low))


def test_the_marker_moves_one_position_counterclockwise_each_round(driver) -> None:
    d = driver()
    d.sit(2)  # seats 1 and 2; 3..6 empty
    markers, reasons = [], []
    for _ in range(8):
        d.play_round(accept=False)
        markers.append(d.state.marker)
        reasons.append(d.last_record.banker_position)
    assert markers == [0, 1, 2, 3, 4, 5, 6, 0]
    assert reasons == [0] * 8  # every offer was declined


def test_a_player_banks_and_the_dealer_plays_against_them(driver, helpers) -> None:
    d = driver()
    d.sit(3)
    d.start_round()
    d.do(c.PlaceBet("p1", 40_00))
    d.do(c.PlaceBet("p2", 10_00))
    d.do(c.PlaceBet("p3", 10_00))
    d.house_way_all()
    p1_chips = d.state.seats[1].chips_cents
    d.start_round()
    assert d.state.phase == Phase.BANK_OFFER
    assert d.state.round.offer_player_id == "p1"
    events = d.do(c.AcceptBank("p1"))
    opened = events[0]
    assert isinstance(opened, ev.BettingOpened)
    assert (opened.banker_position, opened.banker_player_id) == (1, "p1")
    assert opened.reason == BankReason.PLAYER_BANKS
    assert opened.dealer_wager_cents == 40_00  # p1's last wager against the house
    d.refuse(c.PlaceBet("p1", 10_00), RejectCode.BANKER_CANNOT_BET)
    d.do(c.PlaceBet("p2", 15_00))
    events = d.do(c.PlaceBet("p3", 5_00))
    dealt = next(e for e in events if isinstance(e, ev.HandsDealt))
    assert [(h.position, h.player_id) for h in dealt.hands] == [(0, None), (1, "p1"), (2, "p2"), (3, "p3")]
    house_before = d.state.ledger.house_net_cents
    d.house_way_all()
    record = d.last_record
    assert (record.banker_position, record.banker_player_id) == (1, "p1")
    banker = record.hands[1]
    assert banker.is_banker
    wagers = []
    for h in (record.hands[0], record.hands[2], record.hands[3]):
        outcome = showdown(_split(h), _split(banker)).outcome
        assert h.outcome == outcome
        wagers.append(Wager(h.player_id or HOUSE_KEY, h.wager_cents, outcome, is_house=h.player_id is None))
    expected = settle(wagers, d.state.rules, "p1")
    assert record.banker_net_cents == expected.banker_net_cents
    assert record.house_net_cents == expected.house_net_cents
    assert d.state.seats[1].chips_cents == p1_chips + expected.banker_net_cents
    assert d.state.ledger.house_net_cents == house_before + expected.house_net_cents
    assert helpers["chips_balanced"](d.state)


def test_decline_and_time_out_give_the_bank_to_the_house(driver) -> None:
    d = driver()
    d.sit(2)
    d.play_round()
    d.start_round()
    d.refuse(c.AcceptBank("p2"), RejectCode.NOT_YOUR_SEAT)
    events = d.do(c.DeclineBank("p1"))
    assert isinstance(events[0], ev.BankDeclined)
    assert not events[0].timed_out
    assert d.state.round.bank_reason == BankReason.DECLINED
    assert d.state.round.banker_position == 0
    d.bet_all()
    d.house_way_all()
    d.start_round()
    assert d.state.round.offer_player_id == "p2"
    events = d.expire()
    declined = next(e for e in events if isinstance(e, ev.BankDeclined))
    assert declined.timed_out
    assert d.state.round.bank_reason == BankReason.TIMED_OUT
    d.refuse(c.AcceptBank("p2"), RejectCode.WRONG_PHASE)


def test_only_players_of_the_last_house_banked_round_are_offered_the_bank(driver) -> None:
    d = driver()
    d.sit(2)
    d.start_round()
    d.do(c.PlaceBet("p2", 10_00))
    d.do(c.SitOut("p1"))  # p1 sits this house-banked round out
    d.house_way_all()
    d.do(c.SitIn("p1"))
    d.start_round()  # the marker reaches seat 1
    assert d.state.marker == 1
    assert d.state.phase == Phase.BETTING
    assert d.state.round.bank_reason == BankReason.INELIGIBLE


def test_a_player_who_cannot_cover_the_minimum_for_everyone_is_not_offered(driver) -> None:
    d = driver()
    d.sit(4)
    d.play_round(5_00)
    d.with_chips(1, 19_99)  # 3 other players + the dealer at $5 = $20.00
    d.start_round()
    assert d.state.round.bank_reason == BankReason.INELIGIBLE
    d2 = driver()
    d2.sit(4)
    d2.play_round(5_00)
    d2.with_chips(1, 20_00)
    d2.start_round()
    assert d2.state.round.offer_player_id == "p1"


def test_a_bet_over_the_banks_coverage_is_refused_with_what_it_still_covers(driver, helpers) -> None:
    d = driver()
    d.sit(3)
    d.play_round(10_00)
    d.with_chips(1, 100_00)
    d.start_round()
    d.do(c.AcceptBank("p1"))
    assert d.state.round.dealer_wager_cents == 10_00
    d.do(c.PlaceBet("p2", 45_00))
    rejection = d.refuse(c.PlaceBet("p3", 60_00), RejectCode.BET_OVER_COVERAGE)
    assert rejection.message == "the bank covers $45.00 more; your bet is $60.00"
    d.do(c.PlaceBet("p3", 45_00))  # exactly the coverage
    assert d.state.phase == Phase.SETTING
    d.house_way_all()
    assert d.state.seats[1].chips_cents >= 0
    assert helpers["chips_balanced"](d.state)


def test_changing_a_bet_frees_its_own_coverage(driver) -> None:
    d = driver()
    d.sit(3)
    d.play_round(10_00)
    d.with_chips(1, 50_00)
    d.start_round()
    d.do(c.AcceptBank("p1"))
    d.do(c.PlaceBet("p2", 30_00))
    d.do(c.PlaceBet("p2", 40_00))  # the old $30 does not count against the new $40
    rejection = d.refuse(c.PlaceBet("p3", 5_00), RejectCode.BET_OVER_COVERAGE)
    assert rejection.message == "the bank covers $0.00 more; your bet is $5.00"


def test_the_dealers_wager_is_clipped_to_the_limits_and_coverage(driver) -> None:
    d = driver()
    d.sit(3, 1000_00)
    d.play_round(300_00)
    d.with_chips(1, 200_00)
    d.start_round()
    d.do(c.AcceptBank("p1"))
    # $300 last wager, but the bank keeps $5 for each of the two other players.
    assert d.state.round.dealer_wager_cents == 190_00


# --- what docs/protocol.md ("Rules of the round a client must know") promises ---------------------------
def test_bank_eligibility_is_per_sitting(driver) -> None:
    d = driver()
    d.sit(2)
    d.play_round()  # house-banked: p1 and p2 both played it
    d.do(c.Leave("p1"))
    d.do(c.Sit("p1", "Player 1", 1, 100_00))  # the same player, a new sitting
    d.start_round()  # the marker reaches seat 1
    assert d.state.marker == 1
    assert d.state.round.bank_reason == BankReason.INELIGIBLE


def test_a_voided_round_is_not_a_house_banked_round(driver) -> None:
    d = driver()
    d.sit(3)
    d.play_round()  # round 1, house-banked, everyone played it
    d.start_round()  # round 2: seat 1 is offered the bank and declines; the house banks
    d.do(c.DeclineBank("p1"))
    d.bet_all()
    d.do(c.VoidRound())
    d.start_round()  # round 3: seat 2 played round 1, the last house-banked round: still eligible
    assert d.state.marker == 2
    assert d.state.round.offer_player_id == "p2"


def test_a_void_returns_the_dealers_wager_first_at_position_0(driver) -> None:
    d = driver()
    d.sit(2)
    d.play_round(20_00)
    d.start_round()
    d.do(c.AcceptBank("p1"))
    wager = d.state.round.dealer_wager_cents
    assert wager == 20_00  # p1's last wager against the house
    d.do(c.PlaceBet("p2", 10_00))
    voided = next(e for e in d.do(c.VoidRound()) if isinstance(e, ev.RoundVoided))
    assert [(b.position, b.player_id, b.amount_cents) for b in voided.returned_bets] == [
        (0, HOUSE_KEY, 20_00), (2, "p2", 10_00)]
