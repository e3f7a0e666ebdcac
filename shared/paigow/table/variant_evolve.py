"""``evolve`` for the variants' events (``table.variant_events``): pure bookkeeping, registered in
``table.evolve``'s handlers."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from paigow.table import variant_events as ve
from paigow.table.dragon_state import DragonHand
from paigow.table.fastcopy import replace
from paigow.table.state import Bet, Phase, Round, TableState

__all__ = ["VARIANT_HANDLERS"]


def _round(s: TableState) -> Round:
    if s.round is None:
        raise ValueError("event needs a round in progress")
    return s.round


def _dragon(s: TableState) -> DragonHand:
    dragon = _round(s).dragon
    if dragon is None:
        raise ValueError("event needs a Dragon hand")
    return dragon


def _with_dragon(s: TableState, **changes: Any) -> TableState:
    return replace(s, round=replace(_round(s), dragon=replace(_dragon(s), **changes)))


def _qd_placed(s: TableState, e: ve.QueensDragonPlaced) -> TableState:
    rnd = _round(s)
    bets = [b for b in rnd.queens_dragon_bets if b.position != e.position]
    bets.append(Bet(e.position, e.player_id, e.amount_cents))
    return replace(s, round=replace(rnd, queens_dragon_bets=tuple(sorted(bets, key=lambda b: b.position))))


def _qd_removed(s: TableState, e: ve.QueensDragonRemoved) -> TableState:
    rnd = _round(s)
    return replace(s, round=replace(rnd, queens_dragon_bets=tuple(
        b for b in rnd.queens_dragon_bets if b.position != e.position)))


def _co_bank(s: TableState, e: ve.CoBankChosen) -> TableState:
    return replace(s, round=replace(_round(s), co_banked=True))


def _offered(s: TableState, e: ve.DragonOffered) -> TableState:
    rnd = _round(s)
    dragon = (DragonHand(e.dragon_position, e.seat) if rnd.dragon is None
              else replace(rnd.dragon, offered_seat=e.seat))
    return replace(s, round=replace(rnd, dragon=dragon, dice=e.dice, first_position=e.first_position),
                   phase=Phase.DRAGON_OFFER)


def _passed(s: TableState, e: ve.DragonPassed) -> TableState:
    return _with_dragon(s, offered_seat=None, passed=(*_dragon(s).passed, e.seat))


def _taken(s: TableState, e: ve.DragonTaken) -> TableState:
    return _with_dragon(s, offered_seat=None, buyer_position=e.seat, buyer_player_id=e.player_id,
                        wager_cents=e.amount_cents)


def _dealt(s: TableState, e: ve.DragonDealt) -> TableState:
    return _with_dragon(s, cards=e.cards)


def _set(s: TableState, e: ve.DragonSet) -> TableState:
    return _with_dragon(s, high=e.high, low=e.low, set_by=e.set_by, fouled=e.fouled,
                        clause=e.house_way_clause)


VARIANT_HANDLERS: dict[type, Callable[[TableState, Any], TableState]] = {
    ve.QueensDragonPlaced: _qd_placed,
    ve.QueensDragonRemoved: _qd_removed,
    ve.CoBankChosen: _co_bank,
    ve.DragonOffered: _offered,
    ve.DragonPassed: _passed,
    ve.DragonTaken: _taken,
    ve.DragonDealt: _dealt,
    ve.DragonSet: _set,
}
