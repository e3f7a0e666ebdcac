"""A home game's own chips in the pure core (issue 31): buy-ins approved at once or by the host with their
seat held, rebuys (deferred to the round's end for a player in it), cancels, corrections, the chip
setting, cash-outs, the ledger's lines and their times. Every refusal leaves the state as it was
(``Driver.refuse`` checks) and names what was wrong."""

from __future__ import annotations

from dataclasses import replace

import pytest

from paigow.table import Phase, Timers, new_table, next_deadline
from paigow.table import commands as c
from paigow.table import home_commands as h
from paigow.table.events import PlayerSat, RoundSettled
from paigow.table.home import Home
from paigow.table.home_chip_commands import AdjustChips, AnswerBuyIn, CancelBuyIn, ChangeChips, Rebuy
from paigow.table.home_chip_events import (
    BuyInApproved,
    BuyInCancelled,
    BuyInDenied,
    BuyInRequested,
    ChipLinesStamped,
    ChipsAdded,
    ChipsAdjusted,
    ChipSettingsChanged,
)
from paigow.table.home_chips import (
    MAX_CHIP_LINES,
    MAX_CHIP_REQUESTS,
    ChipLine,
    ChipLineKind,
    ChipRequest,
    HomeChips,
    HomeCommission,
)
from paigow.table.rejections import RejectCode

HOST = "p1"


def chips_game(driver, **chips):
    """A home game with its own chips (buy-ins $20.00 to $500.00), hosted by p1, nobody seated."""
    d = driver()
    home = Home(HOST, "Player 1", chips=HomeChips(**chips), max_buy_in_cap_cents=1_000_000)
    d.state = new_table("h1", "Home", d.state.rules, Timers(), home=home)
    return d


def host(action, player: str = HOST) -> h.HostAct:
    return h.HostAct(player, action)


def seat(d, n: int, amount: int = 100_00) -> None:
    """Seat p1..pn, the host approving each buy-in."""
    for i in range(1, n + 1):
        d.do(c.Sit(f"p{i}", f"Player {i}", i, amount))
        request = d.state.home.chips.request_of(f"p{i}")
        if request is not None:
            d.do(host(AnswerBuyIn(request.request_id, True)))
        assert d.state.seat_of(f"p{i}") == i


def check(state) -> None:
    """The game's check and the table's money totals."""
    chips = state.home.chips
    stacks = sum(sp.chips_cents for sp in state.seats if sp is not None)
    by_kind = {k: sum(x.amount_cents for x in chips.lines if x.kind == k) for k in ChipLineKind}
    issued = (by_kind[ChipLineKind.BUY_IN] + by_kind[ChipLineKind.REBUY] + by_kind[ChipLineKind.ADD]
              - by_kind[ChipLineKind.TAKE_BACK])
    house_line = state.ledger.house_net_cents - chips.commission_cents
    assert issued == stacks + by_kind[ChipLineKind.CASH_OUT] + house_line + chips.commission_cents
    assert stacks + state.ledger.house_net_cents == state.ledger.bought_in_cents - state.ledger.returned_cents


def to_betting(d) -> None:
    d.start_round()
    if d.state.phase == Phase.BANK_OFFER:
        d.do(c.DeclineBank(d.state.round.offer_player_id))


def test_the_host_sits_at_once_with_a_buy_in_line_and_no_casino_money(driver) -> None:
    d = chips_game(driver)
    events = d.do(c.Sit(HOST, "Player 1", 1, 150_00))
    assert events[:2] == (BuyInApproved("b1", HOST, "Player 1", 150_00, False, HOST, "Player 1", True),
                          PlayerSat(HOST, "Player 1", 1, 150_00))
    chips = d.state.home.chips
    assert chips.requests == ()
    assert chips.lines == (ChipLine(1, ChipLineKind.BUY_IN, HOST, "Player 1", 150_00, HOST, "Player 1",
                                    True),)
    assert chips.next_request == 2
    assert d.state.seats[1].chips_cents == 150_00
    check(d.state)


