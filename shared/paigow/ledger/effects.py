"""The money and history consequences of a commit: a pure function of (before, after, events).

``effects_of`` turns the events of one accepted command into the writes that the server's store
(``paigow_server.store.tables.TableRepo.commit``) makes in the same transaction as the new state:

- ``PlayerSat``: the buy-in leaves the player's balance (the commit fails if the balance is too low);
- ``PlayerLeft`` / ``PlayerStoodUp`` / ``PlayerKicked``: the chips returned go back to the balance;
- ``RoundSettled``: ledger entries for every stake lost, win and commission (through the round's pot),
  and for the Fortune bonus bets and Envy bonuses (``fortune_entries``), the house's result, one
  hand-history entry per player in the round, and the round for export (whose record
  ``TableRepo.commit`` also puts at the head of the table's list of its last settled rounds);
- ``RoundVoided``: no money moves (stakes are only taken at settlement); the round is kept for export.

At a home game with its own chips (``home_entries``) no balance and no casino house result moves: its
sits, rebuys, corrections and cash-outs move chips between the game's bank and the seats, and its
settlements' ``house`` entries go to the game's house line and commission pot.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import TypeAdapter

from paigow.ledger.accounts import (
    HOUSE,
    EntryKind,
    LedgerEntry,
    player_account,
    round_account,
    seat_account,
)
from paigow.ledger.fortune_entries import FortuneEntriesError, fortune_entries
from paigow.ledger.home_entries import chip_entry, home_remap, plays_home_chips
from paigow.ledger.variant_entries import VariantEntriesError, extra_gross, extra_house, variant_entries
from paigow.table.events import (
    Event,
    PlayerKicked,
    PlayerLeft,
    PlayerSat,
    PlayerStoodUp,
    RoundSettled,
    RoundVoided,
)
from paigow.table.records import HandRecord, RoundRecord
from paigow.table.state import TableState

__all__ = ["BalanceChange", "Effects", "EffectsError", "HistoryEntry", "effects_of", "history_total_cents"]

_ADAPTERS: dict[type, TypeAdapter[Any]] = {}


def jsonable(value: Any) -> Any:
    """A dataclass of the core (a round record, a bet) as plain JSON data, as pydantic writes it."""
    adapter = _ADAPTERS.get(type(value))
    if adapter is None:
        adapter = _ADAPTERS[type(value)] = TypeAdapter(type(value))
    return adapter.dump_python(value, mode="json")


class EffectsError(ValueError):
    """The events do not add up (a settlement whose money does not balance): nothing may be written."""


@dataclass(frozen=True, slots=True)
class BalanceChange:
    player_id: str
    delta_cents: int
    """Negative: taken from the balance, which must not go below zero."""


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    player_id: str
    record: dict[str, Any]
    """JSON data: the player's view of one settled round (see ``history_record``)."""


@dataclass(frozen=True, slots=True)
class Effects:
    balances: tuple[BalanceChange, ...] = ()
    ledger: tuple[LedgerEntry, ...] = ()
    history: tuple[HistoryEntry, ...] = ()
    rounds: tuple[dict[str, Any], ...] = ()
    """Settled and voided rounds (JSON data) for the export stream."""
    house_delta_cents: int = 0


def effects_of(before: TableState, after: TableState, events: Sequence[Event], *, now_ms: int) -> Effects:
    table_id = after.table_id
    deltas: dict[str, int] = defaultdict(int)
    ledger: list[LedgerEntry] = []
    history: list[HistoryEntry] = []
    rounds: list[dict[str, Any]] = []
    house = 0
    chips = plays_home_chips(after)
    for event in events:
        entry = chip_entry(table_id, event, now_ms) if chips else None  # a chips game's sit, leave...
        if entry is not None:
            ledger.append(entry)
        elif isinstance(event, PlayerSat) and event.buy_in_cents > 0:
            deltas[event.player_id] -= event.buy_in_cents
            ledger.append(LedgerEntry(EntryKind.BUY_IN, player_account(event.player_id),
                                      seat_account(table_id, event.player_id), event.buy_in_cents, now_ms,
                                      table_id=table_id, player_id=event.player_id))
        elif isinstance(event, PlayerLeft | PlayerStoodUp | PlayerKicked) and event.chips_returned_cents > 0:
            deltas[event.player_id] += event.chips_returned_cents
            ledger.append(LedgerEntry(EntryKind.CASH_OUT, seat_account(table_id, event.player_id),
                                      player_account(event.player_id), event.chips_returned_cents, now_ms,
                                      table_id=table_id, player_id=event.player_id, reason=event.kind))
        elif isinstance(event, RoundSettled):
            settled = _settlement_entries(table_id, event.record, now_ms)
            ledger.extend(home_remap(table_id, settled) if chips else settled)
            house += 0 if chips else event.record.house_net_cents
            record = jsonable(event.record)
            history.extend(_history(before, event.record, record, now_ms))
            rounds.append({"status": "settled", "table_id": table_id, "table_name": after.name,
                           "at_ms": now_ms, "round": record})
        elif isinstance(event, RoundVoided):
            rounds.append({"status": "voided", "table_id": table_id, "table_name": after.name,
                           "at_ms": now_ms, "round_id": event.round_id, "server_seed": event.server_seed,
                           "returned_bets": [jsonable(b) for b in event.returned_bets],
                           "returned_bonuses": [jsonable(b) for b in event.returned_bonuses],
                           "reason": event.reason})
    balances = tuple(BalanceChange(pid, delta) for pid, delta in deltas.items() if delta != 0)
    return Effects(balances, tuple(ledger), tuple(history), tuple(rounds), house)


