"""Client messages of private tables and the waiting list (docs/protocol.md, "Private tables and the
waiting list"). Like every client message they forbid extra fields and are strict; each is a table command
with an ``id`` that the answer names."""

from __future__ import annotations

from typing import Annotated, Literal, TypeAlias

from pydantic import BaseModel, ConfigDict, Field, model_validator

from paigow.rules.house_rules import MAX_CENTS

__all__ = [
    "HOME_CLIENT_COMMANDS",
    "HOME_MESSAGE_TYPES",
    "MAX_BAR_MINUTES",
    "CancelRequest",
    "HostApprove",
    "HostClose",
    "HostDeny",
    "HostHandOver",
    "HostLimits",
    "HostMute",
    "HostPause",
    "HostRemove",
    "HostResume",
    "HostSettings",
    "HostTimers",
    "JoinWaitlist",
    "LeaveWaitlist",
    "RequestSeat",
    "TakeSeat",
]

MAX_BAR_MINUTES = 10_080
"""A week: the longest bar a host's removal (or an operator's kick) sets."""

ClientId = Annotated[str, Field(min_length=1, max_length=64,
                               description="Chosen by the client; the answer names it")]
Cents = Annotated[int, Field(ge=1, le=MAX_CENTS)]
"""An amount in integer cents; each field that takes one says which amount it is."""
PlayerId = Annotated[str, Field(min_length=1, max_length=64, description="A player id (p_…)")]
TimerMs = Annotated[int, Field(ge=0, le=3_600_000)]
"""A timer in milliseconds (0 to an hour); each field says which timer."""


class _Command(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    id: ClientId


class RequestSeat(_Command):
    """Ask the host of an ``approval`` table for a seat."""

    type: Literal["request_seat"] = "request_seat"


class CancelRequest(_Command):
    type: Literal["cancel_request"] = "cancel_request"


class JoinWaitlist(_Command):
    """Join the waiting list of a table whose seats are all taken."""

    type: Literal["join_waitlist"] = "join_waitlist"


class LeaveWaitlist(_Command):
    type: Literal["leave_waitlist"] = "leave_waitlist"


class TakeSeat(_Command):
    """Sit on the seat the waiting list offers you, with a buy-in from the account balance."""

    type: Literal["take_seat"] = "take_seat"
    buy_in_cents: Cents = Field(description="The chips to take to the seat, in integer cents, from the "
                                            "account balance (at a home game with its own chips: the buy-in "
                                            "asked for, within the game's bounds, which the host approves)")


class HostApprove(_Command):
    type: Literal["host_approve"] = "host_approve"
    player_id: PlayerId


class HostDeny(_Command):
    type: Literal["host_deny"] = "host_deny"
    player_id: PlayerId


class HostRemove(_Command):
    """Remove a player from the table (chips back to their balance), barred for ``bar_minutes``."""

    type: Literal["host_remove"] = "host_remove"
    player_id: PlayerId
    bar_minutes: int = Field(ge=1, le=MAX_BAR_MINUTES, description="How long the player is barred (1–10080)")


class HostMute(_Command):
    type: Literal["host_mute"] = "host_mute"
    player_id: PlayerId
    muted: bool


class HostHandOver(_Command):
    type: Literal["host_hand_over"] = "host_hand_over"
    player_id: PlayerId


class HostPause(_Command):
    type: Literal["host_pause"] = "host_pause"


class HostResume(_Command):
    type: Literal["host_resume"] = "host_resume"


class HostClose(_Command):
    """Close the table: the round in play finishes, then every player's chips go back to their balance."""

    type: Literal["host_close"] = "host_close"


class HostLimits(_Command):
    type: Literal["host_limits"] = "host_limits"
    min_bet_cents: Cents = Field(description="The table's new minimum bet in integer cents")
    max_bet_cents: Cents = Field(description="The table's new maximum bet in integer cents (at most the "
                                             "deployment's bound for home games)")


class HostTimers(_Command):
    """New timers (any of the four, at least one); from the next round while one is in play."""

    type: Literal["host_timers"] = "host_timers"
    bank_offer_ms: TimerMs | None = Field(default=None, description="How long a bank offer waits for its "
                                                                    "answer, in ms (absent: unchanged)")
    betting_ms: TimerMs | None = Field(default=None, description="How long betting stays open, in ms "
                                                                 "(absent: unchanged)")
    setting_ms: TimerMs | None = Field(default=None, description="How long the players have to set their "
                                                                 "hands, in ms (absent: unchanged)")
    between_rounds_ms: TimerMs | None = Field(default=None, description="The pause after a settlement "
                                                                        "(or a void) before the next "
                                                                        "round, in ms "
                                                                        "(absent: unchanged)")

    @model_validator(mode="after")
    def _some(self) -> HostTimers:
        if not self.changes():
            raise ValueError("host_timers needs at least one of bank_offer_ms, betting_ms, setting_ms, "
                             "between_rounds_ms")
        return self

    def changes(self) -> dict[str, int]:
        names = ("bank_offer_ms", "betting_ms", "setting_ms", "between_rounds_ms")
        return {n: v for n in names if (v := getattr(self, n)) is not None}


class HostSettings(_Command):
    """The table's seating mode and spectators policy (at least one)."""

    type: Literal["host_settings"] = "host_settings"
    seating: Literal["open", "approval"] | None = None
    spectators: Literal["link", "none"] | None = None

    @model_validator(mode="after")
    def _some(self) -> HostSettings:
        if self.seating is None and self.spectators is None:
            raise ValueError("host_settings needs seating ('open' or 'approval') or spectators "
                             "('link' or 'none')")
        return self


HOME_CLIENT_COMMANDS: TypeAlias = (
    RequestSeat | CancelRequest | JoinWaitlist | LeaveWaitlist | TakeSeat | HostApprove | HostDeny
    | HostRemove | HostMute | HostHandOver | HostPause | HostResume | HostClose | HostLimits | HostTimers
    | HostSettings
)

HOME_MESSAGE_TYPES: tuple[str, ...] = (
    "request_seat", "cancel_request", "join_waitlist", "leave_waitlist", "take_seat", "host_approve",
    "host_deny", "host_remove", "host_mute", "host_hand_over", "host_pause", "host_resume", "host_close",
    "host_limits", "host_timers", "host_settings",
)
