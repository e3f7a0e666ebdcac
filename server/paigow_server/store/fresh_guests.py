"""Fresh guests: a new guest is tiny and short-lived until it first sits, chats, is credited or is kept.

A fresh guest is its hash alone (``name``, ``balance``, ``created_ms``, ``last_seen_ms`` and ``fresh``) with a
time to live of ``fresh_guest_minutes``, and its session token and sessions set with no longer a one
(``Sessions``). It is in none of the players set, the guest index, the issued total or the ledger (only in
``keys.FRESH_GUESTS``, for the operator's search): its starting balance is not issued yet, so the money
check (``store.money``) neither counts it nor misses it, and the guest collector never sees it. Every use
of its token slides the three lives (``slide``).

``settle`` makes it an ordinary guest in one script: the ``fresh`` mark and the time to live go, it joins
the players set and the guest index, and its balance is issued with the opening ledger entry (bank ->
player), exactly as ``Accounts.create`` writes a guest. It is called before anything that moves its money or
keeps something of it: a buy-in's hold (``Holds.reserve``), an operator's credit or debit, keeping the
account (registering it), a chat line. A fresh guest nobody used for its time to live expires whole: nothing
was issued, so nothing is owed, and nothing is left in Redis.
"""

from __future__ import annotations

import time

from redis.asyncio import Redis

from paigow.ledger.accounts import BANK, EntryKind, LedgerEntry, player_account
from paigow_server.store import keys
from paigow_server.store.errors import store_boundary

__all__ = ["FRESH", "FreshGuests"]

FRESH = "fresh"
"""The player hash's field that marks a fresh guest (``"1"``)."""

# KEYS: player hash, fresh guests index. ARGV: name, balance, now, time to live (ms), player id.
CREATE_FRESH = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'name', ARGV[1], 'balance', ARGV[2], 'created_ms', ARGV[3],
           'last_seen_ms', ARGV[3], 'fresh', '1')
redis.call('PEXPIRE', KEYS[1], ARGV[4])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[3])
redis.call('ZADD', KEYS[2], tonumber(ARGV[3]) + tonumber(ARGV[4]), ARGV[5])
redis.call('PEXPIRE', KEYS[2], ARGV[4])
return 1
"""

# KEYS: player hash, players set, guests index, issued, ledger, fresh guests index. ARGV: player id, balance
# read, now, opening ledger JSON ('' when the balance is 0). 1: settled now; 0: not fresh (settled already,
# registered or gone); -1: the balance is not the one read (read again).
_SETTLE = """
if redis.call('HGET', KEYS[1], 'fresh') ~= '1' then return 0 end
if redis.call('HGET', KEYS[1], 'balance') ~= ARGV[2] then return -1 end
redis.call('HDEL', KEYS[1], 'fresh')
redis.call('PERSIST', KEYS[1])
redis.call('ZREM', KEYS[6], ARGV[1])
redis.call('SADD', KEYS[2], ARGV[1])
redis.call('ZADD', KEYS[3], ARGV[3], ARGV[1])
if tonumber(ARGV[2]) > 0 then
  redis.call('INCRBY', KEYS[4], ARGV[2])
  redis.call('XADD', KEYS[5], '*', 'e', ARGV[4])
end
return 1
"""

# KEYS: player hash, session key, sessions set, fresh guests index. ARGV: time to live (ms), now, player
# id. 1: slid; 0: not a fresh guest.
_SLIDE = """
if redis.call('HGET', KEYS[1], 'fresh') ~= '1' then return 0 end
for i = 1, 3 do redis.call('PEXPIRE', KEYS[i], ARGV[1]) end
redis.call('ZADD', KEYS[4], tonumber(ARGV[2]) + tonumber(ARGV[1]), ARGV[3])
if redis.call('PTTL', KEYS[4]) < tonumber(ARGV[1]) then redis.call('PEXPIRE', KEYS[4], ARGV[1]) end
return 1
"""

_SETTLE_ATTEMPTS = 5


def _now_ms() -> int:
    return time.time_ns() // 1_000_000


@store_boundary
class FreshGuests:
    def __init__(self, redis: Redis) -> None:
        self.redis = redis
        self._settle = redis.register_script(_SETTLE)
        self._slide = redis.register_script(_SLIDE)

    async def settle(self, player_id: str) -> bool:
        """Make a fresh guest an ordinary one (see the module); True when it was fresh."""
        for _ in range(_SETTLE_ATTEMPTS):
            balance = await self.redis.hget(keys.player(player_id), "balance")
            if balance is None:
                return False
            amount, now = int(balance), _now_ms()
            opening = "" if amount == 0 else LedgerEntry(EntryKind.OPENING, BANK, player_account(player_id),
                                                         amount, now, player_id=player_id).to_json()
            done = int(await self._settle(
                keys=[keys.player(player_id), keys.PLAYERS, keys.GUESTS_SEEN, keys.MONEY_ISSUED, keys.LEDGER,
                      keys.FRESH_GUESTS],
                args=[player_id, amount, now, opening]))
            if done >= 0:
                return done == 1
        raise RuntimeError(f"the balance of fresh guest {player_id} kept changing while it was settled")

    async def slide(self, player_id: str, session_key: str, ttl_ms: int) -> bool:
        """Give a fresh guest's hash, this session and its sessions set ``ttl_ms`` more; False (nothing
        done) when the player is not a fresh guest."""
        owned = [keys.player(player_id), session_key, keys.player_sessions(player_id), keys.FRESH_GUESTS]
        return bool(await self._slide(keys=owned, args=[ttl_ms, _now_ms(), player_id]))

    async def fresh_ids(self) -> list[str]:
        """The fresh guests that have not lapsed (for the operator's search)."""
        found = await self.redis.zrangebyscore(keys.FRESH_GUESTS, _now_ms(), "+inf")
        return [str(player_id) for player_id in found]
