"""The money invariant, checked against Redis: no cent appears or vanishes.

``money_totals``: everything issued to players (starting balances + top-ups + operator credits - debits
- collected guests' balances) equals the sum of balances, plus the chips at every table, plus the house's
result. ``ledger_mismatches``: the balance of every account as the ledger tells it equals the balance Redis
holds (players, seats, holds, house, bank), and every round's pot is empty. The operator API shows the
first; the crash tests use both.
A home game with its own chips (``home_money``) is in neither the totals nor ``chips_at_tables_cents``: its
chips are the game's, checked per game (``MoneySnapshot.home_games``, ``MoneyTotals.home_games``), and its
ledger accounts (``home:{t}``, ``home_house:{t}``, ``home_commission:{t}``) against its table's state.
A fresh guest (``store.fresh_guests``) is in neither: its starting balance is issued, with its ledger entry,
when it is settled, before any of its money moves.

Under replica acknowledgements a table whose newest commits no replica holds yet is counted as of its
confirmed version (``confirmed.py``): the state kept for it, its outbox entries up to that version, and
the holds those later commits consumed, and the buy-ins they debited (``direct_commit``: their outbox
entries' ``debits``), as still held, in the balances.

On one Redis without replica acknowledgements a commit moves every cent in its own script
(``direct_commit``): nothing is ever between two places, and neither kind of money below exists. On a
Redis Cluster money moves in two hash slots (docs/cluster.md): a table's commit moves chips in the table's
slot and leaves an outbox entry; balances, holds, the house result and the ledger are in ``{global}``.
Two kinds of money are between the two at any instant, and are counted where they are going:

- **in transit**: the outbox entries not applied yet (``outbox``): their credits count in the balances,
  their house result in the house's, their ledger entries in the ledger;
- **held**: buy-ins taken from a balance whose table has not consumed them (``holds``): they count in the
  balances (``holds_cents`` says how much), and in the ``hold:{id}`` account of the ledger.

``money_snapshot`` reads every figure as of one instant. On one Redis that is one Lua script (atomic, so no
commit lands halfway through it). On a Redis Cluster no script spans slots: it reads ``{global}`` in one
script and each table in one script of its slot, between two reads of everything that changes whenever
money moves (every table's version, the ledger's last id, the outbox entries applied); when the two agree
nothing moved meanwhile and the read is of one instant, else it reads again (``SNAPSHOT_ATTEMPTS``).
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from typing import Any

from redis.asyncio import Redis, RedisCluster

from paigow.ledger.accounts import BANK, HOUSE, derived_balances, hold_account, player_account, seat_account
from paigow_server.errors import ServerError
from paigow_server.store import keys
from paigow_server.store.errors import guarded
from paigow_server.store.home_money import HomeGameMoney, home_game_money
from paigow_server.store.ledger import Ledger
from paigow_server.store.outbox import entry_seq

__all__ = ["MoneySnapshot", "MoneyTotals", "SnapshotError", "ledger_mismatches", "money_snapshot",
           "money_totals"]

SNAPSHOT_ATTEMPTS = 50

# The {global} part. KEYS: 1 players set, 2 issued, 3 house, 4 ledger, 5 holds, 6 outbox applied, 7 the
# top-ups' total.
# ARGV: 1 the player hash key without the id.
_GLOBAL_LUA = """
local balances = {}
for _, player_id in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  local balance = redis.call('HGET', ARGV[1] .. player_id, 'balance')
  if balance then
    balances[#balances + 1] = player_id
    balances[#balances + 1] = balance
  end
end
local last = redis.call('XREVRANGE', KEYS[4], '+', '-', 'COUNT', 1)
local last_id = ''
if #last > 0 then last_id = last[1][1] end
local global = {redis.call('GET', KEYS[2]) or '0', redis.call('GET', KEYS[3]) or '0', balances, last_id,
                redis.call('HGETALL', KEYS[5]), redis.call('HGETALL', KEYS[6]),
                redis.call('GET', KEYS[7]) or '0'}
"""

# One table's part: its version, state, outbox entries and hold marks; under replica acknowledgements
# (``confirmed.py``) also its confirmed version, the version and state kept for it, and its outbox seq.
_TABLE_LUA = """
local function table_part(table_key, outbox_key, marks_key)
  local c = redis.call('HMGET', table_key, 'confirmed', 'cversion', 'cseq')
  local part = {redis.call('HGET', table_key, 'version') or '', redis.call('HGET', table_key, 'state') or '',
                redis.call('LRANGE', outbox_key, 0, -1), redis.call('HGETALL', marks_key)}
  if c[1] then
    part[5] = {c[1], c[2] or '', c[3] or '0', redis.call('HGET', table_key, 'cstate') or ''}
  end
  return part
end
"""

_GLOBAL = _GLOBAL_LUA + "return global\n"

# KEYS: 1 table hash, 2 outbox, 3 hold marks.
_TABLE = _TABLE_LUA + "return table_part(KEYS[1], KEYS[2], KEYS[3])\n"

# One Redis: both parts in one script. KEYS: as _GLOBAL, then 8 the tables zset. ARGV: 1 as _GLOBAL,
# 2: the table keys' text before the table id, 3, 4 and 5: the table hash's, the outbox's and the hold
# marks' text after it.
_ALL = _GLOBAL_LUA + _TABLE_LUA + """
local tables = {}
for _, table_id in ipairs(redis.call('ZRANGE', KEYS[8], 0, -1)) do
  local base = ARGV[2] .. table_id
  tables[#tables + 1] = table_id
  tables[#tables + 1] = table_part(base .. ARGV[3], base .. ARGV[4], base .. ARGV[5])
end
return {global, tables}
"""


class SnapshotError(ServerError, RuntimeError):
    """Money moved during every attempt to read a cluster's snapshot."""

    code = "UNAVAILABLE"
    http_status = 503


@dataclass(frozen=True, slots=True)
class MoneySnapshot:
    """Every money figure Redis holds, read at one instant."""

    issued_cents: int
    house_net_cents: int
    """The house's result, its part in transit included."""
    balances: dict[str, int]
    """Player id -> balance, what is in transit to it included (its holds are not: ``holds``)."""
    seat_chips: dict[str, int]
    """Seat account (``seat:{table}:{player}``) -> chips, at casino tables (a home game with its own chips:
    ``home_games``)."""
    ledger_last_id: str | None
    """The ledger's last entry at that instant (None: empty)."""
    holds: dict[str, int] = field(default_factory=dict)
    """Hold account (``hold:{id}``) -> amount, of every hold no table consumed yet."""
    in_transit: list[dict[str, Any]] = field(default_factory=list)
    """The outbox entries not applied yet (decoded), oldest first per table."""
    top_ups_cents: int = 0
    """Every free top-up given so far (``store.top_ups``), counted in ``issued_cents`` when given."""
    home_games: dict[str, HomeGameMoney] = field(default_factory=dict)
    """Table id -> the figures of each home game with its own chips (its seats' chips are there)."""

    @property
    def holds_cents(self) -> int:
        return sum(self.holds.values())

    @property
    def in_transit_cents(self) -> int:
        """The credits to balances of the outbox entries not applied yet."""
        return sum(int(c) for e in self.in_transit for _, c in e["credits"])


@dataclass(frozen=True, slots=True)
class MoneyTotals:
    issued_cents: int
    balances_cents: int
    chips_at_tables_cents: int
    house_net_cents: int
    holds_cents: int = 0
    """Part of ``balances_cents``: buy-ins taken from balances that no table has seated yet."""
    in_transit_cents: int = 0
    """Part of ``balances_cents``: chips that commits moved out of tables which have not reached the
    balances yet (outbox entries not applied; their house result is in ``house_net_cents`` already)."""
    top_ups_cents: int = 0
    """Every free top-up given so far (ledger ``top_up``): issued when given, so counted in ``issued_cents``
    like the starting balances (which later debits and collected guests take back from)."""
    home_games: tuple[HomeGameMoney, ...] = ()
    """Each home game with its own chips, with its own check (its chips are in none of the totals above)."""

    @property
    def balanced(self) -> bool:
        """The casino's check (the home games' are each their own: ``HomeGameMoney.balanced``)."""
        return self.issued_cents == self.balances_cents + self.chips_at_tables_cents + self.house_net_cents


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _pairs(flat: list[Any]) -> dict[str, str]:
    return {_text(flat[i]): _text(flat[i + 1]) for i in range(0, len(flat), 2)}


def _assemble(global_part: list[Any], tables: dict[str, list[Any]]) -> MoneySnapshot:
    issued, house, flat_balances, last_id, flat_holds, flat_applied, top_ups = global_part
    balances = {_text(flat_balances[i]): int(flat_balances[i + 1]) for i in range(0, len(flat_balances), 2)}
    applied = {t: int(n) for t, n in _pairs(flat_applied).items()}
    hold_records = {hold_id: json.loads(text) for hold_id, text in _pairs(flat_holds).items()}
    consumed: set[str] = set()
    chips: dict[str, int] = {}
    home_games: dict[str, HomeGameMoney] = {}
    in_transit: list[dict[str, Any]] = []
    house_net = int(house)
    for table_id, (version, state_text, outbox, flat_marks, *confirmation) in tables.items():
        upto: int | None = None
        if confirmation and _text(version) and int(_text(confirmation[0][0])) < int(_text(version)):
            confirmed, kept_version, cseq, kept_state = (_text(v) for v in confirmation[0])
            upto = int(cseq)  # a replica holds the table up to ``confirmed``: count the money as of then
            if kept_version == confirmed:
                state_text = kept_state
        later = [json.loads(_text(raw)) for raw in outbox
                 if upto is not None and entry_seq(_text(raw)) > upto]
        unheld = {hold_id for entry in later for hold_id in entry["holds"]}
        for entry in later:  # buy-ins of commits no replica holds yet: still in the balances (one Redis)
            for player_id, cents in entry.get("debits", ()):
                balances[player_id] = balances.get(player_id, 0) + int(cents)
        consumed |= {h for h, mark in _pairs(flat_marks).items() if mark == "consumed" and h not in unheld}
        if _text(state_text):
            state = json.loads(_text(state_text))
            game = home_game_money(table_id, state)
            if game is not None:
                home_games[table_id] = game
            else:
                for seat in state["seats"]:
                    if seat is not None:
                        chips[seat_account(table_id, seat["player_id"])] = int(seat["chips_cents"])
        for raw in outbox:
            text = _text(raw)
            if upto is not None and entry_seq(text) > upto:
                break
            if entry_seq(text) > applied.get(table_id, 0):
                entry = json.loads(text)
                in_transit.append(entry)
                for player_id, cents in entry["credits"]:
                    balances[player_id] = balances.get(player_id, 0) + int(cents)
                house_net += int(entry["house"])
    holds: dict[str, int] = {}
    for hold_id, record in hold_records.items():
        if hold_id not in consumed:
            holds[hold_account(hold_id)] = int(record["amount_cents"])
    return MoneySnapshot(int(issued), house_net, balances, chips, _text(last_id) or None, holds, in_transit,
                         int(top_ups), home_games)


@guarded
async def money_snapshot(redis: Redis) -> MoneySnapshot:
    if isinstance(redis, RedisCluster):
        return await _cluster_snapshot(redis)
    script = redis.register_script(_ALL)
    table_key = keys.table("\0")
    before, after = table_key.split("\0")
    global_part, flat_tables = await script(
        keys=[keys.PLAYERS, keys.MONEY_ISSUED, keys.HOUSE_NET, keys.LEDGER, keys.HOLDS, keys.OUTBOX_APPLIED,
              keys.TOP_UPS_TOTAL, keys.TABLES],
        args=[keys.player(""), before, after, keys.table_outbox("\0").split("\0")[1],
              keys.table_holds("\0").split("\0")[1]])
    tables = {_text(flat_tables[i]): flat_tables[i + 1] for i in range(0, len(flat_tables), 2)}
    return _assemble(global_part, tables)


async def _marks(redis: Redis, table_ids: list[str]) -> tuple[Any, ...]:
    async with redis.pipeline(transaction=False) as pipe:
        pipe.xrevrange(keys.LEDGER, "+", "-", count=1)
        pipe.hgetall(keys.OUTBOX_APPLIED)
        for table_id in table_ids:
            pipe.hget(keys.table(table_id), "version")
        return tuple(repr(r) for r in await pipe.execute())


async def _cluster_snapshot(redis: Redis) -> MoneySnapshot:
    global_script = redis.register_script(_GLOBAL)
    table_script = redis.register_script(_TABLE)
    for attempt in range(SNAPSHOT_ATTEMPTS):
        table_ids = [_text(t) for t in await redis.zrange(keys.TABLES, 0, -1)]
        first = await _marks(redis, table_ids)
        global_part = await global_script(
            keys=[keys.PLAYERS, keys.MONEY_ISSUED, keys.HOUSE_NET, keys.LEDGER, keys.HOLDS,
                  keys.OUTBOX_APPLIED, keys.TOP_UPS_TOTAL], args=[keys.player("")])
        parts = await asyncio.gather(*(table_script(
            keys=[keys.table(t), keys.table_outbox(t), keys.table_holds(t)]) for t in table_ids))
        if await _marks(redis, table_ids) == first:
            return _assemble(global_part, dict(zip(table_ids, parts, strict=True)))
        await asyncio.sleep(0.01 * attempt)
    raise SnapshotError(f"money moved during each of {SNAPSHOT_ATTEMPTS} reads; try again")


@guarded
async def money_totals(redis: Redis) -> MoneyTotals:
    snap = await money_snapshot(redis)
    return MoneyTotals(issued_cents=snap.issued_cents,
                       balances_cents=sum(snap.balances.values()) + snap.holds_cents,
                       chips_at_tables_cents=sum(snap.seat_chips.values()),
                       house_net_cents=snap.house_net_cents, holds_cents=snap.holds_cents,
                       in_transit_cents=snap.in_transit_cents, top_ups_cents=snap.top_ups_cents,
                       home_games=tuple(snap.home_games[t] for t in sorted(snap.home_games)))


@guarded
async def ledger_mismatches(redis: Redis) -> list[str]:
    """Every account whose ledger balance differs from Redis's, and every home game whose own check fails
    (empty: all agree). The ledger is read up
    to the snapshot's last entry: it is append-only, so that is the ledger as it was at the snapshot; the
    entries in transit (outbox) are added to it."""
    snap = await money_snapshot(redis)
    derived = {} if snap.ledger_last_id is None else await Ledger(redis).balances(until=snap.ledger_last_id)
    pending = derived_balances(json.loads(text) for entry in snap.in_transit for text in entry["ledger"])
    for account, amount in pending.items():
        derived[account] = derived.get(account, 0) + amount
    held: dict[str, int] = dict(snap.seat_chips)
    for player_id, balance in snap.balances.items():
        held[player_account(player_id)] = balance
    for account, amount in snap.holds.items():
        held[account] = amount
    held[HOUSE] = snap.house_net_cents
    held[BANK] = -snap.issued_cents
    for game in snap.home_games.values():
        held.update(game.seats)
        held.update(game.expected_accounts())
    problems = [f"{account}: ledger says {derived.get(account, 0)}, Redis holds {amount}"
                for account, amount in sorted(held.items()) if derived.get(account, 0) != amount]
    problems += [f"{account}: ledger says {amount}, but no such balance is held"
                 for account, amount in sorted(derived.items()) if account not in held and amount != 0]
    problems += [f"home game {g.table_id}: issued {g.issued_cents} but stacks {g.stacks_cents} + cash-outs "
                 f"{g.cashed_out_cents} + house {g.house_cents} + commission {g.commission_cents}"
                 for _, g in sorted(snap.home_games.items()) if not g.balanced]
    return problems
