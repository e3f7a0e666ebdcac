"""The money invariant, checked against Redis: no cent appears or vanishes.

``money_totals``: everything issued to players (starting balances + operator credits - debits) equals
the sum of balances, plus the chips at every table, plus the house's result. ``ledger_mismatches``: the
balance of every account as the ledger tells it equals the balance Redis holds (players, seats, house,
bank), and every round's pot is empty. The operator API shows the first; the crash tests use both.

Both read one ``snapshot``: a Lua script (atomic in Redis, so no commit lands halfway through it) reads the
issued total, the house result, every player's balance, every table state's seat chips and the ledger's
last id at once. Reading them one after another would, during play, now and then catch a buy-in's chips
after they left the balance but before the table state holding them was read, and report money missing
(or twice) that never was.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from redis.asyncio import Redis

from paigow_server.store import keys
from paigow_server.store.ledger import BANK, HOUSE, Ledger, player_account, seat_account

__all__ = ["MoneySnapshot", "MoneyTotals", "ledger_mismatches", "money_snapshot", "money_totals"]

# KEYS: 1 players set, 2 tables zset, 3 issued counter, 4 house result, 5 ledger stream.
# ARGV: 1 the player hash key without the id, 2 the table hash key without the id.
# Reads keys named inside the script (players, tables): one Redis, as the rest of the store.
_SNAPSHOT = """
local balances = {}
for _, player_id in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  local balance = redis.call('HGET', ARGV[1] .. player_id, 'balance')
  if balance then
    balances[#balances + 1] = player_id
    balances[#balances + 1] = balance
  end
end
local chips = {}
for _, table_id in ipairs(redis.call('ZRANGE', KEYS[2], 0, -1)) do
  local text = redis.call('HGET', ARGV[2] .. table_id, 'state')
  if text then
    for _, seat in ipairs(cjson.decode(text)['seats']) do
      if type(seat) == 'table' then
        chips[#chips + 1] = table_id
        chips[#chips + 1] = seat['player_id']
        chips[#chips + 1] = string.format('%.0f', seat['chips_cents'])
      end
    end
  end
end
local last = redis.call('XREVRANGE', KEYS[5], '+', '-', 'COUNT', 1)
local last_id = ''
if #last > 0 then last_id = last[1][1] end
return {redis.call('GET', KEYS[3]) or '0', redis.call('GET', KEYS[4]) or '0', balances, chips, last_id}
"""


@dataclass(frozen=True, slots=True)
class MoneySnapshot:
    """Every money figure Redis holds, read at one instant."""

    issued_cents: int
    house_net_cents: int
    balances: dict[str, int]
    """Player id -> balance."""
    seat_chips: dict[str, int]
    """Seat account (``seat:{table}:{player}``) -> chips."""
    ledger_last_id: str | None
    """The ledger's last entry at that instant (None: empty)."""


@dataclass(frozen=True, slots=True)
class MoneyTotals:
    issued_cents: int
    balances_cents: int
    chips_at_tables_cents: int
    house_net_cents: int

    @property
    def balanced(self) -> bool:
        return self.issued_cents == self.balances_cents + self.chips_at_tables_cents + self.house_net_cents


async def money_snapshot(redis: Redis) -> MoneySnapshot:
    script = redis.register_script(_SNAPSHOT)
    reply = await script(keys=[keys.PLAYERS, keys.TABLES, keys.MONEY_ISSUED, keys.HOUSE_NET, keys.LEDGER],
                         args=[keys.player(""), keys.table("")])
    issued, house, flat_balances, flat_chips, last_id = reply
    balances = {_text(flat_balances[i]): int(flat_balances[i + 1]) for i in range(0, len(flat_balances), 2)}
    chips = {seat_account(_text(flat_chips[i]), _text(flat_chips[i + 1])): int(flat_chips[i + 2])
             for i in range(0, len(flat_chips), 3)}
    return MoneySnapshot(int(issued), int(house), balances, chips, _text(last_id) or None)


async def money_totals(redis: Redis) -> MoneyTotals:
    snap = await money_snapshot(redis)
    return MoneyTotals(issued_cents=snap.issued_cents, balances_cents=sum(snap.balances.values()),
                       chips_at_tables_cents=sum(snap.seat_chips.values()),
                       house_net_cents=snap.house_net_cents)


async def ledger_mismatches(redis: Redis) -> list[str]:
    """Every account whose ledger balance differs from Redis's (empty: all agree). The ledger is read up
    to the snapshot's last entry: it is append-only, so that is the ledger as it was at the snapshot."""
    snap = await money_snapshot(redis)
    derived = {} if snap.ledger_last_id is None else await Ledger(redis).balances(until=snap.ledger_last_id)
    held: dict[str, int] = dict(snap.seat_chips)
    for player_id, balance in snap.balances.items():
        held[player_account(player_id)] = balance
    held[HOUSE] = snap.house_net_cents
    held[BANK] = -snap.issued_cents
    problems = [f"{account}: ledger says {derived.get(account, 0)}, Redis holds {amount}"
                for account, amount in sorted(held.items()) if derived.get(account, 0) != amount]
    problems += [f"{account}: ledger says {amount}, but no such balance is held"
                 for account, amount in sorted(derived.items()) if account not in held and amount != 0]
    return problems


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
