"""Failed sign-ins per username: back off, then lock (the NJ online-gaming rule: three in a row).

After the n-th failure in a row, sign-in for that username is refused for ``2**(n-1)`` seconds; the
``MAX_FAILURES``-th locks it for ``lock_ms`` (or until an operator unlocks it), after which the count
starts again; a success resets it. While one attempt is being checked (argon2 takes a tenth of a
second), others for the same username wait (``BACKOFF``), so parallel guesses cannot slip past the count.
The state is one small hash per username (``paigow:sign-in:{kind}:{name}``) that expires when there is
nothing left to remember. Unknown usernames are counted too, so the answers do not tell which exist.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from redis.asyncio import Redis

from paigow_server.store import keys

__all__ = ["MAX_FAILURES", "Attempt", "SignInGuard", "Verdict"]

MAX_FAILURES = 3
_PENDING_MS = 5_000
"""How long an attempt being checked holds the username (if its process dies, no longer)."""


class Verdict(StrEnum):
    OK = "OK"
    BACKOFF = "BACKOFF"
    LOCKED = "LOCKED"


@dataclass(frozen=True, slots=True)
class Attempt:
    verdict: Verdict
    until_ms: int = 0
    """BACKOFF: when to try again; LOCKED: when the lock ends."""
    failures: int = 0


# KEYS: state. ARGV: now, lock ms.
_BEGIN = """
local now = tonumber(ARGV[1])
local locked = tonumber(redis.call('HGET', KEYS[1], 'locked_until_ms') or '0')
if locked > now then return {'LOCKED', locked, 0} end
local retry = tonumber(redis.call('HGET', KEYS[1], 'retry_ms') or '0')
if retry > now then return {'BACKOFF', retry, 0} end
local pending = tonumber(redis.call('HGET', KEYS[1], 'pending_ms') or '0')
if pending > now then return {'BACKOFF', now + 1000, 0} end
redis.call('HSET', KEYS[1], 'pending_ms', now + tonumber(ARGV[3]))
if redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return {'OK', 0, tonumber(redis.call('HGET', KEYS[1], 'failures') or '0')}
"""

# KEYS: state. ARGV: now, lock ms, max failures.
_FAILED = """
local now = tonumber(ARGV[1])
redis.call('HDEL', KEYS[1], 'pending_ms')
local n = redis.call('HINCRBY', KEYS[1], 'failures', 1)
if n >= tonumber(ARGV[3]) then
  local untilms = now + tonumber(ARGV[2])
  redis.call('HSET', KEYS[1], 'locked_until_ms', untilms)
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return {'LOCKED', untilms, n}
end
local retry = now + 1000 * math.pow(2, n - 1)
redis.call('HSET', KEYS[1], 'retry_ms', retry)
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return {'BACKOFF', retry, n}
"""


class SignInGuard:
    """``kind``: ``player`` or ``operator`` (their usernames are separate)."""

    def __init__(self, redis: Redis, kind: str, *, lock_ms: int) -> None:
        self.redis = redis
        self.kind = kind
        self.lock_ms = lock_ms
        self._begin = redis.register_script(_BEGIN)
        self._failed = redis.register_script(_FAILED)

    def _key(self, username: str) -> str:
        return keys.sign_in(self.kind, username)

    async def begin(self, username: str, now_ms: int) -> Attempt:
        """May ``username`` try now? OK holds the username until ``failed`` or ``succeeded``."""
        verdict, until, failures = await self._begin(keys=[self._key(username)],
                                                     args=[now_ms, self.lock_ms, _PENDING_MS])
        return Attempt(Verdict(_text(verdict)), int(until), int(failures))

    async def failed(self, username: str, now_ms: int) -> Attempt:
        verdict, until, failures = await self._failed(keys=[self._key(username)],
                                                      args=[now_ms, self.lock_ms, MAX_FAILURES])
        return Attempt(Verdict(_text(verdict)), int(until), int(failures))

    async def succeeded(self, username: str) -> None:
        await self.redis.delete(self._key(username))

    async def locked_until(self, username: str, now_ms: int) -> int | None:
        until = await self.redis.hget(self._key(username), "locked_until_ms")
        return int(until) if until is not None and int(until) > now_ms else None

    async def unlock(self, username: str) -> bool:
        """Forget the failures and any lock; True when there was something to forget."""
        return bool(await self.redis.delete(self._key(username)))


def _text(value: object) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
