"""Breaks and self-exclusions: an account kept from playing anywhere until a moment (docs/http-api.md,
"Breaks and self-exclusion").

A block is the ``block`` field of the account's ``paigow:{global}:player:{p}:rg`` hash, JSON ``{"kind":
"break"|"exclusion", "length": "24h"|..., "from_ms", "until_ms"}``, and a member of the index
``paigow:{global}:rg:blocks`` (player -> until_ms). Starting one is a single script: a new block may only
end later than the one in force (``ALREADY_BLOCKED`` otherwise, nothing written). There is no way to lift
or shorten one - no method here, no route, no operator action: a block simply ends at ``until_ms`` (read
with the caller's clock: one ended is ``None``, whatever is still stored). What a block stops (sitting,
betting, banking, buying in) is enforced by the server's edges (``realtime/play_block_guard.py``).
"""

from __future__ import annotations

import calendar
import json
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any, cast

from redis.asyncio import Redis

from paigow_server.errors import ServerError
from paigow_server.store import keys
from paigow_server.store.audit import AuditEntry, AuditLog
from paigow_server.store.errors import store_boundary

__all__ = [
    "BREAK_LENGTHS", "EXCLUSION_LENGTHS", "FOREVER_MS", "AlreadyBlocked", "BlockKind", "PlayBlock",
    "PlayBlocks",
    "block_end",
]


class BlockKind(StrEnum):
    BREAK = "break"
    EXCLUSION = "exclusion"
    CLOSED = "closed"
    """The account was closed (``store.account_closure``): for ever (``until_ms`` is ``FOREVER_MS``)."""


FOREVER_MS = 2**53 - 1
"""A closed account's block ends here: never (JSON-safe, and a Redis score)."""


BREAK_LENGTHS: dict[str, int] = {"24h": 24 * 3_600_000, "7d": 7 * 86_400_000, "30d": 30 * 86_400_000}
"""A break's lengths, in ms."""
EXCLUSION_LENGTHS: dict[str, int] = {"6m": 6, "1y": 12, "5y": 60}
"""A self-exclusion's lengths, in calendar months (from the instant, in UTC)."""


def _add_months(ms: int, months: int) -> int:
    """``ms`` plus ``months`` calendar months, in UTC; a day the month lacks is its last day."""
    at = datetime.fromtimestamp(ms / 1000, UTC)
    month0 = at.month - 1 + months
    year, month = at.year + month0 // 12, month0 % 12 + 1
    day = min(at.day, calendar.monthrange(year, month)[1])
    moved = at.replace(year=year, month=month, day=day, microsecond=0)
    return int(moved.timestamp()) * 1000 + ms % 1000


def block_end(kind: BlockKind, length: str, from_ms: int) -> int:
    """When a block of ``kind`` and ``length`` started at ``from_ms`` ends (``KeyError``: no such length)."""
    if kind is BlockKind.CLOSED:
        return FOREVER_MS
    if kind is BlockKind.BREAK:
        return from_ms + BREAK_LENGTHS[length]
    return _add_months(from_ms, EXCLUSION_LENGTHS[length])


@dataclass(frozen=True, slots=True)
class PlayBlock:
    kind: BlockKind
    length: str
    from_ms: int
    until_ms: int

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "kind": self.kind.value}

    @classmethod
    def from_text(cls, text: str | bytes) -> PlayBlock:
        data = json.loads(text)
        return cls(BlockKind(data["kind"]), str(data["length"]), int(data["from_ms"]), int(data["until_ms"]))


class AlreadyBlocked(ServerError):
    """``409 ALREADY_BLOCKED``: a block in force ends at or after the one asked for; nothing changed."""

    code = "ALREADY_BLOCKED"
    http_status = 409

    def __init__(self, block: PlayBlock) -> None:
        super().__init__(f"a {block.kind.value} is already in force until {block.until_ms} (ms): a new one "
                         "may only end later, and none can be shortened or lifted")
        self.fields = {"until_ms": block.until_ms}


# KEYS rg hash, blocks index; ARGV block JSON, until_ms, player id, now_ms. A block in force that ends at or
# after the new one stays: {'ALREADY', its JSON}; else the new one is written: {'OK'}.
_START = """
local old = redis.call('HGET', KEYS[1], 'block')
if old then
  local until_ms = tonumber(cjson.decode(old)['until_ms'])
  if until_ms > tonumber(ARGV[4]) and until_ms >= tonumber(ARGV[2]) then return {'ALREADY', old} end
end
redis.call('HSET', KEYS[1], 'block', ARGV[1])
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[4])
return {'OK'}
"""


def _text(value: str | bytes) -> str:
    return value.decode() if isinstance(value, bytes) else value


@store_boundary
class PlayBlocks:
    def __init__(self, redis: Redis) -> None:
        self.redis = redis
        self._start = redis.register_script(_START)

    async def get(self, player_id: str, now_ms: int) -> PlayBlock | None:
        """The player's block in force at ``now_ms``, else None."""
        text = await self.redis.hget(keys.rg(player_id), "block")
        if text is None:
            return None
        block = PlayBlock.from_text(text)
        return block if block.until_ms > now_ms else None

    async def get_many(self, player_ids: list[str], now_ms: int) -> dict[str, PlayBlock]:
        """The blocks in force at ``now_ms`` of those of ``player_ids`` that have one, in one round trip."""
        if not player_ids:
            return {}
        async with self.redis.pipeline(transaction=False) as pipe:
            for player_id in player_ids:
                pipe.hget(keys.rg(player_id), "block")
            texts = await pipe.execute()
        found = {p: PlayBlock.from_text(t) for p, t in zip(player_ids, texts, strict=True) if t is not None}
        return {p: block for p, block in found.items() if block.until_ms > now_ms}

    async def start(self, player_id: str, kind: BlockKind, length: str, now_ms: int) -> PlayBlock:
        """Block the player from ``now_ms`` (``AlreadyBlocked``: one in force ends no earlier; nothing
        changed); audited ``break_started`` / ``self_exclusion_started`` by ``player:<id>``."""
        block = PlayBlock(kind, length, now_ms, block_end(kind, length, now_ms))
        answer = await self._start(keys=[keys.rg(player_id), keys.RG_BLOCKS],
                                   args=[json.dumps(block.to_json()), block.until_ms, player_id, now_ms])
        if _text(answer[0]) == "ALREADY":
            raise AlreadyBlocked(PlayBlock.from_text(answer[1]))
        action = {BlockKind.BREAK: "break_started", BlockKind.EXCLUSION: "self_exclusion_started",
                  BlockKind.CLOSED: "account_closing"}[kind]
        await AuditLog(self.redis).append(AuditEntry(action, now_ms, "ok", f"player:{player_id}",
                                                     player_id=player_id, params=block.to_json()))
        return block

    async def blocked(self, now_ms: int) -> dict[str, int]:
        """Every player blocked at ``now_ms`` -> when the block ends (read from the index)."""
        members = cast("list[tuple[str | bytes, float]]",
                       await self.redis.zrangebyscore(keys.RG_BLOCKS, f"({now_ms}", "+inf", withscores=True))
        return {_text(member): int(score) for member, score in members}

    async def listing(self, now_ms: int) -> list[tuple[str, PlayBlock]]:
        """Every block in force at ``now_ms``, the soonest to end first (the operator's list)."""
        found = await self.get_many(list(await self.blocked(now_ms)), now_ms)
        return sorted(found.items(), key=lambda pair: pair[1].until_ms)
