"""Bars: a player kept from sitting at one table for a while (an operator's kick with a bar duration).

Each bar is one key, ``paigow:bar:{table}:{player}`` (the JSON ``Bar``), that Redis expires at the bar's
``until_ms`` (``PXAT``), so a bar ends by itself, the same moment for every server process. The index
``paigow:bars`` (``{table}:{player}`` -> until_ms) lets the console list the bars still running; what has
ended is pruned from it as it is read. The table machine knows nothing of bars: the table connection
refuses a barred player's ``sit`` before it reaches the table (``web/ws.py``).

A bar is an operator's (a kick with a bar) or a private table's host's (``host_remove``): its ``actor`` says
which, and ``Bar.by`` says it as every ``BARRED`` refusal does (``web/barred.py``). An operator's is written
here (``put``); a host's by the removal's own commit (``BAR_LUA``, through ``seating_effects``), so it
stands exactly when the removal does.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Any

from redis.asyncio import Redis

from paigow.table.state import KickedBy
from paigow_server.store import keys
from paigow_server.store.errors import store_boundary

__all__ = ["BAR_LUA", "HOST_ACTOR", "HOST_REASON", "Bar", "Bars", "member"]

HOST_ACTOR = "host:"
"""How a host's ``actor`` starts: ``host:<player id>`` (``web.host_audit.host_actor``); an operator's is
their username."""
HOST_REASON = "removed by the host"
"""The ``reason`` of a host's bar."""

# Bars a player (KEYS ``key``: ``keys.bar``; ``index``: ``keys.BARS``) until ``until_ms`` (a string), as
# ``Bars.put`` does; one that has already ended (an outbox entry delivered late) is not written.
BAR_LUA = """
local function put_bar(key, index, until_ms, text, member)
  local clock = redis.call('TIME')
  if tonumber(until_ms) <= tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000) then return end
  redis.call('SET', key, text, 'PXAT', until_ms)
  redis.call('ZADD', index, until_ms, member)
end
"""


@dataclass(frozen=True, slots=True)
class Bar:
    table_id: str
    player_id: str
    until_ms: int
    """When the bar ends by itself (ms since the epoch)."""
    created_ms: int
    actor: str
    """Who barred the player: an operator (a username, or ``"bootstrap"``), or a private table's host
    (``host:<player id>``)."""
    reason: str

    @property
    def by(self) -> KickedBy:
        """Who barred the player, as a ``BARRED`` refusal says it: the host (an actor ``host:...``), else
        an operator."""
        return KickedBy.HOST if self.actor.startswith(HOST_ACTOR) else KickedBy.OPERATOR

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    def text(self) -> str:
        """The JSON text stored under ``keys.bar``."""
        return json.dumps(self.to_json())

    @classmethod
    def from_text(cls, text: str | bytes) -> Bar:
        data = json.loads(text)
        return cls(str(data["table_id"]), str(data["player_id"]), int(data["until_ms"]),
                   int(data["created_ms"]), str(data["actor"]), str(data["reason"]))


def member(table_id: str, player_id: str) -> str:
    """The bar's member of the index ``keys.BARS``."""
    return f"{table_id}:{player_id}"


@store_boundary
class Bars:
    def __init__(self, redis: Redis) -> None:
        self.redis = redis

    async def put(self, bar: Bar) -> None:
        """Bar (or bar again, replacing an earlier bar) until ``bar.until_ms``."""
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.set(keys.bar(bar.table_id, bar.player_id), bar.text(), pxat=bar.until_ms)
            pipe.zadd(keys.BARS, {member(bar.table_id, bar.player_id): bar.until_ms})
            await pipe.execute()

    async def get(self, table_id: str, player_id: str) -> Bar | None:
        """The player's bar at that table while it runs, else None."""
        text = await self.redis.get(keys.bar(table_id, player_id))
        return None if text is None else Bar.from_text(text)

    async def lift(self, table_id: str, player_id: str) -> Bar | None:
        """End a bar now; the bar that was lifted, or None when there was none (or it had ended)."""
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.get(keys.bar(table_id, player_id))
            pipe.delete(keys.bar(table_id, player_id))
            pipe.zrem(keys.BARS, member(table_id, player_id))
            text, _, _ = await pipe.execute()
        return None if text is None else Bar.from_text(text)

    async def active(self, now_ms: int, *, table_id: str | None = None) -> list[Bar]:
        """Every bar still running (of one table, with ``table_id``), the soonest to end first."""
        await self.redis.zremrangebyscore(keys.BARS, "-inf", now_ms)
        members = [m.decode() if isinstance(m, bytes) else str(m)
                   for m in await self.redis.zrange(keys.BARS, 0, -1)]
        if table_id is not None:
            members = [m for m in members if m.split(":", 1)[0] == table_id]
        if not members:
            return []
        texts = await self.redis.mget([keys.bar(*m.split(":", 1)) for m in members])
        return [Bar.from_text(text) for text in texts if text is not None]
