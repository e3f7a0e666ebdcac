"""The second looks' reader (docs/floor.md, "Second looks"): the pairs whose flow chance does not explain and
the players who foul far more under one banker, over a window, from what the settling commits wrote
(``pair_watch``). Bounded: at most ``CANDIDATES`` entries of each index are read (a few pipelined reads
each), never a scan.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import cast

from redis.asyncio import Redis

from paigow.ledger.pair_flows import flow_z, foul_z
from paigow_server.store import keys
from paigow_server.store.errors import store_boundary
from paigow_server.store.pair_watch import WINDOWS, Buckets, buckets_at, window_sums

__all__ = ["CANDIDATES", "MIN_FOULS", "MIN_ROUNDS", "THRESHOLD_Z", "FoulLook", "PairLook", "RoundRef",
           "SecondLooks", "window_start_ms"]

THRESHOLD_Z = 4.0
"""A pair's |z| (or a player's foul z) at which it is listed."""
MIN_ROUNDS = 10
"""A pair is listed only over at least this many rounds (the flow's normal model needs a few)."""
MIN_FOULS = 3
"""A foul row needs at least this many fouls under the banker."""
CANDIDATES = 200
"""Index entries read per index and call."""
_Read = tuple[dict[str, str], dict[str, str], list[str]]
"""A candidate pair's hash, its player's hash and the pair's round list."""


@dataclass(frozen=True, slots=True)
class RoundRef:
    settled_ms: int
    table_id: str
    round_id: str


@dataclass(frozen=True, slots=True)
class PairLook:
    banker_id: str
    player_id: str
    rounds: int
    hands: int
    flow_cents: int
    expected_cents: float
    sd_cents: float
    z: float
    round_refs: tuple[RoundRef, ...]


@dataclass(frozen=True, slots=True)
class FoulLook:
    player_id: str
    banker_id: str
    hands: int
    fouls: int
    other_hands: int
    other_fouls: int
    z: float
    round_refs: tuple[RoundRef, ...]


def window_start_ms(window: str, b: Buckets) -> int:
    """The first moment a window counts (its first bucket's start)."""
    if window == "hour":
        return _ms(datetime.strptime(b.prev_hour, "%Y%m%d%H"))
    return _ms(datetime.strptime({"7d": b.day7, "30d": b.day30, "today": b.day}[window], "%Y%m%d"))


def _ms(naive: datetime) -> int:
    return int(naive.replace(tzinfo=UTC).timestamp() * 1000)


def _index_names(window: str, b: Buckets) -> list[str]:
    if window == "hour":
        return [f"H{b.hour}", f"H{b.prev_hour}"]
    return [{"7d": "7d", "30d": "30d", "today": f"D{b.day}"}[window]]


def _refs(entries: list[str], since_ms: int) -> tuple[RoundRef, ...]:
    out = []
    for entry in entries:
        ms, table_id, round_id = entry.split(" ", 2)
        if int(ms) >= since_ms:
            out.append(RoundRef(int(ms), table_id, round_id))
    return tuple(out)


@store_boundary
class SecondLooks:
    def __init__(self, redis: Redis) -> None:
        self.redis = redis

    async def _candidates(self, kind: str, window: str,
                          now_ms: int) -> tuple[Buckets, int, list[tuple[str, str]]]:
        """The window's buckets, its first moment, and the top ``CANDIDATES`` pairs of its index."""
        if window not in WINDOWS:
            raise ValueError(f"unknown window {window!r}")
        b = buckets_at(now_ms)
        found: dict[str, None] = {}
        for name in _index_names(window, b):
            members = cast("list[str]", await self.redis.zrevrange(keys.floor_looks(kind, name), 0,
                                                                    CANDIDATES - 1))
            found.update(dict.fromkeys(str(m) for m in members))
        return b, window_start_ms(window, b), [cast("tuple[str, str]", tuple(m.split(" ", 1))) for m in found]

    async def _read(self, pairs: list[tuple[str, str]]) -> list[_Read]:
        async with self.redis.pipeline(transaction=False) as pipe:
            for banker, player in pairs:
                pipe.hgetall(keys.floor_pair(banker, player))
                pipe.hgetall(keys.floor_player(player))
                pipe.lrange(keys.floor_pair_rounds(banker, player), 0, -1)
            replies = await pipe.execute()
        return [(replies[i], replies[i + 1], replies[i + 2]) for i in range(0, len(replies), 3)]

    async def _forget(self, kind: str, window: str, members: list[str]) -> None:
        """Drop index entries whose pair has no round left in a 7- or 30-day window."""
        if members and window in ("7d", "30d"):
            await self.redis.zrem(keys.floor_looks(kind, window), *members)

    async def pairs(self, window: str, now_ms: int, *, limit: int) -> list[PairLook]:
        """The pairs over the window with ``MIN_ROUNDS`` or more and |z| at least ``THRESHOLD_Z``, highest
        |z| first."""
        b, since, candidates = await self._candidates("pairs", window, now_ms)
        found, gone = [], []
        read = await self._read(candidates)
        for (banker, player), (fields, _, rounds) in zip(candidates, read, strict=True):
            n, hands, _fouls, flow, expected, variance = window_sums(fields, window, b, 6)
            if n == 0:
                gone.append(f"{banker} {player}")
                continue
            z = flow_z(flow, expected, variance)
            if n >= MIN_ROUNDS and abs(z) >= THRESHOLD_Z:
                found.append(PairLook(banker, player, n, hands, flow, expected / 1000, math.sqrt(variance), z,
                                      _refs(rounds, since)))
        await self._forget("pairs", window, gone)
        found.sort(key=lambda look: -abs(look.z))
        return found[:limit]

    async def fouls(self, window: str, now_ms: int, *, limit: int) -> list[FoulLook]:
        """The players with ``MIN_FOULS`` or more fouls under one banker over the window, at a foul z of at
        least ``THRESHOLD_Z`` against their other hands, highest first."""
        b, since, candidates = await self._candidates("fouls", window, now_ms)
        found, gone = [], []
        for (banker, player), (fields, own, rounds) in zip(candidates, await self._read(candidates),
                                                           strict=True):
            _, hands, fouls, *_ = window_sums(fields, window, b, 6)
            if hands == 0:
                gone.append(f"{banker} {player}")
                continue
            all_hands, all_fouls = window_sums(own, window, b, 2)
            other_hands, other_fouls = max(0, all_hands - hands), max(0, all_fouls - fouls)
            z = foul_z(hands, fouls, other_hands, other_fouls)
            if fouls >= MIN_FOULS and z >= THRESHOLD_Z:
                found.append(FoulLook(player, banker, hands, fouls, other_hands, other_fouls, z,
                                      _refs(rounds, since)))
        await self._forget("fouls", window, gone)
        found.sort(key=lambda look: -look.z)
        return found[:limit]
