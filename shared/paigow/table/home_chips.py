"""A home game's own chips (docs/home-games.md, "The game's own chips"): the chip setting, the buy-in and
rebuy requests waiting for the host, and the game's ledger.

A private table created with a chip setting (``Home.chips``, every home game created since chips existed)
plays with chips issued to that game: a buy-in, a rebuy or a host's correction issues them (never from a
casino balance), a cash-out ends them (never to a casino balance). ``ChipLine`` records each, in order;
with the table's money totals (``TableState.ledger``) they give every player's buy-ins, stack, cash-out
and net, and the game's check:

    issued (buy-ins + rebuys + chips added - chips taken back)
        == stacks at the table + cash-outs + the house's line + the commission's line

Times follow the deadlines' rule (``paigow.table.state``): a line whose ``at_ms`` is None is pending, and
the next ``Tick`` stamps it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

__all__ = [
    "MAX_CHIP_LINES",
    "MAX_CHIP_REQUESTS",
    "ChipLine",
    "ChipLineKind",
    "ChipRequest",
    "HomeChips",
    "HomeCommission",
    "home_account",
    "home_commission_account",
    "home_house_account",
]

MAX_CHIP_REQUESTS = 12
"""Buy-in and rebuy requests a game holds waiting at once (more: ``REQUESTS_FULL``)."""
MAX_CHIP_LINES = 2_000
"""Lines a game's ledger holds; a buy-in, rebuy or correction past it is refused (``LEDGER_FULL``): a
game that long is closed and a new one opened (its cash-outs are always recorded, past the cap too)."""


def home_account(table_id: str) -> str:
    """The game's chip bank in the money ledger: buy-ins come from it, cash-outs go back to it (its
    balance is minus the chips the game has out)."""
    return f"home:{table_id}"


def home_house_account(table_id: str) -> str:
    """The house dealer's result at a home game (instead of the casino's ``house``)."""
    return f"home_house:{table_id}"


def home_commission_account(table_id: str) -> str:
    """The commission a home game took into its pot (instead of the casino's ``house``)."""
    return f"home_commission:{table_id}"


class HomeCommission(StrEnum):
    NONE = "none"
    """No commission on a win (the default at home games)."""
    FIVE_PERCENT = "five_percent"
    """5% of a win, exact to the cent rounded up, into the game's commission pot."""


class ChipLineKind(StrEnum):
    BUY_IN = "buy_in"
    """Chips issued to a player sitting down (approved by the host, or automatically)."""
    REBUY = "rebuy"
    """Chips issued to a seated player who asked for more."""
    ADD = "add"
    """The host added chips to a seated player (a correction, with its reason)."""
    TAKE_BACK = "take_back"
    """The host took chips back from a seated player (a correction, with its reason)."""
    CASH_OUT = "cash_out"
    """The player's stack when they left the table (left, stood up, removed, the game closed)."""


@dataclass(frozen=True, slots=True)
class ChipLine:
    """One line of the game's ledger."""

    line: int
    """1, 2, 3...: the line's number in the game."""
    kind: ChipLineKind
    player_id: str
    name: str
    amount_cents: int
    """Always > 0; ``kind`` says which way the chips went."""
    by_player_id: str | None = None
    """Who approved (a buy-in, a rebuy) or made it (a correction): the host then; None for a cash-out."""
    by_name: str | None = None
    automatic: bool = False
    """A buy-in or rebuy approved by the game's "approve buy-ins automatically", or the host's own."""
    reason: str | None = None
    """A correction's reason as the host typed it; a cash-out's cause, the leaving event's kind
    (``player_left``, ``player_stood_up``, ``player_kicked``)."""
    round_number: int = 0
    """The rounds the table had started when the line was written."""
    at_ms: int | None = None
    """When (None: pending, stamped by the next ``Tick``)."""


@dataclass(frozen=True, slots=True)
class ChipRequest:
    """A buy-in (``rebuy`` False: to sit at ``position``, held for the request) or a rebuy waiting."""

    request_id: str
    """``b1``, ``b2``...: numbered per game, never reused."""
    player_id: str
    name: str
    amount_cents: int
    rebuy: bool = False
    position: int | None = None
    """A buy-in's seat, held for it while it waits (None for a rebuy)."""
    approved_cents: int | None = None
    """A rebuy approved while its player was in the round in play: the chips land when that round ends
    (None: not approved yet)."""
    approved_by_player_id: str | None = None
    approved_by_name: str | None = None
    approved_automatic: bool = False


@dataclass(frozen=True, slots=True)
class HomeChips:
    """The chip setting of a home game and its live ledger."""

    default_buy_in_cents: int = 10_000
    min_buy_in_cents: int = 2_000
    max_buy_in_cents: int = 50_000
    rebuys: bool = True
    auto_approve: bool = False
    commission: HomeCommission = HomeCommission.NONE
    requests: tuple[ChipRequest, ...] = ()
    """Waiting for the host, oldest first."""
    lines: tuple[ChipLine, ...] = ()
    next_request: int = 1
    commission_cents: int = 0
    """The commission taken into the game's pot so far (part of ``TableState.ledger.house_net_cents``)."""

    def request_of(self, player_id: str) -> ChipRequest | None:
        return next((r for r in self.requests if r.player_id == player_id), None)

    def request(self, request_id: str) -> ChipRequest | None:
        return next((r for r in self.requests if r.request_id == request_id), None)

    def held_seat(self, position: int) -> ChipRequest | None:
        """The buy-in request holding seat ``position``, if one does."""
        return next((r for r in self.requests if r.position == position), None)
