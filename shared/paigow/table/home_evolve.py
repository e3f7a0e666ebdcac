"""``evolve`` for the events of private tables and the waiting list, and what a sit, a departure and a
closing change in them (``paigow.table.evolve`` calls these)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from paigow.table import home_events as he
from paigow.table.fastcopy import replace
from paigow.table.home import Home, SeatRequest, Waiter
from paigow.table.state import TableState

__all__ = ["HOME_HANDLERS", "home_closed", "home_gone", "home_sat"]


def _home(state: TableState) -> Home:
    if state.home is None:
        raise ValueError(f"event needs a private table, not {state.table_id!r}")
    return state.home


def _with_home(state: TableState, **changes: Any) -> TableState:
    return replace(state, home=replace(_home(state), **changes))


def _without(requests: tuple[SeatRequest, ...], player_id: str) -> tuple[SeatRequest, ...]:
    return tuple(r for r in requests if r.player_id != player_id)


def _off_list(state: TableState, player_id: str) -> tuple[Waiter, ...]:
    return tuple(w for w in state.waiting if w.player_id != player_id)


def home_sat(state: TableState, player_id: str) -> TableState:
    """A player sat: they are the newest seated, and the table is not idle."""
    if state.home is None:
        return state
    return _with_home(state, sat_order=(*state.home.sat_order, player_id), idle=False, idle_since_ms=None)


def home_gone(state: TableState, player_id: str) -> TableState:
    if state.home is None:
        return state
    return _with_home(state, sat_order=tuple(p for p in state.home.sat_order if p != player_id))


def home_closed(state: TableState) -> TableState:
    """A closed table keeps nobody waiting or requesting, and runs none of its clocks."""
    state = replace(state, waiting=())
    if state.home is None:
        return state
    return _with_home(state, requests=(), host_away=False, host_away_until_ms=None, idle=False,
                      idle_since_ms=None)


def _requested(s: TableState, e: he.SeatRequested) -> TableState:
    return _with_home(s, requests=(*_home(s).requests, SeatRequest(e.player_id, e.name)))


def _approved(s: TableState, e: he.SeatRequestApproved) -> TableState:
    home = _home(s)
    approved = home.approved if e.player_id in home.approved else (*home.approved, e.player_id)
    return _with_home(s, requests=_without(home.requests, e.player_id), approved=approved)


def _unrequested(s: TableState, e: he.SeatRequestDenied | he.SeatRequestCancelled) -> TableState:
    return _with_home(s, requests=_without(_home(s).requests, e.player_id))


def _joined(s: TableState, e: he.WaitlistJoined) -> TableState:
    return replace(s, waiting=(*s.waiting, Waiter(e.player_id, e.name)))


def _left(s: TableState, e: he.WaitlistLeft) -> TableState:
    return replace(s, waiting=_off_list(s, e.player_id))


def _offered(s: TableState, e: he.SeatOffered) -> TableState:
    return replace(s, waiting=tuple(
        replace(w, offered_seat=e.seat, offer_until_ms=e.until_ms) if w.player_id == e.player_id else w
        for w in s.waiting))


def _host_changed(s: TableState, e: he.HostChanged) -> TableState:
    return _with_home(s, host_player_id=e.player_id, host_name=e.name, host_away=False,
                      host_away_until_ms=None)


def _host_away(s: TableState, e: he.HostAway) -> TableState:
    return _with_home(s, host_away=True, host_away_until_ms=e.until_ms)


def _host_back(s: TableState, e: he.HostBack) -> TableState:
    return _with_home(s, host_away=False, host_away_until_ms=None)


def _settings(s: TableState, e: he.HomeSettingsChanged) -> TableState:
    return _with_home(s, seating=e.seating, spectators=e.spectators)


def _admission_ended(s: TableState, e: he.AdmissionEnded) -> TableState:
    home = _home(s)
    s = replace(s, waiting=_off_list(s, e.player_id))
    return _with_home(s, requests=_without(home.requests, e.player_id),
                      approved=tuple(p for p in home.approved if p != e.player_id))


def _muted(s: TableState, e: he.PlayerMuted) -> TableState:
    others = {p for p in _home(s).muted if p != e.player_id}
    return _with_home(s, muted=tuple(sorted(others | {e.player_id} if e.muted else others)))


def _idle(s: TableState, e: he.TableIdle) -> TableState:
    return _with_home(s, idle=True, idle_since_ms=e.since_ms)


HOME_HANDLERS: dict[type, Callable[[TableState, Any], TableState]] = {
    he.SeatRequested: _requested,
    he.SeatRequestApproved: _approved,
    he.SeatRequestDenied: _unrequested,
    he.SeatRequestCancelled: _unrequested,
    he.WaitlistJoined: _joined,
    he.WaitlistLeft: _left,
    he.SeatOffered: _offered,
    he.HostChanged: _host_changed,
    he.HostAway: _host_away,
    he.HostBack: _host_back,
    he.HomeSettingsChanged: _settings,
    he.AdmissionEnded: _admission_ended,
    he.TableIdle: _idle,
    he.PlayerMuted: _muted,
}
