"""Holds: a buy-in's money, taken from the balance before the table commit that seats the player.

On a Redis Cluster only (``TableRepo(outbox=True)``); on one Redis the commit script debits the balance
itself (``direct_commit``), and the sweep here finds no hold (or one an older version left).

A table's commit runs in the table's hash slot; a player's balance lives in the ``{global}`` slot (``keys``).
So a buy-in is two steps, each atomic in its slot, and a protocol between them that can neither lose nor
duplicate a cent (docs/cluster.md, "Buy-ins"):

1. ``reserve`` (``{global}``): check the balance, take the amount from it and record the hold
   (``keys.HOLDS``: hold id -> JSON ``{player_id, table_id, amount_cents, at_ms}``), with the ledger entry
   ``hold`` (player -> ``hold:{id}``). A balance too low changes nothing.
2. The table commit (table slot) *consumes* the hold: it refuses a hold id its table has marked already
   (``keys.table_holds``: id -> ``consumed`` | ``void``), else marks it ``consumed``; its outbox entry moves
   the money on (``buy_in``: ``hold:{id}`` -> seat) and deletes the hold record when applied (``outbox``).
3. A hold whose commit did not happen is released by ``release``: first **void** it in the table's slot
   (set the mark only if there is none), and only when the mark is then ``void`` refund it in ``{global}``
   (delete the record, money back to the balance, ledger ``release``; a record already gone refunds
   nothing). A void and a consumption are the same key's first writer: exactly one wins, so a hold is
   either seated or refunded, never both and never neither. The commit's caller releases its holds when
   its commit fails; ``sweep`` releases the holds older than ``HOLD_STALE_MS`` (a process that died between
   the two steps), and removes the records of consumed holds whose outbox entry was applied.

A player gone meanwhile (a guest collected) gets nothing back: the refund goes to the bank
(``guest_expired``), like the rest of a collected guest's money.
"""

from __future__ import annotations

import json
import logging
import secrets
import time
from dataclasses import dataclass
from typing import Any, cast

from redis.asyncio import Redis

from paigow.ledger.accounts import BANK, EntryKind, LedgerEntry, hold_account, player_account
from paigow_server.errors import ServerError
from paigow_server.store import keys
from paigow_server.store.durability import Durability, OutcomeUnknown, confirmed_eval
from paigow_server.store.errors import store_boundary
from paigow_server.store.fresh_guests import SETTLE_FRESH

__all__ = ["HOLD_STALE_MS", "Hold", "HoldUnconfirmed", "Holds"]

log = logging.getLogger("paigow_server.holds")

HOLD_STALE_MS = 30_000
"""A hold this old is released by the sweep: its commit is long over (or will be refused)."""

# KEYS: 1 player hash, 2 holds hash, 3 ledger, 4 players set, 5 guests index, 6 issued, 7 fresh guests
#       index. ARGV: 1 hold id, 2 amount, 3 minus the amount, 4 hold JSON, 5 ledger JSON, 6 player id. A
#       fresh guest is settled (``fresh_guests``) only once the balance covers the hold.
_RESERVE = SETTLE_FRESH + """
local balance = redis.call('HGET', KEYS[1], 'balance')
if not balance or tonumber(balance) < tonumber(ARGV[2]) then return 0 end
settle_fresh(KEYS[1], ARGV[6], KEYS[4], KEYS[5], KEYS[6], KEYS[3], KEYS[7])
redis.call('HINCRBY', KEYS[1], 'balance', ARGV[3])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[4])
redis.call('XADD', KEYS[3], '*', 'e', ARGV[5])
return 1
"""

# KEYS: 1 the table's hold marks. ARGV: 1 hold id. Answers the mark that stands: 'void' or 'consumed'.
_VOID = """
if redis.call('HSETNX', KEYS[1], ARGV[1], 'void') == 1 then return 'void' end
return redis.call('HGET', KEYS[1], ARGV[1])
"""

# KEYS: 1 holds hash, 2 ledger, 3 player hash, 4 issued. ARGV: 1 hold id, 2 the hold's JSON as read,
#       3 amount, 4 ledger JSON (release), 5 ledger JSON (to the bank: the player is gone).
# Only called once the table marked the hold 'void'. Answers 1 when it refunded, 0 when the record was gone.
_REFUND = """
if redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[2] then return 0 end
redis.call('HDEL', KEYS[1], ARGV[1])
if redis.call('EXISTS', KEYS[3]) == 1 then
  redis.call('HINCRBY', KEYS[3], 'balance', ARGV[3])
  redis.call('XADD', KEYS[2], '*', 'e', ARGV[4])
else
  redis.call('DECRBY', KEYS[4], ARGV[3])
  redis.call('XADD', KEYS[2], '*', 'e', ARGV[5])
end
return 1
"""

# KEYS: 1 holds hash. ARGV: 1 hold id, 2 the hold's JSON as read. Removes a consumed hold's record.
_FORGET = """
if redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[2] then return 0 end
return redis.call('HDEL', KEYS[1], ARGV[1])
"""


def _now_ms() -> int:
    return time.time_ns() // 1_000_000


