"""Private tables' invites, admissions and indexes in Redis (docs/home-games.md).

A private table is a table like any other (``TableRepo``); beside it: its hash (``keys.table_home``: the
invite's long ``code`` and ``short`` code, the ``creator`` and ``created_ms``), the set of players it
admitted (``keys.table_home_access``, kept after it closes so they may read its rounds), one index key per
code (``keys.invite`` of the long code's SHA-256, ``keys.invite_short``) naming the table while it is open,
and three sorted sets (every private table, those not yet seen closed, each creator's). On a Redis Cluster
these live in two slots, so they are written one after the other, the code index last: a crash between
leaves a code that opens nothing, never one that opens the wrong table.

Codes come from ``secrets``: the long one is ``token_urlsafe(24)`` (32 characters, 192 bits), the short one
six letters of ``SHORT_LETTERS`` (24⁶ ≈ 1.9 × 10⁸), claimed with ``SET NX`` so no two open tables share one.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass
from typing import cast

from redis.asyncio import Redis

from paigow_server.store import keys
from paigow_server.store.errors import store_boundary

__all__ = ["LONG_CODE", "SHORT_LETTERS", "HomeRecord", "HomeTables", "Invite", "normal_short_code"]

SHORT_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ"
"""The 24 letters of short codes: no I or O, which read as 1 and 0."""
SHORT_LENGTH = 6
LONG_CODE = re.compile(r"[A-Za-z0-9_-]{32}")
_SHORT_INPUT = re.compile(r"[ -]")
CREATION_TURN_MS = 5_000


def _text(value: bytes | str | None) -> str | None:
    return value.decode() if isinstance(value, bytes) else value


def _hash(code: str) -> str:
    return hashlib.sha256(code.encode()).hexdigest()


def normal_short_code(text: str) -> str | None:
    """A typed short code in its one form (upper case, spaces and ``-`` dropped), or None if it is none."""
    short = _SHORT_INPUT.sub("", text).upper()
    if len(short) == SHORT_LENGTH and all(ch in SHORT_LETTERS for ch in short):
        return short
    return None


@dataclass(frozen=True, slots=True)
class Invite:
    code: str
    short_code: str

    def to_json(self, table_id: str) -> dict[str, str]:
        return {"code": self.code, "short_code": self.short_code,
                "url": f"/table/?id={table_id}&invite={self.code}"}


@dataclass(frozen=True, slots=True)
class HomeRecord:
    table_id: str
    creator: str
    created_ms: int
    invite: Invite | None
    """None once the table's codes ended (it closed)."""


@store_boundary
class HomeTables:
    def __init__(self, redis: Redis) -> None:
        self.redis = redis

    @staticmethod
    def new_table_id() -> str:
        """A private table's id: ``h_`` and 16 characters from ``secrets`` (never in a public listing)."""
        return "h_" + secrets.token_urlsafe(12)

    async def _claim_short(self, table_id: str) -> str:
        for _ in range(32):
            short = "".join(secrets.choice(SHORT_LETTERS) for _ in range(SHORT_LENGTH))
            if await self.redis.set(keys.invite_short(short), table_id, nx=True):
                return short
        raise RuntimeError("no free short code after 32 draws")  # pragma: no cover - 1.9e8 codes

    async def _new_invite(self, table_id: str) -> Invite:
        invite = Invite(secrets.token_urlsafe(24), await self._claim_short(table_id))
        await self.redis.hset(keys.table_home(table_id), mapping={"code": invite.code,
                                                                   "short": invite.short_code})
        await self.redis.set(keys.invite(_hash(invite.code)), table_id)
        return invite

    async def claim_creation(self, token: str) -> bool:
        """Take the deployment's creation turn (``keys.HOME_CREATING``, 5 s at most): one private table is
        counted against the caps and created at a time, by every process, so two at once cannot pass a
        cap together. False: another creation holds it."""
        return bool(await self.redis.set(keys.HOME_CREATING, token, nx=True, px=CREATION_TURN_MS))

    async def release_creation(self, token: str) -> None:
        if _text(await self.redis.get(keys.HOME_CREATING)) == token:
            await self.redis.delete(keys.HOME_CREATING)

    async def register(self, table_id: str, creator: str, created_ms: int) -> Invite:
        """Index a new private table (already stored as a table) and make its first invite."""
        await self.redis.hset(keys.table_home(table_id), mapping={"creator": creator,
                                                                   "created_ms": created_ms})
        await self.redis.sadd(keys.table_home_access(table_id), creator)
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.zadd(keys.HOME_TABLES, {table_id: created_ms})
            pipe.zadd(keys.HOME_OPEN, {table_id: created_ms})
            pipe.zadd(keys.home_by(creator), {table_id: created_ms})
            await pipe.execute()
        return await self._new_invite(table_id)

    async def record(self, table_id: str) -> HomeRecord | None:
        data = {_text(k): _text(v) for k, v in (await self.redis.hgetall(keys.table_home(table_id))).items()}
        if "creator" not in data:
            return None
        code, short = data.get("code"), data.get("short")
        invite = Invite(code, short) if code and short else None
        return HomeRecord(table_id, str(data["creator"]), int(data.get("created_ms") or 0), invite)

    async def _forget_codes(self, table_id: str, invite: Invite) -> None:
        await self.redis.delete(keys.invite(_hash(invite.code)), keys.invite_short(invite.short_code))

    async def renew_invite(self, table_id: str) -> Invite:
        """New codes for the table; the old ones stop working at once."""
        old = await self.record(table_id)
        invite = await self._new_invite(table_id)
        if old is not None and old.invite is not None:
            await self._forget_codes(table_id, old.invite)
        return invite

    async def closed(self, table_id: str) -> None:
        """The table closed: its codes end (the admissions stay, for its history)."""
        record = await self.record(table_id)
        if record is not None and record.invite is not None:
            await self._forget_codes(table_id, record.invite)
            await self.redis.hdel(keys.table_home(table_id), "code", "short")
        await self.redis.zrem(keys.HOME_OPEN, table_id)

    async def table_of_code(self, code: str) -> str | None:
        """The open private table a long or (normalised) short code names, or None."""
        key = keys.invite_short(code) if len(code) == SHORT_LENGTH else keys.invite(_hash(code))
        return _text(await self.redis.get(key))

    async def admit(self, table_id: str, player_id: str) -> None:
        await self.redis.sadd(keys.table_home_access(table_id), player_id)

    async def unadmit(self, table_id: str, player_id: str) -> None:
        await self.redis.srem(keys.table_home_access(table_id), player_id)

    async def admitted(self, table_id: str, player_id: str) -> bool:
        return bool(await self.redis.sismember(keys.table_home_access(table_id), player_id))

    async def _ids(self, key: str) -> list[str]:
        members = cast("list[bytes | str]", await self.redis.zrevrange(key, 0, -1))
        return [str(_text(t)) for t in members]

    async def open_ids(self) -> list[str]:
        """The private tables not yet seen closed, newest first."""
        return await self._ids(keys.HOME_OPEN)

    async def all_ids(self) -> list[str]:
        return await self._ids(keys.HOME_TABLES)

    async def ids_by(self, player_id: str) -> list[str]:
        """The private tables a player created, newest first."""
        return await self._ids(keys.home_by(player_id))
