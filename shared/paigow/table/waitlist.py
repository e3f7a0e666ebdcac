"""The waiting list, at every table: join it when no seat is free, leave it, take the seat it offers.

When a seat frees, ``offer_free_seats`` (run after every command) holds it for the first on the list who
has no offer yet, for ``TableState.seat_offer_ms``; a sit by anyone else there is ``SEAT_RESERVED``. An
offer not taken in time runs out at a ``Tick`` (``expire_offers``), and the seat goes to the next. A player
who sits at another table after joining is taken off by the server's ``LeaveWaitlist(seated_elsewhere=True)``
(the table cannot see other tables).
"""

from __future__ import annotations

from paigow.table.commands import Sit
from paigow.table.emitter import Emitter, reject
from paigow.table.home import MAX_WAITING
from paigow.table.home_commands import JoinWaitlist, LeaveWaitlist, TakeSeat
from paigow.table.home_events import SeatOffered, WaitlistJoined, WaitlistLeft, WaitlistLeftReason
from paigow.table.rejections import RejectCode
from paigow.table.seat_holds import buy_in_holds, checked_name, held_seats
from paigow.table.seating import sit
from paigow.table.state import PLAYER_SEATS, Phase

__all__ = ["expire_offers", "free_seats", "join_waitlist", "leave_waitlist", "offer_free_seats",
           "take_seat"]


def free_seats(em: Emitter) -> list[int]:
    """The empty player seats not held for an offer or a buy-in."""
    held = held_seats(em).keys() | buy_in_holds(em.state).keys()
    return [p for p in PLAYER_SEATS if em.state.seats[p] is None and p not in held]


def join_waitlist(em: Emitter, cmd: JoinWaitlist) -> None:
    s = em.state
    name = checked_name(cmd.name)
    if s.phase == Phase.CLOSED or s.closing:
        reject(RejectCode.TABLE_CLOSED, f"table {s.table_id!r} is closed")
    held = s.seat_of(cmd.player_id)
    if held is not None:
        reject(RejectCode.ALREADY_SEATED, f"player {cmd.player_id!r} already has seat {held}")
    if any(w.player_id == cmd.player_id for w in s.waiting):
        reject(RejectCode.ALREADY_DONE, f"{name} is already on the waiting list")
    free = free_seats(em)
    if free:
        reject(RejectCode.SEATS_FREE, f"seat {free[0]} is free: sit down instead of waiting")
    if s.home is not None and not s.home.may_sit(cmd.player_id):
        reject(RejectCode.APPROVAL_REQUIRED, f"table {s.table_id!r} seats players the host approves: send "
                                             "request_seat and wait for the host")
    if len(s.waiting) >= MAX_WAITING:
        reject(RejectCode.WAITLIST_FULL, f"the waiting list of table {s.table_id!r} is full "
                                         f"({MAX_WAITING} places)")
    em.emit(WaitlistJoined(cmd.player_id, name))


def leave_waitlist(em: Emitter, cmd: LeaveWaitlist) -> None:
    if not any(w.player_id == cmd.player_id for w in em.state.waiting):
        reject(RejectCode.NOT_WAITING, f"player {cmd.player_id!r} is not on the waiting list")
    em.emit(WaitlistLeft(cmd.player_id, WaitlistLeftReason.SEATED_ELSEWHERE if cmd.seated_elsewhere
                         else WaitlistLeftReason.LEFT))


def take_seat(em: Emitter, cmd: TakeSeat) -> None:
    waiter = next((w for w in em.state.waiting if w.player_id == cmd.player_id), None)
    if waiter is None or waiter.offered_seat is None:
        reject(RejectCode.NO_OFFER, f"no seat is offered to player {cmd.player_id!r}"
                                    + ("" if waiter is not None else ": join the waiting list"))
    sit(em, Sit(cmd.player_id, cmd.name, waiter.offered_seat, cmd.buy_in_cents))


def offer_free_seats(em: Emitter, now_ms: int | None) -> None:
    """Hold each free seat for the next waiting player without an offer (the lowest seat first)."""
    s = em.state
    if not s.waiting or s.phase == Phase.CLOSED or s.closing:
        return
    free = free_seats(em)
    for waiter in s.waiting:
        if not free:
            return
        if waiter.offered_seat is None:
            until = None if now_ms is None else now_ms + s.seat_offer_ms
            em.emit(SeatOffered(waiter.player_id, free.pop(0), until, s.seat_offer_ms))


def expire_offers(em: Emitter, now_ms: int) -> None:
    """Stamp pending offers; take off the list those whose time ran out."""
    for waiter in em.state.waiting:
        if waiter.offered_seat is None:
            continue
        if waiter.offer_until_ms is None:
            em.emit(SeatOffered(waiter.player_id, waiter.offered_seat, now_ms + em.state.seat_offer_ms,
                                em.state.seat_offer_ms))
        elif waiter.offer_until_ms <= now_ms:
            em.emit(WaitlistLeft(waiter.player_id, WaitlistLeftReason.OFFER_EXPIRED))