@pytest.mark.parametrize("amount", [19_99, 500_01, 0, -5])
def test_a_buy_in_outside_the_bounds_is_refused_naming_them(driver, amount) -> None:
    d = chips_game(driver, min_buy_in_cents=20_00, max_buy_in_cents=500_00)
    error = d.refuse(c.Sit("p2", "Player 2", 2, amount), RejectCode.INVALID_VALUE)
    assert "$20.00 to $500.00" in error.message
    d.refuse(c.Sit(HOST, "Player 1", 1, amount), RejectCode.INVALID_VALUE)


def test_a_players_buy_in_waits_for_the_host_holding_its_seat(driver) -> None:
    d = chips_game(driver)
    seat(d, 1)
    events = d.do(c.Sit("p2", "Maya", 3, 80_00))
    assert events == (BuyInRequested("b2", "p2", "Maya", 80_00, False, 3),)
    assert d.state.seats[3] is None
    error = d.refuse(c.Sit("p3", "Player 3", 3, 80_00), RejectCode.SEAT_RESERVED)
    assert "seat 3 is held for Maya's buy-in" in error.message
    d.refuse(c.Sit("p2", "Maya", 4, 80_00), RejectCode.ALREADY_DONE)
    error = d.refuse(c.Sit("p2", "Maya", 3, 80_00), RejectCode.ALREADY_DONE)
    assert "Maya already has a buy-in (b2) waiting" in error.message
    d.refuse(host(AnswerBuyIn("b2", True, 600_00)), RejectCode.INVALID_VALUE)
    events = d.do(host(AnswerBuyIn("b2", True, 90_00)))
    assert events[:2] == (BuyInApproved("b2", "p2", "Maya", 90_00, False, HOST, "Player 1", False),
                          PlayerSat("p2", "Maya", 3, 90_00))
    assert d.state.seats[3].chips_cents == 90_00
    line = d.state.home.chips.lines[-1]
    assert (line.kind, line.amount_cents, line.by_player_id, line.automatic) == (ChipLineKind.BUY_IN, 90_00,
                                                                                 HOST, False)
    check(d.state)


def test_answers_need_the_host_and_a_waiting_request(driver) -> None:
    d = chips_game(driver)
    seat(d, 2)
    d.do(Rebuy("p2", 50_00))
    error = d.refuse(host(AnswerBuyIn("b3", True), player="p2"), RejectCode.NOT_HOST)  # their own rebuy
    assert "not the host" in error.message
    error = d.refuse(host(AnswerBuyIn("b9", True)), RejectCode.NO_REQUEST)
    assert error.message == ("no buy-in request 'b9' is waiting: it was answered, cancelled or never made")
    d.do(host(AnswerBuyIn("b3", False)))
    assert d.events[-1] == BuyInDenied("b3", "p2", HOST, "Player 1")
    d.refuse(host(AnswerBuyIn("b3", True)), RejectCode.NO_REQUEST)  # replayed
    assert d.state.home.chips.requests == ()


def test_a_denied_buy_in_frees_its_seat_and_the_player_may_cancel_their_own_only(driver) -> None:
    d = chips_game(driver)
    seat(d, 1)
    d.do(c.Sit("p2", "Player 2", 2, 50_00))
    d.do(host(AnswerBuyIn("b2", False)))
    d.do(c.Sit("p3", "Player 3", 2, 50_00))  # the seat is free again
    d.refuse(CancelBuyIn("p2", "b3"), RejectCode.NO_REQUEST)
    events = d.do(CancelBuyIn("p3", "b3"))
    assert events == (BuyInCancelled("b3", "p3", "cancelled"),)
    assert d.state.home.chips.requests == ()
    assert d.state.home.chips.lines[-1].kind == ChipLineKind.BUY_IN  # only the host's
    check(d.state)


