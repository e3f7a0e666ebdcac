"""Free top-ups: a player out of chips takes their balance back to the starting balance, now and then.

**Who may.** A player whose balance is below the lowest minimum bet of the open public tables (those the
lobby lists: not closed, not closing) and below the starting balance (``Accounts.starting_balance``), with
none of their money anywhere else: not seated at any table, public or private (a seat with chips, or a bet
in a round in play, however few its chips: stand up first), no buy-in on its way to a seat (a hold), and
no chips on their way back from one (an outbox entry not yet applied: on a Redis Cluster, or under replica
acknowledgements). So a top-up never adds to chips in play: a player cannot buy in with everything, top up,
and play on with both. With no open public table nobody is below "the lowest minimum": nothing to top up for.

**How often.** Once per ``top_up_hours`` per account (the player hash's ``top_up_ms``, the last one; the
next is allowed ``top_up_hours`` after it, by the setting in force when asked), and at most
``top_ups_per_address_per_day`` per address network, every account of it together (many guests refilling
from one network): the generic cell rate algorithm over a day, as the per-minute limits (``web.rate_limits``)
over a minute (the same Lua, ``rate_counters.HIT_LUA``), its state one key per network
(``keys.rate_limit("top-ups", network)``) that expires when the allowance is full again. ``top_up_hours``
is the serve setting until an operator sets it (``PUT /api/operator/settings``, kept in ``keys.SETTINGS``
for every process); 0 turns top-ups off.

**The move.** One Lua script (``_TAKE``), in ``{global}`` with the balances: it checks the balance is the one
the checks above were made against (else ``CHANGED``, and the caller looks again: a buy-in, a cash-out or a
credit moved it meanwhile), the account's last top-up and the network's allowance, then credits the
difference to the starting balance (ledger ``top_up``, bank -> player; the issued total and the top-ups'
total ``keys.TOP_UPS_TOTAL`` go up as much, so the money check still balances), stamps ``top_up_ms``, counts
the network and appends an audit entry (``top_up``, actor ``player:<id>``). A refused top-up writes nothing.

The checks read the money's path backwards, so that the balance's compare-and-set covers every race: the
balance first, then the holds (a new one would have moved the balance), then the tables' seats (chips can
reach a seat only from a hold or the balance), then the outboxes (chips leave a seat only into one, and
reach the balance only from it, moving the balance).
"""

from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, NamedTuple

from redis.asyncio import Redis

from paigow.ledger.accounts import BANK, EntryKind, LedgerEntry, player_account
from paigow.protocol.codes import ErrorCode
from paigow.table.state import Phase, TableState
from paigow_server.errors import ServerError
from paigow_server.store import keys
from paigow_server.store.accounts import Accounts
from paigow_server.store.audit import AuditEntry
from paigow_server.store.errors import store_boundary
from paigow_server.store.fresh_guests import SETTLE_FRESH, settle_keys
from paigow_server.store.rate_counters import HIT_LUA
from paigow_server.store.tables import TableRepo

__all__ = ["DAY_MS", "HOUR_MS", "TopUpBusy", "TopUpReason", "TopUpStatus", "TopUpTaken", "TopUps"]

HOUR_MS = 3_600_000
DAY_MS = 24 * HOUR_MS
SETTING = "top_up_hours"
"""The operator's value in ``keys.SETTINGS``."""
LIMIT = "top-ups"
"""The network counter's name (``keys.rate_limit(LIMIT, network)``)."""
ATTEMPTS = 5
"""Looks taken when the balance keeps moving between the checks and the script."""


class TopUpReason(StrEnum):
    """Why a top-up cannot be taken now, in the order they are checked."""

    OFF = "off"
    NOT_NEEDED = "not_needed"
    AT_TABLE = "at_table"
    TOO_SOON = "too_soon"
    NETWORK_LIMIT = "network_limit"