@dataclass(frozen=True, slots=True)
class Hold:
    hold_id: str
    player_id: str
    table_id: str
    amount_cents: int
    at_ms: int

    def to_json(self) -> str:
        return json.dumps({"player_id": self.player_id, "table_id": self.table_id,
                           "amount_cents": self.amount_cents, "at_ms": self.at_ms}, separators=(",", ":"))

    @classmethod
    def from_json(cls, hold_id: str, text: str) -> Hold:
        data: dict[str, Any] = json.loads(text)
        return cls(hold_id, str(data["player_id"]), str(data["table_id"]), int(data["amount_cents"]),
                   int(data["at_ms"]))


class HoldUnconfirmed(ServerError, RuntimeError):
    """Replicas are required (``Durability``) and too few acknowledged the hold in time, or the connection
    broke after it was sent: it was released again (or never written), and the buy-in is not done."""


@store_boundary
class Holds:
    def __init__(self, redis: Redis, *, durability: Durability | None = None) -> None:
        """``durability``: replicas that must hold a hold before its commit is sent (as for commits): a
        failover must not take back a debit whose seat a later commit, on the promoted node, grants."""
        self.redis = redis
        self.durability = durability or Durability()
        self._reserve = redis.register_script(_RESERVE)
        self._void = redis.register_script(_VOID)
        self._refund = redis.register_script(_REFUND)
        self._forget = redis.register_script(_FORGET)

    async def reserve(self, player_id: str, table_id: str, amount_cents: int, *,
                      now_ms: int | None = None) -> Hold | None:
        """Take ``amount_cents`` from the balance into a new hold; None (nothing changed) when the balance
        is lower or the player does not exist."""
        if type(amount_cents) is not int or amount_cents <= 0:
            raise ValueError(f"hold amount_cents={amount_cents!r}: must be a positive whole number")
        at = _now_ms() if now_ms is None else now_ms
        hold = Hold("h_" + secrets.token_hex(12), player_id, table_id, amount_cents, at)
        entry = LedgerEntry(EntryKind.HOLD, player_account(player_id), hold_account(hold.hold_id),
                            amount_cents, at, table_id=table_id, player_id=player_id)
        script_keys = [keys.player(player_id), keys.HOLDS, keys.LEDGER, keys.PLAYERS, keys.GUESTS_SEEN,
                       keys.MONEY_ISSUED, keys.FRESH_GUESTS]
        script_args: list[str | int] = [hold.hold_id, amount_cents, -amount_cents, hold.to_json(),
                                        entry.to_json(), player_id]
        if self.durability.replica_acks == 0:
            done = await self._reserve(keys=script_keys, args=script_args)
            return hold if int(done) == 1 else None
        try:
            done, acked = await confirmed_eval(self.redis, self._reserve, script_keys, script_args,
                                               self.durability)
        except OutcomeUnknown as exc:
            await self.release(hold)  # it may have been written: void it and refund it if so
            raise HoldUnconfirmed(str(exc)) from exc
        if int(done) != 1:
            return None
        if acked < self.durability.replica_acks:
            await self.release(hold)
            raise HoldUnconfirmed(f"{acked} of {self.durability.replica_acks} replicas acknowledged the hold")
        return hold

    async def release(self, hold: Hold) -> bool:
        """Void ``hold`` at its table and, unless its commit consumed it first, refund it. True when this
        call refunded it."""
        mark = await self._void(keys=[keys.table_holds(hold.table_id)], args=[hold.hold_id])
        if _text(mark) != "void":
            return False  # consumed: the outbox entry of its commit moves the money to the seat
        return await self._refund_record(hold, hold.to_json())

    async def _refund_record(self, hold: Hold, text: str) -> bool:
        now = _now_ms()
        back = LedgerEntry(EntryKind.RELEASE, hold_account(hold.hold_id), player_account(hold.player_id),
                           hold.amount_cents, now, table_id=hold.table_id, player_id=hold.player_id)
        gone = LedgerEntry(EntryKind.GUEST_EXPIRED, hold_account(hold.hold_id), BANK, hold.amount_cents, now,
                           table_id=hold.table_id, player_id=hold.player_id, reason="hold_released")
        done = await self._refund(keys=[keys.HOLDS, keys.LEDGER, keys.player(hold.player_id),
                                        keys.MONEY_ISSUED],
                                  args=[hold.hold_id, text, hold.amount_cents, back.to_json(),
                                        gone.to_json()])
        if int(done) == 1:
            log.info("released hold %s of %s at %s", hold.hold_id, hold.player_id, hold.table_id)
        return int(done) == 1

    async def open_holds(self) -> dict[str, tuple[Hold, str]]:
        """Every hold record: id -> (hold, its JSON as stored)."""
        raw = cast("dict[Any, Any]", await self.redis.hgetall(keys.HOLDS))
        return {_text(k): (Hold.from_json(_text(k), _text(v)), _text(v)) for k, v in raw.items()}

    async def sweep(self, *, now_ms: int | None = None, stale_ms: int = HOLD_STALE_MS) -> int:
        """Release the holds older than ``stale_ms`` (void, then refund; a consumed one's record is
        removed instead: its money is at the seat). How many were refunded."""
        now = _now_ms() if now_ms is None else now_ms
        refunded = 0
        for hold_id, (hold, text) in (await self.open_holds()).items():
            if now - hold.at_ms < stale_ms:
                continue
            mark = _text(await self._void(keys=[keys.table_holds(hold.table_id)], args=[hold_id]))
            if mark == "void":
                refunded += await self._refund_record(hold, text)
            else:
                await self._forget(keys=[keys.HOLDS], args=[hold_id, text])
        return refunded


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