def test_auto_approve_seats_at_once_and_requests_are_bounded(driver) -> None:
    d = chips_game(driver, auto_approve=True)
    events = d.do(c.Sit("p2", "Player 2", 2, 50_00))
    assert events[0] == BuyInApproved("b1", "p2", "Player 2", 50_00, False, HOST, "Player 1", True)
    assert d.state.seat_of("p2") == 2
    d = chips_game(driver)
    seat(d, 1)
    chips = d.state.home.chips
    waiting = tuple(ChipRequest(f"x{i}", f"q{i}", f"Q{i}", 20_00, True) for i in range(MAX_CHIP_REQUESTS))
    d.state = replace(d.state, home=replace(d.state.home, chips=replace(chips, requests=waiting)))
    d.refuse(c.Sit("p2", "Player 2", 2, 50_00), RejectCode.REQUESTS_FULL)
    d.do(Rebuy(HOST, 50_00))  # the host's own waits for nobody


def test_a_rebuy_between_rounds_lands_at_once_once_approved(driver) -> None:
    d = chips_game(driver)
    seat(d, 2)
    assert d.do(Rebuy("p2", 40_00)) == (BuyInRequested("b3", "p2", "Player 2", 40_00, True, None),)
    d.refuse(Rebuy("p2", 40_00), RejectCode.ALREADY_DONE)
    events = d.do(host(AnswerBuyIn("b3", True)))
    assert events == (BuyInApproved("b3", "p2", "Player 2", 40_00, True, HOST, "Player 1", False),
                      ChipsAdded("b3", "p2", 2, 40_00))
    assert d.state.seats[2].chips_cents == 140_00
    line = d.state.home.chips.lines[-1]
    assert (line.kind, line.amount_cents, line.by_player_id) == (ChipLineKind.REBUY, 40_00, HOST)
    events = d.do(Rebuy(HOST, 30_00))  # the host's own: at once
    assert events[-1] == ChipsAdded("b4", HOST, 1, 30_00)
    check(d.state)


def test_rebuy_refusals(driver) -> None:
    d = chips_game(driver, rebuys=False)
    seat(d, 2)
    d.refuse(Rebuy("p2", 40_00), RejectCode.REBUYS_OFF)
    d.refuse(Rebuy("p9", 40_00), RejectCode.NOT_SEATED)
    d = chips_game(driver)
    seat(d, 2)
    error = d.refuse(Rebuy("p2", 10_00), RejectCode.INVALID_VALUE)
    assert "$20.00 to $500.00" in error.message
    public = driver()
    public.sit(1)
    public.refuse(Rebuy("p1", 40_00), RejectCode.NOT_PRIVATE)


def test_a_rebuy_approved_mid_round_lands_when_the_round_ends(driver) -> None:
    d = chips_game(driver)
    seat(d, 2)
    to_betting(d)
    d.bet_all()
    assert d.state.phase == Phase.SETTING
    d.do(Rebuy("p2", 50_00))
    request_id = d.state.home.chips.request_of("p2").request_id
    events = d.do(host(AnswerBuyIn(request_id, True)))
    assert events == (BuyInApproved(request_id, "p2", "Player 2", 50_00, True, HOST, "Player 1", False,
                                    deferred=True),)
    waiting = d.state.home.chips.request_of("p2")
    assert waiting.approved_cents == 50_00
    d.refuse(CancelBuyIn("p2", request_id), RejectCode.NO_REQUEST)  # answered
    d.refuse(host(AnswerBuyIn(request_id, True)), RejectCode.NO_REQUEST)
    before = d.state.seats[2].chips_cents
    d.refuse(host(AdjustChips("p2", 10_00, "spilled")), RejectCode.WRONG_PHASE)
    check(d.state)
    d.house_way_all()
    settled = next(i for i, e in enumerate(d.events) if isinstance(e, RoundSettled))
    added = d.events.index(ChipsAdded(request_id, "p2", 2, 50_00))
    assert added > settled
    net = next(x.net_cents for x in d.last_record.hands if x.player_id == "p2")
    assert d.state.seats[2].chips_cents == before + net + 50_00
    assert d.state.home.chips.requests == ()
    check(d.state)


