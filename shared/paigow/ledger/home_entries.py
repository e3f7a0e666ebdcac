"""The money ledger of a home game with its own chips (``Home.chips``, ``paigow.table.home_chips``).

Such a game's chips are issued to the game, never taken from or paid to a casino balance: its commits
make no ``BalanceChange`` and move nothing to the casino's house result. Their ledger entries move chips
between the game's own accounts instead:

- ``home:{t}`` (``home_account``), the game's chip bank: a buy-in (``home_buy_in``, reason ``buy_in``),
  a rebuy (``home_buy_in``, reason ``rebuy``) and a host's correction adding chips (``home_chips_added``,
  the host's reason) go from it to the seat; a correction taking chips back (``home_chips_taken``) and a
  cash-out (``home_cash_out``, reason the leaving event's kind) go from the seat back to it. Its balance is
  so minus the chips the game has out: -(issued - cash-outs);
- ``home_house:{t}``: the house dealer's result at the game, where a casino table's entries name ``house``;
- ``home_commission:{t}``: the commission the game took into its pot (``HomeChips.commission_cents``).

``chip_entry`` makes the entries of the chip events and of sitting and leaving; ``home_remap`` moves a
settlement's ``house`` entries to the game's two accounts.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from paigow.ledger.accounts import HOUSE, EntryKind, LedgerEntry, seat_account
from paigow.table.events import Event, PlayerKicked, PlayerLeft, PlayerSat, PlayerStoodUp
from paigow.table.home_chip_events import ChipsAdded, ChipsAdjusted
from paigow.table.home_chips import home_account, home_commission_account, home_house_account
from paigow.table.state import TableState

__all__ = ["chip_entry", "home_remap", "plays_home_chips"]


def plays_home_chips(state: TableState) -> bool:
    """Whether the table is a home game with its own chips (its money never touches a casino balance)."""
    return state.home is not None and state.home.chips is not None


def chip_entry(table_id: str, event: Event, now_ms: int) -> LedgerEntry | None:
    """The ledger entry of one event at a home game with its own chips (None: the event moves no chips
    between the game's bank and a seat)."""
    bank = home_account(table_id)
    kind: EntryKind
    if isinstance(event, PlayerSat):
        kind, amount, reason, inward = EntryKind.HOME_BUY_IN, event.buy_in_cents, "buy_in", True
    elif isinstance(event, ChipsAdded):
        kind, amount, reason, inward = EntryKind.HOME_BUY_IN, event.amount_cents, "rebuy", True
    elif isinstance(event, ChipsAdjusted):
        inward = event.amount_cents > 0
        kind = EntryKind.HOME_CHIPS_ADDED if inward else EntryKind.HOME_CHIPS_TAKEN
        amount, reason = abs(event.amount_cents), event.reason
    elif isinstance(event, PlayerLeft | PlayerStoodUp | PlayerKicked):
        kind, amount, reason, inward = EntryKind.HOME_CASH_OUT, event.chips_returned_cents, event.kind, False
    else:
        return None
    if amount <= 0:
        return None
    seat = seat_account(table_id, event.player_id)
    return LedgerEntry(kind, bank if inward else seat, seat if inward else bank, amount, now_ms,
                       table_id=table_id, player_id=event.player_id, reason=reason)


def home_remap(table_id: str, entries: Iterable[LedgerEntry]) -> list[LedgerEntry]:
    """A settlement's entries at a home game with its own chips: the commissions go to the game's
    commission pot, every other entry of the ``house`` to the game's house line."""
    house, pot = home_house_account(table_id), home_commission_account(table_id)
    out: list[LedgerEntry] = []
    for entry in entries:
        if entry.kind is EntryKind.COMMISSION:
            entry = replace(entry, to_account=pot)
        elif entry.from_account == HOUSE:
            entry = replace(entry, from_account=house)
        elif entry.to_account == HOUSE:
            entry = replace(entry, to_account=house)
        out.append(entry)
    return out
