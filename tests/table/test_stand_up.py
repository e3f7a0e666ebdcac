"""The server's ``StandUp`` (a break or self-exclusion): like ``Leave`` - a dealt hand plays out and the
player is stood up when the round ends, never House-Wayed; anyone else at once, an undealt bet withdrawn."""

from __future__ import annotations

from pydantic import TypeAdapter

from paigow.table import RejectCode, SeatStatus, TableState
from paigow.table import commands as c
from paigow.table import events as ev
from paigow.table.events import StandUpReason

_STATE = TypeAdapter(TableState)
_COMMAND = TypeAdapter(c.Command)


def test_stand_up_out_of_a_round_is_at_once_and_withdraws_an_undealt_bet(driver, helpers) -> None:
    d = driver()
    d.sit(3)
    d.start_round()
    d.do(c.PlaceBet("p3", 10_00))
    events = d.do(c.StandUp("p3", StandUpReason.BREAK, d.now))
    assert events[:2] == (ev.BetRemoved("p3", 3),
                          ev.PlayerStoodUp("p3", 3, 100_00, StandUpReason.BREAK))
    assert d.state.seats[3] is None
    assert helpers["chips_balanced"](d.state)
    d.refuse(c.StandUp("p3", StandUpReason.BREAK, d.now), RejectCode.NOT_SEATED)


def test_stand_up_mid_round_plays_the_hand_out_and_stands_up_at_the_round_end(driver, helpers) -> None:
    d = driver()
    d.sit(2)
    d.start_round()
    d.bet_all()
    d.run_due()  # dealt
    events = d.do(c.StandUp("p1", StandUpReason.SELF_EXCLUSION, d.now))
    assert events == (ev.PlayerLeaving("p1", 1, False, reason=StandUpReason.SELF_EXCLUSION),)
    seat = d.state.seats[1]
    assert seat is not None
    assert seat.status == SeatStatus.LEAVING
    hand = next(h for h in d.state.round.hands if h.position == 1)  # type: ignore[union-attr]
    assert hand.set_by is None, "never House-Ways the hand: the player still sets it"
    assert _STATE.validate_json(_STATE.dump_json(d.state)) == d.state, "the reason survives the stored state"
    cmd = c.StandUp("p1", StandUpReason.BREAK, 5)
    assert _COMMAND.validate_json(_COMMAND.dump_json(cmd)) == cmd, "routed to the owner as JSON"
    d.refuse(c.StandUp("p1", StandUpReason.SELF_EXCLUSION, d.now), RejectCode.ALREADY_DONE)
    d.refuse(c.Leave("p1"), RejectCode.ALREADY_DONE)
    d.house_way_all()
    stood = [e for e in d.events if isinstance(e, ev.PlayerStoodUp)]
    assert [(e.player_id, e.reason) for e in stood] == [("p1", StandUpReason.SELF_EXCLUSION)]
    assert stood[0].chips_returned_cents == d.last_record.hands[1].net_cents + 100_00
    assert not any(isinstance(e, ev.PlayerLeft) and e.player_id == "p1" for e in d.events)
    assert d.state.seats[1] is None
    assert d.state.seats[2] is not None
    assert helpers["chips_balanced"](d.state)


def test_a_kick_after_a_stand_up_still_kicks(driver) -> None:
    d = driver()
    d.sit(2)
    d.start_round()
    d.bet_all()
    d.run_due()
    d.do(c.StandUp("p1", StandUpReason.BREAK, d.now))
    events = d.do(c.Kick("p1"))
    assert isinstance(events[0], ev.PlayerLeaving)
    assert events[0].kicked
    assert events[0].reason is None