def test_a_rebuy_approved_at_once_mid_round_by_auto_approve_is_deferred_too(driver) -> None:
    d = chips_game(driver, auto_approve=True)
    seat(d, 2)
    to_betting(d)
    d.bet_all()
    events = d.do(Rebuy("p2", 50_00))
    assert len(events) == 1
    assert events[0].deferred
    assert d.state.home.chips.request_of("p2").position is None  # a rebuy holds no seat
    d.refuse(Rebuy("p2", 50_00), RejectCode.ALREADY_DONE)
    d.house_way_all()
    assert ChipsAdded(events[0].request_id, "p2", 2, 50_00) in d.events
    line = d.state.home.chips.lines[-1]
    assert (line.kind, line.automatic, line.round_number) == (ChipLineKind.REBUY, True, 1)
    check(d.state)


def test_corrections_between_rounds_within_the_stack(driver) -> None:
    d = chips_game(driver)
    seat(d, 2)
    events = d.do(host(AdjustChips("p2", 25_00, "found a chip")))
    assert events == (ChipsAdjusted("p2", 2, 25_00, "found a chip", HOST, "Player 1"),)
    d.do(host(AdjustChips("p2", -5_00, "  miscount ")))
    lines = d.state.home.chips.lines[-2:]
    assert [(x.kind, x.amount_cents, x.reason) for x in lines] == [
        (ChipLineKind.ADD, 25_00, "found a chip"), (ChipLineKind.TAKE_BACK, 5_00, "miscount")]
    assert d.state.seats[2].chips_cents == 120_00
    d.do(host(AdjustChips(HOST, 10_00, "my own")))  # in the ledger like any
    error = d.refuse(host(AdjustChips("p2", -120_01, "too much")), RejectCode.INSUFFICIENT_CHIPS)
    assert "$120.00" in error.message
    d.refuse(host(AdjustChips("p9", 5_00, "who")), RejectCode.NOT_SEATED)
    d.refuse(host(AdjustChips("p2", 0, "zero")), RejectCode.INVALID_VALUE)
    d.refuse(host(AdjustChips("p2", 500_01, "over")), RejectCode.INVALID_VALUE)
    d.refuse(host(AdjustChips("p2", 5_00, " ")), RejectCode.INVALID_VALUE)
    d.refuse(host(AdjustChips("p2", 5_00, "x" * 201)), RejectCode.INVALID_VALUE)
    d.refuse(host(AdjustChips("p2", 5_00, "mine"), player="p2"), RejectCode.NOT_HOST)
    d.do(host(AdjustChips("p2", -120_00, "all of it")))
    assert d.state.seats[2].chips_cents == 0
    check(d.state)


def test_the_chip_setting_is_checked_as_a_whole_and_auto_approve_answers_the_waiting(driver) -> None:
    d = chips_game(driver)
    seat(d, 1)
    d.do(c.Sit("p2", "Player 2", 2, 30_00))
    d.do(c.Sit("p3", "Player 3", 3, 400_00))
    d.refuse(host(ChangeChips()), RejectCode.INVALID_VALUE)
    d.refuse(host(ChangeChips(min_buy_in_cents=200_00)), RejectCode.INVALID_VALUE)  # above the default
    d.refuse(host(ChangeChips(max_buy_in_cents=1_000_001)), RejectCode.INVALID_VALUE)  # above the cap
    d.refuse(host(ChangeChips(min_buy_in_cents=0)), RejectCode.INVALID_VALUE)
    d.refuse(host(ChangeChips(rebuys=True)), RejectCode.ALREADY_DONE)
    d.refuse(host(ChangeChips(auto_approve=True), player="p2"), RejectCode.NOT_HOST)
    events = d.do(host(ChangeChips(max_buy_in_cents=300_00, auto_approve=True)))
    assert events[0] == ChipSettingsChanged(100_00, 20_00, 300_00, True, True, d.state.home.chips.commission)
    assert d.state.seat_of("p2") == 2  # within the new bounds: approved
    assert d.state.seat_of("p3") is None  # $400.00 is over them: still waiting
    assert [r.player_id for r in d.state.home.chips.requests] == ["p3"]
    assert d.state.home.chips.lines[-1].automatic
    check(d.state)


