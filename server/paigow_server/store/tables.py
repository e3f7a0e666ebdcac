"""``TableRepo``: table states in Redis, written by compare-and-set together with everything they cause.

``commit(commit)`` writes the core's ``Commit`` (``paigow.table.commit``): the new state if the table is
still at the version it was decided on (and, when a fencing token is given, it is the table's current
one), with everything it causes (its ``effects``, made in the core by ``paigow.ledger.effects``:
balances, ledger entries, hand history, the rounds export, the house result; and its seating effects,
``seating_effects``: a host's bar, the players' waiting lists):
either all of it happens or none, so a round is settled exactly once, whatever crashes. How depends on the
topology; a commit is published in exactly one way on each:

- **One Redis, plain or under Sentinel** (every key on one node): one ``EVALSHA`` does it all
  (``direct_commit``): the checks, a buy-in debited from the player's balance (``INSUFFICIENT_BALANCE``
  answered by the script), the state, the log, the request id, the table's rounds list, the effects, the
  deadline index and the publication. One round trip, nothing to finish afterwards. When replicas must
  hold each commit (``Durability``) the script and ``WAIT`` go out together and the script publishes
  nothing: the effects other than the buy-ins wait as an outbox entry, and once a replica acknowledged the
  commit one more script confirms it, applies that entry and publishes the commit
  (``durability.confirmed_then``); else the commit is ``UNCONFIRMED``, and every reader of what may be
  shown (``shown``: ``confirmed.ShownTables``) stops at the table's confirmed version until a replica
  holds it (the sweep then delivers the entry).
- **A Redis Cluster** (``outbox=True`` runs it on one Redis, for its tests): holds, one script on the
  table's slot and an outbox entry delivered afterwards (``outbox_commit``, docs/cluster.md).

What a dead process leaves undone (an outbox entry, a hold, an index entry) is finished by ``sweep``
(``realtime.outbox_sweeper``), every few seconds where a commit can leave something behind
(``leaves_work_behind``: the cluster's outbox, or a commit no replica confirmed); on a plain single Redis
once, at start (what an earlier version left).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping, Sequence
from typing import Any, cast

from redis.asyncio import Redis, RedisCluster
from redis.exceptions import RedisError

from paigow.ledger.effects import Effects
from paigow.ledger.home_entries import plays_home_chips
from paigow.protocol.projection import ViewerUpdate
from paigow.table.commit import Commit, VersionedEvents
from paigow.table.events import Event
from paigow.table.state import TableState
from paigow_server.store import keys
from paigow_server.store.codec import commit_from_json, commit_to_json, state_from_json, state_to_json
from paigow_server.store.commit_result import CommitNotConfirmed, CommitResult, deadline_arg
from paigow_server.store.confirmed import ShownTables, missed_commits
from paigow_server.store.direct_commit import (
    CONFIRM_DELIVER,
    DIRECT_COMMIT,
    DirectCall,
    direct_call,
    state_delta,
)
from paigow_server.store.durability import Durability, OutcomeUnknown, confirmed_then
from paigow_server.store.errors import store_boundary
from paigow_server.store.history import keep_round_times, rounds_kept
from paigow_server.store.holds import Holds
from paigow_server.store.outbox import Outbox
from paigow_server.store.outbox_commit import REQUESTS_KEPT, CommitWrites, OutboxCommits, writes_of
from paigow_server.store.seating_effects import SeatingEffect, seating_effects

log = logging.getLogger("paigow_server.tables")

__all__ = ["DEFAULT_LOG_LENGTH", "REQUESTS_KEPT", "CommitNotConfirmed", "CommitResult", "CommitWrites",
           "TableRepo", "writes_of"]

DEFAULT_LOG_LENGTH = 500


# The deadline index entry of table ARGV[a] (deadline ARGV[d], '' = none) in sorted set KEYS[k].
_SET_DEADLINE = """
local function set_deadline(k, a, d)
  if ARGV[d] == '' then redis.call('ZREM', KEYS[k], ARGV[a])
  else redis.call('ZADD', KEYS[k], ARGV[d], ARGV[a]) end
