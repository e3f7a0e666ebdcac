"""The table's state: seven positions, the marker, the round in progress, deadlines and the money totals.

Positions: index 0 is the house dealer's seat, 1..6 the player seats, in counterclockwise order.
``TableState.seats`` has seven entries; entry 0 is always None (the house sits there).

Every field is JSON-friendly (ints, strings, bools, None, string enums, tuples, nested frozen
dataclasses); cards are kept as their text (``"As"``, ``"JK"``), see ``paigow.table.cardtext``. The
round's ``server_seed`` lives in the state (the server persists it) but never in a view or a redacted
event before the round is settled or voided.

Deadlines: a command that has no ``now_ms`` (a bet, a hand set, accepting the bank...) may start a timer.
It then records a ``Deadline`` whose ``at_ms`` is None ("pending"): ``next_deadline`` returns 0 for it,
so the server sends ``Tick(now_ms)`` at once and the machine stamps ``at_ms = now_ms + duration_ms``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum

from paigow.rules.house_rules import DEFAULT_RULES, HouseRules
from paigow.table.cardtext import CardText
from paigow.table.dragon_state import DragonHand
from paigow.table.home import Home, Waiter
from paigow.table.home_chip_commission import commission_rules
from paigow.table.records import SetBy

__all__ = [
    "DEALER_POSITION",
    "PLAYER_SEATS",
    "POSITIONS",
    "TIMER_MAX_MS",
    "BankReason",
    "Bet",
    "Deadline",
    "DeadlineKind",
    "IneligibleReason",
    "KickedBy",
    "Ledger",
    "LiveHand",
    "Phase",
    "Round",
    "SeatPlayer",
    "SeatStatus",
    "TableState",
    "Timers",
    "TimersError",
    "new_table",
]

POSITIONS = 7
DEALER_POSITION = 0
PLAYER_SEATS = (1, 2, 3, 4, 5, 6)
WEEK_MS = 7 * 24 * 60 * 60 * 1000


class TimersError(ValueError):
    """A timer or limit value is out of range; the message names the field and the value."""


TIMER_MAX_MS = 3_600_000
"""The longest a table's timer may be (an hour); every timer is from 0 to it."""


@dataclass(frozen=True, slots=True)
class Timers:
    """The table's deadlines (milliseconds) and absence limits (rounds)."""

    bank_offer_ms: int = 15_000
    betting_ms: int = 20_000
    setting_ms: int = 45_000
    between_rounds_ms: int = 10_000
    """The pause after a settlement (or a void) before the next round starts: time to read the result."""
    reconnect_grace_ms: int = 30_000
    """How long a dropped player in the setting phase has before the House Way sets their hand."""
    sit_out_after_missed: int = 3
    """An active player who misses this many rounds in a row is sat out."""
    stand_up_after_missed: int = 10
    """A player who misses this many rounds in a row is stood up, chips returned."""

    def __post_init__(self) -> None:
        for name in ("bank_offer_ms", "betting_ms", "setting_ms", "between_rounds_ms", "reconnect_grace_ms"):
            value = getattr(self, name)
            if type(value) is not int or not 0 <= value <= TIMER_MAX_MS:
                raise TimersError(f"{name} must be a whole number of ms in 0..{TIMER_MAX_MS}, not {value!r}")
        for name in ("sit_out_after_missed", "stand_up_after_missed"):
            value = getattr(self, name)
            if type(value) is not int or not 1 <= value <= 1000:
                raise TimersError(f"{name} must be a whole number of rounds in 1..1000, not {value!r}")
        if self.stand_up_after_missed < self.sit_out_after_missed:
            raise TimersError(f"stand_up_after_missed ({self.stand_up_after_missed}) must not be below "
                              f"sit_out_after_missed ({self.sit_out_after_missed})")


DEFAULT_TIMERS = Timers()


class Phase(StrEnum):
    """Where the table is. A round goes IDLE -> (BANK_OFFER ->) BETTING -> SETTING -> IDLE; the showdown
    and settlement happen at once when the last hand is set. A void returns to IDLE from any round phase."""

    IDLE = "idle"
    BANK_OFFER = "bank_offer"
    BETTING = "betting"
    SETTING = "setting"
    CLOSED = "closed"
    DRAGON_OFFER = "dragon_offer"
    """Betting is over and the Dragon hand is offered to the seated players in turn (``table.dragon``):
    BETTING -> DRAGON_OFFER -> SETTING."""


