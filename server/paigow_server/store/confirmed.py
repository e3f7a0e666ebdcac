"""What may be shown of a table when replicas must hold each commit: only what a replica acknowledged.

With ``Durability(replica_acks=N)`` a commit is answered ``accepted`` and published only after ``WAIT``
counted N acknowledgements (``durability.py``). But the commit is on the primary before that, and stays
there when the ``WAIT`` falls short (``UNCONFIRMED``: a primary promoted without a replica, or one cut off
by a partition, takes writes nobody acknowledges). So every other reader — a feed catching up from the
event log, a viewer resuming or joining, the HTTP reads of tables and rounds, the outbox sweep that moves a
settlement's money — stops at the table's **confirmed version**, a field of the table's hash (its
``{table_id}`` slot):

- ``confirmed``: the highest version a replica is known to hold. Written (``_CONFIRM``, only ever raised)
  right after a commit's ``WAIT`` succeeded, on the same connection; a later commit's successful ``WAIT``
  confirms every version before it; ``repair`` confirms a table whose newest version a replica holds by
  now (a write of its own, then ``WAIT``), which the fanout's 5 s check runs before catching up.
- ``cstate`` / ``cversion``: the state at ``confirmed`` whenever the newest state is not confirmed yet:
  each commit under ``Durability`` copies the state it replaces there while that one is the confirmed one
  (inside the commit script: no round trip). A snapshot shows it.
- ``cseq`` / ``crounds``: the table's outbox sequence and its count of settled-round records as of
  ``confirmed`` (``rounds_n`` counts the records pushed): the sweep delivers no outbox entry past
  ``cseq``, and the rounds list skips the records pushed after ``crounds``.

A table without ``confirmed`` (never committed under ``Durability``) is confirmed as it is. Without replica
acknowledgements none of this is read or written: each reader is the plain read, at the same cost.
"""

from __future__ import annotations

import contextlib
import json
import logging
from collections.abc import Sequence
from typing import Any, Protocol, cast

from redis.asyncio import Redis
from redis.exceptions import RedisError, ResponseError

from paigow.table.commit import VersionedEvents
from paigow.table.state import TableState
from paigow_server.errors import ServerError
from paigow_server.store import keys
from paigow_server.store.codec import commit_from_json, state_from_json
from paigow_server.store.durability import BROKEN, Durability
from paigow_server.store.errors import store_boundary
from paigow_server.store.history import History

__all__ = ["CONFIRM_LUA", "CONFIRM_SCRIPT", "SAVE_CONFIRMED_LUA", "ShownTables", "StateNotConfirmed",
           "missed_commits"]

log = logging.getLogger("paigow_server.tables")

# Run by a commit script before it writes the new state, under ``Durability`` only: ``current`` is the
# version being replaced, ``pushed`` how many settled rounds the commit puts on the table's list.
SAVE_CONFIRMED_LUA = """
local function save_confirmed(table_key, seq_key, current, pushed)
  local confirmed = redis.call('HGET', table_key, 'confirmed')
  if not confirmed then
    confirmed = current
    redis.call('HSET', table_key, 'confirmed', current, 'cseq', redis.call('GET', seq_key) or '0',
               'crounds', redis.call('HGET', table_key, 'rounds_n') or '0')
  end
  if confirmed == current then
    redis.call('HSET', table_key, 'cstate', redis.call('HGET', table_key, 'state'), 'cversion', current)
  end
  if pushed > 0 then redis.call('HINCRBY', table_key, 'rounds_n', pushed) end
end
"""

# Raises the table's ``confirmed`` to ``version`` (a version a replica holds; never past the table's
# version); at the newest version also ``cseq`` and ``crounds``. Answers the confirmed version.
CONFIRM_LUA = """
local function confirm(table_key, seq_key, version)
  local current = tonumber(redis.call('HGET', table_key, 'version') or '-1')
  local v = math.min(tonumber(version), current)
  local confirmed = tonumber(redis.call('HGET', table_key, 'confirmed') or '-1')
  if v <= confirmed then return confirmed end
  redis.call('HSET', table_key, 'confirmed', v)
  if v == current then
    redis.call('HSET', table_key, 'cseq', redis.call('GET', seq_key) or '0',
               'crounds', redis.call('HGET', table_key, 'rounds_n') or '0')
  end
  return v
end
"""

# KEYS: 1 table hash, 2 outbox seq. ARGV: 1 a version a replica holds. ``confirm``.
CONFIRM_SCRIPT = CONFIRM_LUA + "return confirm(KEYS[1], KEYS[2], ARGV[1])\n"

