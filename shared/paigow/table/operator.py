"""Operator commands: open and close, pause and resume (after the round), change limits, timers and rules
(at once between rounds, else when the round ends), kick, and void the round in progress.

Closing during a round waits for its end, except a round with nothing at stake yet (a bank offer, or
betting with no bet), which is voided so the table closes at once."""

from __future__ import annotations

from dataclasses import replace

from paigow.rules.house_rules import HouseRules, HouseRulesError
from paigow.table.commands import (
    ChangeLimits,
    ChangeRules,
    ChangeTimers,
    CloseTable,
    Kick,
    OpenTable,
    PauseTable,
    ResumeTable,
    VoidRound,
)
from paigow.table.dealing import has_stake
from paigow.table.emitter import Emitter, reject
from paigow.table.events import (
    RulesChanged,
    TableClosing,
    TableOpened,
    TablePaused,
    TableResumed,
    TimersChanged,
)
from paigow.table.rejections import RejectCode
from paigow.table.seating import depart
from paigow.table.settlement import close_now, void_round
from paigow.table.state import KickedBy, Phase, Timers

__all__ = ["change_limits", "change_rules", "change_timers", "close_table", "kick", "open_table",
           "pause_table", "resume_table", "void"]


def open_table(em: Emitter, cmd: OpenTable) -> None:
    if em.state.phase != Phase.CLOSED:
        reject(RejectCode.ALREADY_DONE, f"table {em.state.table_id!r} is already open")
    em.emit(TableOpened())


def close_table(em: Emitter, cmd: CloseTable) -> None:
    s = em.state
    if s.phase == Phase.CLOSED or s.closing:
        state = "closed" if s.phase == Phase.CLOSED else "closing"
        reject(RejectCode.ALREADY_DONE, f"table {s.table_id!r} is already {state}")
    if s.round is None:
        close_now(em)
        return
    em.emit(TableClosing())
    if s.phase in (Phase.BANK_OFFER, Phase.BETTING) and not has_stake(em):
        void_round(em, "the table closed", None)


def pause_table(em: Emitter, cmd: PauseTable) -> None:
    if em.state.phase == Phase.CLOSED:
        reject(RejectCode.TABLE_CLOSED, f"table {em.state.table_id!r} is closed")
    if em.state.paused:
        reject(RejectCode.ALREADY_DONE, f"table {em.state.table_id!r} is already paused")
    em.emit(TablePaused())
    if em.state.round is None:
        em.schedule_next_round(0, None)


def resume_table(em: Emitter, cmd: ResumeTable) -> None:
    if not em.state.paused:
        reject(RejectCode.ALREADY_DONE, f"table {em.state.table_id!r} is not paused")
    em.emit(TableResumed())
    if em.state.round is None:
        em.schedule_next_round(0, None)


def change_rules(em: Emitter, cmd: ChangeRules) -> None:
    if not isinstance(cmd.rules, HouseRules):
        reject(RejectCode.INVALID_VALUE, f"rules {cmd.rules!r} are not house rules")
    if cmd.rules.players_bank_in_turn and em.state.home is None:
        reject(RejectCode.NOT_PRIVATE, f"table {em.state.table_id!r} is not a home game: the players bank "
                                       "in turn (players_bank_in_turn) only at a home game")
    em.emit(RulesChanged(cmd.rules, scheduled=em.state.round is not None))


def change_limits(em: Emitter, cmd: ChangeLimits) -> None:
    base = em.state.pending_rules or em.state.rules
    try:
        rules = replace(base, min_bet_cents=cmd.min_bet_cents, max_bet_cents=cmd.max_bet_cents)
    except HouseRulesError as exc:
        reject(RejectCode.INVALID_VALUE, str(exc))
    em.emit(RulesChanged(rules, scheduled=em.state.round is not None))


def change_timers(em: Emitter, cmd: ChangeTimers) -> None:
    if not isinstance(cmd.timers, Timers):
        reject(RejectCode.INVALID_VALUE, f"timers {cmd.timers!r} are not table timers")
    em.emit(TimersChanged(cmd.timers, scheduled=em.state.round is not None))


def kick(em: Emitter, cmd: Kick) -> None:
    pos, sp = em.seated(cmd.player_id)
    depart(em, pos, sp, kicked=True, now_ms=None, barred_until_ms=cmd.barred_until_ms, by=KickedBy.OPERATOR)


def void(em: Emitter, cmd: VoidRound) -> None:
    em.round()
    void_round(em, "voided by the operator", None)
