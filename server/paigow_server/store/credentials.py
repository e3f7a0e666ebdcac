"""Players' credentials: usernames, password hashes, keeping a guest account, and when each was seen.

A registered player's hash holds ``username``, ``pw`` (the argon2id hash, never the password) and
``registered``; ``paigow:username:{name}`` maps the case-folded username to the player id. Registration
itself is ``Accounts.create(..., username=...)`` (one script with the opening balance). A guest is kept by
one script that claims the username and leaves the guest index, or changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from redis.asyncio import Redis
from redis.exceptions import WatchError

from paigow_server.store import keys
from paigow_server.store.errors import store_boundary
from paigow_server.store.fresh_guests import SETTLE_FRESH

__all__ = ["Credentials", "KeepOutcome", "StoredLogin"]


@dataclass(frozen=True, slots=True)
class StoredLogin:
    player_id: str
    pw_hash: str


class KeepOutcome:
    OK = "OK"
    UNKNOWN_PLAYER = "UNKNOWN_PLAYER"
    ALREADY_REGISTERED = "ALREADY_REGISTERED"
    USERNAME_TAKEN = "USERNAME_TAKEN"


# KEYS: player hash, username key, guests index, players set, issued, ledger, fresh guests index. ARGV:
# player id, username, pw hash. A fresh guest is settled (``fresh_guests``) only once it is kept.
_KEEP = SETTLE_FRESH + """
if redis.call('EXISTS', KEYS[1]) == 0 then return 'UNKNOWN_PLAYER' end
if redis.call('HGET', KEYS[1], 'registered') == '1' then return 'ALREADY_REGISTERED' end
if redis.call('SET', KEYS[2], ARGV[1], 'NX') == false then return 'USERNAME_TAKEN' end
settle_fresh(KEYS[1], ARGV[1], KEYS[4], KEYS[3], KEYS[5], KEYS[6], KEYS[7])
redis.call('HSET', KEYS[1], 'username', ARGV[2], 'pw', ARGV[3], 'registered', '1')
redis.call('ZREM', KEYS[3], ARGV[1])
return 'OK'
"""

# KEYS: player hash, guests index. ARGV: player id, now. Only for an existing player.
_SEEN = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'last_seen_ms', ARGV[2])
if redis.call('HGET', KEYS[1], 'registered') ~= '1' then redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1]) end
return 1
"""


@store_boundary
class Credentials:
    def __init__(self, redis: Redis) -> None:
        self.redis = redis
        self._keep = redis.register_script(_KEEP)
        self._seen = redis.register_script(_SEEN)

    async def login_of(self, username: str) -> StoredLogin | None:
        player_id = await self.redis.get(keys.username(username))
        if player_id is None:
            return None
        pw_hash = await self.redis.hget(keys.player(str(player_id)), "pw")
        return None if pw_hash is None else StoredLogin(str(player_id), str(pw_hash))

    async def player_of(self, username: str) -> str | None:
        player_id = await self.redis.get(keys.username(username))
        return None if player_id is None else str(player_id)

    async def username_of(self, player_id: str) -> str | None:
        name = await self.redis.hget(keys.player(player_id), "username")
        return None if name is None else str(name)

    async def keep(self, player_id: str, username: str, pw_hash: str) -> str:
        """Make a guest a registered account (a ``KeepOutcome``)."""
        outcome = await self._keep(keys=[keys.player(player_id), keys.username(username), keys.GUESTS_SEEN,
                                         keys.PLAYERS, keys.MONEY_ISSUED, keys.LEDGER, keys.FRESH_GUESTS],
                                   args=[player_id, username, pw_hash])
        return outcome.decode() if isinstance(outcome, bytes) else str(outcome)

    async def replace_hash(self, player_id: str, old_hash: str, new_hash: str) -> None:
        """After a sign-in with outdated argon2 parameters (only if nobody changed it meanwhile)."""
        async with self.redis.pipeline(transaction=True) as pipe:
            await pipe.watch(keys.player(player_id))
            if await pipe.hget(keys.player(player_id), "pw") != old_hash:
                return
            pipe.multi()  # type: ignore[no-untyped-call]
            pipe.hset(keys.player(player_id), "pw", new_hash)
            try:
                await pipe.execute()
            except WatchError:  # changed meanwhile: the newer hash stands
                return

    async def seen(self, player_id: str, now_ms: int) -> None:
        """The player used a session now: ``last_seen_ms``, and for a guest the collection index."""
        await self._seen(keys=[keys.player(player_id), keys.GUESTS_SEEN], args=[player_id, now_ms])
