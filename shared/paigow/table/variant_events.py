"""The events of the casino variants (issue 24; docs/rules.md §4a-§4c), in the style of ``table.events``
(which lists them in its ``Event`` union): the Queen's Dragon bet, co-banking, and the Dragon hand.

Secret fields: ``DragonDealt.cards`` and ``DragonSet.high``/``low`` are removed by ``views.event_for`` for
every viewer but the Dragon's buyer, and for the buyer too unless ``shown_to_buyer`` (the table's
``dragon_set_by`` is ``"buyer"``): under the House Way the buyer sees the Dragon only at the showdown.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from paigow.table.cardtext import CardText
from paigow.table.records import SetBy

__all__ = [
    "CoBankChosen",
    "DragonDealt",
    "DragonOffered",
    "DragonPassed",
    "DragonSet",
    "DragonTaken",
    "QueensDragonPlaced",
    "QueensDragonRemoved",
]


@dataclass(frozen=True, slots=True)
class QueensDragonPlaced:
    """A new or changed Queen's Dragon bet (banked by the house)."""

    player_id: str
    position: int
    amount_cents: int
    kind: Literal["queens_dragon_placed"] = "queens_dragon_placed"


@dataclass(frozen=True, slots=True)
class QueensDragonRemoved:
    """The Queen's Dragon bet was taken back (the main bet stays; ``bet_removed`` takes both)."""

    player_id: str
    position: int
    kind: Literal["queens_dragon_removed"] = "queens_dragon_removed"


@dataclass(frozen=True, slots=True)
class CoBankChosen:
    """The player taking the bank co-banks with the house: each covers half of every wager (the
    ``betting_opened`` that follows names the banker; the house dealer places no wager against them)."""

    position: int
    player_id: str
    kind: Literal["co_bank_chosen"] = "co_bank_chosen"


@dataclass(frozen=True, slots=True)
class DragonOffered:
    """The Dragon hand (the unplayed hand at ``dragon_position``) is offered to the player at ``seat``
    until the deadline that follows. The first offer of a round carries the dice (they name the first
    hand's position, from which the offers go in turn)."""

    dragon_position: int
    seat: int
    player_id: str
    dice: tuple[int, int, int]
    first_position: int
    kind: Literal["dragon_offered"] = "dragon_offered"


@dataclass(frozen=True, slots=True)
class DragonPassed:
    seat: int
    player_id: str
    timed_out: bool
    kind: Literal["dragon_passed"] = "dragon_passed"


@dataclass(frozen=True, slots=True)
class DragonTaken:
    """The player at ``seat`` buys the Dragon hand with a second wager of ``amount_cents``."""

    seat: int
    player_id: str
    amount_cents: int
    kind: Literal["dragon_taken"] = "dragon_taken"


@dataclass(frozen=True, slots=True)
class DragonDealt:
    """The bought Dragon's seven cards (after ``hands_dealt``); empty ``cards`` in every event a viewer
    receives but its buyer's under ``dragon_set_by`` ``"buyer"``."""

    dragon_position: int
    player_id: str
    cards: tuple[CardText, ...]
    shown_to_buyer: bool
    kind: Literal["dragon_dealt"] = "dragon_dealt"


@dataclass(frozen=True, slots=True)
class DragonSet:
    """The Dragon hand was set (by its buyer, or by the House Way); hidden like ``dragon_dealt``."""

    dragon_position: int
    player_id: str
    high: tuple[CardText, ...]
    low: tuple[CardText, ...]
    set_by: SetBy
    fouled: bool
    shown_to_buyer: bool
    house_way_clause: str | None = None
    kind: Literal["dragon_set"] = "dragon_set"
