"""Events: what happened at a table. One frozen dataclass each, past-tense names, ``kind`` literal last.

``decide`` returns a tuple of events; ``evolve`` applies one. Fields that are secret before the reveal
(``RoundStarted.server_seed``, other players' cards in ``HandsDealt`` and ``HandSet``) are removed by
``paigow.table.views.event_for`` before an event reaches a viewer.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Literal

from paigow.rules.house_rules import HouseRules
from paigow.table.cardtext import CardText
from paigow.table.home_chip_events import CHIP_EVENTS
from paigow.table.home_events import HOME_EVENTS
from paigow.table.records import RoundRecord, SetBy
from paigow.table.state import BankReason, Bet, DeadlineKind, IneligibleReason, KickedBy, Timers
from paigow.table.variant_events import (
    CoBankChosen,
    DragonDealt,
    DragonOffered,
    DragonPassed,
    DragonSet,
    DragonTaken,
    QueensDragonPlaced,
    QueensDragonRemoved,
)

__all__ = [
    "BankDeclined",
    "BankOffered",
    "BetPlaced",
    "BetRemoved",
    "BettingOpened",
    "BonusPlaced",
    "BonusRemoved",
    "CoBankChosen",
    "DeadlineCleared",
    "DeadlineSet",
    "DealtHand",
    "DragonDealt",
    "DragonOffered",
    "DragonPassed",
    "DragonSet",
    "DragonTaken",
    "Event",
    "HandSet",
    "HandsDealt",
    "OwnLimitSet",
    "PlayerDropped",
    "PlayerKicked",
    "PlayerLeaving",
    "PlayerLeft",
    "PlayerMissedRound",
    "PlayerReconnected",
    "PlayerSat",
    "PlayerSatIn",
    "PlayerSatOut",
    "PlayerStoodUp",
    "QueensDragonPlaced",
    "QueensDragonRemoved",
    "RoundSettled",
    "RoundStarted",
    "RoundVoided",
    "RulesChanged",
    "StandUpReason",
    "TableClosed",
    "TableClosing",
    "TableOpened",
    "TablePaused",
    "TableResumed",
    "TimersChanged",
]


class StandUpReason(StrEnum):
    MISSED_ROUNDS = "missed_rounds"
    TABLE_CLOSED = "table_closed"
    BREAK = "break"
    """The player started a break (server ``StandUp``): no play anywhere until it ends."""
    SELF_EXCLUSION = "self_exclusion"
    """The player excluded themself (server ``StandUp``): no play anywhere until it ends."""
    TIME_LIMIT = "time_limit"
    """The player's session time limit was reached (server ``StandUp``): chips back at the round's end."""


# --- seats ------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class PlayerSat:
    player_id: str
    name: str
    seat: int
    buy_in_cents: int
    kind: Literal["player_sat"] = "player_sat"


@dataclass(frozen=True, slots=True)
class PlayerLeaving:
    """The player is in the round in progress and leaves (or, if ``kicked``, is removed) when it ends."""

    player_id: str
    seat: int
    kicked: bool
    barred_until_ms: int | None = None
    """With ``kicked``: when the operator's bar from this table ends (None: no bar)."""
    by: KickedBy | None = None
    """With ``kicked``: who removed the player (None: not kicked, or an event stored before it was told)."""
    reason: StandUpReason | None = None
    """Not kicked: the server stands the player up for this reason when the round ends (``StandUp``);
    None: the player left."""
    kind: Literal["player_leaving"] = "player_leaving"


@dataclass(frozen=True, slots=True)
class PlayerLeft:
    player_id: str
    seat: int
    chips_returned_cents: int
    kind: Literal["player_left"] = "player_left"


@dataclass(frozen=True, slots=True)
class PlayerStoodUp:
    """The table stood the player up (too many missed rounds, the table closed, or the server for a break or
    self-exclusion); chips returned."""

    player_id: str
    seat: int
    chips_returned_cents: int
    reason: StandUpReason
    kind: Literal["player_stood_up"] = "player_stood_up"


