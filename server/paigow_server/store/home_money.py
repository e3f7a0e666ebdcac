"""The money check of each home game with its own chips (``Home.chips``), read off its table's state.

Such a game's chips are the game's, never a casino balance's (``paigow.ledger.home_entries``): they are
not in the casino's check (``money``: not in ``chips_at_tables_cents``), and each game has its own:

    issued (buy-ins + rebuys + chips added - chips taken back, its ledger's lines)
        == stacks at the table + cash-outs + the house's line + the commission's line

where the house's line is the table's house result less the commission (``TableState.ledger``), and the
commission is ``HomeChips.commission_cents``. The money ledger's three accounts of the game are checked
against the same state (``expected_accounts``): ``home:{t}`` holds -(bought in - returned) of the table's
ledger, ``home_house:{t}`` the house's line, ``home_commission:{t}`` the commission.

The state is the stored JSON, decoded (``json.loads``, as the snapshot reads every table's seats).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from paigow.ledger.accounts import seat_account
from paigow.table.home_chips import home_account, home_commission_account, home_house_account

__all__ = ["HomeGameMoney", "home_game_money"]

_ISSUED = {"buy_in": 1, "rebuy": 1, "add": 1, "take_back": -1}


@dataclass(frozen=True, slots=True)
class HomeGameMoney:
    table_id: str
    name: str
    issued_cents: int
    stacks_cents: int
    cashed_out_cents: int
    house_cents: int
    commission_cents: int
    out_cents: int
    """What the table's ledger says the game has out: bought in - returned (``home:{t}`` is minus it)."""
    seats: dict[str, int]
    """Seat account -> chips, of the game's seats."""

    @property
    def balanced(self) -> bool:
        return self.issued_cents == (self.stacks_cents + self.cashed_out_cents + self.house_cents
                                     + self.commission_cents)

    def expected_accounts(self) -> dict[str, int]:
        """The balances the money ledger must hold for the game's three accounts."""
        return {home_account(self.table_id): -self.out_cents,
                home_house_account(self.table_id): self.house_cents,
                home_commission_account(self.table_id): self.commission_cents}

    def to_json(self) -> dict[str, Any]:
        return {"table_id": self.table_id, "name": self.name, "issued_cents": self.issued_cents,
                "stacks_cents": self.stacks_cents, "cashed_out_cents": self.cashed_out_cents,
                "house_cents": self.house_cents, "commission_cents": self.commission_cents,
                "balanced": self.balanced}


def home_game_money(table_id: str, state: dict[str, Any]) -> HomeGameMoney | None:
    """The figures of the game whose decoded state is ``state``; None for a table without its own chips
    (a public table, or a home game stored before chips existed)."""
    home = state.get("home")
    chips = None if home is None else home.get("chips")
    if chips is None:
        return None
    issued = cashed_out = 0
    for line in chips["lines"]:
        if line["kind"] == "cash_out":
            cashed_out += int(line["amount_cents"])
        else:
            issued += _ISSUED[line["kind"]] * int(line["amount_cents"])
    seats = {seat_account(table_id, seat["player_id"]): int(seat["chips_cents"])
             for seat in state["seats"] if seat is not None}
    ledger = state["ledger"]
    commission = int(chips["commission_cents"])
    return HomeGameMoney(table_id, str(state["name"]), issued, sum(seats.values()), cashed_out,
                         int(ledger["house_net_cents"]) - commission, commission,
                         int(ledger["bought_in_cents"]) - int(ledger["returned_cents"]), seats)
