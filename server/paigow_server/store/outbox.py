"""The table outbox: what a table commit causes outside its table's hash slot, delivered exactly once.

Used on a Redis Cluster (``TableRepo(outbox=True)``), and on one Redis only under ``Durability``, where a
commit's effects other than its buy-ins wait here until a replica holds the commit (``direct_commit``:
``CONFIRM_DELIVER`` applies the entry with ``APPLY_LUA``, the sweep delivers what an unconfirmed commit
left). A plain single Redis applies the effects in the commit script itself.

A commit runs in its table's slot (``{table_id}``); balances, hand history, the ledger, the rounds export
and the house result live in the ``{global}`` slot. So the commit script appends one **outbox entry** to the
table's outbox (``keys.table_outbox``, a list, oldest first) in the same atomic script as the new state:

    {"seq": n, "table_id": ..., "credits": [[player_id, "cents"], ...], "house": "cents",
     "ledger": [entry JSON, ...], "history": [[player_id, entry JSON], ...], "rounds": [export JSON, ...],
     "holds": [hold id, ...], "seating": [seating effect, ...]}

(``seating``, only when the commit has some: a host's bar, the players' waiting lists, ``seating_effects``.)

``seq`` counts the table's entries from 1 (``keys.table_outbox_seq``, written by the same script). An
``apply`` script in ``{global}`` then writes the entry there: the credits to the balances (a player gone
meanwhile: to the bank), the ledger entries, the history entries, the rounds, the house result, the seating
effects, the consumed holds' records deleted, and ``keys.OUTBOX_APPLIED[table_id] = seq``. It applies
entry ``seq`` only when the table's last applied one is ``seq - 1``: an entry already applied is a no-op
(``DONE``), one ahead of its turn is refused (``GAP``). Delivery is at least once (the committing process
applies right after its commit; ``Outbox.sweep`` applies whatever a dead process left, on every process's
sweep), application is idempotent and in order: so every entry takes effect exactly once (docs/cluster.md).
Applied entries are trimmed from the outbox afterwards (``_TRIM``, in the table's slot).
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from redis.asyncio import Redis

from paigow_server.store import keys
from paigow_server.store.errors import store_boundary
from paigow_server.store.history import HISTORY_LENGTH
from paigow_server.store.seating_effects import SEATING_LUA, SeatingEffect, effect_keys

__all__ = ["APPLY_LUA", "FIXED_APPLY_KEYS", "Outbox", "OutboxEntry", "apply_keys", "entry_seq"]

log = logging.getLogger("paigow_server.outbox")

# Applies decoded entry ``e`` of table ``table_id`` (its ``seq``, a string): ``k`` names the keys (applied
# hash, holds hash, ledger, house, rounds, issued), ``first`` is the index in KEYS of the first credit's
# player hash, which the other credits' and then one history list per history entry follow, then the
# seating effects' keys.
APPLY_LUA = SEATING_LUA + """
local function apply_entry(e, k, first, table_id, seq, history_length, now)
  for i, credit in ipairs(e['credits']) do
    local key = KEYS[first + i - 1]
    if redis.call('EXISTS', key) == 1 then
      redis.call('HINCRBY', key, 'balance', credit[2])
    else
      redis.call('DECRBY', k.issued, credit[2])
      e['ledger'][#e['ledger'] + 1] = cjson.encode({kind = 'guest_expired',
        from_account = 'player:' .. credit[1], to_account = 'bank', amount_cents = tonumber(credit[2]),
        ts_ms = tonumber(now), table_id = table_id, round_id = cjson.null, player_id = credit[1],
        reason = 'player_gone'})
    end
  end
  for _, text in ipairs(e['ledger']) do redis.call('XADD', k.ledger, '*', 'e', text) end
  if e['house'] ~= '0' then redis.call('INCRBY', k.house, e['house']) end
  local first_history = first + #e['credits']
  for i, item in ipairs(e['history']) do
    local key = KEYS[first_history + i - 1]
    redis.call('LPUSH', key, item[2])
    redis.call('LTRIM', key, 0, tonumber(history_length) - 1)
  end
  if e['seating'] then apply_seating(e['seating'], first_history + #e['history']) end
  for _, text in ipairs(e['rounds']) do redis.call('XADD', k.rounds, '*', 'e', text) end
  for _, hold_id in ipairs(e['holds']) do redis.call('HDEL', k.holds, hold_id) end
  redis.call('HSET', k.applied, table_id, seq)
end
"""

# KEYS: 1 applied hash, 2 holds hash, 3 ledger, 4 house, 5 rounds, 6 issued, then one player hash per
#       credit and one history list per history entry, in the entry's order.
# ARGV: 1 table id, 2 seq, 3 entry JSON, 4 history length, 5 now (ms: a player-gone entry's time).
_APPLY = APPLY_LUA + """
local applied = tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '0')
local seq = tonumber(ARGV[2])
if seq <= applied then return 'DONE' end
if seq ~= applied + 1 then return 'GAP' end
apply_entry(cjson.decode(ARGV[3]), {applied = KEYS[1], holds = KEYS[2], ledger = KEYS[3], house = KEYS[4],
            rounds = KEYS[5], issued = KEYS[6]}, 7, ARGV[1], ARGV[2], ARGV[4], ARGV[5])