def test_removing_or_kicking_a_player_cancels_their_request(driver) -> None:
    d = chips_game(driver)
    seat(d, 2)
    d.do(c.Sit("p3", "Player 3", 3, 50_00))
    events = d.do(host(h.RemovePlayer("p3", None)))
    assert BuyInCancelled("b3", "p3", "removed") in events
    d.do(c.Sit("p4", "Player 4", 3, 50_00))  # the seat is free again
    d.do(Rebuy("p2", 50_00))
    events = d.do(host(h.RemovePlayer("p2", None)))
    assert events[0] == BuyInCancelled("b5", "p2", "removed")
    cash_out = d.state.home.chips.lines[-1]
    assert (cash_out.kind, cash_out.player_id, cash_out.reason) == (ChipLineKind.CASH_OUT, "p2",
                                                                    "player_kicked")
    d = chips_game(driver)
    seat(d, 2)
    d.do(Rebuy("p2", 50_00))
    assert d.do(c.Kick("p2"))[0] == BuyInCancelled("b3", "p2", "removed")
    check(d.state)


def test_a_player_who_leaves_ends_their_rebuy_and_cashes_out(driver) -> None:
    d = chips_game(driver)
    seat(d, 2)
    d.do(Rebuy("p2", 50_00))
    events = d.do(c.Leave("p2"))
    assert events[0] == BuyInCancelled("b3", "p2", "left")
    line = d.state.home.chips.lines[-1]
    assert (line.kind, line.amount_cents, line.reason, line.by_player_id) == (
        ChipLineKind.CASH_OUT, 100_00, "player_left", None)
    d.do(c.Sit("p2", "Player 2", 4, 60_00))  # and back: a new buy-in
    d.do(host(AnswerBuyIn("b4", True)))
    assert [x.kind for x in d.state.home.chips.lines] == [ChipLineKind.BUY_IN, ChipLineKind.BUY_IN,
                                                          ChipLineKind.CASH_OUT, ChipLineKind.BUY_IN]
    assert d.state.seats[4].chips_cents == 60_00
    check(d.state)


def test_closing_cancels_every_request_and_cashes_everyone_out(driver) -> None:
    d = chips_game(driver)
    seat(d, 2)
    d.do(Rebuy("p2", 50_00))
    d.do(c.Sit("p3", "Player 3", 3, 50_00))
    events = d.do(host(c.CloseTable()))
    assert [e for e in events if isinstance(e, BuyInCancelled)] == [
        BuyInCancelled("b3", "p2", "closed"), BuyInCancelled("b4", "p3", "closed")]
    assert d.state.phase == Phase.CLOSED
    assert d.state.home.chips.requests == ()
    outs = [x for x in d.state.home.chips.lines if x.kind == ChipLineKind.CASH_OUT]
    assert [(x.player_id, x.reason) for x in outs] == [(HOST, "player_stood_up"), ("p2", "player_stood_up")]
    assert next_deadline(d.state) == 0  # the lines written at the close get their time
    assert d.tick() == (ChipLinesStamped(d.now),)
    assert all(x.at_ms == d.now for x in d.state.home.chips.lines)
    d.refuse(Rebuy("p2", 50_00), RejectCode.TABLE_CLOSED)
    check(d.state)


def test_a_hand_over_keeps_the_requests_for_the_new_host(driver) -> None:
    d = chips_game(driver)
    seat(d, 2)
    d.do(c.Sit("p3", "Player 3", 3, 50_00))
    d.do(host(h.HandOver("p2")))
    assert [r.request_id for r in d.state.home.chips.requests] == ["b3"]
    d.refuse(host(AnswerBuyIn("b3", True)), RejectCode.NOT_HOST)
    events = d.do(host(AnswerBuyIn("b3", True), player="p2"))
    assert events[0].by_player_id == "p2"
    assert d.state.seat_of("p3") == 3


def test_a_held_seat_is_not_offered_to_the_waiting_list(driver) -> None:
    d = chips_game(driver)
    seat(d, 5)
    d.do(c.Sit("p6", "Player 6", 6, 50_00))
    d.do(h.JoinWaitlist("p7", "Player 7"))  # seat 6 is held: the table is full
    assert d.state.waiting[0].offered_seat is None
    d.do(host(AnswerBuyIn("b6", False)))
    assert d.state.waiting[0].offered_seat == 6


