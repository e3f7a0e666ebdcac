"""``TimeLimitGuard``: ends a session whose time limit is reached (docs/responsible-play.md, "Limits").

A session starts when the player first sits anywhere; with a session time limit (``session_minutes``), the
player is in the index ``G:rg:time-limits`` with the moment it is reached (``store/play_risk.py``). Every
``interval_s`` this task, on every process, reads the index's due members; for each, one script (``_DUE``)
decides with the service's clock: no session any more -> out of the index; the limit (a loosening may have
come into force, a tightening moved it earlier) not yet reached -> the new moment; reached -> ``time_hit_ms``
written (once per session). Then the player is stood up at every table they sit at (``StandUp`` with
reason ``time_limit``: a dealt hand plays out, the chips go back at the round's end, said why), and sitting
anywhere is refused with ``TIME_LIMIT_REACHED`` for ``session_limit_pause_minutes`` (``PlayRisk``'s sit
check). Meanwhile a bet is refused by the reservation's own check of the session's time. Safe on several
processes: a stand-up sent twice is a refusal (already leaving, or gone), ignored.

A tightening of ``session_minutes`` moves the player's moment in the index at once (``refresh``).
"""

from __future__ import annotations

import logging
from typing import cast

from paigow.table.events import StandUpReason
from paigow_server.process.tasks import Every
from paigow_server.realtime.stand_ups import stand_up
from paigow_server.realtime.tables import TableService
from paigow_server.store import keys
from paigow_server.store.errors import FAILURES, StoreUnavailable
from paigow_server.store.play_accounting import RG_LUA
from paigow_server.store.play_limits import PlayLimits
from paigow_server.store.play_risk import PlayRisk

__all__ = ["TimeLimitGuard"]

log = logging.getLogger("paigow_server.time_limits")

# KEYS rg hash, time-limits index. ARGV player, now. 'GONE' | 'LATER' | {'DUE', table ids seated at}.
_DUE = RG_LUA + """
local due = rg_session_due(KEYS[1], tonumber(ARGV[2]))
if not due then
  redis.call('ZREM', KEYS[2], ARGV[1])
  return 'GONE'
end
if due > tonumber(ARGV[2]) then
  redis.call('ZADD', KEYS[2], due, ARGV[1])
  return 'LATER'
end
local start = tonumber(redis.call('HGET', KEYS[1], 'sess_start_ms'))
local hit = redis.call('HGET', KEYS[1], 'time_hit_ms')
if not hit or tonumber(hit) < start then redis.call('HSET', KEYS[1], 'time_hit_ms', ARGV[2]) end
local out = {'DUE'}
for _, f in ipairs(redis.call('HKEYS', KEYS[1])) do
  if string.sub(f, 1, 5) == 'seat:' then table.insert(out, string.sub(f, 6)) end
end
return out
"""

# KEYS rg hash, time-limits index. ARGV player, now: the player's moment in the index, as it is now.
_REFRESH = RG_LUA + """
local due = rg_session_due(KEYS[1], tonumber(ARGV[2]))
if due then redis.call('ZADD', KEYS[2], due, ARGV[1]) else redis.call('ZREM', KEYS[2], ARGV[1]) end
return 1
"""


def _text(value: str | bytes) -> str:
    return value.decode() if isinstance(value, bytes) else value


class TimeLimitGuard:
    def __init__(self, limits: PlayLimits, risk: PlayRisk, service: TableService, *,
                 interval_s: float = 2.0) -> None:
        self.limits = limits
        self.risk = risk
        self._service = service
        redis = limits.redis
        self._redis = redis
        self._due = redis.register_script(_DUE)
        self._refresh = redis.register_script(_REFRESH)
        self._every = Every("paigow-time-limits", interval_s, self.step,
                            failures=(StoreUnavailable, *FAILURES))
        self.start = self._every.start
        self.stop = self._every.stop

    def now_ms(self) -> int:
        return self._service.now_ms()

    async def refresh(self, player_id: str) -> None:
        """The player's limits changed: their session's moment in the index follows."""
        self.risk.forget(player_id)
        await self._refresh(keys=[keys.rg(player_id), keys.RG_TIME_LIMITS], args=[player_id, self.now_ms()])

    async def step(self) -> int:
        """Stand up every player whose session reached its limit; the stand-ups sent."""
        now = self.now_ms()
        due = cast("list[str | bytes]", await self._redis.zrangebyscore(keys.RG_TIME_LIMITS, "-inf", now))
        sent = 0
        for member in due:
            player_id = _text(member)
            answer = await self._due(keys=[keys.rg(player_id), keys.RG_TIME_LIMITS], args=[player_id, now])
            if isinstance(answer, list) and answer and _text(answer[0]) == "DUE":
                for table_id in answer[1:]:
                    sent += await self._stand_up(_text(table_id), player_id, now)
        return sent

    async def _stand_up(self, table_id: str, player_id: str, now: int) -> int:
        return int(await stand_up(self._service, table_id, player_id, StandUpReason.TIME_LIMIT, now))
