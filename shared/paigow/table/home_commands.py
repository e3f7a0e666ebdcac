"""Commands of private tables and the waiting list (``paigow.table.commands.Command`` holds them too).

A host's command is ``HostAct``: the acting player (authenticated by the server) and one ``HostAction``,
which the table carries out only if that player is its host at that version (``home_rules.host_act``).
The host's actions reuse the operator's commands where they are the same thing (pause, resume, close,
limits, timers); a host never sends an operator command itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypeAlias

from paigow.table.home import Seating, SpectatorsPolicy
from paigow.table.home_chip_commands import AdjustChips, AnswerBuyIn, ChangeChips
from paigow.table.operator_commands import ChangeLimits, ChangeTimers, CloseTable, PauseTable, ResumeTable

__all__ = [
    "HOME_COMMANDS",
    "AdjustTimers",
    "ApproveSeat",
    "CancelRequest",
    "ChangeHomeSettings",
    "DenySeat",
    "HandOver",
    "HostAct",
    "HostAction",
    "JoinWaitlist",
    "LeaveWaitlist",
    "MuteChat",
    "RemovePlayer",
    "RequestSeat",
    "TakeSeat",
]


@dataclass(frozen=True, slots=True)
class RequestSeat:
    player_id: str
    name: str
    kind: Literal["request_seat"] = "request_seat"


@dataclass(frozen=True, slots=True)
class CancelRequest:
    player_id: str
    kind: Literal["cancel_request"] = "cancel_request"


@dataclass(frozen=True, slots=True)
class JoinWaitlist:
    player_id: str
    name: str
    kind: Literal["join_waitlist"] = "join_waitlist"


@dataclass(frozen=True, slots=True)
class LeaveWaitlist:
    player_id: str
    seated_elsewhere: bool = False
    """The server's, not the player's: the player sat at another table after joining this table's list,
    which takes them off it (``waitlist_left`` with ``seated_elsewhere``)."""
    kind: Literal["leave_waitlist"] = "leave_waitlist"


@dataclass(frozen=True, slots=True)
class TakeSeat:
    """Sit on the seat the waiting list offers the player."""

    player_id: str
    name: str
    buy_in_cents: int
    kind: Literal["take_seat"] = "take_seat"


@dataclass(frozen=True, slots=True)
class ApproveSeat:
    player_id: str
    kind: Literal["approve_seat"] = "approve_seat"


@dataclass(frozen=True, slots=True)
class DenySeat:
    player_id: str
    kind: Literal["deny_seat"] = "deny_seat"


@dataclass(frozen=True, slots=True)
class RemovePlayer:
    """Stand the player up (a kick), and end their approval, request and place on the waiting list."""

    player_id: str
    barred_until_ms: int
    kind: Literal["remove_player"] = "remove_player"


@dataclass(frozen=True, slots=True)
class MuteChat:
    """Mute (or unmute) the player in the table's chat."""

    player_id: str
    muted: bool
    kind: Literal["mute_chat"] = "mute_chat"


@dataclass(frozen=True, slots=True)
class HandOver:
    player_id: str
    kind: Literal["hand_over"] = "hand_over"


@dataclass(frozen=True, slots=True)
class ChangeHomeSettings:
    seating: Seating | None = None
    spectators: SpectatorsPolicy | None = None
    kind: Literal["change_home_settings"] = "change_home_settings"


@dataclass(frozen=True, slots=True)
class AdjustTimers:
    """Change some of the table's timers (None: keep it), checked as ``Timers``; from the next round while
    one is in play (the operator's ``ChangeTimers``)."""

    bank_offer_ms: int | None = None
    betting_ms: int | None = None
    setting_ms: int | None = None
    between_rounds_ms: int | None = None
    kind: Literal["adjust_timers"] = "adjust_timers"


HostAction: TypeAlias = (
    PauseTable | ResumeTable | CloseTable | ChangeLimits | ChangeTimers | AdjustTimers | ApproveSeat
    | DenySeat | RemovePlayer | MuteChat | HandOver | ChangeHomeSettings | AnswerBuyIn | AdjustChips
    | ChangeChips
)


@dataclass(frozen=True, slots=True)
class HostAct:
    """``player_id`` asks, as the table's host, for ``action``."""

    player_id: str
    action: HostAction
    now_ms: int | None = None
    kind: Literal["host_act"] = "host_act"


HOME_COMMANDS: TypeAlias = RequestSeat | CancelRequest | JoinWaitlist | LeaveWaitlist | TakeSeat | HostAct