def _account(table_id: str, hand: HandRecord) -> str:
    return HOUSE if hand.player_id is None else seat_account(table_id, hand.player_id)


def _settlement_entries(table_id: str, record: RoundRecord, now_ms: int) -> list[LedgerEntry]:
    pot = round_account(table_id, record.round_id)
    gross = sum(h.gross_cents for h in record.hands) + extra_gross(record)
    if gross != 0:
        raise EffectsError(f"round {record.round_id}: gross results sum to {gross} cents, not 0")
    house = (sum(h.commission_cents for h in record.hands)
             + sum(h.gross_cents for h in record.hands if h.player_id is None)
             + record.bonus_house_net_cents + extra_house(record))
    if house != record.house_net_cents:
        raise EffectsError(f"round {record.round_id}: house_net_cents={record.house_net_cents} but "
                           f"commissions, the house's hands and bonuses make {house}")
    losses: list[LedgerEntry] = []
    wins: list[LedgerEntry] = []
    commissions: list[LedgerEntry] = []
    for hand in record.hands:
        account = _account(table_id, hand)
        common: dict[str, Any] = {"ts_ms": now_ms, "table_id": table_id, "round_id": record.round_id,
                                  "player_id": hand.player_id}
        if hand.gross_cents < 0:
            losses.append(LedgerEntry(EntryKind.STAKE_LOST, account, pot, -hand.gross_cents, **common))
        elif hand.gross_cents > 0:
            wins.append(LedgerEntry(EntryKind.STAKE_WON, pot, account, hand.gross_cents, **common))
        if hand.commission_cents > 0:
            commissions.append(LedgerEntry(EntryKind.COMMISSION, account, HOUSE, hand.commission_cents,
                                           **common))
    try:
        bonuses = fortune_entries(table_id, record, now_ms) + variant_entries(table_id, record, now_ms)
    except (FortuneEntriesError, VariantEntriesError) as exc:
        raise EffectsError(str(exc)) from None
    return losses + wins + commissions + bonuses


def _hand(hand: HandRecord) -> dict[str, Any]:
    return {"position": hand.position, "player_id": hand.player_id, "dealt": list(hand.dealt),
            "high": list(hand.high), "low": list(hand.low), "high_name": hand.high_name,
            "low_name": hand.low_name, "set_by": str(hand.set_by), "fouled": hand.fouled,
            "house_way_clause": hand.house_way_clause}


def history_total_cents(entry: Mapping[str, Any]) -> int:
    """Everything one settled round moved for its player at the table (a history entry's
    ``total_net_cents``): their hand's ``net_cents``, their Fortune bonus's ``bonus_net_cents``, their
    Queen's Dragon's ``queens_dragon_win_cents`` and their Dragon hand's ``net_cents``. An entry stored
    before one of these fields did not have that bet: it counts 0 there."""
    dragon = entry.get("dragon")
    total: int = (entry["net_cents"] + entry.get("bonus_net_cents", 0)
                  + entry.get("queens_dragon_win_cents", 0) + (0 if dragon is None else dragon["net_cents"]))
    return total


def _history(before: TableState, record: RoundRecord, record_json: dict[str, Any],
             now_ms: int) -> list[HistoryEntry]:
    banker = next(h for h in record.hands if h.is_banker)
    dragons = {h.player_id: h for h in record.hands if h.dragon_of is not None}
    entries: list[HistoryEntry] = []
    for hand in record.hands:
        if hand.player_id is None or hand.dragon_of is not None:
            continue
        dragon = dragons.get(hand.player_id)
        seat = before.seats[hand.position]
        chips_before = seat.chips_cents if seat is not None and seat.player_id == hand.player_id else None
        entry: dict[str, Any] = {
            "table_id": before.table_id,
            "table_name": before.name,
            "round_id": record.round_id,
            "number": record.number,
            "settled_ms": now_ms,
            "position": hand.position,
            "is_banker": hand.is_banker,
            "wager_cents": hand.wager_cents,
            "outcome": hand.outcome,
            "gross_cents": hand.gross_cents,
            "commission_cents": hand.commission_cents,
            "net_cents": hand.net_cents,
            "fortune": hand.fortune,
            "bonus_cents": hand.bonus_cents,
            "bonus_win_cents": hand.bonus_win_cents,
            "envy": [jsonable(e) for e in hand.envy],
            "bonus_net_cents": hand.bonus_net_cents,
            "queens_dragon_cents": hand.queens_dragon_cents,
            "queens_dragon_win_cents": hand.queens_dragon_win_cents,
            "dragon": None if dragon is None else {
                **_hand(dragon), "wager_cents": dragon.wager_cents, "outcome": dragon.outcome,
                "gross_cents": dragon.gross_cents, "commission_cents": dragon.commission_cents,
                "net_cents": dragon.net_cents},
            "dealer_barred": record.dealer_barred,
            "co_banked": record.co_banked,
            "dice": list(record.dice),
            "first_position": record.first_position,
            "banker_position": record.banker_position,
            "banker_player_id": record.banker_player_id,
            "hand": _hand(hand),
            "banker_hand": _hand(banker),
            "commitment": record.commitment,
            "server_seed": record.server_seed,
            "round": record_json,
        }
        total = history_total_cents(entry)
        entry["total_net_cents"] = total
        entry["balance_before_cents"] = chips_before
        entry["balance_after_cents"] = None if chips_before is None else chips_before + total
        entries.append(HistoryEntry(hand.player_id, entry))
    return entries
