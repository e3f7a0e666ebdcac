"""What every viewer of a home game with its own chips sees of them (``HomeView.chips``, the same for every
viewer): the chip setting, the requests waiting, the ledger's lines, each player's buy-ins, stack,
cash-outs and net (in the order they first sat), the game's totals and check, and once the table is
closed the settle-up: the fewest payments that square everyone (``settle_up``), the house dealer's line
and the commission pot among the parties when not zero.

    net = stack + cashed out - (buy-ins + added - taken back)
    balanced: issued == stacks + cashed out + house + commission
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from paigow.table.home_chips import ChipLine, ChipLineKind, HomeChips, HomeCommission
from paigow.table.settle_up import Party, Payment, settle_up
from paigow.table.state import Phase, TableState

__all__ = ["COMMISSION_PARTY", "HOUSE_PARTY", "ChipPlayerView", "ChipRequestView", "HomeChipsView",
           "home_chips_view"]

HOUSE_PARTY = ("house", "House")
"""The settle-up's party of the house dealer's line (its net: the house's win at the game)."""
COMMISSION_PARTY = ("commission", "Commission pot")
"""The settle-up's party of the commission the game took into its pot."""


@dataclass(frozen=True, slots=True)
class ChipRequestView:
    """A buy-in (its seat ``position`` held) or a rebuy waiting: for the host's answer, or, approved
    (``approved_cents``), for the round its player is in to end."""

    request_id: str
    player_id: str
    name: str
    amount_cents: int
    rebuy: bool
    position: int | None
    approved_cents: int | None


@dataclass(frozen=True, slots=True)
class ChipPlayerView:
    """One player's account at the game."""

    player_id: str
    name: str
    buy_ins_cents: int
    """Buy-ins and rebuys."""
    added_cents: int
    """Chips the host added (corrections)."""
    taken_cents: int
    """Chips the host took back (corrections)."""
    cashed_out_cents: int
    stack_cents: int | None
    """The chips at the table now (None: not seated)."""
    net_cents: int
    """``stack + cashed_out - (buy_ins + added - taken)``: > 0 won, < 0 lost."""


@dataclass(frozen=True, slots=True)
class HomeChipsView:
    default_buy_in_cents: int
    min_buy_in_cents: int
    max_buy_in_cents: int
    max_buy_in_cap_cents: int
    """The operator's bound on the buy-ins (the host's setting stays within it)."""
    rebuys: bool
    auto_approve: bool
    commission: HomeCommission
    players_bank_in_turn: bool
    requests: tuple[ChipRequestView, ...]
    """Oldest first."""
    lines: tuple[ChipLine, ...]
    """The game's ledger, line 1 first (``at_ms`` None for a moment: the next Tick stamps it)."""
    players: tuple[ChipPlayerView, ...]
    """Everyone who bought in, in the order they first sat."""
    issued_cents: int
    """Buy-ins + rebuys + chips added - chips taken back."""
    stacks_cents: int
    cashed_out_cents: int
    house_cents: int
    """The house dealer's line: its win at the game (< 0: it lost), the commission apart."""
    commission_cents: int
    balanced: bool
    """``issued == stacks + cashed_out + house + commission`` (always, unless something is wrong)."""
    settle_up: tuple[Payment, ...] | None
    """Once the table is closed: the fewest payments that square every party (None before)."""


_ISSUED = {ChipLineKind.BUY_IN: "buy_ins", ChipLineKind.REBUY: "buy_ins", ChipLineKind.ADD: "added",
           ChipLineKind.TAKE_BACK: "taken", ChipLineKind.CASH_OUT: "cashed_out"}


def _players(state: TableState, lines: tuple[ChipLine, ...]) -> tuple[ChipPlayerView, ...]:
    sums: dict[str, dict[str, int]] = {}
    names: dict[str, str] = {}
    for line in lines:
        row = sums.setdefault(line.player_id, dict.fromkeys(("buy_ins", "added", "taken", "cashed_out"), 0))
        row[_ISSUED[line.kind]] += line.amount_cents
        names[line.player_id] = line.name
    out = []
    for pid, row in sums.items():
        pos = state.seat_of(pid)
        sp = state.seats[pos] if pos is not None else None
        stack = sp.chips_cents if sp is not None else None
        net = (stack or 0) + row["cashed_out"] - (row["buy_ins"] + row["added"] - row["taken"])
        name = sp.name if sp is not None else names[pid]
        out.append(ChipPlayerView(pid, name, row["buy_ins"], row["added"], row["taken"], row["cashed_out"],
                                  stack, net))
    return tuple(out)


@lru_cache(maxsize=32)
def _settled(parties: tuple[Party, ...]) -> tuple[Payment, ...]:
    return tuple(settle_up(parties))


def _settle_up(players: tuple[ChipPlayerView, ...], house: int, commission: int) -> tuple[Payment, ...]:
    parties = [Party(p.player_id, p.name, p.net_cents) for p in players]
    for (pid, name), net in ((HOUSE_PARTY, house), (COMMISSION_PARTY, commission)):
        if net:
            parties.append(Party(pid, name, net))
    return _settled(tuple(parties))


def home_chips_view(state: TableState) -> HomeChipsView | None:
    home = state.home
    chips: HomeChips | None = home.chips if home is not None else None
    if home is None or chips is None:
        return None
    requests = tuple(ChipRequestView(r.request_id, r.player_id, r.name, r.amount_cents, r.rebuy, r.position,
                                     r.approved_cents) for r in chips.requests)
    players = _players(state, chips.lines)
    issued = sum(p.buy_ins_cents + p.added_cents - p.taken_cents for p in players)
    stacks = sum(sp.chips_cents for sp in state.seats if sp is not None)
    cashed_out = sum(p.cashed_out_cents for p in players)
    commission = chips.commission_cents
    house = state.ledger.house_net_cents - commission
    balanced = issued == stacks + cashed_out + house + commission
    settled = (_settle_up(players, house, commission) if state.phase == Phase.CLOSED and balanced
               else None)
    return HomeChipsView(chips.default_buy_in_cents, chips.min_buy_in_cents, chips.max_buy_in_cents,
                         home.max_buy_in_cap_cents, chips.rebuys, chips.auto_approve, chips.commission,
                         bool(getattr(state.rules, "players_bank_in_turn", False)), requests, chips.lines,
                         players, issued, stacks, cashed_out, house, commission, balanced, settled)
