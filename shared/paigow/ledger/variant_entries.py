"""The ledger entries and checks of the casino variants in a settled round (issue 24), beside the main
bet's (``effects``) and the Fortune bonus's (``fortune_entries``):

- the Queen's Dragon bets, banked by the house (no pot, no commission): ``queens_dragon_lost`` seat ->
  house, ``queens_dragon_won`` house -> seat; their sum is the round's ``queens_dragon_house_net_cents``;
- a co-banked round's house half of the bank (``house_bank_gross_cents``): ``stake_lost`` house -> pot or
  ``stake_won`` pot -> house, like any hand's;
- a Dragon hand needs nothing of its own: it is a hand record of its buyer's (``player_id``), so its
  stake and commission entries are its buyer's seat's, like their own hand's.

A commission-free round's barred dealer needs none either: every wager pushed (gross 0: no entry).
"""

from __future__ import annotations

from typing import Any

from paigow.ledger.accounts import HOUSE, EntryKind, LedgerEntry, round_account, seat_account
from paigow.table.records import RoundRecord

__all__ = ["VariantEntriesError", "extra_gross", "extra_house", "variant_entries"]


_LOST = "Queen's Dragon lost: the dealer's hand is not a queen-high pai gow"
_WON = "Queen's Dragon won: the dealer's hand is a queen-high pai gow"


class VariantEntriesError(ValueError):
    """The Queen's Dragon results of a round do not add up to its ``queens_dragon_house_net_cents``."""


def extra_gross(record: RoundRecord) -> int:
    """The gross the round's hands do not hold: the house's half of a co-bank."""
    return record.house_bank_gross_cents


def extra_house(record: RoundRecord) -> int:
    """What the house gains beyond commissions, its hands and the Fortune bonuses: its co-bank half and
    the Queen's Dragon bets."""
    return record.house_bank_gross_cents + record.queens_dragon_house_net_cents


def variant_entries(table_id: str, record: RoundRecord, now_ms: int) -> list[LedgerEntry]:
    entries: list[LedgerEntry] = []
    base: dict[str, Any] = {"ts_ms": now_ms, "table_id": table_id, "round_id": record.round_id}
    house = record.house_bank_gross_cents
    pot = round_account(table_id, record.round_id)
    if house < 0:
        entries.append(LedgerEntry(EntryKind.STAKE_LOST, HOUSE, pot, -house, player_id=None,
                                   reason="the house's half of the co-bank", **base))
    elif house > 0:
        entries.append(LedgerEntry(EntryKind.STAKE_WON, pot, HOUSE, house, player_id=None,
                                   reason="the house's half of the co-bank", **base))
    queens = 0
    for hand in record.hands:
        if hand.player_id is None or hand.queens_dragon_cents == 0:
            continue
        seat = seat_account(table_id, hand.player_id)
        win = hand.queens_dragon_win_cents
        if win < 0:
            entries.append(LedgerEntry(EntryKind.QUEENS_DRAGON_LOST, seat, HOUSE, -win,
                                       player_id=hand.player_id, reason=_LOST, **base))
        elif win > 0:
            entries.append(LedgerEntry(EntryKind.QUEENS_DRAGON_WON, HOUSE, seat, win,
                                       player_id=hand.player_id, reason=_WON, **base))
        queens -= win
    if queens != record.queens_dragon_house_net_cents:
        raise VariantEntriesError(f"round {record.round_id}: queens_dragon_house_net_cents="
                                  f"{record.queens_dragon_house_net_cents} but the bets make {queens}")
    return entries
