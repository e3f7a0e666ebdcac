"""The ledger's rules: every cent that moves, as double entries between named accounts.

Each ``LedgerEntry`` moves ``amount_cents`` (> 0) from one account to another. The accounts:

- ``bank``: outside the game; starting balances, top-ups and operator credits come from it, debits and
  collected guests' balances go to it;
- ``player:{id}``: a player's account balance (``paigow:player:{id}`` ``balance``);
- ``seat:{table}:{player}``: the chips a player has at a table (the table state's seat);
- ``hold:{id}``: a buy-in's money between the balance and the seat (the server's holds: on a Redis Cluster);
- ``round:{table}:{round}``: a round's pot, through which stakes lost reach the winners (zero after
  each settlement);
- ``house``: the house's result (``paigow:money:house``);
- at a home game with its own chips (``paigow.ledger.home_entries``), instead of balances and ``house``:
  ``home:{table}`` (the game's chip bank), ``home_house:{table}`` (its house dealer's result) and
  ``home_commission:{table}`` (its commission pot).

The server appends the entries to an append-only stream (``paigow_server.store.ledger``) in the
same transaction as the money they move. So the balances derived from the ledger sum to zero, each
player's derived balance is their balance in Redis, each seat's is its chips, and the house's is the
house result.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any

__all__ = [
    "BANK",
    "HOUSE",
    "EntryKind",
    "LedgerEntry",
    "derived_balances",
    "hold_account",
    "player_account",
    "round_account",
    "seat_account",
]

BANK = "bank"
HOUSE = "house"


def player_account(player_id: str) -> str:
    return f"player:{player_id}"


def seat_account(table_id: str, player_id: str) -> str:
    return f"seat:{table_id}:{player_id}"


def hold_account(hold_id: str) -> str:
    return f"hold:{hold_id}"


def round_account(table_id: str, round_id: str) -> str:
    return f"round:{table_id}:{round_id}"


class EntryKind(StrEnum):
    OPENING = "opening"
    """A new player's starting balance: bank -> player."""
    CREDIT = "credit"
    """Operator credit: bank -> player."""
    DEBIT = "debit"
    """Operator debit: player -> bank."""
    HOLD = "hold"
    """A buy-in's money set aside before the seat is granted (``holds``): player -> hold."""
    RELEASE = "release"
    """A hold whose seat was not granted, back to the balance: hold -> player."""
    BUY_IN = "buy_in"
    """Taking chips to a seat: player -> seat where one script commits (a single Redis), from the hold
    made for it on a Redis Cluster: hold -> seat."""
    CASH_OUT = "cash_out"
    """Chips back to the account (left, stood up, kicked, table closed): seat -> player."""
    STAKE_LOST = "stake_lost"
    """A losing hand's stake (or the banker's loss): seat or house -> round."""
    STAKE_WON = "stake_won"
    """A winning hand's gross win (or the banker's): round -> seat or house."""
    COMMISSION = "commission"
    """Commission on a win: seat -> house."""
    BONUS_LOST = "bonus_lost"
    """A losing Fortune bonus bet (banked by the house): seat -> house."""
    BONUS_WON = "bonus_won"
    """A winning Fortune bonus bet's pay: house -> seat."""
    ENVY = "envy"
    """An Envy bonus, for another player's hand of four of a kind or better: house -> seat."""
    QUEENS_DRAGON_LOST = "queens_dragon_lost"
    """A losing Queen's Dragon bet (banked by the house): seat -> house."""
    QUEENS_DRAGON_WON = "queens_dragon_won"
    """A winning Queen's Dragon bet's pay (50 to 1): house -> seat."""
    GUEST_EXPIRED = "guest_expired"
    """A collected guest's balance, out of the game: player -> bank (the issued total goes down)."""
    ACCOUNT_CLOSED = "account_closed"
    """A closed account's balance, out of the game once nothing of it is at a table: player -> bank (the
    issued total goes down; ``paigow_server.store.account_closure``)."""
    TOP_UP = "top_up"
    """A free top-up of a player below every table minimum, back to the starting balance: bank -> player
    (the issued total goes up as much; ``paigow_server.store.top_ups``)."""
    HOME_BUY_IN = "home_buy_in"
    """A buy-in (reason ``buy_in``) or a rebuy (``rebuy``) at a home game with its own chips: chips the
    game issues, ``home:{table}`` -> seat (no casino balance moves; ``home_entries``)."""
    HOME_CHIPS_ADDED = "home_chips_added"
    """A home game's host added chips to a player (reason: the host's): ``home:{table}`` -> seat."""
    HOME_CHIPS_TAKEN = "home_chips_taken"
    """A home game's host took chips back from a player (reason: the host's): seat -> ``home:{table}``."""
    HOME_CASH_OUT = "home_cash_out"
    """A player's stack leaving a home game with its own chips (reason: the event's kind,
    ``player_left``, ``player_stood_up``, ``player_kicked``): seat -> ``home:{table}``, never a balance."""


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    kind: EntryKind
    from_account: str
    to_account: str
    amount_cents: int
    ts_ms: int
    table_id: str | None = None
    round_id: str | None = None
    player_id: str | None = None
    reason: str | None = None

    def __post_init__(self) -> None:
        if type(self.amount_cents) is not int or self.amount_cents <= 0:
            raise ValueError(f"ledger amount_cents={self.amount_cents!r}: must be a positive whole number")
        if self.from_account == self.to_account:
            raise ValueError(f"ledger entry from {self.from_account!r} to itself")

    def to_json(self) -> str:
        """``json.dumps(asdict(self), separators=(",", ":"))`` (every field is a plain value, so the dict
        of the fields needs no deep copy)."""
        return _compact({name: getattr(self, name) for name in _ENTRY_FIELDS})


_ENTRY_FIELDS = tuple(f.name for f in fields(LedgerEntry))
_compact = json.JSONEncoder(separators=(",", ":")).encode


def derived_balances(entries: Iterable[dict[str, Any]]) -> dict[str, int]:
    """Each account's balance as the ledger tells it (entries as read back: dicts)."""
    balances: Counter[str] = Counter()
    for entry in entries:
        balances[entry["from_account"]] -= entry["amount_cents"]
        balances[entry["to_account"]] += entry["amount_cents"]
    return dict(balances)
