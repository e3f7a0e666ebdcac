"""``evolve(state, event)``: apply one event. Pure bookkeeping; every decision was made in ``decide``.

``evolve`` does not touch ``TableState.version``: ``apply`` (and ``evolve_all``) add one per accepted
command that produced events.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from paigow.table import events as ev
from paigow.table.fastcopy import replace
from paigow.table.home_chip_evolve import CHIP_HANDLERS, chips_gone, chips_sat, chips_settled
from paigow.table.home_evolve import HOME_HANDLERS, home_closed, home_gone, home_sat
from paigow.table.state import (
    DEALER_POSITION,
    Bet,
    Deadline,
    LiveHand,
    Phase,
    Round,
    SeatPlayer,
    SeatStatus,
    TableState,
)
from paigow.table.variant_evolve import VARIANT_HANDLERS

__all__ = ["evolve", "evolve_all"]


def _seat(state: TableState, pos: int) -> SeatPlayer:
    sp = state.seats[pos]
    if sp is None:
        raise ValueError(f"event names empty seat {pos}")
    return sp


def _with_seat(state: TableState, pos: int, sp: SeatPlayer | None) -> TableState:
    seats = list(state.seats)
    seats[pos] = sp
    return replace(state, seats=tuple(seats))


def _update_seat(state: TableState, pos: int, **changes: Any) -> TableState:
    return _with_seat(state, pos, replace(_seat(state, pos), **changes))


def _round(state: TableState) -> Round:
    if state.round is None:
        raise ValueError("event needs a round in progress")
    return state.round


def _update_round(state: TableState, **changes: Any) -> TableState:
    return replace(state, round=replace(_round(state), **changes))


def _sat(s: TableState, e: ev.PlayerSat) -> TableState:
    s = _with_seat(s, e.seat, SeatPlayer(e.player_id, e.name, e.buy_in_cents))
    s = chips_sat(home_sat(s, e.player_id), e)
    return replace(s, ledger=replace(s.ledger, bought_in_cents=s.ledger.bought_in_cents + e.buy_in_cents))


def _leaving(s: TableState, e: ev.PlayerLeaving) -> TableState:
    return _update_seat(s, e.seat, status=SeatStatus.LEAVING, kicked=e.kicked,
                        barred_until_ms=e.barred_until_ms, kicked_by=e.by,
                        leave_reason=None if e.reason is None else e.reason.value)


def _gone(s: TableState, e: ev.PlayerLeft | ev.PlayerStoodUp | ev.PlayerKicked) -> TableState:
    s = chips_gone(s, home_gone(_with_seat(s, e.seat, None), e.player_id), e)
    returned = s.ledger.returned_cents + e.chips_returned_cents
    return replace(s, ledger=replace(s.ledger, returned_cents=returned))


def _dropped(s: TableState, e: ev.PlayerDropped) -> TableState:
    _seat(s, e.seat)
    return _update_seat(s, e.seat, away_until_ms=e.away_until_ms)  # the status stays: away is presence


def _reconnected(s: TableState, e: ev.PlayerReconnected) -> TableState:
    sp = _seat(s, e.seat)
    status = SeatStatus.ACTIVE if sp.status == SeatStatus.AWAY else sp.status  # AWAY: an older state
    return _update_seat(s, e.seat, status=status, away_until_ms=None)


def _sat_out(s: TableState, e: ev.PlayerSatOut) -> TableState:
    return _update_seat(s, e.seat, status=SeatStatus.SITTING_OUT)


def _sat_in(s: TableState, e: ev.PlayerSatIn) -> TableState:
    return _update_seat(s, e.seat, status=SeatStatus.ACTIVE, missed_rounds=0)


def _missed(s: TableState, e: ev.PlayerMissedRound) -> TableState:
    return _update_seat(s, e.seat, missed_rounds=e.missed_rounds)


def _own_limit(s: TableState, e: ev.OwnLimitSet) -> TableState:
    sp = _seat(s, e.seat)
    raised_ms = e.at_ms if e.raised else sp.own_limit_raised_ms
    return _update_seat(s, e.seat, own_max_bet_cents=e.max_bet_cents, own_limit_raised_ms=raised_ms)


def _round_started(s: TableState, e: ev.RoundStarted) -> TableState:
    if e.server_seed is None:
        raise ValueError("a redacted RoundStarted (no seed) cannot be applied")
    rnd = Round(e.round_id, e.number, e.commitment, e.server_seed)
    return replace(s, round=rnd, rounds_started=e.number, marker=e.marker, phase=Phase.BANK_OFFER)


def _bank_offered(s: TableState, e: ev.BankOffered) -> TableState:
    # The marker is where the offer is: a second offer in a round (players bank in turn) moves it on.
    return replace(_update_round(s, offer_player_id=e.player_id), marker=e.position)


def _bank_declined(s: TableState, e: ev.BankDeclined) -> TableState:
    rnd = _round(s)
    return _update_round(s, offer_player_id=None, bank_passed=(*rnd.bank_passed, e.player_id))


def _betting_opened(s: TableState, e: ev.BettingOpened) -> TableState:
    s = _update_round(s, offer_player_id=None, banker_position=e.banker_position,
                      banker_player_id=e.banker_player_id, bank_reason=e.reason,
                      bank_ineligible=e.ineligible,
                      dealer_wager_cents=e.dealer_wager_cents)
    return replace(s, phase=Phase.BETTING)


def _placed(bets: tuple[Bet, ...], e: ev.BetPlaced | ev.BonusPlaced) -> tuple[Bet, ...]:
    """``bets`` with the one at the event's position placed or changed, by position."""
    placed = [b for b in bets if b.position != e.position]
    placed.append(Bet(e.position, e.player_id, e.amount_cents))
    return tuple(sorted(placed, key=lambda b: b.position))