@dataclass(frozen=True, slots=True)
class PlayerKicked:
    player_id: str
    seat: int
    chips_returned_cents: int
    barred_until_ms: int | None = None
    """When the operator's bar from this table ends (None: no bar): the player may watch until then."""
    by: KickedBy | None = None
    """Who removed the player (None: an event stored before it was told)."""
    kind: Literal["player_kicked"] = "player_kicked"


@dataclass(frozen=True, slots=True)
class PlayerDropped:
    player_id: str
    seat: int
    away_until_ms: int
    kind: Literal["player_dropped"] = "player_dropped"


@dataclass(frozen=True, slots=True)
class PlayerReconnected:
    player_id: str
    seat: int
    kind: Literal["player_reconnected"] = "player_reconnected"


@dataclass(frozen=True, slots=True)
class PlayerSatOut:
    player_id: str
    seat: int
    automatic: bool
    """True when the table sat the player out for missed rounds."""
    kind: Literal["player_sat_out"] = "player_sat_out"


@dataclass(frozen=True, slots=True)
class PlayerSatIn:
    player_id: str
    seat: int
    kind: Literal["player_sat_in"] = "player_sat_in"


@dataclass(frozen=True, slots=True)
class PlayerMissedRound:
    player_id: str
    seat: int
    missed_rounds: int
    kind: Literal["player_missed_round"] = "player_missed_round"


@dataclass(frozen=True, slots=True)
class OwnLimitSet:
    player_id: str
    seat: int
    max_bet_cents: int | None
    raised: bool
    """True for a raise (or removal): the next raise waits a week from ``at_ms``."""
    at_ms: int
    kind: Literal["own_limit_set"] = "own_limit_set"


# --- the round --------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class RoundStarted:
    """A new round: the marker moved and the commitment is published. ``server_seed`` (hex) is None in
    every event a viewer receives."""

    round_id: str
    number: int
    marker: int
    commitment: str
    server_seed: str | None
    kind: Literal["round_started"] = "round_started"


@dataclass(frozen=True, slots=True)
class BankOffered:
    position: int
    player_id: str
    kind: Literal["bank_offered"] = "bank_offered"


@dataclass(frozen=True, slots=True)
class BankDeclined:
    position: int
    player_id: str
    timed_out: bool
    kind: Literal["bank_declined"] = "bank_declined"


@dataclass(frozen=True, slots=True)
class BettingOpened:
    """Who banks the round, and (when a player banks) the house dealer's wager against them."""

    banker_position: int
    banker_player_id: str | None
    reason: BankReason
    dealer_wager_cents: int
    ineligible: IneligibleReason | None = None
    """With ``reason`` INELIGIBLE: why the player at the marker was not offered the bank."""
    kind: Literal["betting_opened"] = "betting_opened"


@dataclass(frozen=True, slots=True)
class BetPlaced:
    """A new or changed bet."""

    player_id: str
    position: int
    amount_cents: int
    kind: Literal["bet_placed"] = "bet_placed"


@dataclass(frozen=True, slots=True)
class BetRemoved:
    """The bet was taken back (or returned to a player leaving during betting), the Fortune bonus with it."""

    player_id: str
    position: int
    kind: Literal["bet_removed"] = "bet_removed"


@dataclass(frozen=True, slots=True)
class BonusPlaced:
    """A new or changed Fortune bonus bet (banked by the house)."""

    player_id: str
    position: int
    amount_cents: int
    kind: Literal["bonus_placed"] = "bonus_placed"


@dataclass(frozen=True, slots=True)
class BonusRemoved:
    """The Fortune bonus bet was taken back (the main bet stays)."""

    player_id: str
    position: int
    kind: Literal["bonus_removed"] = "bonus_removed"


@dataclass(frozen=True, slots=True)
class DealtHand:
    position: int
    player_id: str | None
    """None for the house dealer."""
    cards: tuple[CardText, ...]
    """Empty in an event a viewer receives unless it is the viewer's own hand."""


