"""What the waiting list and a private table's seating add to a ``sit``: the checks before it (a seat held
for a waiting player's offer, the host's approval) and the place on the list a sit ends. Also the name
check every command that names its player makes."""

from __future__ import annotations

from paigow.table.emitter import Emitter, reject
from paigow.table.events import PlayerSat
from paigow.table.home_chips import ChipRequest
from paigow.table.home_events import WaitlistLeft, WaitlistLeftReason
from paigow.table.rejections import RejectCode
from paigow.table.state import TableState

__all__ = ["MAX_NAME", "buy_in_holds", "check_sit", "checked_name", "held_seats", "seat_player",
           "seated_off_list"]

MAX_NAME = 32


def checked_name(name: object) -> str:
    """The display name a command carries, trimmed; ``INVALID_VALUE`` unless 1 to 32 printable characters."""
    text = name.strip() if isinstance(name, str) else ""
    if not text or len(text) > MAX_NAME or not text.isprintable():
        reject(RejectCode.INVALID_VALUE, f"name {name!r} must be 1 to {MAX_NAME} printable characters")
    return text


def held_seats(em: Emitter) -> dict[int, str]:
    """The seats held for waiting players' offers: seat -> player id."""
    return {w.offered_seat: w.player_id for w in em.state.waiting if w.offered_seat is not None}


def buy_in_holds(state: TableState) -> dict[int, ChipRequest]:
    """The seats held for buy-ins waiting for the host at a chips game: seat -> the request."""
    chips = state.home.chips if state.home is not None else None
    if chips is None:
        return {}
    return {r.position: r for r in chips.requests if r.position is not None}


def check_sit(em: Emitter, player_id: str, seat: int) -> None:
    """Refuse a sit on a seat held for someone else's offer or buy-in, or without the host's approval."""
    holder = held_seats(em).get(seat)
    if holder is not None and holder != player_id:
        reject(RejectCode.SEAT_RESERVED, f"seat {seat} is held for a waiting player's offer: join the "
                                         "waiting list, or take another seat")
    buyer = buy_in_holds(em.state).get(seat)
    if buyer is not None and buyer.player_id != player_id:
        reject(RejectCode.SEAT_RESERVED, f"seat {seat} is held for {buyer.name}'s buy-in: take another seat")
    home = em.state.home
    if home is not None and not home.may_sit(player_id):
        reject(RejectCode.APPROVAL_REQUIRED, f"table {em.state.table_id!r} seats players the host "
                                             "approves: send request_seat and wait for the host")


def seat_player(em: Emitter, player_id: str, name: str, seat: int, buy_in_cents: int) -> None:
    """Seat the player (every check made): off the waiting list, and a round wanted if none is in play."""
    em.emit(PlayerSat(player_id, name, seat, buy_in_cents))
    seated_off_list(em, player_id)
    if em.state.round is None:
        em.schedule_next_round(0, None)


def seated_off_list(em: Emitter, player_id: str) -> None:
    """A player who sat leaves the waiting list."""
    if any(w.player_id == player_id for w in em.state.waiting):
        em.emit(WaitlistLeft(player_id, WaitlistLeftReason.SEATED))
