"""Seat requests and the host's commands at a private table.

``host_act`` checks, in the table's own commit, that the acting player is the table's host at this
version, then carries out the action: the operator's pause, resume, close, limits and timers (the same
handlers, so the same events and refusals), and what only a private table has (answer a seat request,
remove a player, mute one in the chat, hand the role over, change the seating and spectators policy), and
at a game with its own chips the host's answers to buy-ins, corrections and chip setting
(``home_chip_actions``). Nothing here moves casino money: a removal is the operator's kick, whose chips go
back as in any leave (at a chips game: a cash-out line, and the player's buy-in or rebuy request ends).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from paigow.table import commands as c
from paigow.table.cardtext import format_cents
from paigow.table.emitter import Emitter, reject
from paigow.table.home import MAX_MUTED, MAX_REQUESTS, Home, Seating
from paigow.table.home_chip_actions import adjust_chips, answer_buy_in, change_chips
from paigow.table.home_chip_commands import AdjustChips, AnswerBuyIn, ChangeChips
from paigow.table.home_chip_rules import cancel_requests
from paigow.table.home_commands import (
    AdjustTimers,
    ApproveSeat,
    CancelRequest,
    ChangeHomeSettings,
    DenySeat,
    HandOver,
    HostAct,
    MuteChat,
    RemovePlayer,
    RequestSeat,
)
from paigow.table.home_events import (
    AdmissionEnded,
    HomeSettingsChanged,
    HostChanged,
    HostChangeReason,
    PlayerMuted,
    SeatRequestApproved,
    SeatRequestCancelled,
    SeatRequestDenied,
    SeatRequested,
    WaitlistLeft,
    WaitlistLeftReason,
)
from paigow.table.operator import change_limits, change_timers, close_table, pause_table, resume_table
from paigow.table.rejections import RejectCode
from paigow.table.seat_holds import checked_name
from paigow.table.seating import depart
from paigow.table.state import KickedBy, Phase, TimersError

__all__ = ["cancel_request", "host_act", "request_seat"]


def _home(em: Emitter, what: str) -> Home:
    home = em.state.home
    if home is None:
        reject(RejectCode.NOT_PRIVATE, f"table {em.state.table_id!r} is not a private table: {what} is for "
                                       "home games")
    return home


def request_seat(em: Emitter, cmd: RequestSeat) -> None:
    home = _home(em, "a seat request")
    name = checked_name(cmd.name)
    s = em.state
    if s.phase == Phase.CLOSED:
        reject(RejectCode.TABLE_CLOSED, f"table {s.table_id!r} is closed")
    held = s.seat_of(cmd.player_id)
    if held is not None:
        reject(RejectCode.ALREADY_SEATED, f"player {cmd.player_id!r} already has seat {held}")
    if home.may_sit(cmd.player_id):
        why = "the table's seating is open" if home.seating == Seating.OPEN else "you are approved"
        reject(RejectCode.ALREADY_DONE, f"{why}: sit down")
    if home.requested(cmd.player_id):
        reject(RejectCode.ALREADY_DONE, f"{name} is already waiting for the host's answer")
    if len(home.requests) >= MAX_REQUESTS:
        reject(RejectCode.REQUESTS_FULL, f"table {s.table_id!r} already has {MAX_REQUESTS} seat requests "
                                         "waiting for the host")
    em.emit(SeatRequested(cmd.player_id, name))


def cancel_request(em: Emitter, cmd: CancelRequest) -> None:
    home = _home(em, "a seat request")
    if not home.requested(cmd.player_id):
        reject(RejectCode.NO_REQUEST, f"player {cmd.player_id!r} has no seat request at this table")
    em.emit(SeatRequestCancelled(cmd.player_id))


def host_act(em: Emitter, cmd: HostAct) -> None:
    home = _home(em, "a host's command")
    if cmd.player_id != home.host_player_id:
        reject(RejectCode.NOT_HOST, f"player {cmd.player_id!r} is not the host of table "
                                    f"{em.state.table_id!r} (the host is {home.host_name})")
    handler = _ACTIONS.get(type(cmd.action))
    if handler is None:
        reject(RejectCode.INVALID_VALUE, f"{cmd.action!r} is not a host's action")
    handler(em, cmd.action, cmd.now_ms)


def _approve(em: Emitter, cmd: ApproveSeat, now_ms: int | None) -> None:
    if not _home(em, "").requested(cmd.player_id):
        reject(RejectCode.NO_REQUEST, f"player {cmd.player_id!r} has no seat request at this table")
    em.emit(SeatRequestApproved(cmd.player_id))


def _deny(em: Emitter, cmd: DenySeat, now_ms: int | None) -> None:
    if not _home(em, "").requested(cmd.player_id):
        reject(RejectCode.NO_REQUEST, f"player {cmd.player_id!r} has no seat request at this table")
    em.emit(SeatRequestDenied(cmd.player_id))


def _remove(em: Emitter, cmd: RemovePlayer, now_ms: int | None) -> None:
    s = em.state
    home = _home(em, "")
    if cmd.player_id == home.host_player_id:
        reject(RejectCode.INVALID_VALUE, "the host cannot remove themselves: hand the role over, or leave")
    pos = s.seat_of(cmd.player_id)
    waiting = any(w.player_id == cmd.player_id for w in s.waiting)
    buying = home.chips is not None and home.chips.request_of(cmd.player_id) is not None
    known = waiting or buying or home.requested(cmd.player_id) or cmd.player_id in home.approved
    if pos is None and not known:
        reject(RejectCode.NOT_SEATED, f"player {cmd.player_id!r} is not seated, waiting, requesting or "
                                      f"approved at table {s.table_id!r}")
    if pos is not None:
        sp = s.seats[pos]
        assert sp is not None
        depart(em, pos, sp, kicked=True, now_ms=now_ms, barred_until_ms=cmd.barred_until_ms, by=KickedBy.HOST)
    cancel_requests(em, cmd.player_id, "removed")
    if waiting:
        em.emit(WaitlistLeft(cmd.player_id, WaitlistLeftReason.REMOVED))
    em.emit(AdmissionEnded(cmd.player_id, cmd.barred_until_ms))


def _mute(em: Emitter, cmd: MuteChat, now_ms: int | None) -> None:
    home = _home(em, "")
    if cmd.player_id == home.host_player_id:
        reject(RejectCode.INVALID_VALUE, "the host cannot mute themselves")
    if (cmd.player_id in home.muted) == cmd.muted:
        reject(RejectCode.ALREADY_DONE, f"player {cmd.player_id!r} is {'' if cmd.muted else 'not '}muted "
                                        "at this table already")
    if cmd.muted and len(home.muted) >= MAX_MUTED:
        reject(RejectCode.INVALID_VALUE, f"at most {MAX_MUTED} players muted at one table: unmute one first")
    em.emit(PlayerMuted(cmd.player_id, cmd.muted))


def _hand_over(em: Emitter, cmd: HandOver, now_ms: int | None) -> None:
    home = _home(em, "")
    if cmd.player_id == home.host_player_id:
        reject(RejectCode.ALREADY_DONE, f"{home.host_name} is the host already")
    _, sp = em.seated(cmd.player_id)
    em.emit(HostChanged(sp.player_id, sp.name, HostChangeReason.HANDED_OVER))


def _settings(em: Emitter, cmd: ChangeHomeSettings, now_ms: int | None) -> None:
    home = _home(em, "")
    if cmd.seating is None and cmd.spectators is None:
        reject(RejectCode.INVALID_VALUE, "host_settings needs seating or spectators")
    seating = home.seating if cmd.seating is None else cmd.seating
    spectators = home.spectators if cmd.spectators is None else cmd.spectators
    if (seating, spectators) == (home.seating, home.spectators):
        reject(RejectCode.ALREADY_DONE, f"the seating is {seating} and the spectators policy {spectators} "
                                        "already")
    em.emit(HomeSettingsChanged(seating, spectators))


def _limits(em: Emitter, cmd: c.ChangeLimits, now_ms: int | None) -> None:
    cap = _home(em, "").max_bet_cap_cents
    if type(cmd.max_bet_cents) is int and cmd.max_bet_cents > cap:
        reject(RejectCode.INVALID_VALUE, f"max_bet_cents {cmd.max_bet_cents} is over this deployment's bound "
                                         f"for home games, {cap} ({format_cents(cap)})")
    change_limits(em, cmd)


def _timers(em: Emitter, cmd: AdjustTimers, now_ms: int | None) -> None:
    base = em.state.pending_timers or em.state.timers
    changes = {n: v for n in ("bank_offer_ms", "betting_ms", "setting_ms", "between_rounds_ms")
               if (v := getattr(cmd, n)) is not None}
    if not changes:
        reject(RejectCode.INVALID_VALUE, "host_timers needs at least one timer")
    try:
        timers = replace(base, **changes)
    except TimersError as exc:
        reject(RejectCode.INVALID_VALUE, str(exc))
    change_timers(em, c.ChangeTimers(timers))


def _operator(handler: Callable[[Emitter, Any], None]) -> Callable[[Emitter, Any, int | None], None]:
    return lambda em, action, now_ms: handler(em, action)


_ACTIONS: dict[type, Callable[[Emitter, Any, int | None], None]] = {
    c.PauseTable: _operator(pause_table),
    c.ResumeTable: _operator(resume_table),
    c.CloseTable: _operator(close_table),
    c.ChangeLimits: _limits,
    c.ChangeTimers: _operator(change_timers),
    AdjustTimers: _timers,
    ApproveSeat: _approve,
    DenySeat: _deny,
    RemovePlayer: _remove,
    MuteChat: _mute,
    HandOver: _hand_over,
    ChangeHomeSettings: _settings,
    AnswerBuyIn: answer_buy_in,
    AdjustChips: adjust_chips,
    ChangeChips: change_chips,
}