@dataclass(frozen=True, slots=True)
class HandsDealt:
    """The dice and the deal. Only the live hands are listed (dead hands and discards never are)."""

    dice: tuple[int, int, int]
    first_position: int
    hands: tuple[DealtHand, ...]
    kind: Literal["hands_dealt"] = "hands_dealt"


@dataclass(frozen=True, slots=True)
class HandSet:
    """A hand was set (or reset). ``high``/``low`` are empty in an event a viewer receives unless it is
    the viewer's own hand."""

    position: int
    player_id: str | None
    high: tuple[CardText, ...]
    low: tuple[CardText, ...]
    set_by: SetBy
    fouled: bool
    house_way_clause: str | None = None
    """When the House Way set the hand: its clause in words (``"two pair, low + high: split"``); None in
    an event a viewer receives unless it is the viewer's own hand."""
    kind: Literal["hand_set"] = "hand_set"


@dataclass(frozen=True, slots=True)
class RoundSettled:
    """The showdown and settlement; the seed is revealed in the record."""

    record: RoundRecord
    kind: Literal["round_settled"] = "round_settled"


@dataclass(frozen=True, slots=True)
class RoundVoided:
    """The round was cancelled: every stake (``returned_bets``, plus the dealer's wager, and the Fortune
    bonus bets ``returned_bonuses``) is returned, no chips move, and the seed is revealed."""

    round_id: str
    server_seed: str
    returned_bets: tuple[Bet, ...]
    reason: str
    returned_bonuses: tuple[Bet, ...] = ()
    returned_queens_dragon: tuple[Bet, ...] = ()
    """The Queen's Dragon bets returned (and a bought Dragon's wager, in ``returned_dragon``)."""
    returned_dragon: tuple[Bet, ...] = ()
    kind: Literal["round_voided"] = "round_voided"


@dataclass(frozen=True, slots=True)
class DeadlineSet:
    """A timer started; ``at_ms`` None means pending (the next Tick stamps it)."""

    deadline_kind: DeadlineKind
    at_ms: int | None
    duration_ms: int
    kind: Literal["deadline_set"] = "deadline_set"


@dataclass(frozen=True, slots=True)
class DeadlineCleared:
    kind: Literal["deadline_cleared"] = "deadline_cleared"


# --- the operator -----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class TableOpened:
    kind: Literal["table_opened"] = "table_opened"


@dataclass(frozen=True, slots=True)
class TableClosing:
    """The table closes when the round in progress ends."""

    kind: Literal["table_closing"] = "table_closing"


@dataclass(frozen=True, slots=True)
class TableClosed:
    kind: Literal["table_closed"] = "table_closed"


@dataclass(frozen=True, slots=True)
class TablePaused:
    kind: Literal["table_paused"] = "table_paused"


@dataclass(frozen=True, slots=True)
class TableResumed:
    kind: Literal["table_resumed"] = "table_resumed"


@dataclass(frozen=True, slots=True)
class RulesChanged:
    """New house rules (limits included); ``scheduled`` = they apply when the round in progress ends."""

    rules: HouseRules
    scheduled: bool
    kind: Literal["rules_changed"] = "rules_changed"


@dataclass(frozen=True, slots=True)
class TimersChanged:
    timers: Timers
    scheduled: bool
    kind: Literal["timers_changed"] = "timers_changed"


Event = (
    PlayerSat | PlayerLeaving | PlayerLeft | PlayerStoodUp | PlayerKicked | PlayerDropped | PlayerReconnected
    | PlayerSatOut | PlayerSatIn | PlayerMissedRound | OwnLimitSet | RoundStarted | BankOffered | BankDeclined
    | BettingOpened | BetPlaced | BetRemoved | BonusPlaced | BonusRemoved | HandsDealt | HandSet
    | RoundSettled | RoundVoided | DeadlineSet
    | DeadlineCleared | TableOpened | TableClosing | TableClosed | TablePaused | TableResumed | RulesChanged
    | TimersChanged | HOME_EVENTS | CHIP_EVENTS
    | QueensDragonPlaced | QueensDragonRemoved | CoBankChosen | DragonOffered | DragonPassed | DragonTaken
    | DragonDealt | DragonSet
)
