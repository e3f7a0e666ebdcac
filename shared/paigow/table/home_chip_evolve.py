"""``evolve`` for the events of a home game's own chips, and what a sit, a departure and a settlement write
in the game's ledger (``paigow.table.evolve`` calls these).

Chips and lines go together: a line is written when its chips reach a stack or leave it (a buy-in at the
``PlayerSat`` its approval is followed by, a rebuy at its ``ChipsAdded``, a correction at once, a cash-out
at the departure), so the game's check (``home_chips``) holds after every event. An approval keeps its
request (with ``approved_cents``) until its chips land: at once, or, for a rebuy approved while its player
is in the round in play, when that round ends. The table's money totals (``TableState.ledger``) follow the
chips: what the game issues is bought in, what the host takes back is returned.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from paigow.table import home_chip_events as ce
from paigow.table.events import PlayerKicked, PlayerLeft, PlayerSat, PlayerStoodUp
from paigow.table.fastcopy import replace
from paigow.table.home_chips import ChipLine, ChipLineKind, ChipRequest, HomeChips
from paigow.table.records import RoundRecord
from paigow.table.state import TableState

__all__ = ["CHIP_HANDLERS", "chips_gone", "chips_sat", "chips_settled"]


def _chips(state: TableState) -> HomeChips:
    if state.home is None or state.home.chips is None:
        raise ValueError(f"event needs a game with its own chips, not {state.table_id!r}")
    return state.home.chips


def _with_chips(state: TableState, chips: HomeChips) -> TableState:
    assert state.home is not None
    return replace(state, home=replace(state.home, chips=chips))


def _line(state: TableState, chips: HomeChips, kind: ChipLineKind, player_id: str, name: str, amount: int,
          **more: Any) -> HomeChips:
    line = ChipLine(len(chips.lines) + 1, kind, player_id, name, amount, round_number=state.rounds_started,
                    **more)
    return replace(chips, lines=(*chips.lines, line))


def _request_number(request_id: str) -> int:
    digits = request_id[1:]
    return int(digits) if digits.isdigit() else 0


def _requested(s: TableState, e: ce.BuyInRequested) -> TableState:
    chips = _chips(s)
    request = ChipRequest(e.request_id, e.player_id, e.name, e.amount_cents, e.rebuy, e.position)
    return _with_chips(s, replace(chips, requests=(*chips.requests, request),
                                  next_request=max(chips.next_request, _request_number(e.request_id) + 1)))


def _approved(s: TableState, e: ce.BuyInApproved) -> TableState:
    """The request (made now, for an approval at once) waits for its chips to land, approved."""
    chips = _chips(s)
    found = chips.request(e.request_id)
    if found is None:
        found = ChipRequest(e.request_id, e.player_id, e.name, e.amount_cents, e.rebuy)
        chips = replace(chips, requests=(*chips.requests, found),
                        next_request=max(chips.next_request, _request_number(e.request_id) + 1))
    approved = replace(found, approved_cents=e.amount_cents, approved_by_player_id=e.by_player_id,
                       approved_by_name=e.by_name, approved_automatic=e.automatic)
    return _with_chips(s, replace(chips, requests=tuple(approved if r.request_id == e.request_id else r
                                                        for r in chips.requests)))


def _ended(s: TableState, e: ce.BuyInDenied | ce.BuyInCancelled) -> TableState:
    chips = _chips(s)
    return _with_chips(s, replace(chips, requests=tuple(r for r in chips.requests
                                                        if r.request_id != e.request_id)))


def _landed(s: TableState, chips: HomeChips, request: ChipRequest | None, kind: ChipLineKind, player_id: str,
            name: str, amount: int) -> HomeChips:
    """``chips`` with ``request`` (if any) gone and its line written."""
    if request is None:
        return _line(s, chips, kind, player_id, name, amount)
    chips = replace(chips, requests=tuple(r for r in chips.requests if r.request_id != request.request_id))
    return _line(s, chips, kind, player_id, name, amount, by_player_id=request.approved_by_player_id,
                 by_name=request.approved_by_name, automatic=request.approved_automatic)


def _added(s: TableState, e: ce.ChipsAdded) -> TableState:
    sp = s.seats[e.position]
    if sp is None:
        raise ValueError(f"chips added at empty seat {e.position}")
    chips = _landed(s, _chips(s), _chips(s).request(e.request_id), ChipLineKind.REBUY, e.player_id, sp.name,
                    e.amount_cents)
    seats = list(s.seats)
    seats[e.position] = replace(sp, chips_cents=sp.chips_cents + e.amount_cents)
    ledger = replace(s.ledger, bought_in_cents=s.ledger.bought_in_cents + e.amount_cents)
    return _with_chips(replace(s, seats=tuple(seats), ledger=ledger), chips)


def _adjusted(s: TableState, e: ce.ChipsAdjusted) -> TableState:
    sp = s.seats[e.position]
    if sp is None:
        raise ValueError(f"chips adjusted at empty seat {e.position}")
    kind = ChipLineKind.ADD if e.amount_cents > 0 else ChipLineKind.TAKE_BACK
    chips = _line(s, _chips(s), kind, e.player_id, sp.name, abs(e.amount_cents), by_player_id=e.by_player_id,
                  by_name=e.by_name, reason=e.reason)
    seats = list(s.seats)
    seats[e.position] = replace(sp, chips_cents=sp.chips_cents + e.amount_cents)
    if e.amount_cents > 0:
        ledger = replace(s.ledger, bought_in_cents=s.ledger.bought_in_cents + e.amount_cents)
    else:
        ledger = replace(s.ledger, returned_cents=s.ledger.returned_cents - e.amount_cents)
    return _with_chips(replace(s, seats=tuple(seats), ledger=ledger), chips)


def _settings(s: TableState, e: ce.ChipSettingsChanged) -> TableState:
    return _with_chips(s, replace(_chips(s), default_buy_in_cents=e.default_buy_in_cents,
                                  min_buy_in_cents=e.min_buy_in_cents, max_buy_in_cents=e.max_buy_in_cents,
                                  rebuys=e.rebuys, auto_approve=e.auto_approve, commission=e.commission))


def _stamped(s: TableState, e: ce.ChipLinesStamped) -> TableState:
    chips = _chips(s)
    return _with_chips(s, replace(chips, lines=tuple(replace(x, at_ms=e.at_ms) if x.at_ms is None else x
                                                     for x in chips.lines)))


def chips_sat(s: TableState, e: PlayerSat) -> TableState:
    """A player sat at a chips game: their approved buy-in's line (the request ends)."""
    chips = s.home.chips if s.home is not None else None
    if chips is None:
        return s
    request = next((r for r in chips.requests if r.player_id == e.player_id and not r.rebuy
                    and r.approved_cents is not None), None)
    return _with_chips(s, _landed(s, chips, request, ChipLineKind.BUY_IN, e.player_id, e.name,
                                  e.buy_in_cents))