@dataclass(frozen=True, slots=True)
class TopUpStatus:
    """What the lobby shows, and what a refusal says."""

    hours: float
    """Hours between two top-ups of one account (0: off)."""
    to_cents: int
    """The starting balance: what a top-up brings the balance back to."""
    balance_cents: int
    lowest_min_bet_cents: int | None
    """The lowest minimum bet of the open public tables (None: no table is open)."""
    below_minimum: bool
    """The balance is below ``lowest_min_bet_cents`` and below ``to_cents``."""
    reason: TopUpReason | None
    """None: a top-up may be taken now."""
    detail: str
    """The reason in words ("" when there is none): what a refusal's message says."""
    last_ms: int | None
    """The account's last top-up."""
    next_ms: int | None
    """When a top-up is next allowed, for ``TOO_SOON`` and ``NETWORK_LIMIT`` (the later of the two when
    both hold); else None."""
    per_network_per_day: int
    at_table: str | None = None
    """With ``AT_TABLE``, where the money is: ``seated`` (at ``table_name``), ``buy_in`` (a buy-in on its way
    to a table) or ``returning`` (chips on their way back from one); else None."""
    table_name: str | None = None
    """With ``at_table`` ``seated``: the table's name."""

    @property
    def available(self) -> bool:
        return self.reason is None

    def to_json(self) -> dict[str, Any]:
        return {"available": self.available, "reason": None if self.reason is None else str(self.reason),
                "message": self.detail or None, "enabled": self.hours > 0, "hours": self.hours,
                "to_cents": self.to_cents, "balance_cents": self.balance_cents,
                "lowest_min_bet_cents": self.lowest_min_bet_cents, "below_minimum": self.below_minimum,
                "last_ms": self.last_ms, "next_ms": self.next_ms, "at_table": self.at_table,
                "table_name": self.table_name}


@dataclass(frozen=True, slots=True)
class TopUpTaken:
    amount_cents: int
    status: TopUpStatus
    """As it stands after the top-up (``reason`` ``TOO_SOON`` until the next one is allowed)."""


# KEYS: 1 player hash, 2 issued, 3 ledger, 4 audit, 5 the network's counter, 6 the top-ups' total, then the
# fresh guest's settle keys (players set, guests index, issued, ledger, fresh guests index).
# ARGV: 1 the balance the checks saw, 2 the starting balance, 3 now (ms), 4 hours between two top-ups (ms),
# 5 the network's interval (ms), 6 its window (ms), 7 ledger JSON, 8 audit JSON, 9 player id.
# Returns {outcome, value}: OK (the new balance), GONE, CHANGED (the balance now), TOO_SOON (the next
# allowed ms), NETWORK (the wait in ms).
_TAKE = SETTLE_FRESH + HIT_LUA + """
local balance = redis.call('HGET', KEYS[1], 'balance')
if not balance then return {'GONE', 0} end
if balance ~= ARGV[1] then return {'CHANGED', tonumber(balance)} end
local now = tonumber(ARGV[3])
local last = redis.call('HGET', KEYS[1], 'top_up_ms')
if last and tonumber(last) + tonumber(ARGV[4]) > now then
  return {'TOO_SOON', tonumber(last) + tonumber(ARGV[4])}
end
local wait = hit(KEYS[5], now, tonumber(ARGV[5]), tonumber(ARGV[6]))
if wait > 0 then return {'NETWORK', wait} end
settle_fresh(KEYS[1], ARGV[9], KEYS[7], KEYS[8], KEYS[9], KEYS[10], KEYS[11])
local amount = tonumber(ARGV[2]) - tonumber(balance)
redis.call('HSET', KEYS[1], 'balance', ARGV[2], 'top_up_ms', ARGV[3])
redis.call('INCRBY', KEYS[2], amount)
redis.call('INCRBY', KEYS[6], amount)
redis.call('XADD', KEYS[3], '*', 'e', ARGV[7])
redis.call('XADD', KEYS[4], '*', 'e', ARGV[8])
return {'OK', tonumber(ARGV[2])}
"""


def _now_ms() -> int:
    return time.time_ns() // 1_000_000


def _money(cents: int) -> str:
    whole, part = divmod(abs(cents), 100)
    return f"{'-' if cents < 0 else ''}${whole:,}.{part:02d}"


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def when(ms: int, now_ms: int) -> str:
    """``2026-05-02 14:05 UTC (in 23 h 59 min)``: a moment for a refusal's words."""
    stamp = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(ms / 1000))
    minutes = max(1, math.ceil((ms - now_ms) / 60_000))
    hours, rest = divmod(minutes, 60)
    wait = f"{hours} h {rest} min" if hours else f"{rest} min"
    return f"{stamp} (in {wait})"