return 'OK'
"""

FIXED_APPLY_KEYS = 6

# KEYS: 1 outbox, 2 the table's hold marks. ARGV: 1 the last applied seq, 2 a channel ('' = none) and
# 3 a message to publish there once trimmed (the commit whose entry was just delivered).
# Drops the applied entries from the head of the outbox, and the ``consumed`` marks of their holds: once
# an entry is applied its holds' records are gone from {global}, so a late release can refund nothing
# whatever the mark says, and no commit names those holds again (only the one that consumed them did).
_TRIM = """
local upto = tonumber(ARGV[1])
local dropped = 0
while true do
  local head = redis.call('LINDEX', KEYS[1], 0)
  if not head then break end
  local seq = tonumber(string.match(head, '^{"seq":(%d+),'))
  if not seq or seq > upto then break end
  for _, hold_id in ipairs(cjson.decode(head)['holds']) do
    if redis.call('HGET', KEYS[2], hold_id) == 'consumed' then redis.call('HDEL', KEYS[2], hold_id) end
  end
  redis.call('LPOP', KEYS[1])
  dropped = dropped + 1
end
if ARGV[2] ~= '' then redis.call('PUBLISH', ARGV[2], ARGV[3]) end
return dropped
"""

_SEQ = re.compile(r'\{"seq":(\d+),')


def entry_seq(text: str) -> int:
    """The ``seq`` of an outbox entry's JSON (always its first field)."""
    match = _SEQ.match(text)
    if match is None:
        raise ValueError(f"not an outbox entry: {text[:60]!r}")
    return int(match.group(1))


_compact = json.JSONEncoder(separators=(",", ":")).encode


@dataclass(slots=True)
class OutboxEntry:
    """One commit's consequences outside its table's slot (all JSON texts written as they are)."""

    table_id: str
    credits: list[tuple[str, int]] = field(default_factory=list)
    house_cents: int = 0
    ledger: list[str] = field(default_factory=list)
    history: list[tuple[str, str]] = field(default_factory=list)
    rounds: list[str] = field(default_factory=list)
    holds: list[str] = field(default_factory=list)
    debits: list[tuple[str, int]] = field(default_factory=list)
    """Buy-ins its commit debited from the balances already (one Redis under ``Durability``:
    ``direct_commit``); only the money check reads them (``money``), the entry's ledger has their
    ``buy_in`` entries. Not in the JSON when empty."""
    seating: list[SeatingEffect] = field(default_factory=list)
    """The commit's seating effects (``seating_effects``). Not in the JSON when empty."""

    def empty(self) -> bool:
        return not (self.credits or self.house_cents or self.ledger or self.history or self.rounds
                    or self.holds or self.debits or self.seating)

    def body_json(self) -> str:
        """The entry without its ``seq`` (the commit script puts ``{"seq":n,`` in front)."""
        return _compact({"table_id": self.table_id,
                         "credits": [[p, str(c)] for p, c in self.credits],
                         "house": str(self.house_cents), "ledger": self.ledger,
                         "history": [[p, t] for p, t in self.history], "rounds": self.rounds,
                         "holds": self.holds,
                         **({"debits": [[p, str(c)] for p, c in self.debits]} if self.debits else {}),
                         **({"seating": self.seating} if self.seating else {})})[1:]


