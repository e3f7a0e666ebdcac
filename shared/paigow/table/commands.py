"""Commands: everything that can be asked of a table. One frozen dataclass each, imperative names: the
players' here, the operator's in ``operator_commands``, private tables' in ``home_commands``, the variants'
in ``variant_commands``; ``Command`` is every one of them.

Every command has a ``kind`` literal (its snake_case name) as its last field, so a JSON form tells the
commands apart (pydantic can use it as the discriminator of ``Command``). ``player_id`` is the acting
player, authenticated by the server. Commands that happen at a time the machine needs carry ``now_ms``
(milliseconds since the epoch, supplied by the server). Cards are text (``"As"``, ``"JK"``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from paigow.table.cardtext import CardText
from paigow.table.events import StandUpReason
from paigow.table.home_chip_commands import CHIP_COMMANDS
from paigow.table.home_commands import HOME_COMMANDS
from paigow.table.operator_commands import (
    OPERATOR_COMMANDS,
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
from paigow.table.variant_commands import PassDragon, PlaceQueensDragon, SetDragon, TakeDragon

__all__ = [
    "OPERATOR_COMMANDS",
    "AcceptBank",
    "ChangeLimits",
    "ChangeRules",
    "ChangeTimers",
    "CloseTable",
    "Command",
    "DeclineBank",
    "Drop",
    "Kick",
    "Leave",
    "OpenTable",
    "PassDragon",
    "PauseTable",
    "PlaceBet",
    "PlaceBonus",
    "PlaceQueensDragon",
    "Reconnect",
    "RemoveBet",
    "ResumeTable",
    "SetDragon",
    "SetHand",
    "SetOwnLimit",
    "Sit",
    "SitIn",
    "SitOut",
    "StandUp",
    "TakeDragon",
    "Tick",
    "UseHouseWay",
    "VoidRound",
]


# --- players ----------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Sit:
    """Take player seat ``seat`` (1..6) with ``buy_in_cents`` from the player's balance."""

    player_id: str
    name: str
    seat: int
    buy_in_cents: int
    kind: Literal["sit"] = "sit"


@dataclass(frozen=True, slots=True)
class Leave:
    """Stand up with the chips; a player in the round in progress leaves when it ends."""

    player_id: str
    now_ms: int | None = None
    """The server clock when the command arrived: a timer it starts runs from then (None: pending, stamped
    by the next Tick)."""
    kind: Literal["leave"] = "leave"


@dataclass(frozen=True, slots=True)
class StandUp:
    """The server stands a player up (a break or self-exclusion): like ``Leave`` - a player in the round in
    progress plays the hand out and is stood up when it ends, anyone else at once (an undealt bet
    withdrawn) - ending in ``PlayerStoodUp(reason)``. Never made from a client message."""

    player_id: str
    reason: StandUpReason
    now_ms: int | None = None
    kind: Literal["stand_up"] = "stand_up"


@dataclass(frozen=True, slots=True)
class Drop:
    """The player's connection was lost: away, with a grace time for setting a hand."""

    player_id: str
    now_ms: int
    kind: Literal["drop"] = "drop"


@dataclass(frozen=True, slots=True)
class Reconnect:
    player_id: str
    now_ms: int
    kind: Literal["reconnect"] = "reconnect"


@dataclass(frozen=True, slots=True)
class AcceptBank:
    player_id: str
    now_ms: int | None = None
    """The server clock when the command arrived: a timer it starts runs from then (None: pending, stamped
    by the next Tick)."""
    bonus_cents: int = 0
    """The banker's Fortune bonus bet, placed as betting opens (0: none)."""
    co_bank: bool = False
    """Co-bank with the house, half each (a table with ``co_banking``; docs/rules.md §4c)."""
    kind: Literal["accept_bank"] = "accept_bank"


@dataclass(frozen=True, slots=True)
class DeclineBank:
    player_id: str
    now_ms: int | None = None
    """The server clock when the command arrived: a timer it starts runs from then (None: pending, stamped
    by the next Tick)."""
    kind: Literal["decline_bank"] = "decline_bank"


@dataclass(frozen=True, slots=True)
class PlaceBet:
    """Place, or change, the player's bet for the round in its betting phase."""

    player_id: str
    amount_cents: int
    now_ms: int | None = None
    """The server clock when the command arrived: a timer it starts runs from then (None: pending, stamped
    by the next Tick)."""
    bonus_cents: int | None = None
    """The Fortune bonus bet placed with it (0: none); None keeps the bonus the player has."""
    queens_dragon_cents: int | None = None
    """The Queen's Dragon bet placed with it (EZ tables; 0: none); None keeps the one the player has."""
    kind: Literal["place_bet"] = "place_bet"


@dataclass(frozen=True, slots=True)
class PlaceBonus:
    """Place, change or (0) take back the Fortune bonus bet alone: beside one's bet, or as the banker."""

    player_id: str
    bonus_cents: int
    now_ms: int | None = None
    """The server clock when the command arrived (it starts no timer; kept like every player command)."""
    kind: Literal["place_bonus"] = "place_bonus"


@dataclass(frozen=True, slots=True)
class RemoveBet:
    player_id: str
    kind: Literal["remove_bet"] = "remove_bet"


@dataclass(frozen=True, slots=True)
class SetHand:
    """Set (or reset) the hand: the two cards for the low hand; the other five are the high hand."""

    player_id: str
    low: tuple[CardText, ...]
    now_ms: int | None = None
    """The server clock when the command arrived: a timer it starts runs from then (None: pending, stamped
    by the next Tick)."""
    kind: Literal["set_hand"] = "set_hand"


@dataclass(frozen=True, slots=True)
class UseHouseWay:
    player_id: str
    now_ms: int | None = None
    """The server clock when the command arrived: a timer it starts runs from then (None: pending, stamped
    by the next Tick)."""
    kind: Literal["use_house_way"] = "use_house_way"


@dataclass(frozen=True, slots=True)
class SitOut:
    player_id: str
    now_ms: int | None = None
    """The server clock when the command arrived: a timer it starts runs from then (None: pending, stamped
    by the next Tick)."""
    kind: Literal["sit_out"] = "sit_out"


@dataclass(frozen=True, slots=True)
class SitIn:
    player_id: str
    kind: Literal["sit_in"] = "sit_in"


@dataclass(frozen=True, slots=True)
class SetOwnLimit:
    """Set my own maximum bet (None = the table maximum). Lowering is always allowed (a bet already
    placed stands); raising (or removing) is allowed once a week (7 days after the last raise)."""

    player_id: str
    max_bet_cents: int | None
    now_ms: int
    kind: Literal["set_own_limit"] = "set_own_limit"


# --- time -------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Tick:
    """The server's clock: process every deadline due at ``now_ms`` (see ``next_deadline``)."""

    now_ms: int
    kind: Literal["tick"] = "tick"


Command = (
    Sit | Leave | StandUp | Drop | Reconnect | AcceptBank | DeclineBank | PlaceBet | PlaceBonus | RemoveBet
    | SetHand | UseHouseWay | SitOut | SitIn | SetOwnLimit | OpenTable | CloseTable | PauseTable | ResumeTable
    | ChangeLimits | ChangeTimers | ChangeRules | Kick | VoidRound | Tick | HOME_COMMANDS | CHIP_COMMANDS
    | PlaceQueensDragon | TakeDragon | PassDragon | SetDragon
)