# KEYS: 1 table hash. A write of the table's own (so that ``WAIT`` has something to count), and the
# table's version then: everything up to it is held once a replica acknowledged this.
_TOUCH = """
local v = redis.call('HGET', KEYS[1], 'version')
if not v then return false end
redis.call('HSET', KEYS[1], 'ack_probe', v)
return v
"""

# KEYS: 1 table hash. Answers {shown version, its state JSON or false (none kept)} or false (no table).
_SHOWN_STATE = """
local h = redis.call('HMGET', KEYS[1], 'version', 'confirmed', 'cversion')
if not h[1] then return false end
if not h[2] or tonumber(h[2]) >= tonumber(h[1]) then return {h[1], redis.call('HGET', KEYS[1], 'state')} end
if h[3] == h[2] then return {h[2], redis.call('HGET', KEYS[1], 'cstate')} end
return {h[2], false}
"""


class StateNotConfirmed(RedisError, ServerError):
    """The table's newest state is not confirmed and the confirmed one is not kept (a rare race): nothing
    may be shown of it until a replica acknowledges it (the data store counts as unavailable: a
    ``RedisError`` first, so it is answered as one)."""


def _shown(version: Any, confirmed: Any) -> int | None:
    if version is None:
        return None
    return int(version) if confirmed is None else min(int(version), int(confirmed))


def missed_commits(current: int, texts: Sequence[str], version: int) -> list[VersionedEvents] | None:
    """The commits of the log ``texts`` after ``version`` up to ``current``, oldest first, or None when
    the log does not hold them all (``TableRepo.events_since``)."""
    if version < 0 or version > current:
        return None
    if version == current:
        return []
    missed = [c for c in (commit_from_json(text) for text in texts) if version < c.version <= current]
    if not missed or missed[0].version != version + 1 or missed[-1].version != current:
        return None
    return missed


class PlainReads(Protocol):
    """The newest state's readers (``TableRepo``), used as they are without replica acknowledgements."""

    redis: Redis
    durability: Durability

    async def load_many(self, table_ids: Sequence[str]) -> list[TableState | None]: ...

    async def versions(self, table_ids: Sequence[str]) -> list[int | None]: ...

    async def events_since(self, table_id: str, version: int) -> list[VersionedEvents] | None: ...