class SeatStatus(StrEnum):
    ACTIVE = "active"
    SITTING_OUT = "sitting_out"
    AWAY = "away"
    """Shown in views for a player who dropped (disconnected; ``SeatPlayer.away_until_ms`` is set): being
    away is presence, not participation, so the state keeps the seat's own status (active, sitting out,
    leaving) beside ``away_until_ms``, and a player who comes back has that status again. A state written
    before that change may still hold it (read as active and away)."""
    LEAVING = "leaving"
    """Leaves (or is kicked) when the round in progress ends."""


class KickedBy(StrEnum):
    """Who removed a kicked player: the operator, or a private table's host (``host_remove``)."""

    HOST = "host"
    OPERATOR = "operator"


class BankReason(StrEnum):
    """Why the banker of a round banks."""

    PLAYER_BANKS = "player_banks"
    DEALER_SEAT = "dealer_seat"
    EMPTY_SEAT = "empty_seat"
    INELIGIBLE = "ineligible"
    DECLINED = "declined"
    TIMED_OUT = "timed_out"
    BANKING_OFF = "banking_off"
    """The table's rules let no player bank (``HouseRules.player_banking`` False)."""


class IneligibleReason(StrEnum):
    """Why the player at the marker was not offered the bank (``BankReason.INELIGIBLE``)."""

    NOT_PLAYING = "not_playing"
    """Sitting out, away or leaving."""
    NO_HOUSE_ROUND = "no_house_round"
    """Did not play the last house-banked round (during this sitting), or none was settled yet."""
    CHIPS_SHORT = "chips_short"
    """The chips do not cover the table minimum for every other seated player and the dealer."""


class DeadlineKind(StrEnum):
    BANK_OFFER = "bank_offer"
    BETTING = "betting"
    SETTING = "setting"
    NEXT_ROUND = "next_round"
    DRAGON_OFFER = "dragon_offer"


@dataclass(frozen=True, slots=True)
class Deadline:
    kind: DeadlineKind
    at_ms: int | None
    """None: pending, stamped by the next ``Tick`` as ``now_ms + duration_ms``."""
    duration_ms: int


@dataclass(frozen=True, slots=True)
class SeatPlayer:
    player_id: str
    name: str
    chips_cents: int
    status: SeatStatus = SeatStatus.ACTIVE
    away_until_ms: int | None = None
    """When a dropped player's grace time ends."""
    missed_rounds: int = 0
    """Rounds dealt in a row without this player in them."""
    own_max_bet_cents: int | None = None
    """The player's own maximum bet (None = the table maximum)."""
    own_limit_raised_ms: int | None = None
    """When the player last raised (or removed) their own limit: raising again waits a week."""
    last_house_round: int = 0
    """Number of the last house-banked round this player played in (0 = none)."""
    last_house_wager_cents: int = 0
    kicked: bool = False
    """With status LEAVING: the operator kicked the player (effective at the end of the round)."""
    barred_until_ms: int | None = None
    """With ``kicked``: when the bar the operator set with the kick ends (told in ``PlayerKicked``)."""
    kicked_by: KickedBy | None = None
    """With ``kicked``: who kicked (told in ``PlayerKicked``; None in a state stored before it was kept)."""
    leave_reason: str | None = None
    """With status LEAVING, not kicked: the ``StandUpReason`` the server stands the player up for when the
    round ends (None: the player left)."""

    @property
    def away(self) -> bool:
        """Dropped and not back yet (whatever the seat's status)."""
        return self.away_until_ms is not None or self.status == SeatStatus.AWAY

    @property
    def playing(self) -> bool:
        """Active and here: counted for a round, waited for to bet, offered the bank."""
        return self.status == SeatStatus.ACTIVE and self.away_until_ms is None

    @property
    def shown_status(self) -> SeatStatus:
        """The status a view shows: AWAY while the player is away (unless leaving), else the status."""
        if self.away and self.status != SeatStatus.LEAVING:
            return SeatStatus.AWAY
        return self.status


@dataclass(frozen=True, slots=True)
class Bet:
    position: int
    player_id: str
    amount_cents: int


@dataclass(frozen=True, slots=True)
class LiveHand:
    """A hand in the round: a player's (the banker's included) or the house dealer's (player_id None)."""

    position: int
    player_id: str | None
    cards: tuple[CardText, ...]
    high: tuple[CardText, ...] = ()
    low: tuple[CardText, ...] = ()
    set_by: SetBy | None = None
    """None while not set."""
    fouled: bool = False