def apply_keys(entry: dict[str, Any]) -> list[str]:
    """The keys ``_APPLY`` takes for ``entry``; from the 7th on, those of ``APPLY_LUA``'s players and
    seating effects."""
    return [keys.OUTBOX_APPLIED, keys.HOLDS, keys.LEDGER, keys.HOUSE_NET, keys.ROUNDS, keys.MONEY_ISSUED,
            *(keys.player(str(p)) for p, _ in entry["credits"]),
            *(keys.history(str(p)) for p, _ in entry["history"]), *effect_keys(entry.get("seating", ()))]


@store_boundary
class Outbox:
    def __init__(self, redis: Redis) -> None:
        self.redis = redis
        self._apply = redis.register_script(_APPLY)
        self._trim = redis.register_script(_TRIM)

    async def apply_entry(self, table_id: str, text: str, *, now_ms: int) -> str:
        """Apply one entry (its full JSON, ``seq`` first): ``OK``, ``DONE`` (applied before) or ``GAP``
        (an earlier entry of the table is not applied yet)."""
        entry = json.loads(text)
        reply = await self._apply(keys=apply_keys(entry),
                                  args=[table_id, entry_seq(text), text, HISTORY_LENGTH, now_ms])
        return reply.decode() if isinstance(reply, bytes) else str(reply)

    async def after_commit(self, table_id: str, text: str, *, now_ms: int,
                           publish: tuple[str, str] | None = None) -> None:
        """Apply the entry a commit just wrote (and any earlier one still waiting), then trim, and then
        publish the commit (``publish``: channel, message), so that whoever is shown it finds its money
        and history where they go."""
        if await self.apply_entry(table_id, text, now_ms=now_ms) == "GAP":
            await self.deliver(table_id, now_ms=now_ms, publish=publish, upto=entry_seq(text))
            return
        await self._trim_and_publish(table_id, entry_seq(text), publish)

    async def _trim_and_publish(self, table_id: str, upto: int, publish: tuple[str, str] | None) -> None:
        channel, message = publish or ("", "")
        await self._trim(keys=[keys.table_outbox(table_id), keys.table_holds(table_id)],
                         args=[upto, channel, message])

    async def pending(self, table_id: str) -> list[str]:
        """The table's outbox entries, oldest first (applied ones not trimmed yet included)."""
        return [_text(t) for t in await self.redis.lrange(keys.table_outbox(table_id), 0, -1)]

    async def applied(self) -> dict[str, int]:
        raw = cast("dict[Any, Any]", await self.redis.hgetall(keys.OUTBOX_APPLIED))
        return {_text(k): int(v) for k, v in raw.items()}

    async def deliver(self, table_id: str, *, now_ms: int, publish: tuple[str, str] | None = None,
                      upto: int | None = None) -> int:
        """Apply every entry of the table's outbox not applied yet, in order (none past ``upto``: the last
        one a replica holds, ``confirmed.py``), then trim (and publish ``publish``, as ``after_commit``):
        how many this call applied (entries another process applied meanwhile count as done)."""
        done = 0
        last = 0
        for text in await self.pending(table_id):
            if upto is not None and entry_seq(text) > upto:
                break
            reply = await self.apply_entry(table_id, text, now_ms=now_ms)
            if reply == "GAP":
                log.error("outbox of %s: entry %d is ahead of the last applied one", table_id,
                          entry_seq(text))
                break
            done += reply == "OK"
            last = entry_seq(text)
        if last or publish is not None:
            await self._trim_and_publish(table_id, last, publish)
        return done

    async def sweep(self, table_ids: Sequence[str], *, now_ms: int,
                    upto: Sequence[int | None] | None = None) -> int:
        """Deliver the outbox of every table in ``table_ids`` that has entries (each up to its ``upto``):
        how many were applied."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for table_id in table_ids:
                pipe.llen(keys.table_outbox(table_id))
            lengths = await pipe.execute()
        applied = 0
        limits = upto if upto is not None else [None] * len(table_ids)
        for table_id, length, limit in zip(table_ids, lengths, limits, strict=True):
            if int(length):
                applied += await self.deliver(table_id, now_ms=now_ms, upto=limit)
        return applied


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
