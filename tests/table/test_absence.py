"""Absence: drops and the grace time, reconnecting, missed rounds, sitting out and in, leaving mid-round,
and the player's own bet limit."""

from __future__ import annotations

from paigow.rules.house_way import house_way
from paigow.rules.splits import Split
from paigow.table import Phase, RejectCode, SeatStatus, SetBy, Timers, cards_from_text
from paigow.table import commands as c
from paigow.table import events as ev
from paigow.table.state import WEEK_MS
from paigow.table.views import SpectatorViewer, view_for


def test_a_dropped_players_hand_is_set_by_the_house_way_when_the_grace_time_ends(driver, helpers) -> None:
    d = driver(timers=Timers(reconnect_grace_ms=10_000, setting_ms=60_000))
    d.sit(2)
    d.start_round()
    d.bet_all()
    d.run_due()
    d.do(c.UseHouseWay("p1"))
    events = d.do(c.Drop("p2", d.now))
    assert events == (ev.PlayerDropped("p2", 2, d.now + 10_000),)
    seat = d.state.seats[2]
    assert seat is not None
    assert (seat.away, seat.status, seat.shown_status) == (True, SeatStatus.ACTIVE, SeatStatus.AWAY)
    view = view_for(d.state, SpectatorViewer())
    assert view.seats[2] is not None
    assert view.seats[2].status == SeatStatus.AWAY, "everyone sees the player away"
    assert d.tick(9_999) == ()
    events = d.tick(1)
    hs = events[0]
    assert isinstance(hs, ev.HandSet)
    assert (hs.player_id, hs.set_by) == ("p2", SetBy.TIMEOUT)
    cards = cards_from_text(d.last_record.hands[2].dealt)
    assert Split(cards_from_text(hs.high), cards_from_text(hs.low)) == house_way(cards)
    assert any(isinstance(e, ev.RoundSettled) for e in events)
    assert helpers["chips_balanced"](d.state)


def test_a_reconnect_within_the_grace_time_keeps_the_hand_to_set(driver) -> None:
    d = driver(timers=Timers(reconnect_grace_ms=10_000))
    d.sit(2)
    d.start_round()
    d.bet_all()
    d.do(c.Drop("p2", d.now))
    d.refuse(c.Drop("p2", d.now), RejectCode.ALREADY_DONE)
    d.do(c.Reconnect("p2", d.now + 5_000))
    assert d.state.seats[2].status == SeatStatus.ACTIVE
    assert d.state.seats[2].away_until_ms is None
    d.refuse(c.Reconnect("p2", d.now), RejectCode.ALREADY_DONE)
    d.tick(10_000)
    assert d.state.round.hands[2].set_by is None


def test_missed_rounds_sit_a_player_out_then_stand_them_up_with_their_chips(driver, helpers) -> None:
    d = driver(timers=Timers(sit_out_after_missed=2, stand_up_after_missed=4))
    d.sit(2, 77_00)
    for _ in range(4):
        d.start_round()
        if d.state.phase == Phase.BANK_OFFER:
            d.do(c.DeclineBank(d.state.round.offer_player_id))
        d.do(c.PlaceBet("p1", 5_00))
        if d.state.phase == Phase.BETTING:
            d.expire()
        d.house_way_all()
    kinds = [(type(e).__name__, getattr(e, "player_id", None)) for e in d.events
             if isinstance(e, ev.PlayerMissedRound | ev.PlayerSatOut | ev.PlayerStoodUp)]
    assert kinds == [("PlayerMissedRound", "p2"), ("PlayerMissedRound", "p2"), ("PlayerSatOut", "p2"),
                     ("PlayerMissedRound", "p2"), ("PlayerMissedRound", "p2"), ("PlayerStoodUp", "p2")]
    stood = next(e for e in d.events if isinstance(e, ev.PlayerStoodUp))
    assert stood.chips_returned_cents == 77_00
    assert d.state.seats[2] is None
    assert d.state.ledger.returned_cents == 77_00
    assert helpers["chips_balanced"](d.state)


def test_leaving_mid_round_takes_effect_when_the_round_ends(driver, helpers) -> None:
    d = driver()
    d.sit(3)
    d.start_round()
    d.do(c.PlaceBet("p3", 10_00))
    events = d.do(c.Leave("p3"))  # not dealt yet: the bet is withdrawn and p3 leaves at once
    assert [type(e) for e in events] == [ev.BetRemoved, ev.PlayerLeft]
    assert events[1].chips_returned_cents == 100_00
    d.bet_all()
    events = d.do(c.Leave("p1"))
    assert events == (ev.PlayerLeaving("p1", 1, False),)
    d.refuse(c.Leave("p1"), RejectCode.ALREADY_DONE)
    d.house_way_all()
    left = next(e for e in d.events if isinstance(e, ev.PlayerLeft) and e.player_id == "p1")
    assert left.chips_returned_cents == d.last_record.hands[1].net_cents + 100_00
    assert d.state.seats[1] is None
    assert helpers["chips_balanced"](d.state)


