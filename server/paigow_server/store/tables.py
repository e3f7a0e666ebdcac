"""``TableRepo``: table states in Redis, written by compare-and-set together with everything they cause.

``commit(before, after, events)`` runs one Lua script, atomic in Redis: it checks that the table is still
at ``before.version`` (and, when a fencing token is given, that it is the table's current one), checks
every balance a buy-in takes from, then writes the new state, appends the commit to the table's bounded
event log, applies the money and history effects (``effects.effects_of``: balances, ledger entries,
hand history, the table's list of its last settled rounds, the rounds stream, the house result), sets the
table's entry in the deadline index and publishes the commit on the table channel. Either all of it
happens or none: a round is settled exactly once, whatever crashes. When replicas must hold each commit
(``Durability``, under Sentinel) the script publishes nothing: ``durability.confirmed_eval`` runs it with
``WAIT`` and publishes it once confirmed, else the commit is ``UNCONFIRMED``.

The deadline index (``keys.DEADLINES``, a sorted set: table id -> ``next_deadline`` of its state, no entry
when it has none) is written by the same scripts as the state, so the timers of every process can find due
tables without loading their states.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import Any, cast

from redis.asyncio import Redis

from paigow.protocol.projection import ViewerUpdate
from paigow.table.events import Event
from paigow.table.machine import next_deadline
from paigow.table.state import TableState
from paigow_server.store import keys
from paigow_server.store.codec import (
    VersionedEvents,
    commit_from_json,
    commit_to_json,
    state_from_json,
    state_to_json,
)
from paigow_server.store.durability import Durability, OutcomeUnknown, confirmed_eval
from paigow_server.store.effects import Effects, effects_of
from paigow_server.store.history import HISTORY_LENGTH, TABLE_ROUNDS_KEPT

__all__ = ["DEFAULT_LOG_LENGTH", "REQUESTS_KEPT", "CommitResult", "TableRepo"]

DEFAULT_LOG_LENGTH = 500
REQUESTS_KEPT = 1_000
"""Request ids of forwarded commands remembered per table (each with the version its commit wrote)."""


class CommitResult(StrEnum):
    OK = "OK"
    CONFLICT = "CONFLICT"
    """The table is not at ``before.version`` any more (or no longer exists): decide again."""
    INSUFFICIENT_BALANCE = "INSUFFICIENT_BALANCE"
    """A buy-in is more than the player's balance: nothing was written."""
    FENCED = "FENCED"
    """The fencing token given is not the table's current one: another process drives the table."""
    DUPLICATE = "DUPLICATE"
    """A commit of this request id was written already: the command ran once, nothing was written now."""
    UNCONFIRMED = "UNCONFIRMED"
    """Replicas are required (``Durability``) and too few acknowledged the commit in time, or the
    connection broke after it was sent: it may be lost in a failover, or may stand. Nothing was
    published; the caller must not report the command as done (``durability.py``)."""


# The deadline index entry of table ARGV[a] (deadline ARGV[d], '' = none) in sorted set KEYS[k].
_SET_DEADLINE = """
local function set_deadline(k, a, d)
  if ARGV[d] == '' then redis.call('ZREM', KEYS[k], ARGV[a])
  else redis.call('ZADD', KEYS[k], ARGV[d], ARGV[a]) end
end
"""

# KEYS: 1 table hash, 2 tables zset, 3 deadline index. ARGV: 1 state JSON, 2 version, 3 creation number,
#       4 table id, 5 next deadline ('' = none)
_CREATE = _SET_DEADLINE + """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'state', ARGV[1], 'version', ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[4])
set_deadline(3, 4, 5)
return 1
"""