end
"""

# KEYS: 1 table hash, 2 tables zset, 3 deadline index. ARGV: 1 state JSON, 2 version, 3 creation number,
#       4 table id, 5 next deadline ('' = none). (Used on one Redis; ``create`` splits it on a cluster.)
_CREATE = _SET_DEADLINE + """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'state', ARGV[1], 'version', ARGV[2], 'deadline', ARGV[5])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[4])
set_deadline(3, 4, 5)
return 1
"""

# KEYS: 1 table hash. ARGV: 1 state JSON, 2 version, 3 next deadline ('' = none). A cluster's create: the
#       table first (in its slot), then its index entries.
_CREATE_TABLE = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'state', ARGV[1], 'version', ARGV[2], 'deadline', ARGV[3])
return 1
"""

def _now_ms() -> int:
    return time.time_ns() // 1_000_000


def _text(reply: Any) -> str:
    return reply.decode() if isinstance(reply, bytes) else str(reply)


_FIELD_OF_EACH = """
local out = {}
for i = 1, #KEYS do
  out[i] = redis.call('HGET', KEYS[i], ARGV[1])
end
return out
"""
"""One field of each table's hash, where every key is on the one Redis (not a cluster's slots): one command
where a pipeline of HGETs is one each."""

FIELDS_CHUNK = 1_000
"""Tables read by one ``_FIELD_OF_EACH`` call at most (a short script: Redis serves nobody else meanwhile)."""

TEXTS_KEPT = 10_000
"""State texts remembered per process (one per table, the last loaded or written): a commit over one sends
only the part of the new state's text that changed (``direct_commit.state_delta``)."""


