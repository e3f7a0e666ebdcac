"""The table machine: ``decide`` (command -> events, or ``Rejection``), ``evolve`` (one event), ``apply``.

Version: ``evolve`` never changes ``TableState.version``; ``apply`` (via ``evolve_all``) adds one per
accepted command that produced events. A command accepted with no events (a Tick with nothing due)
leaves the state, version included, unchanged. A server that calls ``decide`` itself must apply the
events with ``evolve_all`` (or ``evolve`` each, then add one to the version).

``seed``: 32 fresh random bytes from ``secrets``, passed with every command; used only when the command
starts a round (it becomes that round's server seed, committed in ``RoundStarted``). Rounds start only
on a ``Tick`` (see ``next_deadline``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from paigow.table import commands as c
from paigow.table.bank import accept_bank, decline_bank
from paigow.table.betting import place_bet, remove_bet
from paigow.table.dragon_commands import pass_dragon, set_dragon, take_dragon
from paigow.table.emitter import Emitter
from paigow.table.events import Event
from paigow.table.evolve import evolve, evolve_all
from paigow.table.fastcopy import replace
from paigow.table.fortune_bets import place_bonus
from paigow.table.home_chip_actions import cancel_buy_in, rebuy
from paigow.table.home_chip_commands import CancelBuyIn, Rebuy
from paigow.table.home_clock import keep_up
from paigow.table.home_commands import (
    CancelRequest,
    HostAct,
    JoinWaitlist,
    LeaveWaitlist,
    RequestSeat,
    TakeSeat,
)
from paigow.table.home_rules import cancel_request, host_act, request_seat
from paigow.table.operator import (
    change_limits,
    change_rules,
    change_timers,
    close_table,
    kick,
    open_table,
    pause_table,
    resume_table,
    void,
)
from paigow.table.queens_dragon_bets import place_queens_dragon
from paigow.table.seating import drop, leave, reconnect, set_own_limit, sit, sit_in, sit_out, stand_up
from paigow.table.setting import set_hand, use_house_way
from paigow.table.state import TableState
from paigow.table.ticks import next_deadline, tick
from paigow.table.waitlist import join_waitlist, leave_waitlist, take_seat

__all__ = ["apply", "decide", "evolve", "evolve_all", "next_deadline"]

_HANDLERS: dict[type, Callable[[Emitter, Any], None]] = {
    c.Sit: sit,
    c.Leave: leave,
    c.StandUp: stand_up,
    c.Drop: drop,
    c.Reconnect: reconnect,
    c.AcceptBank: accept_bank,
    c.DeclineBank: decline_bank,
    c.PlaceBet: place_bet,
    c.PlaceBonus: place_bonus,
    c.RemoveBet: remove_bet,
    c.SetHand: set_hand,
    c.UseHouseWay: use_house_way,
    c.SitOut: sit_out,
    c.SitIn: sit_in,
    c.SetOwnLimit: set_own_limit,
    c.OpenTable: open_table,
    c.CloseTable: close_table,
    c.PauseTable: pause_table,
    c.ResumeTable: resume_table,
    c.ChangeLimits: change_limits,
    c.ChangeTimers: change_timers,
    c.ChangeRules: change_rules,
    c.Kick: kick,
    c.VoidRound: void,
    c.Tick: tick,
    RequestSeat: request_seat,
    CancelRequest: cancel_request,
    JoinWaitlist: join_waitlist,
    LeaveWaitlist: leave_waitlist,
    TakeSeat: take_seat,
    HostAct: host_act,
    Rebuy: rebuy,
    CancelBuyIn: cancel_buy_in,
    c.PlaceQueensDragon: place_queens_dragon,
    c.TakeDragon: take_dragon,
    c.PassDragon: pass_dragon,
    c.SetDragon: set_dragon,
}


def _run(state: TableState, command: c.Command, seed: bytes) -> Emitter:
    handler = _HANDLERS.get(type(command))
    if handler is None:
        raise TypeError(f"not a table command: {command!r}")
    em = Emitter(state, seed)
    handler(em, command)
    keep_up(em, state, getattr(command, "now_ms", None))
    return em


def decide(state: TableState, command: c.Command, *, seed: bytes) -> tuple[Event, ...]:
    """The events ``command`` causes, or ``Rejection`` (code + message) if the table refuses it."""
    return tuple(_run(state, command, seed).events)


def apply(state: TableState, command: c.Command, *, seed: bytes) -> tuple[TableState, tuple[Event, ...]]:
    """``decide`` then ``evolve_all``: the new state (version + 1 if anything happened) and the events."""
    em = _run(state, command, seed)
    if not em.events:
        return state, ()
    return replace(em.state, version=state.version + 1), tuple(em.events)
