"""The waiting list, at public and private tables alike: join when full, be offered the next free seat in
turn, take it or let the offer run out (docs/protocol.md, "Private tables and the waiting list")."""

from __future__ import annotations

from paigow.table import Phase
from paigow.table import commands as c
from paigow.table import home_commands as h
from paigow.table import home_events as he
from paigow.table.home import MAX_WAITING
from paigow.table.rejections import RejectCode
from paigow.table.views import SpectatorViewer, view_for

OFFER = 30_000


def _full(driver):
    d = driver()
    d.sit(6)
    return d


def test_the_list_is_for_a_full_table(driver) -> None:
    d = driver()
    d.sit(5)
    d.refuse(h.JoinWaitlist("p7", "Seven"), RejectCode.SEATS_FREE)
    d.do(c.Sit("p6", "Six", 6, 100_00))
    d.refuse(h.JoinWaitlist("p6", "Six"), RejectCode.ALREADY_SEATED)
    d.do(h.JoinWaitlist("p7", "Seven"))
    d.do(h.JoinWaitlist("p8", "Eight"))
    d.refuse(h.JoinWaitlist("p7", "Seven"), RejectCode.ALREADY_DONE)
    assert [w.player_id for w in view_for(d.state, SpectatorViewer()).waiting] == ["p7", "p8"]
    d.do(h.LeaveWaitlist("p7"))
    d.refuse(h.LeaveWaitlist("p7"), RejectCode.NOT_WAITING)
    assert [w.player_id for w in d.state.waiting] == ["p8"]


def test_the_servers_word_that_a_player_sat_elsewhere_takes_them_off_and_frees_their_offer(driver) -> None:
    d = _full(driver)
    d.do(h.JoinWaitlist("p7", "Seven"))
    d.do(h.JoinWaitlist("p8", "Eight"))
    d.do(c.Leave("p3", d.now))
    assert d.state.waiting[0].offered_seat == 3
    events = d.do(h.LeaveWaitlist("p7", seated_elsewhere=True))
    assert events == (he.WaitlistLeft("p7", he.WaitlistLeftReason.SEATED_ELSEWHERE),
                      he.SeatOffered("p8", 3, None, OFFER))  # the seat held for p7 goes to the next
    assert [(w.player_id, w.offered_seat) for w in d.state.waiting] == [("p8", 3)]
    d.refuse(h.LeaveWaitlist("p7", seated_elsewhere=True), RejectCode.NOT_WAITING)


def test_a_free_seat_is_offered_in_turn_and_held(driver) -> None:
    d = _full(driver)
    d.do(h.JoinWaitlist("p7", "Seven"))
    d.do(h.JoinWaitlist("p8", "Eight"))
    d.refuse(h.TakeSeat("p7", "Seven", 100_00), RejectCode.NO_OFFER)
    events = d.do(c.Leave("p3", d.now))
    assert events[-1] == he.SeatOffered("p7", 3, d.now + OFFER, OFFER)
    d.refuse(c.Sit("p8", "Eight", 3, 100_00), RejectCode.SEAT_RESERVED)
    d.refuse(c.Sit("p9", "Nine", 3, 100_00), RejectCode.SEAT_RESERVED)
    events = d.do(h.TakeSeat("p7", "Seven", 50_00))
    assert events[1] == he.WaitlistLeft("p7", he.WaitlistLeftReason.SEATED)
    assert d.state.seat_of("p7") == 3
    assert [w.player_id for w in d.state.waiting] == ["p8"]


def test_an_offer_not_taken_in_time_passes_to_the_next(driver) -> None:
    d = _full(driver)
    d.do(h.JoinWaitlist("p7", "Seven"))
    d.do(h.JoinWaitlist("p8", "Eight"))
    d.do(c.Kick("p5"))  # an operator's command carries no time: the offer is stamped at the next tick
    assert d.state.waiting[0].offered_seat == 5
    assert d.state.waiting[0].offer_until_ms is None
    d.tick()
    assert d.state.waiting[0].offer_until_ms == d.now + OFFER
    d.now += OFFER - 1
    d.run_due()
    d.now += 1
    events = d.tick()
    assert he.WaitlistLeft("p7", he.WaitlistLeftReason.OFFER_EXPIRED) in events
    assert he.SeatOffered("p8", 5, d.now + OFFER, OFFER) in events
    assert d.state.phase != Phase.CLOSED


def test_the_list_holds_twenty_and_clears_when_the_table_closes(driver) -> None:
    d = _full(driver)
    for i in range(MAX_WAITING):
        d.do(h.JoinWaitlist(f"w{i}", f"W{i}"))
    d.refuse(h.JoinWaitlist("late", "Late"), RejectCode.WAITLIST_FULL)
    d.do(c.CloseTable())
    assert d.state.waiting == ()