# KEYS: 1 table hash, 2 event log, 3 fence counter, 4 deadline index, 5 the table's request ids, 6.. the
#       keys the effects touch (indexes in ops)
# ARGV: 1 expected version, 2 new version, 3 state JSON, 4 commit JSON, 5 log length, 6 channel,
#       7 fencing token ('' = none), 8 ops JSON: [["balance", k, delta], ["incr", k, n], ["xadd", k, json],
#       ["lpush", k, json, keep]] with amounts as strings (exact integers), 9 table id, 10 next deadline
#       of the new state ('' = none), 11 the command's request id ('' = none), 12 request ids kept
#       (channel '' = publish nothing: the caller publishes once replicas confirmed the commit)
_COMMIT = _SET_DEADLINE + """
local current = redis.call('HGET', KEYS[1], 'version')
if not current or current ~= ARGV[1] then return 'CONFLICT' end
if ARGV[7] ~= '' then
  if (redis.call('GET', KEYS[3]) or '0') ~= ARGV[7] then return 'FENCED' end
end
if ARGV[11] ~= '' and redis.call('ZSCORE', KEYS[5], ARGV[11]) then return 'DUPLICATE' end
local ops = cjson.decode(ARGV[8])
for _, op in ipairs(ops) do
  if op[1] == 'balance' and tonumber(op[3]) < 0 then
    local balance = redis.call('HGET', KEYS[op[2]], 'balance')
    if not balance or tonumber(balance) + tonumber(op[3]) < 0 then return 'INSUFFICIENT_BALANCE' end
  end
end
redis.call('HSET', KEYS[1], 'state', ARGV[3], 'version', ARGV[2])
set_deadline(4, 9, 10)
redis.call('RPUSH', KEYS[2], ARGV[4])
redis.call('LTRIM', KEYS[2], -tonumber(ARGV[5]), -1)
for _, op in ipairs(ops) do
  local kind, key = op[1], KEYS[op[2]]
  if kind == 'balance' then
    redis.call('HINCRBY', key, 'balance', op[3])
  elseif kind == 'incr' then
    redis.call('INCRBY', key, op[3])
  elseif kind == 'xadd' then
    redis.call('XADD', key, '*', 'e', op[3])
  elseif kind == 'lpush' then
    redis.call('LPUSH', key, op[3])
    redis.call('LTRIM', key, 0, tonumber(op[4]) - 1)
  end
end
if ARGV[11] ~= '' then
  redis.call('ZADD', KEYS[5], ARGV[2], ARGV[11])
  redis.call('ZREMRANGEBYRANK', KEYS[5], 0, -tonumber(ARGV[12]) - 1)
end
if ARGV[6] ~= '' then redis.call('PUBLISH', ARGV[6], ARGV[4]) end
return 'OK'
"""

# KEYS: 1 deadline index, 2.. table hashes. ARGV: per table, its id, the version its deadline was read at
#       and that deadline ('' = none). A table that moved on since keeps the entry its commit wrote.
_SYNC_DEADLINES = _SET_DEADLINE + """
for i = 2, #KEYS do
  local a = (i - 2) * 3 + 1
  if redis.call('HGET', KEYS[i], 'version') == ARGV[a + 1] then set_deadline(1, a, a + 2) end
end
return 0
"""


def _now_ms() -> int:
    return time.time_ns() // 1_000_000


def _deadline_arg(state: TableState) -> int | str:
    at = next_deadline(state)
    return "" if at is None else at


class _Ops:
    """The effects as script operations, each naming its key by index into KEYS."""

    def __init__(self, first_index: int) -> None:
        self.keys: list[str] = []
        self.ops: list[list[Any]] = []
        self._index: dict[str, int] = {}
        self._first = first_index

    def key(self, name: str) -> int:
        if name not in self._index:
            self._index[name] = self._first + len(self.keys)
            self.keys.append(name)
        return self._index[name]

    def add(self, kind: str, key: str, *args: Any) -> None:
        self.ops.append([kind, self.key(key), *args])


_compact = json.JSONEncoder(separators=(",", ":")).encode
"""``json.dumps(value, separators=(",", ":"))``, with one encoder instead of one per call."""


def _record_json(record: dict[str, Any], records: dict[int, str]) -> str:
    """``_compact(record)`` of a settlement's round record, written once per commit (``records``, by
    identity): the same dict is in the export entry, every player's history entry and the table's list."""
    text = records.get(id(record))
    if text is None:
        text = records[id(record)] = _compact(record)
    return text


def _entry_json(entry: dict[str, Any], records: dict[int, str]) -> str:
    """``_compact(entry)`` of a history or export entry. A settlement's round record (about 2.7 kB of JSON)
    is the last field, ``round``, of its export entry and of every player's history entry: its text
    (``_record_json``) is set in place."""
    record = entry.get("round")
    if record is None or next(reversed(entry)) != "round":
        return _compact(entry)
    text = _record_json(record, records)
    head = _compact({name: value for name, value in entry.items() if name != "round"})
    return f'{head[:-1]}{"," if len(head) > 2 else ""}"round":{text}}}'


