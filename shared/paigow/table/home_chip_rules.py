"""The rules of a home game's own chips that the table's other steps call: a sit at a chips game (a buy-in
approved at once, or a request holding its seat), an approval's chips landing (a seat, or a rebuy's chips
now or when the round its player is in ends), and the requests a departure or the closing ends.

The commands of the chips (a rebuy, a cancel, the host's answers, corrections and settings) are in
``home_chip_commands``'s handlers, ``home_chip_actions``. The casino balance is never read or moved here:
the game issues its own chips (``home_chips``).
"""

from __future__ import annotations

from paigow.table.emitter import Emitter, money, reject
from paigow.table.home import Home
from paigow.table.home_chip_events import BuyInApproved, BuyInCancelled, BuyInRequested, ChipsAdded
from paigow.table.home_chips import MAX_CHIP_LINES, MAX_CHIP_REQUESTS, ChipRequest, HomeChips
from paigow.table.rejections import RejectCode
from paigow.table.seat_holds import seat_player
from paigow.table.state import TableState

__all__ = ["approve", "approves_at_once", "cancel_requests", "check_amount", "check_new_request",
           "check_room", "chip_sit", "game_chips", "land_deferred"]


def game_chips(state: TableState) -> HomeChips | None:
    """The game's own chips (None: a public table, or a home game playing with casino balances)."""
    return state.home.chips if state.home is not None else None


def check_amount(chips: HomeChips, amount: object, what: str) -> int:
    """``amount`` as a buy-in or rebuy within the game's bounds (``INVALID_VALUE`` naming them)."""
    low, high = chips.min_buy_in_cents, chips.max_buy_in_cents
    if type(amount) is not int or not low <= amount <= high:
        shown = money(amount) if type(amount) is int else repr(amount)
        reject(RejectCode.INVALID_VALUE, f"a {what} of {shown} is outside this game's bounds: "
                                         f"{money(low)} to {money(high)}")
    return amount


def check_room(chips: HomeChips) -> None:
    """``LEDGER_FULL`` once the game's ledger holds ``MAX_CHIP_LINES`` lines."""
    if len(chips.lines) >= MAX_CHIP_LINES:
        reject(RejectCode.LEDGER_FULL, f"this game's ledger is full ({MAX_CHIP_LINES} lines): close it and "
                                       "open a new game to issue more chips")


def check_new_request(chips: HomeChips, player_id: str, name: str, waits: bool) -> None:
    """One waiting request per player, and at most ``MAX_CHIP_REQUESTS`` in the game (``waits``: this one
    would be kept, waiting for the host or for the round's end)."""
    mine = chips.request_of(player_id)
    if mine is not None:
        what = "rebuy" if mine.rebuy else "buy-in"
        reject(RejectCode.ALREADY_DONE, f"{name} already has a {what} ({mine.request_id}) waiting: cancel it "
                                        "first")
    if waits and len(chips.requests) >= MAX_CHIP_REQUESTS:
        reject(RejectCode.REQUESTS_FULL, f"this game already has {MAX_CHIP_REQUESTS} buy-in and rebuy "
                                         "requests waiting for the host")


def _host(em: Emitter) -> Home:
    home = em.state.home
    assert home is not None
    return home


def approves_at_once(em: Emitter, chips: HomeChips, player_id: str) -> bool:
    return chips.auto_approve or player_id == _host(em).host_player_id


def chip_sit(em: Emitter, chips: HomeChips, player_id: str, name: str, seat: int, amount: object) -> None:
    """A sit at a chips game (the seat's own checks done): a seat at once (the host, or auto-approve) or a
    buy-in request holding the seat."""
    at_once = approves_at_once(em, chips, player_id)
    check_new_request(chips, player_id, name, waits=not at_once)
    cents = check_amount(chips, amount, "buy-in")
    check_room(chips)
    request = ChipRequest(f"b{chips.next_request}", player_id, name, cents, False, seat)
    if at_once:
        home = _host(em)
        approve(em, request, cents, home.host_player_id, home.host_name, automatic=True)
    else:
        em.emit(BuyInRequested(request.request_id, player_id, name, cents, False, seat))


def approve(em: Emitter, request: ChipRequest, cents: int, by_id: str, by_name: str, *,
            automatic: bool) -> None:
    """Approve ``request`` for ``cents``: a buy-in's seat, a rebuy's chips (at the round's end for a
    player in the round in play)."""
    if not request.rebuy:
        assert request.position is not None
        em.emit(BuyInApproved(request.request_id, request.player_id, request.name, cents, False, by_id,
                              by_name, automatic))
        seat_player(em, request.player_id, request.name, request.position, cents)
        return
    pos, _ = em.seated(request.player_id)
    deferred = em.in_round(pos)
    em.emit(BuyInApproved(request.request_id, request.player_id, request.name, cents, True, by_id, by_name,
                          automatic, deferred))
    if not deferred:
        em.emit(ChipsAdded(request.request_id, request.player_id, pos, cents))


def land_deferred(em: Emitter) -> None:
    """The round ended: the rebuys approved during it land."""
    chips = game_chips(em.state)
    if chips is None:
        return
    for r in chips.requests:
        pos = em.state.seat_of(r.player_id)
        if r.rebuy and r.approved_cents is not None and pos is not None:
            em.emit(ChipsAdded(r.request_id, r.player_id, pos, r.approved_cents))


def cancel_requests(em: Emitter, player_id: str | None, reason: str) -> None:
    """End ``player_id``'s request (None: every request) without chips: ``reason`` ``left``, ``removed`` or
    ``closed``."""
    chips = game_chips(em.state)
    if chips is None:
        return
    for r in chips.requests:
        if player_id is None or r.player_id == player_id:
            em.emit(BuyInCancelled(r.request_id, r.player_id, reason))