@dataclass(frozen=True, slots=True)
class Round:
    round_id: str
    number: int
    commitment: str
    server_seed: str
    """Hex. Secret until the round is settled or voided."""
    offer_player_id: str | None = None
    """During BANK_OFFER: the player at the marker who is offered the bank."""
    banker_position: int | None = None
    """Set when betting opens: 0 = the house banks."""
    banker_player_id: str | None = None
    bank_reason: BankReason | None = None
    bank_ineligible: IneligibleReason | None = None
    """With ``bank_reason`` INELIGIBLE: why the player at the marker was not offered the bank."""
    dealer_wager_cents: int = 0
    """When a player banks: the house dealer's wager against them (0 = the dealer does not play)."""
    bets: tuple[Bet, ...] = ()
    bonuses: tuple[Bet, ...] = ()
    """The Fortune bonus bets (banked by the house), by position: a player's beside their bet, and the
    player-banker's."""
    dice: tuple[int, int, int] | None = None
    first_position: int | None = None
    hands: tuple[LiveHand, ...] = ()
    """After the deal: the live hands, by position (dead hands and discards are not kept)."""
    queens_dragon_bets: tuple[Bet, ...] = ()
    """The Queen's Dragon side bets (EZ tables, house-banked rounds; banked by the house), by position."""
    co_banked: bool = False
    """The player-banker co-banks with the house: each covers half of every wager (``table.cobank``)."""
    dragon: DragonHand | None = None
    """The Dragon hand once offered (``table.dragon``): who was offered it, its buyer, wager and cards."""
    bank_passed: tuple[str, ...] = ()
    """The players who declined the bank this round (or let it run out, or left while offered): when the
    players bank in turn (``HouseRules.players_bank_in_turn``) the offer passes over them."""


@dataclass(frozen=True, slots=True)
class Ledger:
    """Money in and out of the table. Always: sum of seat chips + house_net_cents ==
    bought_in_cents - returned_cents."""

    bought_in_cents: int = 0
    returned_cents: int = 0
    house_net_cents: int = 0
    bonus_house_net_cents: int = 0
    """The part of ``house_net_cents`` from the Fortune bonus bets the house banked."""
    bonuses_settled: int = 0
    """Fortune bonus bets settled at this table."""
    queens_dragon_house_net_cents: int = 0
    """The part of ``house_net_cents`` from the Queen's Dragon bets."""


@dataclass(frozen=True, slots=True)
class TableState:
    table_id: str
    name: str
    rules: HouseRules = DEFAULT_RULES
    timers: Timers = DEFAULT_TIMERS
    seats: tuple[SeatPlayer | None, ...] = (None,) * POSITIONS
    marker: int = 0
    """The banker marker's position (0 = the dealer's seat)."""
    phase: Phase = Phase.IDLE
    round: Round | None = None
    version: int = 0
    paused: bool = False
    """No new round starts while paused (a round in progress finishes)."""
    closing: bool = False
    """The table closes when the round in progress ends."""
    deadline: Deadline | None = None
    rounds_started: int = 0
    last_house_round: int = 0
    """Number of the last settled house-banked round (0 = none yet)."""
    pending_rules: HouseRules | None = None
    """Rules to apply when the round in progress ends."""
    pending_timers: Timers | None = None
    ledger: Ledger = field(default_factory=Ledger)
    home: Home | None = None
    """A private table's host, seating, requests and clocks (None: a public table)."""
    waiting: tuple[Waiter, ...] = ()
    """The waiting list, first in line first."""
    seat_offer_ms: int = 30_000
    """How long a waiting-list offer holds a free seat."""

    def seat_of(self, player_id: str) -> int | None:
        """The position (1..6) of a seated player, or None."""
        for i, sp in enumerate(self.seats):
            if sp is not None and sp.player_id == player_id:
                return i
        return None

    def player_at(self, position: int) -> SeatPlayer | None:
        return self.seats[position]


def new_table(table_id: str, name: str, rules: HouseRules = DEFAULT_RULES,
              timers: Timers = DEFAULT_TIMERS, *, home: Home | None = None,
              seat_offer_ms: int = 30_000) -> TableState:
    """An open, empty table. The first round starts once a player sits (the house banks it). With
    ``home``, a private table (idle from the start: it closes by itself if nobody sits); with its own chips,
    its rules take the chip setting's commission (``home_chip_commission``)."""
    if home is not None:
        home = replace(home, idle=True, idle_since_ms=None)
        if home.chips is not None:
            rules = commission_rules(rules, home.chips.commission)
    return TableState(table_id=table_id, name=name, rules=rules, timers=timers, home=home,
                      seat_offer_ms=seat_offer_ms)
