"""From a private table's or the waiting list's client message to the table command it asks for (the
server adds who asks and when, as ``paigow.protocol.convert`` does for the others)."""

from __future__ import annotations

from paigow.protocol import home_messages as m
from paigow.table import commands as c
from paigow.table import home_commands as h
from paigow.table.home import Seating, SpectatorsPolicy

__all__ = ["home_command"]

MINUTE_MS = 60_000


def _host_action(msg: m.HOME_CLIENT_COMMANDS, now_ms: int) -> h.HostAction | None:
    match msg:
        case m.HostApprove(player_id=target):
            return h.ApproveSeat(target)
        case m.HostDeny(player_id=target):
            return h.DenySeat(target)
        case m.HostRemove(player_id=target, bar_minutes=minutes):
            return h.RemovePlayer(target, now_ms + minutes * MINUTE_MS)
        case m.HostMute(player_id=target, muted=muted):
            return h.MuteChat(target, muted)
        case m.HostHandOver(player_id=target):
            return h.HandOver(target)
        case m.HostPause():
            return c.PauseTable()
        case m.HostResume():
            return c.ResumeTable()
        case m.HostClose():
            return c.CloseTable()
        case m.HostLimits(min_bet_cents=low, max_bet_cents=high):
            return c.ChangeLimits(low, high)
        case m.HostTimers():
            return h.AdjustTimers(msg.bank_offer_ms, msg.betting_ms, msg.setting_ms, msg.between_rounds_ms)
        case m.HostSettings(seating=seating, spectators=spectators):
            return h.ChangeHomeSettings(None if seating is None else Seating(seating),
                                        None if spectators is None else SpectatorsPolicy(spectators))
    return None


def home_command(msg: m.HOME_CLIENT_COMMANDS, *, player_id: str, name: str, now_ms: int) -> c.Command:
    """The table command for ``msg``."""
    match msg:
        case m.RequestSeat():
            return h.RequestSeat(player_id, name)
        case m.CancelRequest():
            return h.CancelRequest(player_id)
        case m.JoinWaitlist():
            return h.JoinWaitlist(player_id, name)
        case m.LeaveWaitlist():
            return h.LeaveWaitlist(player_id)
        case m.TakeSeat(buy_in_cents=buy_in):
            return h.TakeSeat(player_id, name, buy_in)
    action = _host_action(msg, now_ms)
    if action is None:
        raise TypeError(f"not a table command: {msg!r}")
    return h.HostAct(player_id, action, now_ms)