def hours_ms(hours: float) -> int:
    return max(1, round(hours * HOUR_MS))


def lowest_minimum(states: list[TableState | None]) -> int | None:
    """The lowest ``min_bet_cents`` of the open public tables (the lobby's list), or None."""
    open_mins = [s.rules.min_bet_cents for s in states
                 if s is not None and s.home is None and s.phase is not Phase.CLOSED and not s.closing]
    return min(open_mins) if open_mins else None


class TopUpBusy(ServerError):
    """The balance moved between the checks and the script at every attempt (a busy player)."""

    code = ErrorCode.BUSY
    http_status = 503


class _Elsewhere(NamedTuple):
    """Where a player's money is besides the balance: its kind, the table's name when seated, in words."""

    kind: str
    table_name: str | None
    detail: str


@dataclass(frozen=True, slots=True)
class _Look:
    status: TopUpStatus
    balance_text: str
    """The balance as Redis holds it: what the script compares."""


@store_boundary
class TopUps:
    def __init__(self, redis: Redis, tables: TableRepo, accounts: Accounts, *, hours: float,
                 per_network_per_day: int) -> None:
        self.redis = redis
        self.tables = tables
        self.accounts = accounts
        self.default_hours = hours
        self.per_network_per_day = per_network_per_day
        self._take = redis.register_script(_TAKE)

    async def hours(self) -> float:
        """The operator's setting (``PUT /api/operator/settings``), else the serve setting."""
        stored = await self.redis.hget(keys.SETTINGS, SETTING)
        return self.default_hours if stored is None else float(stored)

    async def set_hours(self, hours: float) -> None:
        """Hours between two top-ups from now on, in every process (0: off)."""
        await self.redis.hset(keys.SETTINGS, SETTING, repr(float(hours)))

    @property
    def _interval_ms(self) -> int:
        return max(1, DAY_MS // self.per_network_per_day)

    async def _network_wait(self, network: str, now_ms: int) -> int:
        """How long the network must wait for its next top-up (0: it may now); nothing counted."""
        tat = int(await self.redis.get(keys.rate_limit(LIMIT, network)) or 0)
        return max(0, max(tat, now_ms) + self._interval_ms - now_ms - DAY_MS)

    async def _elsewhere(self, player_id: str) -> tuple[list[TableState | None], _Elsewhere | None]:
        """Every table's state, and where the player's money is besides the balance (None: nowhere), read
        along the money's path backwards (the module's last paragraph)."""
        held = any(json.loads(_text(raw)).get("player_id") == player_id
                   for raw in (await self.redis.hgetall(keys.HOLDS)).values())
        table_ids = await self.tables.list_ids()
        states = await self.tables.load_many(table_ids)
        if held:
            words = "a buy-in of yours is on its way to a table: wait for it, then stand up"
            return states, _Elsewhere("buy_in", None, words)
        for state in states:
            if state is not None and state.seat_of(player_id) is not None:
                return states, _Elsewhere("seated", state.name, f"you are seated at {state.name}: stand up "
                                          "there first, and your chips go back to your balance")
        if self.tables.leaves_work_behind:
            applied = await self.tables.outbox.applied()
            for table_id in table_ids:
                for text in await self.tables.outbox.pending(table_id):
                    entry = json.loads(text)
                    if int(entry["seq"]) > applied.get(table_id, 0) and any(
                            pid == player_id for pid, _ in entry["credits"]):
                        return states, _Elsewhere("returning", None, "chips of yours are on their way back "
                                                  "from a table: try again in a moment")
        return states, None

    async def _look(self, player_id: str, network: str, now_ms: int) -> _Look | None:
        """The player's top-up status now (None: no such player)."""
        hours = await self.hours()
        fields = await self.redis.hmget(keys.player(player_id), "balance", "top_up_ms")
        if fields[0] is None:
            return None
        balance_text = _text(fields[0])
        balance = int(balance_text)
        last = None if fields[1] is None else int(fields[1])
        to_cents = await self.accounts.starting_balance()
        states, elsewhere = await self._elsewhere(player_id)
        lowest = lowest_minimum(states)
        below = lowest is not None and balance < lowest and balance < to_cents
        reason: TopUpReason | None = None
        detail = ""
        next_ms: int | None = None
        if hours <= 0:
            reason, detail = TopUpReason.OFF, "free top-ups are off on this server"
        elif lowest is None:
            reason, detail = TopUpReason.NOT_NEEDED, "no table is open: a top-up is for playing at one"
        elif not below:
            reason = TopUpReason.NOT_NEEDED
            detail = (f"your balance, {_money(balance)}, is not below the starting balance, "
                      f"{_money(to_cents)}" if balance >= to_cents else
                      f"your balance, {_money(balance)}, is not below the lowest table minimum, "
                      f"{_money(lowest)}")
        elif elsewhere is not None:
            reason, detail = TopUpReason.AT_TABLE, elsewhere.detail
        if reason is None or reason is TopUpReason.AT_TABLE:
            soon = None if last is None or last + hours_ms(hours) <= now_ms else last + hours_ms(hours)
            wait = await self._network_wait(network, now_ms)
            if reason is None and soon is not None:
                reason, next_ms = TopUpReason.TOO_SOON, max(soon, now_ms + wait)
                detail = (f"one free top-up every {hours:g} hours: your next is allowed from "
                          f"{when(soon, now_ms)}")
            elif reason is None and wait > 0:
                reason, next_ms = TopUpReason.NETWORK_LIMIT, now_ms + wait
                detail = (f"too many top-ups from {network}: at most {self.per_network_per_day} a day; the "
                          f"next is allowed from {when(now_ms + wait, now_ms)}")
        at = elsewhere if reason is TopUpReason.AT_TABLE else None
        status = TopUpStatus(hours, to_cents, balance, lowest, below, reason, detail, last, next_ms,
                             self.per_network_per_day, None if at is None else at.kind,
                             None if at is None else at.table_name)
        return _Look(status, balance_text)

    async def status(self, player_id: str, network: str, *, now_ms: int | None = None) -> TopUpStatus | None:
        """Whether the player may take a top-up now, and if not why and when (None: no such player)."""
        look = await self._look(player_id, network, _now_ms() if now_ms is None else now_ms)
        return None if look is None else look.status

    async def take(self, player_id: str, network: str, *,
                   now_ms: int | None = None) -> TopUpTaken | TopUpStatus | None:
        """The top-up, or the status that refuses it (nothing written), or None: no such player. Audited
        as ``player:<id>``, with the network in its params."""
        for _ in range(ATTEMPTS):
            now = _now_ms() if now_ms is None else now_ms
            look = await self._look(player_id, network, now)
            if look is None:
                return None
            status = look.status
            if status.reason is not None:
                return status
            amount = status.to_cents - status.balance_cents
            entry = LedgerEntry(EntryKind.TOP_UP, BANK, player_account(player_id), amount, now,
                                player_id=player_id, reason=f"free top-up back to {_money(status.to_cents)}")
            next_ms = now + hours_ms(status.hours)
            audit = AuditEntry("top_up", now, "ok", f"player:{player_id}", player_id=player_id,
                               params={"amount_cents": amount, "balance_before_cents": status.balance_cents,
                                       "network": network},
                               detail=f"{_money(status.balance_cents)} -> {_money(status.to_cents)}; next "
                                      f"allowed from {when(next_ms, now)}").to_json()
            outcome, _ = await self._take(
                keys=[keys.player(player_id), keys.MONEY_ISSUED, keys.LEDGER, keys.AUDIT,
                      keys.rate_limit(LIMIT, network), keys.TOP_UPS_TOTAL, *settle_keys()],
                args=[look.balance_text, status.to_cents, now, hours_ms(status.hours), self._interval_ms,
                      DAY_MS, entry.to_json(), audit, player_id])
            outcome = _text(outcome)
            if outcome == "OK":
                after = await self._look(player_id, network, now)
                return TopUpTaken(amount, status if after is None else after.status)
            if outcome == "GONE":
                return None
            if outcome != "CHANGED":  # TOO_SOON, NETWORK: another top-up got there first; say so
                continue
        now = _now_ms() if now_ms is None else now_ms
        look = await self._look(player_id, network, now)
        if look is not None and look.status.available:
            raise TopUpBusy("your balance kept moving while the top-up was checked: try again")
        return None if look is None else look.status
