"""Operator commands: close, pause and resume, limits / timers / rules between rounds, kick."""

from __future__ import annotations

from paigow.rules.house_rules import HouseRules
from paigow.table import DeadlineKind, Phase, RejectCode, SeatStatus, SetBy, Timers
from paigow.table import commands as c
from paigow.table import events as ev


def test_closing_an_idle_table_stands_everyone_up_with_their_chips(driver, helpers) -> None:
    d = driver()
    d.sit(2, 60_00)
    events = d.do(c.CloseTable())
    assert [type(e) for e in events] == [ev.PlayerStoodUp, ev.PlayerStoodUp, ev.DeadlineCleared,
                                         ev.TableClosed]
    assert [e.chips_returned_cents for e in events[:2]] == [60_00, 60_00]
    assert d.state.phase == Phase.CLOSED
    assert d.state.seats == (None,) * 7
    assert helpers["chips_balanced"](d.state)
    d.refuse(c.Sit("p9", "Nine", 1, 50_00), RejectCode.TABLE_CLOSED)
    d.refuse(c.CloseTable(), RejectCode.ALREADY_DONE)
    assert d.tick(10**9) == ()
    d.do(c.OpenTable())
    d.refuse(c.OpenTable(), RejectCode.ALREADY_DONE)
    d.sit(1)
    d.start_round()


def test_closing_during_a_round_waits_for_its_end(driver, helpers) -> None:
    d = driver()
    d.sit(2)
    d.start_round()
    d.bet_all()
    assert d.do(c.CloseTable()) == (ev.TableClosing(),)
    d.refuse(c.Sit("p9", "Nine", 3, 50_00), RejectCode.TABLE_CLOSED)
    d.house_way_all()
    assert d.state.phase == Phase.CLOSED
    assert all(sp is None for sp in d.state.seats)
    assert d.state.ledger.returned_cents == d.state.ledger.bought_in_cents - d.state.ledger.house_net_cents
    assert helpers["chips_balanced"](d.state)


def test_pause_takes_effect_after_the_round_and_resume_restarts(driver) -> None:
    d = driver()
    d.sit(1)
    d.start_round()
    d.do(c.PauseTable())
    d.refuse(c.PauseTable(), RejectCode.ALREADY_DONE)
    d.bet_all()
    d.house_way_all()
    assert d.state.phase == Phase.IDLE
    assert d.state.deadline is None
    assert d.tick(10**9) == ()
    d.do(c.ResumeTable())
    assert d.state.deadline.kind == DeadlineKind.NEXT_ROUND
    d.start_round()
    assert d.state.round.number == 2


def test_limits_and_timers_change_between_rounds(driver) -> None:
    d = driver()
    d.sit(1)
    d.do(c.ChangeLimits(1_00, 50_00))
    assert (d.state.rules.min_bet_cents, d.state.rules.max_bet_cents) == (1_00, 50_00)
    d.start_round()
    events = d.do(c.ChangeLimits(10_00, 100_00))
    assert events == (ev.RulesChanged(HouseRules(min_bet_cents=10_00, max_bet_cents=100_00), scheduled=True),)
    d.do(c.ChangeTimers(Timers(betting_ms=1_000)))
    d.do(c.PlaceBet("p1", 2_00))  # the old limits hold for this round
    assert d.state.rules.min_bet_cents == 1_00
    d.house_way_all()
    assert d.state.rules.min_bet_cents == 10_00
    assert d.state.timers.betting_ms == 1_000
    assert d.state.pending_rules is None
    d.refuse(c.ChangeLimits(10_00, 5_00), RejectCode.INVALID_VALUE)


def test_kick_is_immediate_outside_the_round_and_after_it_inside(driver, helpers) -> None:
    d = driver()
    d.sit(3, 50_00)
    d.start_round()
    d.do(c.PlaceBet("p1", 10_00))
    events = d.do(c.Kick("p1"))  # not dealt yet: the bet is withdrawn
    assert [type(e) for e in events] == [ev.BetRemoved, ev.PlayerKicked]
    assert events[1].chips_returned_cents == 50_00
    d.bet_all()
    events = d.do(c.Kick("p2"))  # dealt: p2's hand is played by the House Way, the kick waits
    assert isinstance(events[0], ev.PlayerLeaving)
    assert events[0].kicked
    assert isinstance(events[1], ev.HandSet)
    assert events[1].set_by == SetBy.TIMEOUT
    assert d.state.seats[2].status == SeatStatus.LEAVING
    d.refuse(c.Kick("p2"), RejectCode.ALREADY_DONE)
    d.house_way_all()
    kicked = [e for e in d.events if isinstance(e, ev.PlayerKicked)]
    assert [k.player_id for k in kicked] == ["p1", "p2"]
    assert kicked[1].chips_returned_cents == 50_00 + d.last_record.hands[1].net_cents
    assert helpers["chips_balanced"](d.state)


def test_a_kick_with_a_bar_tells_when_the_bar_ends_at_once_and_at_the_rounds_end(driver) -> None:
    d = driver()
    d.sit(3, 50_00)
    d.start_round()
    events = d.do(c.Kick("p1", barred_until_ms=9_000_000))  # not in the round: at once
    assert [e.barred_until_ms for e in events if isinstance(e, ev.PlayerKicked)] == [9_000_000]
    d.bet_all()
    events = d.do(c.Kick("p2", barred_until_ms=8_000_000))  # dealt: told now, kicked when the round ends
    assert isinstance(events[0], ev.PlayerLeaving)
    assert events[0].barred_until_ms == 8_000_000
    d.house_way_all()
    kicked = [e for e in d.events if isinstance(e, ev.PlayerKicked)]
    assert [(k.player_id, k.barred_until_ms) for k in kicked] == [("p1", 9_000_000), ("p2", 8_000_000)]
    assert events[0].by == "operator"
    assert [k.by for k in kicked] == ["operator", "operator"]  # at once, and at the round's end
    events = d.do(c.Kick("p3"))  # no bar
    assert [e.barred_until_ms for e in events if isinstance(e, ev.PlayerKicked)] == [None]


def test_void_needs_a_round(driver) -> None:
    d = driver()
    d.refuse(c.VoidRound(), RejectCode.NO_ROUND)


def test_everyone_leaving_before_the_deal_voids_the_round(driver) -> None:
    d = driver()
    d.sit(1)
    d.start_round()
    events = d.do(c.Leave("p1"))
    assert [type(e) for e in events] == [ev.PlayerLeft, ev.RoundVoided]
    assert d.state.phase == Phase.IDLE
    assert d.state.deadline is None


def test_closing_a_round_with_nothing_at_stake_voids_it_and_closes_at_once(driver, helpers) -> None:
    d = driver()
    d.sit(2)
    d.start_round()
    events = d.do(c.CloseTable())
    assert [type(e) for e in events][:2] == [ev.TableClosing, ev.RoundVoided]
    assert events[-1] == ev.TableClosed()
    assert d.state.phase == Phase.CLOSED
    assert helpers["chips_balanced"](d.state)
