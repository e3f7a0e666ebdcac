"""The ledger entries of a round's Fortune bonus bets, which the house banks (no pot, no commission):

- ``bonus_lost``: a losing Fortune bet, seat -> house (``reason``: ``"Fortune bonus lost: no paying hand"``);
- ``bonus_won``: a winning Fortune bet's pay, house -> seat (``"Fortune bonus won: four of a kind"``);
- ``envy``: one Envy bonus, house -> seat, for the other hand it names
  (``"Envy bonus: four of a kind at position 3"``).

Their sum is the round's ``bonus_house_net_cents`` (``fortune_entries`` checks it).
"""

from __future__ import annotations

from typing import Any

from paigow.ledger.accounts import HOUSE, EntryKind, LedgerEntry, seat_account
from paigow.rules.fortune import FortuneHand
from paigow.table.records import RoundRecord

__all__ = ["FortuneEntriesError", "fortune_entries"]


class FortuneEntriesError(ValueError):
    """The bonus results of a round do not add up to its ``bonus_house_net_cents``."""


def _words(fortune: str | None) -> str:
    """A record's Fortune category (``"four_of_a_kind"``) in words; a hand that pays nothing is "no paying
    hand" (never the bare category name ``"nothing"``)."""
    hand = FortuneHand[(fortune or "nothing").upper()]
    return "no paying hand" if hand is FortuneHand.NOTHING else hand.label


def fortune_entries(table_id: str, record: RoundRecord, now_ms: int) -> list[LedgerEntry]:
    entries: list[LedgerEntry] = []
    house = 0
    for hand in record.hands:
        if hand.player_id is None or (hand.bonus_cents == 0 and not hand.envy):
            continue
        seat = seat_account(table_id, hand.player_id)
        common: dict[str, Any] = {"ts_ms": now_ms, "table_id": table_id, "round_id": record.round_id,
                  "player_id": hand.player_id}
        if hand.bonus_win_cents < 0:
            entries.append(LedgerEntry(EntryKind.BONUS_LOST, seat, HOUSE, -hand.bonus_win_cents,
                                       reason=f"Fortune bonus lost: {_words(hand.fortune)}", **common))
        elif hand.bonus_win_cents > 0:
            entries.append(LedgerEntry(EntryKind.BONUS_WON, HOUSE, seat, hand.bonus_win_cents,
                                       reason=f"Fortune bonus won: {_words(hand.fortune)}", **common))
        for envy in hand.envy:
            reason = f"Envy bonus: {_words(envy.fortune)} at position {envy.position}"
            entries.append(LedgerEntry(EntryKind.ENVY, HOUSE, seat, envy.amount_cents, reason=reason,
                                       **common))
        house -= hand.bonus_net_cents
    if house != record.bonus_house_net_cents:
        raise FortuneEntriesError(f"round {record.round_id}: bonus_house_net_cents="
                                  f"{record.bonus_house_net_cents} but the bonus results make {house}")
    return entries
