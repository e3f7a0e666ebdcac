"""The commands of the casino variants (issue 24), in the style of ``table.commands`` (whose ``Command``
union lists them): the Queen's Dragon bet alone, and taking, passing and setting the Dragon hand."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from paigow.table.cardtext import CardText

__all__ = ["PassDragon", "PlaceQueensDragon", "SetDragon", "TakeDragon"]


@dataclass(frozen=True, slots=True)
class PlaceQueensDragon:
    """Place, change or (0) take back the Queen's Dragon bet beside one's bet (EZ tables)."""

    player_id: str
    amount_cents: int
    now_ms: int | None = None
    kind: Literal["place_queens_dragon"] = "place_queens_dragon"


@dataclass(frozen=True, slots=True)
class TakeDragon:
    """Buy the Dragon hand offered to you, with a second wager of ``amount_cents``."""

    player_id: str
    amount_cents: int
    now_ms: int | None = None
    kind: Literal["take_dragon"] = "take_dragon"


@dataclass(frozen=True, slots=True)
class PassDragon:
    player_id: str
    now_ms: int | None = None
    kind: Literal["pass_dragon"] = "pass_dragon"


@dataclass(frozen=True, slots=True)
class SetDragon:
    """Set (or reset) the Dragon hand you bought (``dragon_set_by`` ``"buyer"``): two low cards, or
    ``low`` empty for the House Way."""

    player_id: str
    low: tuple[CardText, ...] = ()
    now_ms: int | None = None
    kind: Literal["set_dragon"] = "set_dragon"