def test_own_limit_lowers_any_time_and_raises_once_a_week(driver) -> None:
    d = driver()
    d.sit(1)
    t = d.now
    d.do(c.SetOwnLimit("p1", 50_00, t))
    d.start_round()
    rejection = d.refuse(c.PlaceBet("p1", 60_00), RejectCode.ABOVE_OWN_LIMIT)
    assert rejection.message == "your bet is $60.00; your own limit is $50.00"
    d.do(c.SetOwnLimit("p1", 20_00, t + 1))
    d.do(c.SetOwnLimit("p1", 100_00, t + 2))  # the first raise
    rejection = d.refuse(c.SetOwnLimit("p1", 200_00, t + 3), RejectCode.LIMIT_RAISE_TOO_SOON)
    assert "once a week" in rejection.message
    assert rejection.fields == {"until_ms": t + 2 + WEEK_MS}  # when the next raise is allowed, for the page
    d.do(c.SetOwnLimit("p1", 10_00, t + 4))  # lowering is always allowed
    d.refuse(c.SetOwnLimit("p1", None, t + 2 + WEEK_MS - 1), RejectCode.LIMIT_RAISE_TOO_SOON)
    d.do(c.SetOwnLimit("p1", None, t + 2 + WEEK_MS))
    assert d.state.seats[1].own_max_bet_cents is None
    d.refuse(c.SetOwnLimit("p1", 0, t), RejectCode.INVALID_VALUE)


def test_table_limits_and_chips_bound_a_bet(driver) -> None:
    d = driver()
    d.sit(1, 40_00)
    d.start_round()
    below = d.refuse(c.PlaceBet("p1", 4_99), RejectCode.BELOW_MINIMUM)
    assert below.message == "your bet is $4.99; the table minimum is $5.00"
    assert below.fields == {"amount_cents": 4_99, "limit_cents": 5_00}  # for a client to word it
    assert d.refuse(c.PlaceBet("p1", 300_01), RejectCode.ABOVE_MAXIMUM).fields == {
        "amount_cents": 300_01, "limit_cents": 300_00}
    over = d.refuse(c.PlaceBet("p1", 40_01), RejectCode.INSUFFICIENT_CHIPS)
    assert over.message == "your bet is $40.01; you have $40.00 at the table"
    assert over.fields == {"amount_cents": 40_01, "limit_cents": 40_00}
    d.refuse(c.RemoveBet("p1"), RejectCode.NO_BET)


def test_seating_rules(driver) -> None:
    d = driver()
    d.do(c.Sit("a", "Ann", 1, 50_00))
    d.refuse(c.Sit("a", "Ann", 2, 50_00), RejectCode.ALREADY_SEATED)
    d.refuse(c.Sit("b", "Bob", 1, 50_00), RejectCode.SEAT_TAKEN)
    d.refuse(c.Sit("b", "Bob", 0, 50_00), RejectCode.NO_SUCH_SEAT)
    d.refuse(c.Sit("b", "Bob", 7, 50_00), RejectCode.NO_SUCH_SEAT)
    assert d.refuse(c.Sit("b", "Bob", 2, 4_99), RejectCode.BELOW_MINIMUM).fields == {
        "amount_cents": 4_99, "limit_cents": 5_00}
    d.refuse(c.Sit("b", "  ", 2, 50_00), RejectCode.INVALID_VALUE)
    d.refuse(c.Leave("b"), RejectCode.NOT_SEATED)


def test_a_player_who_sat_out_comes_back_sitting_out(driver) -> None:
    """Presence is not participation: sit out, drop, reconnect: still sitting out, and no round is
    scheduled for a table whose only other player is away."""
    d = driver(timers=Timers(reconnect_grace_ms=10_000))
    d.sit(1)
    d.do(c.SitOut("p1"))
    d.do(c.Drop("p1", d.now))
    seat = d.state.seats[1]
    assert seat is not None
    assert (seat.status, seat.away) == (SeatStatus.SITTING_OUT, True)
    d.do(c.Reconnect("p1", d.now + 1_000))
    seat = d.state.seats[1]
    assert seat is not None
    assert (seat.status, seat.away) == (SeatStatus.SITTING_OUT, False)
    assert d.state.round is None
    assert d.state.deadline is None, "nobody plays: no round is scheduled"


def test_an_away_player_is_not_waited_for_to_bet(driver) -> None:
    d = driver(timers=Timers(reconnect_grace_ms=60_000))
    d.sit(2)
    d.do(c.Drop("p2", d.now))
    seat = d.state.seats[2]
    assert seat is not None
    assert (seat.status, seat.playing) == (SeatStatus.ACTIVE, False)
    d.start_round()
    rnd = d.state.round
    assert rnd is not None
    if d.state.phase == Phase.BANK_OFFER and rnd.offer_player_id is not None:
        d.do(c.DeclineBank(rnd.offer_player_id))
    d.do(c.PlaceBet("p1", 1_000))
    assert d.state.phase == Phase.SETTING, "the deal does not wait for a player who is away"