def chips_gone(before: TableState, s: TableState, e: PlayerLeft | PlayerStoodUp | PlayerKicked) -> TableState:
    """A player left a chips game with chips: the cash-out line (``before``: the state with their seat)."""
    chips = s.home.chips if s.home is not None else None
    sp = before.seats[e.seat]
    if chips is None or sp is None or e.chips_returned_cents <= 0:
        return s
    return _with_chips(s, _line(s, chips, ChipLineKind.CASH_OUT, e.player_id, sp.name, e.chips_returned_cents,
                                reason=e.kind))


def chips_settled(s: TableState, record: RoundRecord) -> TableState:
    """A round settled at a chips game: its commission (every hand's, the Dragon's too) into the pot."""
    chips = s.home.chips if s.home is not None else None
    if chips is None:
        return s
    taken = sum(h.commission_cents for h in record.hands)
    if not taken:
        return s
    return _with_chips(s, replace(chips, commission_cents=chips.commission_cents + taken))


CHIP_HANDLERS: dict[type, Callable[[TableState, Any], TableState]] = {
    ce.BuyInRequested: _requested,
    ce.BuyInApproved: _approved,
    ce.BuyInDenied: _ended,
    ce.BuyInCancelled: _ended,
    ce.ChipsAdded: _added,
    ce.ChipsAdjusted: _adjusted,
    ce.ChipSettingsChanged: _settings,
    ce.ChipLinesStamped: _stamped,
}
