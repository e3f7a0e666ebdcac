"""Session tokens at rest: a SHA-256 of each token names a key holding its owner, with a sliding expiry.

One class serves players (``paigow:session:{hash}`` -> player id, ``paigow:player:{id}:sessions``) and
operators (``paigow:operator-session:{hash}`` -> username, ``paigow:operator:{name}:sessions``). A token
lapses when unused for ``idle_ms`` (PEXPIRE); each use extends it, but at most once per ``refresh_ms``
(about a minute) so a busy token costs one Redis read per use. The owner's set of token hashes lets
"sign out everywhere" find every token; it expires with the last of them, and dead members are pruned
when a new token is issued. Revocation either deletes the keys, or (``tombstone``) overwrites each with a
marker until it would have lapsed, so the holder can be told why (a disabled operator).
"""

from __future__ import annotations

import hashlib
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass

from redis.asyncio import Redis

from paigow_server.store.errors import store_boundary

__all__ = ["MAX_TOKEN_LENGTH", "TOMBSTONE", "SessionTokens", "Touched", "hash_token", "new_token"]

MAX_TOKEN_LENGTH = 256
TOMBSTONE = "!revoked"
_PRUNE_OVER = 8
"""Prune dead members from an owner's set when it holds more than this many token hashes."""


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(32)


@dataclass(frozen=True, slots=True)
class Touched:
    owner: str
    """The player id or operator username; ``TOMBSTONE`` when revoked by a tombstone."""
    expires_ms: int
    refreshed: bool
    """The expiry was extended by this use (at most once per ``refresh_ms``)."""


# KEYS: session key, owner's set. ARGV: owner, idle ms, token hash.
_ISSUE = """
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('SADD', KEYS[2], ARGV[3])
if redis.call('PTTL', KEYS[2]) < tonumber(ARGV[2]) then redis.call('PEXPIRE', KEYS[2], ARGV[2]) end
return redis.call('SCARD', KEYS[2])
"""

# KEYS: session key. ARGV: idle ms, refresh ms. Returns false, or {owner, pttl, refreshed}.
_TOUCH = """
local owner = redis.call('GET', KEYS[1])
if not owner then return false end
local pttl = redis.call('PTTL', KEYS[1])
local idle = tonumber(ARGV[1])
if string.sub(owner, 1, 1) ~= '!' and (pttl < 0 or pttl < idle - tonumber(ARGV[2])) then
  redis.call('PEXPIRE', KEYS[1], idle)
  return {owner, idle, 1}
end
return {owner, pttl, 0}
"""

# KEYS: owner's set. ARGV: idle ms (the set's TTL is kept at least that long while tokens live).
_KEEP_SET = """
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[1]) then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return 1
"""

# KEYS: session key, owner's set. ARGV: owner, token hash.
_REVOKE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
redis.call('SREM', KEYS[2], ARGV[2])
return 1
"""

# KEYS: owner's set. ARGV: session key prefix, tombstone ('' = delete). The session keys are the set's
# members under the prefix (so this script needs one Redis, not a cluster).
_REVOKE_ALL = """
local members = redis.call('SMEMBERS', KEYS[1])
for _, h in ipairs(members) do
  local key = ARGV[1] .. h
  if ARGV[2] == '' then
    redis.call('DEL', key)
  elseif redis.call('EXISTS', key) == 1 then
    redis.call('SET', key, ARGV[2], 'KEEPTTL')
  end
end
redis.call('DEL', KEYS[1])
return #members
"""


@store_boundary
class SessionTokens:
    def __init__(self, redis: Redis, *, session_key: Callable[[str], str], owner_set: Callable[[str], str],
                 idle_ms: int, clock: Callable[[], int] = lambda: time.time_ns() // 1_000_000) -> None:
        self.redis = redis
        self._session_key = session_key
        self._owner_set = owner_set
        self.idle_ms = idle_ms
        self.refresh_ms = max(1, min(60_000, idle_ms // 4))
        """A token's expiry is extended at most this often (a minute, or a quarter of a short idle time)."""
        self._clock = clock
        self._issue = redis.register_script(_ISSUE)
        self._touch = redis.register_script(_TOUCH)
        self._keep_set = redis.register_script(_KEEP_SET)
        self._revoke = redis.register_script(_REVOKE)
        self._revoke_all = redis.register_script(_REVOKE_ALL)
        self._prefix = session_key("")

    async def issue(self, owner: str, *, idle_ms: int | None = None) -> tuple[str, int]:
        """A new token of ``owner`` (shown once; only its hash is kept) and when it lapses if unused (after
        ``idle_ms``, if given and shorter than the idle time: a fresh guest's)."""
        token = new_token()
        digest = hash_token(token)
        lapse = self.idle_ms if idle_ms is None else min(idle_ms, self.idle_ms)
        count = int(await self._issue(keys=[self._session_key(digest), self._owner_set(owner)],
                                      args=[owner, lapse, digest]))
        if count > _PRUNE_OVER:
            await self._prune(owner)
        return token, self._clock() + lapse

    def session_key(self, token: str) -> str:
        """The Redis key of a token (by its hash)."""
        return self._session_key(hash_token(token))

    async def _prune(self, owner: str) -> None:
        members = sorted(str(m) for m in await self.redis.smembers(self._owner_set(owner)))
        async with self.redis.pipeline(transaction=False) as pipe:
            for digest in members:
                pipe.exists(self._session_key(digest))
            alive = await pipe.execute()
        dead = [digest for digest, exists in zip(members, alive, strict=True) if not exists]
        if dead:
            await self.redis.srem(self._owner_set(owner), *dead)

    async def touch(self, token: str) -> Touched | None:
        """The token's owner (extending its expiry when due), or None: unknown, lapsed or revoked."""
        if not token or len(token) > MAX_TOKEN_LENGTH:
            return None
        found = await self._touch(keys=[self._session_key(hash_token(token))],
                                  args=[self.idle_ms, self.refresh_ms])
        if not found:
            return None
        owner, pttl, refreshed = str(_text(found[0])), int(found[1]), bool(int(found[2]))
        if refreshed:
            await self._keep_set(keys=[self._owner_set(owner)], args=[self.idle_ms])
        return Touched(owner, self._clock() + max(pttl, 0), refreshed)

    async def touch_many(self, tokens: list[str]) -> list[Touched | None]:
        """``touch`` for each token, in one pipeline (the open connections' periodic check)."""
        if not tokens:
            return []
        async with self.redis.pipeline(transaction=False) as pipe:
            for token in tokens:
                await self._touch(keys=[self._session_key(hash_token(token))],
                                  args=[self.idle_ms, self.refresh_ms], client=pipe)
            results = await pipe.execute()
        now = self._clock()
        touched: list[Touched | None] = []
        for found in results:
            if not found:
                touched.append(None)
                continue
            owner, refreshed = str(_text(found[0])), bool(int(found[2]))
            if refreshed:
                await self._keep_set(keys=[self._owner_set(owner)], args=[self.idle_ms])
            touched.append(Touched(owner, now + max(int(found[1]), 0), refreshed))
        return touched

    async def revoke(self, token: str, owner: str) -> None:
        digest = hash_token(token)
        await self._revoke(keys=[self._session_key(digest), self._owner_set(owner)], args=[owner, digest])

    async def revoke_all(self, owner: str, *, tombstone: bool = False) -> int:
        """Revoke every token of ``owner``; returns how many there were."""
        return int(await self._revoke_all(keys=[self._owner_set(owner)],
                                          args=[self._prefix, TOMBSTONE if tombstone else ""]))


def _text(value: object) -> object:
    return value.decode() if isinstance(value, bytes) else value
