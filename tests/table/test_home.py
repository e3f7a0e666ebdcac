"""A private table's host, seat requests, removals, hand-over, the host's grace and the idle close, in the
pure core (docs/home-games.md). Every refusal leaves the state as it was (``Driver.refuse`` checks)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from paigow.table import Phase, Timers, new_table
from paigow.table import commands as c
from paigow.table import home_commands as h
from paigow.table import home_events as he
from paigow.table.events import PlayerKicked, PlayerLeaving, PlayerStoodUp, TableClosed, TableClosing
from paigow.table.home import Home, Seating, SpectatorsPolicy
from paigow.table.rejections import RejectCode
from paigow.table.state import BankReason, KickedBy
from paigow.table.views import PlayerViewer, SpectatorViewer, view_for

HOST = "p1"
GRACE = 120_000
IDLE = 1_800_000


def _home(driver, seating: Seating = Seating.OPEN, **rules):
    d = driver()
    if rules:
        d.state = replace(d.state, rules=replace(d.state.rules, **rules))
    home = Home(HOST, "Player 1", seating=seating, host_grace_ms=GRACE, idle_close_ms=IDLE,
                max_bet_cap_cents=100_000)
    d.state = new_table("h1", "Home", d.state.rules, Timers(), home=home)
    return d


def _dealt_home(driver):
    """A private table of three players, the house banking, the hands dealt."""
    d = _home(driver)
    d.sit(3)
    d.start_round()
    if d.state.phase == Phase.BANK_OFFER:
        d.do(c.DeclineBank(d.state.round.offer_player_id))
    d.bet_all()
    return d


def host(action, player: str = HOST, now: int | None = None) -> h.HostAct:
    return h.HostAct(player, action, now)


def _ledger_balanced(state) -> None:
    chips = sum(sp.chips_cents for sp in state.seats if sp is not None)
    assert chips + state.ledger.house_net_cents == state.ledger.bought_in_cents - state.ledger.returned_cents


EVERY_HOST_ACTION = [
    c.PauseTable(), c.ResumeTable(), c.CloseTable(), c.ChangeLimits(100, 200), h.AdjustTimers(betting_ms=1),
    h.ApproveSeat("p3"), h.DenySeat("p3"), h.RemovePlayer(HOST, 1), h.HandOver("p2"),
    h.ChangeHomeSettings(seating=Seating.APPROVAL), h.MuteChat("p3", True),
]


@pytest.mark.parametrize("action", EVERY_HOST_ACTION, ids=lambda a: a.kind)
def test_a_player_who_is_not_the_host_is_refused_every_host_action(driver, action) -> None:
    d = _home(driver)
    d.sit(2)
    error = d.refuse(host(action, player="p2"), RejectCode.NOT_HOST)
    assert "not the host" in error.message
    assert "Player 1" in error.message


@pytest.mark.parametrize("action", EVERY_HOST_ACTION, ids=lambda a: a.kind)
def test_host_actions_at_a_public_table_are_refused(driver, action) -> None:
    d = driver()
    d.sit(2)
    d.refuse(host(action), RejectCode.NOT_PRIVATE)


def test_a_host_act_on_another_private_table_is_not_the_hosts(driver) -> None:
    mine = _home(driver)
    other = _home(driver)
    other.state = new_table("h2", "Theirs", home=Home("p9", "Nine"))
    other.refuse(host(c.PauseTable()), RejectCode.NOT_HOST)
    mine.do(host(c.PauseTable()))
    assert mine.state.paused
    assert not other.state.paused


def test_approval_seating_waits_for_the_host(driver) -> None:
    d = _home(driver, Seating.APPROVAL)
    d.do(c.Sit(HOST, "Player 1", 1, 100_00))  # the host needs no approval
    d.refuse(c.Sit("p2", "Player 2", 2, 100_00), RejectCode.APPROVAL_REQUIRED)
    d.refuse(h.JoinWaitlist("p2", "Player 2"), RejectCode.SEATS_FREE)
    events = d.do(h.RequestSeat("p2", "Player 2"))
    assert events == (he.SeatRequested("p2", "Player 2"),)
    spectator = view_for(d.state, SpectatorViewer())
    assert spectator.home is not None
    assert [r.player_id for r in spectator.home.requests] == ["p2"]
    d.refuse(h.RequestSeat("p2", "Player 2"), RejectCode.ALREADY_DONE)
    d.refuse(c.Sit("p2", "Player 2", 2, 100_00), RejectCode.APPROVAL_REQUIRED)
    d.do(host(h.ApproveSeat("p2")))
    assert d.state.home.approved == ("p2",)
    assert d.state.home.requests == ()
    d.refuse(host(h.ApproveSeat("p2")), RejectCode.NO_REQUEST)
    d.do(c.Sit("p2", "Player 2", 2, 100_00))
    assert d.state.seat_of("p2") == 2


def test_a_denied_request_may_be_made_again_and_cancelled(driver) -> None:
    d = _home(driver, Seating.APPROVAL)
    d.do(h.RequestSeat("p2", "Player 2"))
    d.do(host(h.DenySeat("p2")))
    assert d.state.home.requests == ()
    assert d.state.home.approved == ()
    d.refuse(h.CancelRequest("p2"), RejectCode.NO_REQUEST)
    d.do(h.RequestSeat("p2", "Player 2"))
    d.do(h.CancelRequest("p2"))
    assert d.state.home.requests == ()


def test_requests_are_bounded_and_need_a_private_approval_table(driver) -> None:
    d = _home(driver, Seating.APPROVAL)
    for i in range(10, 22):
        d.do(h.RequestSeat(f"p{i}", f"P{i}"))
    d.refuse(h.RequestSeat("p30", "P30"), RejectCode.REQUESTS_FULL)
    d.refuse(h.RequestSeat("p31", "\n"), RejectCode.INVALID_VALUE)
    open_table = _home(driver)
    open_table.refuse(h.RequestSeat("p2", "Player 2"), RejectCode.ALREADY_DONE)
    driver().refuse(h.RequestSeat("p2", "Player 2"), RejectCode.NOT_PRIVATE)


def test_the_host_removes_a_seated_player_with_a_bar_and_their_approval_ends(driver) -> None:
    d = _home(driver, Seating.APPROVAL)
    d.do(c.Sit(HOST, "Player 1", 1, 100_00))
    d.do(h.RequestSeat("p2", "Player 2"))
    d.do(host(h.ApproveSeat("p2")))
    d.do(c.Sit("p2", "Player 2", 2, 100_00))
    events = d.do(host(h.RemovePlayer("p2", d.now + 60_000)))
    assert PlayerKicked("p2", 2, 100_00, d.now + 60_000, by=KickedBy.HOST) in events
    assert events[-1] == he.AdmissionEnded("p2", d.now + 60_000)  # the bar the commit writes
    assert d.state.seat_of("p2") is None
    assert d.state.home.approved == ()
    d.refuse(c.Sit("p2", "Player 2", 2, 100_00), RejectCode.APPROVAL_REQUIRED)
    d.refuse(host(h.RemovePlayer("p2", 1)), RejectCode.NOT_SEATED)
    d.refuse(host(h.RemovePlayer(HOST, 1)), RejectCode.INVALID_VALUE)
    _ledger_balanced(d.state)


def test_a_removal_mid_round_plays_the_round_out(driver) -> None:
    d = _dealt_home(driver)
    assert d.state.phase == Phase.SETTING
    events = d.do(host(h.RemovePlayer("p3", d.now + 1)))
    assert any(isinstance(e, PlayerLeaving) and e.kicked and e.player_id == "p3" and e.by == "host"
               for e in events)
    d.house_way_all()
    assert [e.by for e in d.events if isinstance(e, PlayerKicked)] == ["host"]
    assert d.state.seat_of("p3") is None
    _ledger_balanced(d.state)


def test_a_host_closing_mid_round_lets_it_finish_and_returns_every_chip(driver) -> None:
    d = _dealt_home(driver)
    events = d.do(host(c.CloseTable()))
    assert events[0] == TableClosing()
    assert d.state.round is not None
    d.house_way_all()
    assert d.state.phase == Phase.CLOSED
    assert all(sp is None for sp in d.state.seats)
    assert sum(isinstance(e, PlayerStoodUp) for e in d.events) == 3
    assert d.state.ledger.bought_in_cents == d.state.ledger.returned_cents + d.state.ledger.house_net_cents
    d.refuse(host(c.CloseTable()), RejectCode.ALREADY_DONE)
    d.refuse(h.JoinWaitlist("p9", "Nine"), RejectCode.TABLE_CLOSED)


def test_hand_over_makes_one_host_and_the_old_one_loses_every_power(driver) -> None:
    d = _home(driver)
    d.sit(3)
    d.refuse(host(h.HandOver("p9")), RejectCode.NOT_SEATED)
    d.refuse(host(h.HandOver(HOST)), RejectCode.ALREADY_DONE)
    before = d.state
    events = d.do(host(h.HandOver("p2")))
    assert events == (he.HostChanged("p2", "Player 2", he.HostChangeReason.HANDED_OVER),)
    # the race: the old host's second command is decided on the state the hand-over wrote
    d.refuse(host(h.HandOver("p3")), RejectCode.NOT_HOST)
    d.refuse(host(c.PauseTable()), RejectCode.NOT_HOST)
    d.do(host(c.PauseTable(), player="p2"))
    # decided on the old version, the old host's command is valid only there: the store's compare-and-set
    # refuses to write it over the hand-over (tests/server/realtime/test_home_service.py)
    assert before.home.host_player_id == HOST
    assert d.state.home.host_player_id == "p2"


def test_the_hosts_mutes_are_the_tables_decided_in_the_commit_that_checks_the_host(driver) -> None:
    d = _home(driver)
    d.sit(3)
    assert d.do(host(h.MuteChat("p3", True))) == (he.PlayerMuted("p3", True),)
    d.do(host(h.MuteChat("p9", True)))  # anyone with an id: a spectator with an account too
    assert d.state.home.muted == ("p3", "p9")
    assert view_for(d.state, SpectatorViewer()).home.muted == ("p3", "p9")
    d.refuse(host(h.MuteChat("p3", True)), RejectCode.ALREADY_DONE)
    d.refuse(host(h.MuteChat(HOST, True)), RejectCode.INVALID_VALUE)
    d.do(host(h.MuteChat("p9", False)))
    assert d.state.home.muted == ("p3",)
    d.refuse(host(h.MuteChat("p9", False)), RejectCode.ALREADY_DONE)
    d.do(host(h.HandOver("p2")))
    # the race: the old host's mute is decided on the state the hand-over wrote, and refused
    d.refuse(host(h.MuteChat("p2", True)), RejectCode.NOT_HOST)
    d.refuse(host(h.MuteChat("p3", False)), RejectCode.NOT_HOST)
    assert d.state.home.muted == ("p3",)
    d.do(host(h.MuteChat("p3", False), player="p2"))
    assert d.state.home.muted == ()


def test_a_hosts_mutes_are_bounded(driver) -> None:
    d = _home(driver)
    d.state = replace(d.state, home=replace(d.state.home, muted=tuple(f"p{n:03}" for n in range(100))))
    d.refuse(host(h.MuteChat("p_new", True)), RejectCode.INVALID_VALUE)
    d.do(host(h.MuteChat("p000", False)))


def test_a_host_who_drops_keeps_the_role_for_the_grace_then_it_passes_to_the_longest_seated(driver) -> None:
    d = _home(driver)
    d.do(c.Sit(HOST, "Player 1", 1, 100_00))
    d.do(c.Sit("p3", "Player 3", 3, 100_00))
    d.do(c.Sit("p2", "Player 2", 2, 100_00))
    events = d.do(c.Drop(HOST, d.now))
    assert he.HostAway(d.now + GRACE) in events
    d.do(c.Reconnect(HOST, d.now + 1_000))
    assert not d.state.home.host_away
    d.do(c.Drop(HOST, d.now))
    d.now += GRACE
    events = d.tick()
    assert he.HostChanged("p3", "Player 3", he.HostChangeReason.GRACE_ENDED) in events
    assert view_for(d.state, PlayerViewer(HOST)).home.host_player_id == "p3"


def test_a_host_who_stands_up_between_rounds_starts_the_grace_at_the_next_tick(driver) -> None:
    d = _home(driver)
    d.do(c.Sit(HOST, "Player 1", 1, 100_00))
    events = d.do(c.Leave(HOST))
    assert he.HostAway(None) in events
    assert he.HostAway(d.now + GRACE) in d.tick()
    d.now += GRACE
    events = d.tick()
    assert events
    assert events[0] == he.HostBack()
    assert d.state.home.host_player_id == HOST


def test_an_idle_private_table_closes_after_its_idle_time(driver) -> None:
    d = _home(driver)
    d.tick()
    assert d.state.home.idle_since_ms == d.now
    d.do(c.Sit("p2", "Player 2", 2, 100_00))
    assert not d.state.home.idle
    d.do(c.Leave("p2", d.now))
    since = d.state.home.idle_since_ms
    assert since == d.now
    d.now = since + IDLE - 1
    d.run_due()
    assert d.state.phase != Phase.CLOSED
    d.now = since + IDLE
    assert TableClosed() in d.tick()
    _ledger_balanced(d.state)


def test_limits_stay_within_the_operators_bound_and_timers_apply_from_the_next_round(driver) -> None:
    d = _home(driver)
    d.refuse(host(c.ChangeLimits(500, 100_001)), RejectCode.INVALID_VALUE)
    d.refuse(host(h.AdjustTimers(betting_ms=3_600_001)), RejectCode.INVALID_VALUE)
    d.do(host(c.ChangeLimits(1_00, 100_000)))
    assert d.state.rules.max_bet_cents == 100_000
    d.sit(2)
    d.start_round()
    events = d.do(host(h.AdjustTimers(betting_ms=5_000)))
    assert events[0].scheduled
    assert d.state.pending_timers.betting_ms == 5_000


def test_settings_change_seating_and_spectators(driver) -> None:
    d = _home(driver)
    d.refuse(host(h.ChangeHomeSettings()), RejectCode.INVALID_VALUE)
    d.refuse(host(h.ChangeHomeSettings(seating=Seating.OPEN)), RejectCode.ALREADY_DONE)
    d.do(host(h.ChangeHomeSettings(seating=Seating.APPROVAL, spectators=SpectatorsPolicy.NONE)))
    assert (d.state.home.seating, d.state.home.spectators) == (Seating.APPROVAL, SpectatorsPolicy.NONE)


def test_player_banking_off_lets_the_house_bank_every_round(driver) -> None:
    d = _home(driver, player_banking=False)
    d.sit(2)
    for _ in range(3):
        d.play_round()
    assert all(e.reason in (BankReason.DEALER_SEAT, BankReason.BANKING_OFF, BankReason.EMPTY_SEAT)
               for e in d.events if e.kind == "betting_opened")
    assert any(e.kind == "betting_opened" and e.reason == BankReason.BANKING_OFF for e in d.events)


def test_every_viewer_sees_the_same_home_and_waiting_list_and_no_cards_in_them(driver) -> None:
    d = _dealt_home(driver)
    d.do(host(h.ChangeHomeSettings(seating=Seating.APPROVAL)))
    d.do(h.RequestSeat("p8", "Eight"))
    views = [view_for(d.state, v) for v in (PlayerViewer(HOST), PlayerViewer("p2"), PlayerViewer("p8"),
                                            SpectatorViewer())]
    assert len({(v.home, v.waiting) for v in views}) == 1
    text = repr((views[0].home, views[0].waiting))
    for hand in d.state.round.hands:
        for card in hand.cards:
            assert f"'{card}'" not in text