def _bet_placed(s: TableState, e: ev.BetPlaced) -> TableState:
    return _update_round(s, bets=_placed(_round(s).bets, e))


def _bet_removed(s: TableState, e: ev.BetRemoved) -> TableState:
    rnd = _round(s)
    def kept(bets: tuple[Bet, ...]) -> tuple[Bet, ...]:
        return tuple(b for b in bets if b.position != e.position)
    return _update_round(s, bets=kept(rnd.bets), bonuses=kept(rnd.bonuses),
                         queens_dragon_bets=kept(rnd.queens_dragon_bets))


def _bonus_placed(s: TableState, e: ev.BonusPlaced) -> TableState:
    return _update_round(s, bonuses=_placed(_round(s).bonuses, e))


def _bonus_removed(s: TableState, e: ev.BonusRemoved) -> TableState:
    return _update_round(s, bonuses=tuple(b for b in _round(s).bonuses if b.position != e.position))


def _dealt(s: TableState, e: ev.HandsDealt) -> TableState:
    hands = tuple(LiveHand(h.position, h.player_id, h.cards) for h in e.hands)
    s = _update_round(s, dice=e.dice, first_position=e.first_position, hands=hands)
    return replace(s, phase=Phase.SETTING)


def _hand_set(s: TableState, e: ev.HandSet) -> TableState:
    hands = tuple(replace(h, high=e.high, low=e.low, set_by=e.set_by, fouled=e.fouled)
                  if h.position == e.position else h for h in _round(s).hands)
    return _update_round(s, hands=hands)


def _settled(s: TableState, e: ev.RoundSettled) -> TableState:
    rec = e.record
    seats = list(s.seats)
    house_banked = rec.banker_position == DEALER_POSITION
    for h in rec.hands:
        if h.player_id is None:
            continue
        sp = seats[h.seat]
        if sp is None:
            raise ValueError(f"settled hand at empty seat {h.seat}")
        net = ((rec.banker_net_cents if h.is_banker else h.net_cents) + h.bonus_net_cents
               + h.queens_dragon_win_cents)
        changes: dict[str, Any] = {"chips_cents": sp.chips_cents + net, "missed_rounds": 0}
        if house_banked and not h.is_banker and h.dragon_of is None:
            changes.update(last_house_round=rec.number, last_house_wager_cents=h.wager_cents)
        seats[h.seat] = replace(sp, **changes)
    ledger = replace(s.ledger, house_net_cents=s.ledger.house_net_cents + rec.house_net_cents,
                     queens_dragon_house_net_cents=(s.ledger.queens_dragon_house_net_cents
                                                    + rec.queens_dragon_house_net_cents),
                     bonus_house_net_cents=s.ledger.bonus_house_net_cents + rec.bonus_house_net_cents,
                     bonuses_settled=s.ledger.bonuses_settled + sum(1 for h in rec.hands if h.bonus_cents))
    s = chips_settled(s, rec)
    return replace(s, seats=tuple(seats), ledger=ledger, round=None, phase=Phase.IDLE, deadline=None,
                   last_house_round=rec.number if house_banked else s.last_house_round)


