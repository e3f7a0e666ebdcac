"""What every viewer of a table sees of its waiting list and, at a private table, of its host, seating
and seat requests (``TableView.home`` and ``TableView.waiting``): the same for every viewer, with no card
in it, and no money but a chips game's own (``HomeView.chips``)."""

from __future__ import annotations

from dataclasses import dataclass

from paigow.table.home import Seating, SeatRequest, SpectatorsPolicy, Waiter
from paigow.table.home_chip_view import HomeChipsView, home_chips_view
from paigow.table.state import TableState

__all__ = ["HomeView", "home_view"]


@dataclass(frozen=True, slots=True)
class HomeView:
    host_player_id: str
    host_name: str
    host_away_until_ms: int | None
    """When the role passes on if the host is not back (None: the host is here, or it is being stamped)."""
    seating: Seating
    spectators: SpectatorsPolicy
    max_bet_cap_cents: int
    requests: tuple[SeatRequest, ...]
    """The pending seat requests, oldest first."""
    approved: tuple[str, ...]
    muted: tuple[str, ...]
    """The players the host muted in the table's chat (sorted)."""
    idle_since_ms: int | None
    """Since when nobody is seated (None: someone is): the table closes by itself after its idle time."""
    chips: HomeChipsView | None = None
    """The game's own chips: setting, requests, ledger, players, totals, settle-up (``home_chip_view``);
    None at a game that plays with its players' balances."""


def home_view(state: TableState) -> HomeView | None:
    home = state.home
    if home is None:
        return None
    return HomeView(home.host_player_id, home.host_name, home.host_away_until_ms, home.seating,
                    home.spectators, home.max_bet_cap_cents, home.requests, home.approved,
                    home.muted, home.idle_since_ms if home.idle else None, home_chips_view(state))


WaitingView = Waiter
"""A place on the waiting list as the views show it: the state's own value (player, name, the seat
offered and until when)."""
