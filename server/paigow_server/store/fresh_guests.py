"""Fresh guests: a new guest is tiny and short-lived until it first sits, chats, is credited or is kept.

A fresh guest is its hash alone (``name``, ``balance``, ``created_ms``, ``last_seen_ms`` and ``fresh``) with a
time to live of ``fresh_guest_minutes``, and its session token and sessions set with no longer a one
(``Sessions``). It is in none of the players set, the guest index, the issued total or the ledger (only in
``keys.FRESH_GUESTS``, for the operator's search): its starting balance is not issued yet, so the money
check (``store.money``) neither counts it nor misses it, and the guest collector never sees it. Every use
of its token slides the three lives (``slide``).

Settling makes it an ordinary guest: the ``fresh`` mark and the time to live go, it joins the players set
and the guest index, and its balance is issued with the opening ledger entry (bank -> player), exactly as
``Accounts.create`` writes a guest. It happens inside the script of the action that first moves its money or
keeps something of it, and only once that script's checks have passed (``SETTLE_FRESH``, a Lua function
those scripts begin with): a buy-in (the table's commit, ``direct_commit``; on a Cluster its hold,
``Holds.reserve``), a sit at a home game with its own chips, which moves no balance (the commit's seating
effect ``settle``: ``seating_effects``), an operator's credit or debit (``Accounts``), keeping the account
(``Credentials.keep``).
A refused action (a debit beyond the balance, a buy-in the balance cannot cover, a username taken) issues
nothing. ``settle`` alone serves a chat line, after every check of the line has passed. A fresh guest nobody
used for its time to live expires whole: nothing was issued, so nothing is owed, and nothing is left in
Redis.
"""

from __future__ import annotations

import time

from redis.asyncio import Redis

from paigow_server.store import keys
from paigow_server.store.errors import store_boundary

__all__ = ["FRESH", "SETTLE_FRESH", "FreshGuests", "settle_keys"]

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

SETTLE_FRESH = """
local function settle_fresh(player_key, player_id, players, guests, issued, ledger, fresh_index)
  if redis.call('HGET', player_key, 'fresh') ~= '1' then return 0 end
  local balance = redis.call('HGET', player_key, 'balance')
  local clock = redis.call('TIME')
  local wall = clock[1] .. string.format('%03d', math.floor(tonumber(clock[2]) / 1000))
  redis.call('HDEL', player_key, 'fresh')
  redis.call('PERSIST', player_key)
  redis.call('ZREM', fresh_index, player_id)
  redis.call('SADD', players, player_id)
  redis.call('ZADD', guests, wall, player_id)
  if tonumber(balance) > 0 then
    redis.call('INCRBY', issued, balance)
    redis.call('XADD', ledger, '*', 'e', '{"kind":"opening","from_account":"bank","to_account":"player:'
      .. player_id .. '","amount_cents":' .. balance .. ',"ts_ms":' .. wall
      .. ',"table_id":null,"round_id":null,"player_id":"' .. player_id .. '","reason":null}')
  end
  return 1
end
"""
"""A Lua function for the scripts that settle a fresh guest (see the module): a no-op (0) for any other
player, else 1 once settled at the server's clock. Its keys: ``settle_keys``, in that order, after the
player's hash."""

# KEYS: player hash, players set, guests index, issued, ledger, fresh guests index. ARGV: player id.
# 1: settled now; 0: not fresh (settled already, registered or gone).
_SETTLE = SETTLE_FRESH + """
return settle_fresh(KEYS[1], ARGV[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6])
"""


def settle_keys() -> list[str]:
    """The keys ``settle_fresh`` writes besides the player's hash: players set, guests index, issued,
    ledger, fresh guests index."""
    return [keys.PLAYERS, keys.GUESTS_SEEN, keys.MONEY_ISSUED, keys.LEDGER, keys.FRESH_GUESTS]


# KEYS: player hash, session key, sessions set, fresh guests index. ARGV: time to live (ms), now, player
# id. 1: slid; 0: not a fresh guest.
_SLIDE = """
if redis.call('HGET', KEYS[1], 'fresh') ~= '1' then return 0 end
for i = 1, 3 do redis.call('PEXPIRE', KEYS[i], ARGV[1]) end
redis.call('ZADD', KEYS[4], tonumber(ARGV[2]) + tonumber(ARGV[1]), ARGV[3])
if redis.call('PTTL', KEYS[4]) < tonumber(ARGV[1]) then redis.call('PEXPIRE', KEYS[4], ARGV[1]) end
return 1
"""

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
        return bool(await self._settle(keys=[keys.player(player_id), *settle_keys()], args=[player_id]))

    async def slide(self, player_id: str, session_key: str, ttl_ms: int) -> bool:
        """Give a fresh guest's hash, this session and its sessions set ``ttl_ms`` more; False (nothing
        done) when the player is not a fresh guest."""
        owned = [keys.player(player_id), session_key, keys.player_sessions(player_id), keys.FRESH_GUESTS]
        return bool(await self._slide(keys=owned, args=[ttl_ms, _now_ms(), player_id]))

    async def fresh_ids(self) -> list[str]:
        """The fresh guests that have not lapsed (for the operator's search)."""
        found = await self.redis.zrangebyscore(keys.FRESH_GUESTS, _now_ms(), "+inf")
        return [str(player_id) for player_id in found]
