"""A private table's own state (a home game, docs/home-games.md) and every table's waiting list.

``Home`` is held by a private table's ``TableState.home`` (None at a public table): who hosts it, whether
each sit needs the host's approval, who may watch, the pending seat requests, the approved players, and
the times the table's own clocks run on (the host's grace after leaving, the idle close). ``Waiter`` is one
place of ``TableState.waiting``, which every table has. Like every part of the state these are plain frozen
values; the handlers are in ``home_rules`` and ``waitlist``.

Times follow the deadlines' rule (``paigow.table.state``): a flag set with its time None is pending, and
the next ``Tick`` stamps it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from paigow.table.home_chips import HomeChips

__all__ = [
    "MAX_MUTED",
    "MAX_REQUESTS",
    "MAX_WAITING",
    "Home",
    "SeatRequest",
    "Seating",
    "SpectatorsPolicy",
    "Waiter",
]

MAX_REQUESTS = 12
"""Pending seat requests a private table holds at once (more: ``REQUESTS_FULL``)."""
MAX_MUTED = 100
"""Players a private table's host may have muted in its chat at once."""
MAX_WAITING = 20
"""Places on a table's waiting list (more: ``WAITLIST_FULL``)."""


class Seating(StrEnum):
    OPEN = "open"
    """An admitted player sits as at any table."""
    APPROVAL = "approval"
    """Every player but the host needs the host's approval to sit or to join the waiting list."""


class SpectatorsPolicy(StrEnum):
    LINK = "link"
    """Watching needs the invite."""
    NONE = "none"
    """Nobody watches (the server refuses every spectator connection)."""


@dataclass(frozen=True, slots=True)
class SeatRequest:
    player_id: str
    name: str


@dataclass(frozen=True, slots=True)
class Home:
    host_player_id: str
    host_name: str
    seating: Seating = Seating.OPEN
    spectators: SpectatorsPolicy = SpectatorsPolicy.LINK
    max_bet_cap_cents: int = 100_000
    """The operator's bound on the table's ``max_bet_cents`` (the host's limits stay within it)."""
    host_grace_ms: int = 120_000
    idle_close_ms: int = 1_800_000
    requests: tuple[SeatRequest, ...] = ()
    approved: tuple[str, ...] = ()
    muted: tuple[str, ...] = ()
    """The players the host muted in the table's chat (sorted): the table's own list, so a mute is decided
    in the commit that checks the host (an operator's chat mutes are the chat's, apart)."""
    sat_order: tuple[str, ...] = ()
    """The seated players, longest seated first: who takes the role when the host's grace ends."""
    host_away: bool = False
    """The host left (stood up, or dropped while seated) and is not back."""
    host_away_until_ms: int | None = None
    """With ``host_away``: when the role passes on (None: pending)."""
    idle: bool = False
    """Nobody is seated."""
    idle_since_ms: int | None = None
    """With ``idle``: since when (None: pending)."""
    max_buy_in_cap_cents: int = 1_000_000
    """The operator's bound on a buy-in, a rebuy and a correction at this game (``home_max_buy_in_cents``)."""
    chips: HomeChips | None = None
    """The game's own chips (``home_chips``); None: a home game stored before chips existed, which plays
    with its players' casino balances."""

    def requested(self, player_id: str) -> bool:
        return any(r.player_id == player_id for r in self.requests)

    def may_sit(self, player_id: str) -> bool:
        """Whether the seating lets ``player_id`` sit (or join the waiting list)."""
        return (self.seating == Seating.OPEN or player_id == self.host_player_id
                or player_id in self.approved)


@dataclass(frozen=True, slots=True)
class Waiter:
    player_id: str
    name: str
    offered_seat: int | None = None
    """The seat held for this player now (None: not offered one yet)."""
    offer_until_ms: int | None = None
    """With ``offered_seat``: when the offer runs out (None: pending)."""