def test_the_waitlists_take_seat_is_a_buy_in_too(driver) -> None:
    d = chips_game(driver)
    seat(d, 6)
    d.do(h.JoinWaitlist("p7", "Player 7"))
    d.do(c.Leave("p4"))
    d.refuse(h.TakeSeat("p7", "Player 7", 10_00), RejectCode.INVALID_VALUE)
    events = d.do(h.TakeSeat("p7", "Player 7", 70_00))
    assert events == (BuyInRequested("b7", "p7", "Player 7", 70_00, False, 4),)
    d.refuse(c.Sit("p8", "Player 8", 4, 50_00), RejectCode.SEAT_RESERVED)
    d.do(host(AnswerBuyIn("b7", True)))
    assert d.state.seat_of("p7") == 4
    assert d.state.waiting == ()


def test_new_lines_wait_for_a_tick_to_get_their_time(driver) -> None:
    d = chips_game(driver)
    seat(d, 1)
    line = d.state.home.chips.lines[0]
    assert (line.at_ms, line.round_number) == (None, 0)
    assert next_deadline(d.state) == 0
    events = d.tick()
    assert ChipLinesStamped(d.now) in events
    assert d.state.home.chips.lines[0].at_ms == d.now


def test_the_ledger_is_bounded_but_cash_outs_are_always_written(driver) -> None:
    d = chips_game(driver)
    seat(d, 2)
    chips = d.state.home.chips
    full = chips.lines + tuple(replace(chips.lines[0], line=i) for i in range(3, MAX_CHIP_LINES + 1))
    d.state = replace(d.state, home=replace(d.state.home, chips=replace(chips, lines=full)))
    d.refuse(Rebuy(HOST, 50_00), RejectCode.LEDGER_FULL)
    d.refuse(c.Sit("p3", "Player 3", 3, 50_00), RejectCode.LEDGER_FULL)
    d.refuse(host(AdjustChips("p2", 5_00, "x")), RejectCode.LEDGER_FULL)
    d.do(c.Leave("p2"))
    assert len(d.state.home.chips.lines) == MAX_CHIP_LINES + 1
    assert d.state.home.chips.lines[-1].kind == ChipLineKind.CASH_OUT


def test_a_settlement_adds_its_commission_to_the_pot(driver) -> None:
    d = chips_game(driver, commission=HomeCommission.FIVE_PERCENT)
    assert (d.state.rules.commission_bps, d.state.rules.commission_round_cents) == (500, 1)
    seat(d, 3)
    for _ in range(6):
        d.play_round(accept=False)
        assert d.state.home.chips.commission_cents == sum(
            x.commission_cents for e in d.events if isinstance(e, RoundSettled) for x in e.record.hands)
        check(d.state)
    assert d.state.home.chips.commission_cents > 0


def test_a_game_without_commission_takes_none(driver) -> None:
    d = chips_game(driver)
    assert d.state.rules.commission_bps == 0
    seat(d, 3)
    for _ in range(4):
        d.play_round(accept=False)
    hands = [x for e in d.events if isinstance(e, RoundSettled) for x in e.record.hands]
    assert any(x.net_cents > 0 for x in hands)  # wins, and not a cent of commission on them
    assert all(x.commission_cents == 0 for x in hands)
    assert d.state.home.chips.commission_cents == 0
    check(d.state)


def test_a_home_game_without_chips_and_a_public_table_sit_as_before(driver) -> None:
    d = driver()
    d.state = new_table("h1", "Home", home=Home(HOST, "Player 1"))
    d.refuse(c.Sit("p2", "Player 2", 2, 1), RejectCode.BELOW_MINIMUM)
    assert d.do(c.Sit("p2", "Player 2", 2, 5_000_00))[0] == PlayerSat("p2", "Player 2", 2, 5_000_00)
    d.refuse(host(AnswerBuyIn("b1", True)), RejectCode.INVALID_VALUE)
    d.refuse(Rebuy("p2", 5_00), RejectCode.REBUYS_OFF)