@store_boundary
class TableRepo:
    def __init__(self, redis: Redis, *, log_length: int = DEFAULT_LOG_LENGTH,
                 durability: Durability | None = None, outbox: bool | None = None) -> None:
        """``durability``: how many replicas must acknowledge each commit (default none). ``outbox``: write
        commits through the outbox and holds (default: on a Redis Cluster only; elsewhere one script does
        all, ``direct_commit``; the tests of the cluster's protocol run it on one Redis)."""
        self.redis = redis
        self.log_length = log_length
        self.durability = durability or Durability()
        self.cluster = isinstance(redis, RedisCluster)
        self.direct = not (self.cluster if outbox is None else outbox)
        """One script per commit (``direct_commit``), else the outbox and holds (docs/cluster.md)."""
        self.leaves_work_behind = not self.direct or self.durability.replica_acks > 0
        """Whether a commit can leave something for ``sweep`` (an outbox entry to deliver, a hold to
        release, a deadline index entry to repair): through the outbox, or a commit no replica confirmed.
        One script per commit leaves nothing: it all happens or none of it does."""
        self._direct = redis.register_script(DIRECT_COMMIT)
        self._confirm_deliver = redis.register_script(CONFIRM_DELIVER)
        self._texts: dict[str, tuple[int, str]] = {}
        self.holds = Holds(redis, durability=self.durability)
        self.outbox = Outbox(redis)
        self._outboxed = OutboxCommits(redis, durability=self.durability, holds=self.holds,
                                       outbox=self.outbox, log_length=log_length,
                                       set_deadline=lambda table_id, at: self._set_deadline(table_id, at))
        """The commit on a Cluster (``outbox_commit``)."""
        self._create = redis.register_script(_CREATE)
        self._field_each = None if self.cluster else redis.register_script(_FIELD_OF_EACH)
        self._create_table = redis.register_script(_CREATE_TABLE)
        self.shown = ShownTables(self)
        """Where to read what may be shown to anyone (feeds, resumes, snapshots, HTTP reads): under
        ``Durability`` only what a replica holds (``confirmed.py``), else the plain reads."""

    async def next_id(self) -> str:
        """A new table id: ``t1``, ``t2``..."""
        return f"t{await self.redis.incr(keys.TABLE_SEQ)}"

    async def create(self, state: TableState) -> bool:
        """Store a new table; False (and nothing written) if the id is taken."""
        deadline = deadline_arg(state)
        if not self.cluster:
            created = await self._create(keys=[keys.table(state.table_id), keys.TABLES, keys.DEADLINES],
                                         args=[state_to_json(state), state.version, _now_ms(), state.table_id,
                                               deadline])
            return int(created) == 1
        # A cluster: the table in its slot, then its index entries in {global}. A crash in between leaves a
        # table no listing shows; its id is never handed out again (``next_id``), so nothing else is lost.
        if int(await self._create_table(keys=[keys.table(state.table_id)],
                                        args=[state_to_json(state), state.version, deadline])) != 1:
            return False
        await self.redis.zadd(keys.TABLES, {state.table_id: _now_ms()}, nx=True)
        await self._set_deadline(state.table_id, deadline)
        return True

    async def _set_deadline(self, table_id: str, deadline: int | str) -> None:
        if deadline == "":
            await self.redis.zrem(keys.DEADLINES, table_id)
        else:
            await self.redis.zadd(keys.DEADLINES, {table_id: deadline})

    async def load(self, table_id: str) -> TableState | None:
        text = await self.redis.hget(keys.table(table_id), "state")
        return None if text is None else self._loaded(table_id, text)

    async def load_many(self, table_ids: Sequence[str]) -> list[TableState | None]:
        texts = await self._field_of_each(table_ids, "state")
        return [None if text is None else self._loaded(table_id, text)
                for table_id, text in zip(table_ids, texts, strict=True)]

    def _loaded(self, table_id: str, text: str | bytes) -> TableState:
        state = state_from_json(text)
        if self.direct:
            self._remember(table_id, state.version, _text(text))
        return state

    def _remember(self, table_id: str, version: int, text: str) -> None:
        texts = self._texts
        texts.pop(table_id, None)
        texts[table_id] = (version, text)
        if len(texts) > TEXTS_KEPT:
            del texts[next(iter(texts))]

    async def version(self, table_id: str) -> int | None:
        text = await self.redis.hget(keys.table(table_id), "version")
        return None if text is None else int(text)

    async def versions(self, table_ids: Sequence[str]) -> list[int | None]:
        """``version`` of each table, in one round trip."""
        texts = await self._field_of_each(table_ids, "version")
        return [None if text is None else int(text) for text in texts]

    async def _field_of_each(self, table_ids: Sequence[str], field: str) -> list[str | None]:
        """``field`` of each table in one round trip: on one Redis one script call per ``FIELDS_CHUNK``
        tables, on a cluster a pipeline of HGETs (the keys are on many nodes)."""
        if self._field_each is not None:
            found: list[str | None] = []
            for start in range(0, len(table_ids), FIELDS_CHUNK):
                chunk = [keys.table(table_id) for table_id in table_ids[start:start + FIELDS_CHUNK]]
                if chunk:
                    found += [None if v is None else _text(v)
                              for v in await self._field_each(keys=chunk, args=[field])]
            return found
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
        state's version: fills in tables written before the index existed, and repairs an entry a process
        that died between a commit and its index write left behind. A table committed meanwhile may get
        its older deadline back for a moment; its own process rewrites it (``commit``) and the timers
        treat an early deadline as a no-op tick."""
        if not states:
            return
        current = await self.versions([s.table_id for s in states])
        async with self.redis.pipeline(transaction=False) as pipe:
            for state, version in zip(states, current, strict=True):
                if version == state.version:
                    deadline = deadline_arg(state)
                    if deadline == "":
                        pipe.zrem(keys.DEADLINES, state.table_id)
                    else:
                        pipe.zadd(keys.DEADLINES, {state.table_id: deadline})
            await pipe.execute()

    async def commit(self, commit: Commit, *, fence: int | None = None, request_id: str | None = None,
                     limits_generation: int | None = None) -> CommitResult:
        """Write ``commit.after`` if the table is still at ``commit.before.version``, with the commit's
        effects (worked out by the core: ``paigow.table.commit``) and, in its log entry and publication,
        each kind of viewer's update text (``commit.views``).
        ``fence``: the writer's lease token; the write is refused (FENCED) unless it is current.
        ``request_id``: a forwarded command's id; the write is refused (DUPLICATE) when a commit of that id
        was written already, and is remembered with the new version otherwise (``committed_version``).
        ``limits_generation`` (one Redis only): refused (LIMITS) unless the deployment's limits generation is
        still this one."""
        before, after, events, now, effects = (commit.before, commit.after, commit.events, commit.now_ms,
                                               commit.effects)
        updates: Mapping[str, ViewerUpdate] | None = None
        views: Mapping[str, str] | None = commit.views
        seating = seating_effects(commit)
        if self.direct:
            result = await self._commit_direct(before, after, events, effects, fence=fence, now_ms=now,
                                               request_id=request_id, updates=updates, views=views,
                                               seating=seating, limits_generation=limits_generation)
        else:
            result = await self._outboxed.commit(before, after, events, effects, seating, fence=fence,
                                                 now_ms=now, request_id=request_id, updates=updates,
                                                 views=views)
        if result is CommitResult.OK and plays_home_chips(after):
            await keep_round_times(self.redis, after.table_id, effects.rounds, now)
        return result

    async def _commit_direct(self, before: TableState, after: TableState, events: Sequence[Event],
                             effects: Effects, *, fence: int | None, now_ms: int, request_id: str | None,
                             updates: Mapping[str, ViewerUpdate] | None,
                             views: Mapping[str, str] | None, seating: Sequence[SeatingEffect] = (),
                             limits_generation: int | None = None) -> CommitResult:
        """The whole commit in one ``EVALSHA`` (``direct_commit``): no hold, no outbox, no round trip
        after it (under ``Durability``: ``_send_direct``). Sent again with the whole state only if the
        stored text is not the one remembered."""
        table_id = after.table_id
        confirming = self.shown.confirming
        call = direct_call(table_id, before.version, after.version, effects,
                           commit_to_json(after.version, events, updates, views=views),
                           channel="" if confirming else keys.table_channel(table_id), fence=fence,
                           deadline=deadline_arg(after), request_id=request_id, now_ms=now_ms,
                           log_length=self.log_length, requests_kept=REQUESTS_KEPT, durable=confirming,
                           seating=seating, rounds_kept=rounds_kept(after),
                           limits_generation=limits_generation)
        text = state_to_json(after)
        new = text.encode()
        known = self._texts.get(table_id)
        if known is not None and known[0] == before.version:
            part, delta = state_delta(known[1].encode(), new)
            reply = await self._send_direct(call, part, delta, now_ms)
            if reply[0] == "RESEND":
                log.info("state text of %s at version %d is not the one remembered: sent whole", table_id,
                         before.version)
        else:
            reply = ("RESEND", None)
        if reply[0] == "RESEND":
            reply = await self._send_direct(call, new, "", now_ms)
        result = CommitResult(reply[0])
        if result is CommitResult.OK:
            self._remember(table_id, after.version, text)
        else:
            self._texts.pop(table_id, None)
        if result is CommitResult.OK and reply[1] == "GAP":  # an earlier unconfirmed commit's entry waits
            await self._deliver_late(table_id, call, after.version, now_ms)
        return result

    async def _send_direct(self, call: DirectCall, state: str | bytes, delta: str,
                           now_ms: int) -> tuple[str, str | None]:
        """(the commit's result, under ``Durability`` ``CONFIRM_DELIVER``'s answer or None). Under
        ``Durability``: the script and ``WAIT`` in one round trip, then the confirmation, delivery and
        publication in one more (``durability.confirmed_then``)."""
        if not self.shown.confirming:
            return _text((await self._direct(keys=call.keys, args=call.args(state, delta)))[0]), None
        channel = keys.table_channel(str(call.head[0]))

        def then(reply: Any) -> tuple[Any, list[str], list[str | int]]:
            return (self._confirm_deliver, *call.confirm_deliver(int(reply[1]), now_ms, channel))

        try:
            reply, acked, delivered = await confirmed_then(self.redis, self._direct, call.keys,
                                                           call.args(state, delta), self.durability, then)
        except OutcomeUnknown:
            return CommitResult.UNCONFIRMED.value, None
        result = _text(reply[0])
        if result == "OK" and acked < self.durability.replica_acks:
            return CommitResult.UNCONFIRMED.value, None
        return result, None if delivered is None else _text(delivered)

    async def _deliver_late(self, table_id: str, call: DirectCall, version: int, now_ms: int) -> None:
        """Deliver the table's waiting outbox entries up to this commit's, then publish it."""
        try:
            await self.outbox.deliver(table_id, now_ms=now_ms, publish=(keys.table_channel(table_id),
                                                                       call.commit))
        except (RedisError, OSError) as exc:
            log.warning("outbox of %s not delivered after version %d: %s (the sweep delivers it)", table_id,
                        version, exc)

    async def sweep(self, *, now_ms: int | None = None) -> tuple[int, int]:
        """Finish what dead processes left: deliver every table's waiting outbox entries, release stale
        holds, repair the deadline index. (outbox entries applied, holds refunded)."""
        now = _now_ms() if now_ms is None else now_ms
        ids = await self.list_ids()
        upto = await self.shown.confirmed_seqs(ids)
        applied = await self.outbox.sweep(ids, now_ms=now, upto=upto)
        refunded = await self.holds.sweep(now_ms=now)
        await self._repair_deadlines(ids)
        return applied, refunded

    async def _repair_deadlines(self, table_ids: Sequence[str]) -> None:
        """Set each table's deadline index entry from the deadline its last commit recorded in the table."""
        deadlines = await self._field_of_each(table_ids, "deadline")
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.zrange(keys.DEADLINES, 0, -1, withscores=True)
            (indexed,) = await pipe.execute()
        index = {str(t.decode() if isinstance(t, bytes) else t): int(score) for t, score in indexed}
        fixes: list[tuple[str, str | None]] = []
        for table_id, deadline in zip(table_ids, deadlines, strict=True):
            if deadline is None:  # written before the table kept its deadline: the timers' start-up sync
                continue
            want = int(deadline) if deadline != "" else None
            if index.get(table_id) != want:
                fixes.append((table_id, deadline))
        for table_id, deadline in fixes:
            await self._set_deadline(table_id, deadline or "")

    async def committed_version(self, table_id: str, request_id: str) -> int | None:
        """The version the commit of ``request_id`` wrote, or None when no such commit is remembered.
        Under ``Durability`` a commit no replica holds yet raises ``CommitNotConfirmed``: the command ran,
        but it may not be answered ``accepted`` (``confirmed.py``)."""
        if not self.shown.confirming:
            score = await self.redis.zscore(keys.table_requests(table_id), request_id)
            return None if score is None else int(score)
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.zscore(keys.table_requests(table_id), request_id)
            pipe.hget(keys.table(table_id), "confirmed")
            score, confirmed = await pipe.execute()
        if score is not None and confirmed is not None and int(score) > int(confirmed):
            raise CommitNotConfirmed(f"the commit of request {request_id} (table {table_id} version "
                                     f"{int(score)}) is not confirmed by a replica yet")
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
        return None if current_text is None else missed_commits(int(current_text), texts, version)

    async def event_log(self, table_id: str) -> list[VersionedEvents]:
        return [commit_from_json(text) for text in await self.redis.lrange(keys.table_log(table_id), 0, -1)]