@store_boundary
class ShownTables:
    """The readers of what may be shown (``FeedSource`` of the fanout, the HTTP reads): under
    ``Durability`` they stop at each table's confirmed version, else they are the plain reads
    (``TableRepo.shown``)."""

    def __init__(self, repo: PlainReads) -> None:
        self._repo = repo
        self.confirming = repo.durability.replica_acks > 0
        self._redis = repo.redis
        self._shown_state = repo.redis.register_script(_SHOWN_STATE)

    # --- the feed's source ----------------------------------------------------------------------------
    async def load(self, table_id: str) -> TableState | None:
        """The table as of its confirmed version (None: no such table)."""
        return (await self.load_many([table_id]))[0]

    async def load_many(self, table_ids: Sequence[str]) -> list[TableState | None]:
        if not self.confirming:
            return await self._repo.load_many(table_ids)
        async with self._redis.pipeline(transaction=False) as pipe:
            for table_id in table_ids:
                await self._shown_state(keys=[keys.table(table_id)], client=pipe)
            replies = await pipe.execute()
        states: list[TableState | None] = []
        for table_id, reply in zip(table_ids, replies, strict=True):
            if not reply:
                states.append(None)
            elif reply[1] is None or reply[1] is False:
                raise StateNotConfirmed(f"table {table_id}: version {int(reply[0]) + 1} and later are not "
                                        "confirmed by a replica yet, and the confirmed state is not kept")
            else:
                states.append(state_from_json(reply[1]))
        return states

    async def version(self, table_id: str) -> int | None:
        return (await self.versions([table_id]))[0]

    async def versions(self, table_ids: Sequence[str]) -> list[int | None]:
        """The confirmed version of each table; tables with newer versions are repaired first
        (``repair``: confirmed now if a replica holds them by now)."""
        if not self.confirming:
            return await self._repo.versions(table_ids)
        pairs = await self._fields(table_ids, ["version", "confirmed"])
        pending = [t for t, (v, c) in zip(table_ids, pairs, strict=True)
                   if v is not None and c is not None and int(c) < int(v)]
        if pending:
            repaired = await self.repair(pending)
            pairs = [[v, repaired.get(t, c)] for t, (v, c) in zip(table_ids, pairs, strict=True)]
        return [_shown(v, c) for v, c in pairs]

    async def events_since(self, table_id: str, version: int) -> list[VersionedEvents] | None:
        """The confirmed commits after ``version`` (``TableRepo.events_since``, stopping at the table's
        confirmed version)."""
        if not self.confirming:
            return await self._repo.events_since(table_id, version)
        async with self._redis.pipeline(transaction=True) as pipe:
            pipe.hmget(keys.table(table_id), ["version", "confirmed"])
            pipe.lrange(keys.table_log(table_id), 0, -1)
            (current, confirmed), texts = await pipe.execute()
        shown = _shown(current, confirmed)
        return None if shown is None else missed_commits(shown, texts, version)

    # --- HTTP reads -----------------------------------------------------------------------------------
    async def table_rounds(self, table_id: str, limit: int) -> list[dict[str, Any]]:
        """``History.table_rounds`` without the rounds settled by commits not confirmed yet."""
        if not self.confirming:
            return await History(self._redis).table_rounds(table_id, limit)
        version, confirmed, pushed, at_confirmed = await self._redis.hmget(
            keys.table(table_id), ["version", "confirmed", "rounds_n", "crounds"])
        skip = 0
        if version is not None and confirmed is not None and int(confirmed) < int(version):
            skip = max(0, int(pushed or 0) - int(at_confirmed or 0))
        texts = await self._redis.lrange(keys.table_rounds(table_id), skip, skip + limit - 1)
        return [json.loads(text) for text in texts]

    async def confirmed_seqs(self, table_ids: Sequence[str]) -> list[int | None]:
        """The last outbox entry of each table that a replica holds (None: every entry may go); tables
        with newer versions are repaired first (``repair``)."""
        if not self.confirming:
            return [None] * len(table_ids)
        replies = await self._fields(table_ids, ["version", "confirmed", "cseq"])
        if await self.repair([t for t, (v, c, _) in zip(table_ids, replies, strict=True)
                              if v is not None and c is not None and int(c) < int(v)]):
            replies = await self._fields(table_ids, ["version", "confirmed", "cseq"])
        return [None if c is None or v is None or int(c) >= int(v) else int(seq or 0)
                for v, c, seq in replies]

    # --- repair ---------------------------------------------------------------------------------------
    async def repair(self, table_ids: Sequence[str]) -> dict[str, int]:
        """Confirm the newest version of each table if a replica holds it by now: a write to each table,
        ``WAIT``, and on enough acknowledgements ``confirmed`` raised, all on one connection. The tables'
        confirmed versions after it (none on a failure: nothing changes)."""
        if not table_ids:
            return {}
        durability = self._repo.durability
        pool = self._redis.connection_pool
        conn = await pool.get_connection()  # type: ignore[no-untyped-call]
        try:
            await conn.connect()
            commands: list[tuple[Any, ...]] = [("EVAL", _TOUCH, 1, keys.table(t)) for t in table_ids]
            commands.append(("WAIT", durability.replica_acks, durability.ack_timeout_ms))
            await conn.send_packed_command(conn.pack_commands(commands))
            touched: list[Any] = []
            for _ in table_ids:
                try:
                    touched.append(await conn.read_response())
                except ResponseError:  # NOREPLICAS: the node takes no writes while no replica is in sync
                    touched.append(None)
            acked = int(await conn.read_response())
            if acked < durability.replica_acks:
                return {}
            confirms = [(t, int(v)) for t, v in zip(table_ids, touched, strict=True) if v is not None]
            await conn.send_packed_command(conn.pack_commands(
                [("EVAL", CONFIRM_SCRIPT, 2, keys.table(t), keys.table_outbox_seq(t), v)
                 for t, v in confirms]))
            done: dict[str, int] = {}
            for table_id, _ in confirms:
                with contextlib.suppress(ResponseError):
                    done[table_id] = int(await conn.read_response())
            if done:
                log.info("confirmed by a replica now: %s", done)
            return done
        except BROKEN as exc:
            await conn.disconnect()
            log.warning("confirming %s failed: %s", list(table_ids), exc)
            return {}
        finally:
            await pool.release(conn)

    async def _fields(self, table_ids: Sequence[str], fields: list[str]) -> list[list[Any]]:
        async with self._redis.pipeline(transaction=False) as pipe:
            for table_id in table_ids:
                pipe.hmget(keys.table(table_id), fields)
            return cast("list[list[Any]]", await pipe.execute())