def _voided(s: TableState, e: ev.RoundVoided) -> TableState:
    return replace(s, round=None, phase=Phase.IDLE, deadline=None)


def _deadline_set(s: TableState, e: ev.DeadlineSet) -> TableState:
    return replace(s, deadline=Deadline(e.deadline_kind, e.at_ms, e.duration_ms))


def _deadline_cleared(s: TableState, e: ev.DeadlineCleared) -> TableState:
    return replace(s, deadline=None)


def _opened(s: TableState, e: ev.TableOpened) -> TableState:
    return replace(s, phase=Phase.IDLE, closing=False)


def _closing(s: TableState, e: ev.TableClosing) -> TableState:
    return replace(s, closing=True)


def _closed(s: TableState, e: ev.TableClosed) -> TableState:
    return home_closed(replace(s, phase=Phase.CLOSED, closing=False, deadline=None))


def _paused(s: TableState, e: ev.TablePaused) -> TableState:
    return replace(s, paused=True)


def _resumed(s: TableState, e: ev.TableResumed) -> TableState:
    return replace(s, paused=False)


def _rules(s: TableState, e: ev.RulesChanged) -> TableState:
    if e.scheduled:
        return replace(s, pending_rules=e.rules)
    return replace(s, rules=e.rules, pending_rules=None)


def _timers(s: TableState, e: ev.TimersChanged) -> TableState:
    if e.scheduled:
        return replace(s, pending_timers=e.timers)
    return replace(s, timers=e.timers, pending_timers=None)


_HANDLERS: dict[type, Callable[[TableState, Any], TableState]] = {
    ev.PlayerSat: _sat,
    ev.PlayerLeaving: _leaving,
    ev.PlayerLeft: _gone,
    ev.PlayerStoodUp: _gone,
    ev.PlayerKicked: _gone,
    ev.PlayerDropped: _dropped,
    ev.PlayerReconnected: _reconnected,
    ev.PlayerSatOut: _sat_out,
    ev.PlayerSatIn: _sat_in,
    ev.PlayerMissedRound: _missed,
    ev.OwnLimitSet: _own_limit,
    ev.RoundStarted: _round_started,
    ev.BankOffered: _bank_offered,
    ev.BankDeclined: _bank_declined,
    ev.BettingOpened: _betting_opened,
    ev.BetPlaced: _bet_placed,
    ev.BetRemoved: _bet_removed,
    ev.BonusPlaced: _bonus_placed,
    ev.BonusRemoved: _bonus_removed,
    ev.HandsDealt: _dealt,
    ev.HandSet: _hand_set,
    ev.RoundSettled: _settled,
    ev.RoundVoided: _voided,
    ev.DeadlineSet: _deadline_set,
    ev.DeadlineCleared: _deadline_cleared,
    ev.TableOpened: _opened,
    ev.TableClosing: _closing,
    ev.TableClosed: _closed,
    ev.TablePaused: _paused,
    ev.TableResumed: _resumed,
    ev.RulesChanged: _rules,
    ev.TimersChanged: _timers,
    **HOME_HANDLERS,
    **CHIP_HANDLERS,
    **VARIANT_HANDLERS,
}


def evolve(state: TableState, event: ev.Event) -> TableState:
    """The state after one event (the version is unchanged; see ``apply``)."""
    handler = _HANDLERS.get(type(event))
    if handler is None:
        raise TypeError(f"not a table event: {event!r}")
    return handler(state, event)


def evolve_all(state: TableState, events: Iterable[ev.Event]) -> TableState:
    """Apply the events of one accepted command: each in turn, then version + 1 (if there were any)."""
    applied = 0
    for e in events:
        state = evolve(state, e)
        applied += 1
    return replace(state, version=state.version + 1) if applied else state
