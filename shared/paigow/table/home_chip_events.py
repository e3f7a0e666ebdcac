"""The events of a home game's own chips (``paigow.table.home_chips``; ``events.Event`` holds them too)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypeAlias

from paigow.table.home_chips import HomeCommission

__all__ = [
    "CHIP_EVENTS",
    "BuyInApproved",
    "BuyInCancelled",
    "BuyInDenied",
    "BuyInRequested",
    "ChipLinesStamped",
    "ChipSettingsChanged",
    "ChipsAdded",
    "ChipsAdjusted",
]


@dataclass(frozen=True, slots=True)
class BuyInRequested:
    """A buy-in (``rebuy`` False: its seat ``position`` held for it) or a rebuy waits for the host."""

    request_id: str
    player_id: str
    name: str
    amount_cents: int
    rebuy: bool
    position: int | None
    kind: Literal["buy_in_requested"] = "buy_in_requested"


@dataclass(frozen=True, slots=True)
class BuyInApproved:
    """A buy-in or rebuy approved: by the host (``automatic`` False), by the game's "approve buy-ins
    automatically", or a host's own (``automatic`` True). A buy-in's ``PlayerSat`` follows; a rebuy's
    ``ChipsAdded`` follows at once, or when the round its player is in ends (``deferred``)."""

    request_id: str
    player_id: str
    name: str
    amount_cents: int
    rebuy: bool
    by_player_id: str
    by_name: str
    automatic: bool
    deferred: bool = False
    kind: Literal["buy_in_approved"] = "buy_in_approved"


@dataclass(frozen=True, slots=True)
class BuyInDenied:
    request_id: str
    player_id: str
    by_player_id: str
    by_name: str
    kind: Literal["buy_in_denied"] = "buy_in_denied"


@dataclass(frozen=True, slots=True)
class BuyInCancelled:
    """A waiting request ended without chips: ``reason`` ``cancelled`` (its player), ``removed`` (the player
    was removed or kicked), ``left`` (a rebuy whose player left), ``closed`` (the game closed)."""

    request_id: str
    player_id: str
    reason: str
    kind: Literal["buy_in_cancelled"] = "buy_in_cancelled"


@dataclass(frozen=True, slots=True)
class ChipsAdded:
    """A rebuy's chips reach the seated player's stack (``request_id`` names the rebuy)."""

    request_id: str
    player_id: str
    position: int
    amount_cents: int
    kind: Literal["chips_added"] = "chips_added"


@dataclass(frozen=True, slots=True)
class ChipsAdjusted:
    """The host's correction: ``amount_cents`` > 0 adds chips, < 0 takes some back, with the reason."""

    player_id: str
    position: int
    amount_cents: int
    reason: str
    by_player_id: str
    by_name: str
    kind: Literal["chips_adjusted"] = "chips_adjusted"


@dataclass(frozen=True, slots=True)
class ChipSettingsChanged:
    default_buy_in_cents: int
    min_buy_in_cents: int
    max_buy_in_cents: int
    rebuys: bool
    auto_approve: bool
    commission: HomeCommission
    kind: Literal["chip_settings_changed"] = "chip_settings_changed"


@dataclass(frozen=True, slots=True)
class ChipLinesStamped:
    """The ledger's pending lines (``at_ms`` None) get the time of the ``Tick`` that found them."""

    at_ms: int
    kind: Literal["chip_lines_stamped"] = "chip_lines_stamped"


CHIP_EVENTS: TypeAlias = (
    BuyInRequested | BuyInApproved | BuyInDenied | BuyInCancelled | ChipsAdded | ChipsAdjusted
    | ChipSettingsChanged | ChipLinesStamped
)
