"""Each player's waiting lists, kept beside the tables, so that sitting at one table takes the player off
every other table's list (docs/protocol.md, "Private tables and the waiting list").

A table sees no other table (each is its own state machine, driven by one process under a lease, in its own
hash slot of a cluster), so the tables' commits keep one hash per player (``keys.waitlists``):

- ``<table id>`` -> the time (ms) of the commit that put the player on that table's list, while they are on
  it;
- ``:sat`` -> ``<ms> <table id>``: the player's last sit at any table (the latest one is kept).

Both are written by the commits themselves (``seating_effects``: on one Redis by the commit's script, on a
cluster by its outbox entry, exactly once), so they say what the tables committed, whatever crashes. A list
joined no later than the last sit at another table is **left behind**: the player must leave it. Read by
``realtime.waitlist_moves``:

- ``left_behind(player)``: after a sit, the lists the player must leave (each table is sent a
  ``LeaveWaitlist(seated_elsewhere=True)``);
- ``sat_elsewhere(table, players)``: before a table's commit offers a seat to a waiting player, whether that
  player's place there was left behind (the backstop for a sit whose messages were never sent: its process
  died right after it).

With no list left, the hash (its ``:sat``) expires after ``SAT_KEPT_MS``: long enough for a join whose
outbox entry is delivered late (a cluster, a crash before delivery) to be compared with that sit.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from redis.asyncio import Redis

from paigow_server.store import keys
from paigow_server.store.errors import store_boundary

__all__ = ["SAT", "SAT_KEPT_MS", "WAITLIST_LUA", "Waitlists"]

SAT = ":sat"
"""The field of the last sit (a table id never holds ``:``)."""
SAT_KEPT_MS = 86_400_000

# The writes of a commit, on the player's hash ``key`` (table ids and times are strings).
WAITLIST_LUA = f"""
local function waitlist_bare(key)
  if redis.call('HLEN', key) == 1 and redis.call('HEXISTS', key, '{SAT}') == 1 then
    redis.call('PEXPIRE', key, {SAT_KEPT_MS})
  end
end
local function waitlist_joined(key, table_id, ms)
  redis.call('HSET', key, table_id, ms)
  redis.call('PERSIST', key)
end
local function waitlist_left(key, table_id)
  redis.call('HDEL', key, table_id)
  waitlist_bare(key)
end
local function waitlist_sat(key, table_id, ms)
  local last = redis.call('HGET', key, '{SAT}')
  if not last or tonumber(string.match(last, '^%d+')) <= tonumber(ms) then
    redis.call('HSET', key, '{SAT}', ms .. ' ' .. table_id)
  end
  waitlist_bare(key)
end
"""


def _text(value: Any) -> str | None:
    return value.decode() if isinstance(value, bytes) else value


def _left_behind(table_id: str, joined: str | None, sat: str | None) -> bool:
    """Whether the place on ``table_id``'s list (joined at ``joined``) was left by the sit ``sat``."""
    if joined is None or sat is None:
        return False
    at, _, where = sat.partition(" ")
    return where != table_id and int(joined) <= int(at)


@store_boundary
class Waitlists:
    def __init__(self, redis: Redis) -> None:
        self.redis = redis

    async def left_behind(self, player_id: str) -> list[str]:
        """The tables whose list the player is on since before their last sit at another table."""
        found = await self.redis.hgetall(keys.waitlists(player_id))
        record = {_text(k): _text(v) for k, v in found.items()}
        sat = record.pop(SAT, None)
        return sorted(str(t) for t, joined in record.items() if _left_behind(str(t), joined, sat))

    async def sat_elsewhere(self, table_id: str, player_ids: Sequence[str]) -> list[str]:
        """Those of ``player_ids`` whose place on ``table_id``'s list was left by a sit at another table."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for player_id in player_ids:
                pipe.hmget(keys.waitlists(player_id), [table_id, SAT])
            found = await pipe.execute()
        return [player_id for player_id, (joined, sat) in zip(player_ids, found, strict=True)
                if _left_behind(table_id, _text(joined), _text(sat))]
