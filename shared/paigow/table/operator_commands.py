"""The operator's commands: open and close, pause and resume, change limits, timers and rules, kick, and
void the round in progress (what they do: ``paigow.table.operator``). A home game's host reuses some of
them (``home_commands``); ``commands.Command`` holds them all."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from paigow.rules.house_rules import HouseRules
from paigow.table.state import Timers

__all__ = [
    "OPERATOR_COMMANDS",
    "ChangeLimits",
    "ChangeRules",
    "ChangeTimers",
    "CloseTable",
    "Kick",
    "OpenTable",
    "PauseTable",
    "ResumeTable",
    "VoidRound",
]


@dataclass(frozen=True, slots=True)
class OpenTable:
    """Reopen a closed table."""

    kind: Literal["open_table"] = "open_table"


@dataclass(frozen=True, slots=True)
class CloseTable:
    """Close now when no round is in progress, else when it ends; every player is stood up, chips returned."""

    kind: Literal["close_table"] = "close_table"


@dataclass(frozen=True, slots=True)
class PauseTable:
    """No new round starts (the round in progress finishes)."""

    kind: Literal["pause_table"] = "pause_table"


@dataclass(frozen=True, slots=True)
class ResumeTable:
    kind: Literal["resume_table"] = "resume_table"


@dataclass(frozen=True, slots=True)
class ChangeLimits:
    """New table limits; during a round they apply when it ends."""

    min_bet_cents: int
    max_bet_cents: int
    kind: Literal["change_limits"] = "change_limits"


@dataclass(frozen=True, slots=True)
class ChangeTimers:
    timers: Timers
    kind: Literal["change_timers"] = "change_timers"


@dataclass(frozen=True, slots=True)
class ChangeRules:
    rules: HouseRules
    kind: Literal["change_rules"] = "change_rules"


@dataclass(frozen=True, slots=True)
class Kick:
    """Remove a player, chips returned. A player in the round in progress (the banker, or any player
    once the cards are dealt) plays it out: an unset hand is set by the House Way at once, and the kick
    takes effect when the round ends. Otherwise it is immediate (a bet not yet dealt is withdrawn)."""

    player_id: str
    barred_until_ms: int | None = None
    """When the bar the operator set with the kick ends (the server keeps the bar; the events tell the
    player), None for a kick without a bar."""
    kind: Literal["kick"] = "kick"


@dataclass(frozen=True, slots=True)
class VoidRound:
    """Cancel the round in progress; every stake is returned and the seed revealed."""

    kind: Literal["void_round"] = "void_round"


OPERATOR_COMMANDS: tuple[type, ...] = (
    OpenTable, CloseTable, PauseTable, ResumeTable, ChangeLimits, ChangeTimers, ChangeRules, Kick, VoidRound,
)
"""Commands only the table operator may send."""
