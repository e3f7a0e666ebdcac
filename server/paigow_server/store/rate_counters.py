"""``RateCounters``: the rate limits' Redis side (``web/rate_limits.py`` says what is limited and how much).

One string per (limit, address) holds the address's "theoretical arrival time" of the generic cell rate
algorithm; one script checks and moves it atomically, and lets the key expire when the allowance is full
again.
"""

from __future__ import annotations

from redis.asyncio import Redis

from paigow_server.store import keys
from paigow_server.store.errors import store_boundary

__all__ = ["HIT_LUA", "RateCounters"]

HIT_LUA = """
local function hit(key, now, interval, window)
  local tat = tonumber(redis.call('GET', key) or '0')
  if tat < now then tat = now end
  local wait = tat + interval - now - window
  if wait > 0 then return wait end
  tat = tat + interval
  redis.call('SET', key, tat, 'PX', math.max(1, tat - now))
  return 0
end
"""
"""A Lua function for the scripts that count a request against a limit (here, and a free top-up's network
allowance: ``top_ups``): 0 and the request counted in ``key``, or how long to wait (ms; nothing counted)."""

# KEYS: the limit's key. ARGV: now (ms), interval (ms), window (ms). Returns 0 (allowed) or the wait (ms).
_HIT = HIT_LUA + """
return hit(KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]))
"""


@store_boundary
class RateCounters:
    def __init__(self, redis: Redis) -> None:
        self._hit = redis.register_script(_HIT)

    async def hit(self, limit: str, address: str, *, now_ms: int, interval_ms: int, window_ms: int) -> int:
        """0 and the request counted, or how long ``address`` must wait (nothing counted)."""
        return int(await self._hit(keys=[keys.rate_limit(limit, address)],
                                   args=[now_ms, interval_ms, window_ms]))
