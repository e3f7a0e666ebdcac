"""Failed sign-ins, counted where they come from, so that strangers are slowed and the owner never locked out.

OWASP's defence against lockout denial of service ("Slow Down Online Guessing Attacks with Device
Cookies"): nothing locks an account. Each failure is counted by the **counters** of its attempt, and each
counter makes its attempts wait, exponentially longer, after too many failures:

- an attempt presenting a valid **device token** of the account (``web/device_tokens.py``: the device
  signed in to it before) is held to that device's counter only: a stranger's failures never slow it;
- any other attempt (an unknown device, or an unknown username: the same) is held to the counter of the
  account and its client's address prefix, and to the account's counter of untrusted attempts overall.

After the n-th failure on a counter its attempts wait ``2**(n - free - 1)`` seconds (none while ``n <=
free``), at most ``max_wait_ms``; a counter forgets 30 minutes after its last failure (or its wait, if
longer). Each is a hash of about 160 bytes: a failure on a new username from a new network keeps about
540 bytes of Redis for those 30 minutes (two counters), within the per-address sign-in rate. A success
clears the counter of the device or of the address prefix (not the account's overall one: a stranger
gains nothing by the owner signing in). While one attempt is being checked (argon2 takes a tenth of a
second), others held to one of its counters wait (``BACKOFF``), so parallel guesses cannot slip past the
count. An operator's reset sets the account's ``reset_ms``: every counter of the account older than that
(its first failure no later) starts again. Unknown usernames are counted like known ones, so the answers
do not tell which exist.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from redis.asyncio import Redis

from paigow_server.store import keys
from paigow_server.store.errors import store_boundary

__all__ = ["ACCOUNT_FREE", "FORGET_MS", "Attempt", "SignInGuard", "Verdict"]

ACCOUNT_FREE = 5
"""Untrusted failures of an account, from all addresses together, before its untrusted attempts wait."""
FORGET_MS = 1_800_000
_PENDING_MS = 5_000
"""How long an attempt being checked holds its counters (if its process dies, no longer)."""


class Verdict(StrEnum):
    OK = "OK"
    BACKOFF = "BACKOFF"


@dataclass(frozen=True, slots=True)
class Attempt:
    verdict: Verdict
    until_ms: int = 0
    """BACKOFF, and after a failure: when to try again (after a failure with no wait: now)."""


# KEYS[1]: the account's counter (its reset_ms); KEYS[2..]: the attempt's counters. ARGV: now, pending ms,
# forget ms.
_BEGIN = """
local now = tonumber(ARGV[1])
local reset = tonumber(redis.call('HGET', KEYS[1], 'reset_ms') or '0')
local wait = 0
for i = 2, #KEYS do
  local since = redis.call('HGET', KEYS[i], 'since_ms')
  if since and tonumber(since) <= reset then
    redis.call('HDEL', KEYS[i], 'failures', 'retry_ms', 'pending_ms', 'since_ms')
  end
  local retry = tonumber(redis.call('HGET', KEYS[i], 'retry_ms') or '0')
  local pending = tonumber(redis.call('HGET', KEYS[i], 'pending_ms') or '0')
  if pending > now then retry = math.max(retry, now + 1000) end
  if retry > wait then wait = retry end
end
if wait > now then return {'BACKOFF', wait} end
for i = 2, #KEYS do
  redis.call('HSET', KEYS[i], 'pending_ms', now + tonumber(ARGV[2]))
  if redis.call('PTTL', KEYS[i]) < 0 then redis.call('PEXPIRE', KEYS[i], ARGV[3]) end