FIRST_EFFECT_KEY = 6
"""KEYS index of the first key the effects touch in the commit script (the fixed keys come before it)."""


def _ops_of(effects: Effects) -> _Ops:
    ops = _Ops(first_index=FIRST_EFFECT_KEY)
    for change in effects.balances:
        ops.add("balance", keys.player(change.player_id), str(change.delta_cents))
    if effects.house_delta_cents:
        ops.add("incr", keys.HOUSE_NET, str(effects.house_delta_cents))
    for entry in effects.ledger:
        ops.add("xadd", keys.LEDGER, entry.to_json())
    records: dict[int, str] = {}
    for history in effects.history:
        ops.add("lpush", keys.history(history.player_id), _entry_json(history.record, records),
                HISTORY_LENGTH)
    for record in effects.rounds:
        ops.add("xadd", keys.ROUNDS, _entry_json(record, records))
    for record in effects.rounds:
        if record["status"] == "settled":  # a void is no round result: not in the table's list
            ops.add("lpush", keys.table_rounds(record["table_id"]), _record_json(record["round"], records),
                    TABLE_ROUNDS_KEPT)
    return ops


class TableRepo:
    def __init__(self, redis: Redis, *, log_length: int = DEFAULT_LOG_LENGTH,
                 durability: Durability | None = None) -> None:
        """``durability``: how many replicas must acknowledge each commit (default none)."""
        self.redis = redis
        self.log_length = log_length
        self.durability = durability or Durability()
        self._create = redis.register_script(_CREATE)
        self._commit = redis.register_script(_COMMIT)
        self._sync_deadlines = redis.register_script(_SYNC_DEADLINES)

    async def next_id(self) -> str:
        """A new table id: ``t1``, ``t2``..."""
        return f"t{await self.redis.incr(keys.TABLE_SEQ)}"

    async def create(self, state: TableState) -> bool:
        """Store a new table; False (and nothing written) if the id is taken."""
        created = await self._create(keys=[keys.table(state.table_id), keys.TABLES, keys.DEADLINES],
                                     args=[state_to_json(state), state.version, _now_ms(), state.table_id,
                                           _deadline_arg(state)])
        return int(created) == 1

    async def load(self, table_id: str) -> TableState | None:
        text = await self.redis.hget(keys.table(table_id), "state")
        return None if text is None else state_from_json(text)

    async def load_many(self, table_ids: Sequence[str]) -> list[TableState | None]:
        texts = await self._field_of_each(table_ids, "state")
        return [None if text is None else state_from_json(text) for text in texts]

    async def version(self, table_id: str) -> int | None:
        text = await self.redis.hget(keys.table(table_id), "version")
        return None if text is None else int(text)

    async def versions(self, table_ids: Sequence[str]) -> list[int | None]:
        """``version`` of each table, in one round trip."""
        texts = await self._field_of_each(table_ids, "version")
        return [None if text is None else int(text) for text in texts]

    async def _field_of_each(self, table_ids: Sequence[str], field: str) -> list[str | None]:
        async with self.redis.pipeline(transaction=False) as pipe:
            for table_id in table_ids:
                pipe.hget(keys.table(table_id), field)
            return cast("list[str | None]", await pipe.execute())

    async def list_ids(self) -> list[str]:
        """Every table id, oldest first."""
        return [str(table_id) for table_id in await self.redis.zrange(keys.TABLES, 0, -1)]

    async def count(self) -> int:
        return int(await self.redis.zcard(keys.TABLES))

    async def deadlines_until(self, until_ms: int) -> list[tuple[str, int]]:
        """``(table id, next deadline)`` of every table whose next deadline is at or before ``until_ms``,
        earliest first: one read of the deadline index, no state loaded."""
        entries = cast("list[tuple[str, float]]",
                       await self.redis.zrangebyscore(keys.DEADLINES, "-inf", until_ms, withscores=True))
        return [(str(table_id), int(score)) for table_id, score in entries]

    async def sync_deadlines(self, states: Sequence[TableState]) -> None:
        """Make the deadline index agree with ``states`` (loaded earlier), for each table still at that
        state's version: fills in tables written before the index existed. A table committed since keeps
        the entry its commit wrote."""
        if states:
            args: list[str | int] = []
            for state in states:
                args += [state.table_id, state.version, _deadline_arg(state)]
            await self._sync_deadlines(keys=[keys.DEADLINES, *(keys.table(s.table_id) for s in states)],
                                       args=args)

    async def commit(self, before: TableState, after: TableState, events: Sequence[Event], *,
                     fence: int | None = None, now_ms: int | None = None,
                     request_id: str | None = None,
                     updates: Mapping[str, ViewerUpdate] | None = None,
                     views: Mapping[str, str] | None = None) -> CommitResult:
        """Write ``after`` if the table is still at ``before.version``, with the effects of ``events``
        (and, in its log entry and publication, each kind of viewer's ``updates``, or their texts already
        made: ``views``, see ``codec.commit_views``).
        ``fence``: the writer's lease token; the write is refused (FENCED) unless it is current.
        ``request_id``: a forwarded command's id; the write is refused (DUPLICATE) when a commit of that id
        was written already, and is remembered with the new version otherwise (``committed_version``)."""
        if after.table_id != before.table_id:
            raise ValueError(f"commit of table {after.table_id!r} over table {before.table_id!r}")
        if after.version <= before.version:
            raise ValueError(f"commit from version {before.version} to {after.version}: must go forward")
        ops = _ops_of(effects_of(before, after, events, now_ms=_now_ms() if now_ms is None else now_ms))
        table_id = after.table_id
        commit_json = commit_to_json(after.version, events, updates, views=views)
        confirm = self.durability.replica_acks > 0
        channel = keys.table_channel(table_id)
        script_keys = [keys.table(table_id), keys.table_log(table_id), keys.table_fence(table_id),
                       keys.DEADLINES, keys.table_requests(table_id), *ops.keys]
        script_args: list[str | int] = [
            before.version, after.version, state_to_json(after), commit_json, self.log_length,
            "" if confirm else channel, "" if fence is None else fence, _compact(ops.ops), table_id,
            _deadline_arg(after), request_id or "", REQUESTS_KEPT]
        if not confirm:
            result = await self._commit(keys=script_keys, args=script_args)
            return CommitResult(result.decode() if isinstance(result, bytes) else result)
        try:
            reply, acked = await confirmed_eval(self.redis, self._commit, script_keys, script_args,
                                                self.durability, publish=(channel, commit_json))
        except OutcomeUnknown:
            return CommitResult.UNCONFIRMED
        if reply == CommitResult.OK and acked < self.durability.replica_acks:
            return CommitResult.UNCONFIRMED
        return CommitResult(reply)

    async def committed_version(self, table_id: str, request_id: str) -> int | None:
        """The version the commit of ``request_id`` wrote, or None when no such commit is remembered."""
        score = await self.redis.zscore(keys.table_requests(table_id), request_id)
        return None if score is None else int(score)

    async def commit_at(self, table_id: str, version: int) -> VersionedEvents | None:
        """The events of the commit that wrote ``version``, while the event log still holds it."""
        for text in await self.redis.lrange(keys.table_log(table_id), 0, -1):
            commit = commit_from_json(text)
            if commit.version == version:
                return commit
        return None

    async def events_since(self, table_id: str, version: int) -> list[VersionedEvents] | None:
        """The commits after ``version``, oldest first ([] when up to date), or None when the log no
        longer reaches back that far (or ``version`` is not one this table has had): send a snapshot."""
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.hget(keys.table(table_id), "version")
            pipe.lrange(keys.table_log(table_id), 0, -1)
            current_text, texts = await pipe.execute()
        if current_text is None or version < 0 or version > int(current_text):
            return None
        current = int(current_text)
        if version == current:
            return []
        commits = [commit_from_json(text) for text in texts]
        missed = [c for c in commits if c.version > version]
        if not missed or missed[0].version != version + 1 or missed[-1].version != current:
            return None
        return missed

    async def event_log(self, table_id: str) -> list[VersionedEvents]:
        return [commit_from_json(text) for text in await self.redis.lrange(keys.table_log(table_id), 0, -1)]
