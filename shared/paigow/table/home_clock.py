"""A private table's clocks and the waiting list's, kept up after every command (``keep_up``) and acted on
at a ``Tick`` (``home_tick``; ``home_due`` says when one is wanted):

- the waiting list's offers (``waitlist``);
- the host's grace: a host who was seated and here, and is not any more (stood up, leaving, or dropped),
  keeps the role for ``Home.host_grace_ms``; if not back by then it passes to the player seated longest
  (one who is here before one who is away), or, with nobody seated, stays;
- idleness: with nobody seated for ``Home.idle_close_ms`` the table closes;
- a chips game's new ledger lines (``at_ms`` None) get the Tick's time.
"""

from __future__ import annotations

from paigow.table.emitter import Emitter
from paigow.table.home_chip_events import ChipLinesStamped
from paigow.table.home_events import HostAway, HostBack, HostChanged, HostChangeReason, TableIdle
from paigow.table.settlement import close_now
from paigow.table.state import Phase, SeatStatus, TableState
from paigow.table.waitlist import expire_offers, offer_free_seats

__all__ = ["home_due", "home_tick", "keep_up"]


def _host_here(state: TableState) -> bool:
    home = state.home
    if home is None:
        return False
    pos = state.seat_of(home.host_player_id)
    sp = state.seats[pos] if pos is not None else None
    return sp is not None and not sp.away and sp.status != SeatStatus.LEAVING


def keep_up(em: Emitter, before: TableState, now_ms: int | None) -> None:
    """After a command: offer free seats, start or end the host's grace, mark the table idle."""
    if em.state.phase == Phase.CLOSED:
        return
    offer_free_seats(em, now_ms)
    home = em.state.home
    if home is None:
        return
    here = _host_here(em.state)
    if home.host_away and here:
        em.emit(HostBack())
    elif not home.host_away and not here and _host_here(before):
        em.emit(HostAway(None if now_ms is None else now_ms + home.host_grace_ms))
    if not em.state.home.idle and all(sp is None for sp in em.state.seats):  # type: ignore[union-attr]
        em.emit(TableIdle(now_ms))


def home_due(state: TableState) -> list[int]:
    """When the waiting list and the private table want a Tick (0: now, to stamp a pending time; a chips
    game's new ledger lines are stamped at a closed table too)."""
    chips = state.home.chips if state.home is not None else None
    stamp = [0] if chips is not None and chips.lines and chips.lines[-1].at_ms is None else []
    if state.phase == Phase.CLOSED:
        return stamp
    due = stamp + [0 if w.offer_until_ms is None else w.offer_until_ms
           for w in state.waiting if w.offered_seat is not None]
    home = state.home
    if home is not None:
        if home.host_away:
            due.append(0 if home.host_away_until_ms is None else home.host_away_until_ms)
        if home.idle:
            due.append(0 if home.idle_since_ms is None else home.idle_since_ms + home.idle_close_ms)
    return due


def home_tick(em: Emitter, now_ms: int) -> None:
    chips = em.state.home.chips if em.state.home is not None else None
    if chips is not None and chips.lines and chips.lines[-1].at_ms is None:
        em.emit(ChipLinesStamped(now_ms))
    if em.state.phase == Phase.CLOSED:
        return
    expire_offers(em, now_ms)
    home = em.state.home
    if home is None:
        return
    if home.host_away:
        if home.host_away_until_ms is None:
            em.emit(HostAway(now_ms + home.host_grace_ms))
        elif home.host_away_until_ms <= now_ms:
            _pass_the_role(em)
    home = em.state.home
    assert home is not None
    if home.idle:
        if home.idle_since_ms is None:
            em.emit(TableIdle(now_ms))
        elif (home.idle_since_ms + home.idle_close_ms <= now_ms and em.state.round is None
              and all(sp is None for sp in em.state.seats)):
            close_now(em)


def _pass_the_role(em: Emitter) -> None:
    s = em.state
    home = s.home
    assert home is not None
    order = [p for p in home.sat_order if p != home.host_player_id]
    seated = [(pid, s.seats[pos]) for pid in order if (pos := s.seat_of(pid)) is not None]
    ranked = [c for c in seated if c[1] is not None and not c[1].away] + \
             [c for c in seated if c[1] is not None and c[1].away]
    if not ranked:
        em.emit(HostBack())
        return
    pid, sp = ranked[0]
    assert sp is not None
    em.emit(HostChanged(pid, sp.name, HostChangeReason.GRACE_ENDED))