end
return {'OK', 0}
"""

# KEYS: the attempt's counters. ARGV: now, forget ms, max wait ms, then each counter's free failures.
_FAILED = """
local now = tonumber(ARGV[1])
local cap = tonumber(ARGV[3])
local latest = now
for i = 1, #KEYS do
  redis.call('HDEL', KEYS[i], 'pending_ms')
  local n = redis.call('HINCRBY', KEYS[i], 'failures', 1)
  if n == 1 then redis.call('HSET', KEYS[i], 'since_ms', now) end
  local over = n - tonumber(ARGV[3 + i])
  local retry = now
  if over > 0 then retry = now + math.floor(math.min(cap, 1000 * math.pow(2, over - 1))) end
  redis.call('HSET', KEYS[i], 'retry_ms', retry)
  redis.call('PEXPIRE', KEYS[i], math.max(tonumber(ARGV[2]), retry - now))
  if retry > latest then latest = retry end
end
return latest
"""

# KEYS[1]: the account's counter. ARGV: now, forget ms. Answers 1 when it had failures to forget.
_RESET = """
local had = tonumber(redis.call('HGET', KEYS[1], 'failures') or '0') > 0
redis.call('HDEL', KEYS[1], 'failures', 'retry_ms', 'pending_ms', 'since_ms')
redis.call('HSET', KEYS[1], 'reset_ms', ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
if had then return 1 end
return 0
"""


@store_boundary
class SignInGuard:
    """``kind``: ``player`` or ``operator`` (their usernames are separate)."""

    def __init__(self, redis: Redis, kind: str, *, max_wait_ms: int) -> None:
        self.redis = redis
        self.kind = kind
        self.max_wait_ms = max_wait_ms
        self._begin = redis.register_script(_BEGIN)
        self._failed = redis.register_script(_FAILED)
        self._reset = redis.register_script(_RESET)

    def _counters(self, username: str, device: str | None, prefix: str) -> list[tuple[str, int]]:
        """The attempt's counters and their free failures."""
        if device is not None:
            return [(keys.sign_in_device(self.kind, username, device), 0)]
        return [(keys.sign_in_from(self.kind, username, prefix), 0),
                (keys.sign_in(self.kind, username), ACCOUNT_FREE)]

    async def begin(self, username: str, device: str | None, prefix: str, now_ms: int) -> Attempt:
        """May this attempt try now? OK holds its counters until ``failed`` or ``succeeded``. ``device``: the
        id of the attempt's valid device token, or None; ``prefix``: its client's address prefix."""
        counters = [key for key, _ in self._counters(username, device, prefix)]
        verdict, until = await self._begin(keys=[keys.sign_in(self.kind, username), *counters],
                                           args=[now_ms, _PENDING_MS, FORGET_MS])
        return Attempt(Verdict(_text(verdict)), int(until))

    async def failed(self, username: str, device: str | None, prefix: str, now_ms: int) -> Attempt:
        counters = self._counters(username, device, prefix)
        frees = [free for _, free in counters]
        until = await self._failed(keys=[key for key, _ in counters],
                                   args=[now_ms, FORGET_MS, self.max_wait_ms, *frees])
        return Attempt(Verdict.BACKOFF if int(until) > now_ms else Verdict.OK, int(until))

    async def succeeded(self, username: str, device: str | None, prefix: str) -> None:
        """Clear the device's or the address prefix's counter; free the account's overall one (that an
        untrusted attempt held)."""
        first = self._counters(username, device, prefix)[0][0]
        if device is not None:
            await self.redis.delete(first)
            return
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.delete(first)
            pipe.hdel(keys.sign_in(self.kind, username), "pending_ms")
            await pipe.execute()

    async def held_until(self, username: str, now_ms: int) -> int | None:
        """When the account's untrusted attempts may try again, if they wait now."""
        until = await self.redis.hget(keys.sign_in(self.kind, username), "retry_ms")
        return int(until) if until is not None and int(until) > now_ms else None

    async def reset(self, username: str, now_ms: int) -> bool:
        """Every counter of the account starts again (an operator's unlock); True when the account's
        overall counter had failures to forget."""
        keep_ms = max(FORGET_MS, self.max_wait_ms)  # the reset outlives every counter it clears
        return bool(await self._reset(keys=[keys.sign_in(self.kind, username)], args=[now_ms, keep_ms]))


def _text(value: object) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
