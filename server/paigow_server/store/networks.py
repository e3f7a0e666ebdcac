"""Accounts that play at one table from one client address network (docs/floor.md, "Second looks").

A player's table connection knows the client's address network: the prefix the per-address limits count
in (``--limit-ipv4-prefix`` 24, ``--limit-ipv6-prefix`` 64: ``198.51.100.0/24``, ``2001:db8:1:2::/64``;
``client_address.address_network``). When a player's connection has a command accepted (a sit, a bet, a
set hand), ``seen`` notes ``<table> <player>`` in that network's sorted set (``keys.floor_network``) with
the time; once two accounts of a network have played at one table, the network enters the index
``keys.FLOOR_NETWORKS`` with that time. Privacy: only the network prefix is kept, never an address, and
every entry goes 30 days after its last sighting (each network keeps its last ``PER_NETWORK`` entries,
the index its last ``NETWORKS_KEPT``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

from redis.asyncio import Redis

from paigow_server.store import keys
from paigow_server.store.errors import store_boundary

__all__ = ["KEPT_MS", "NETWORKS_KEPT", "PER_NETWORK", "NetworkSightings", "SharedNetwork"]

KEPT_MS = 30 * 86_400_000
PER_NETWORK = 200
NETWORKS_KEPT = 10_000
PLAYERS_SHOWN = 20

# KEYS: 1 the network's set, 2 the index. ARGV: 1 network, 2 table, 3 player, 4 now (ms).
_SEEN = f"""
local now = tonumber(ARGV[4])
local cutoff = now - {KEPT_MS}
redis.call('ZADD', KEYS[1], now, ARGV[2] .. ' ' .. ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', '(' .. cutoff)
redis.call('ZREMRANGEBYRANK', KEYS[1], 0, -{PER_NETWORK + 1})
redis.call('PEXPIRE', KEYS[1], {KEPT_MS})
local prefix = ARGV[2] .. ' '
local others = 0
for _, m in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  if string.sub(m, 1, #prefix) == prefix and m ~= prefix .. ARGV[3] then others = others + 1 end
end
if others > 0 then
  redis.call('ZADD', KEYS[2], now, ARGV[1])
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', '(' .. cutoff)
  redis.call('ZREMRANGEBYRANK', KEYS[2], 0, -{NETWORKS_KEPT + 1})
end
return others
"""


@dataclass(frozen=True, slots=True)
class SharedNetwork:
    network: str
    players: tuple[str, ...]
    """The accounts that played at one of ``tables`` with another account of the network (at most
    ``PLAYERS_SHOWN``)."""
    tables: tuple[str, ...]
    """The tables where two or more of its accounts played."""
    round_refs: tuple[tuple[int, str, str], ...]
    """``(ms, table, round)`` of the rounds two or more of them played together, among their last hands
    (their hand history), newest first."""


@store_boundary
class NetworkSightings:
    def __init__(self, redis: Redis) -> None:
        self.redis = redis
        self._seen = redis.register_script(_SEEN)

    async def seen(self, network: str, table_id: str, player_id: str, now_ms: int) -> int:
        """Note that the player played at the table from the network; how many other accounts of that
        network played there within 30 days. A network that is no address (``"unknown"``) is not noted."""
        if "/" not in network:
            return 0
        reply = await self._seen(keys=[keys.floor_network(network), keys.FLOOR_NETWORKS],
                                 args=[network, table_id, player_id, now_ms])
        return int(reply)

    async def shared(self, since_ms: int, *, limit: int) -> list[SharedNetwork]:
        """The networks (at most ``limit``, the latest first) whose accounts played two or more at one table
        since ``since_ms``."""
        names = cast("list[str]", await self.redis.zrevrangebyscore(keys.FLOOR_NETWORKS, "+inf", since_ms,
                                                                     start=0, num=limit))
        async with self.redis.pipeline(transaction=False) as pipe:
            for name in names:
                pipe.zrangebyscore(keys.floor_network(name), since_ms, "+inf")
            sightings = cast("list[list[str]]", await pipe.execute())
        rows: list[tuple[str, list[str], list[str]]] = []
        for name, members in zip(names, sightings, strict=True):
            by_table: dict[str, list[str]] = {}
            for member in members:
                table_id, player_id = member.split(" ", 1)
                by_table.setdefault(table_id, []).append(player_id)
            tables = sorted(t for t, ps in by_table.items() if len(ps) >= 2)
            if tables:
                rows.append((name, sorted({p for t in tables for p in by_table[t]})[:PLAYERS_SHOWN], tables))
        histories = await self._histories({p for _, players, _ in rows for p in players})
        return [SharedNetwork(name, tuple(players), tuple(tables),
                              _together([histories[p] for p in players], set(tables), since_ms))
                for name, players, tables in rows]

    async def _histories(self, players: set[str]) -> dict[str, list[str]]:
        """Each player's hand history (their last hands, JSON), in one round trip."""
        ordered = sorted(players)
        async with self.redis.pipeline(transaction=False) as pipe:
            for player_id in ordered:
                pipe.lrange(keys.history(player_id), 0, -1)
            lists = cast("list[list[str]]", await pipe.execute())
        return dict(zip(ordered, lists, strict=True))


def _together(lists: Sequence[list[str]], tables: set[str],
              since_ms: int) -> tuple[tuple[int, str, str], ...]:
    """The rounds at ``tables`` since ``since_ms`` that two or more of these hand histories hold."""
    seen: dict[tuple[str, str], tuple[int, set[int]]] = {}
    for i, entries in enumerate(lists):
        for text in entries:
            entry = json.loads(text)
            table_id, round_id, ms = entry.get("table_id"), entry.get("round_id"), entry.get("settled_ms", 0)
            if table_id in tables and isinstance(round_id, str) and int(ms) >= since_ms:
                seen.setdefault((table_id, round_id), (int(ms), set()))[1].add(i)
    both = [(ms, t, r) for (t, r), (ms, who) in seen.items() if len(who) >= 2]
    return tuple(sorted(both, reverse=True)[:20])
