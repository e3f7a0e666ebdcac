"""The play session's figures and the reality checks' claim (docs/responsible-play.md).

The session figures live in the player's ``paigow:{global}:player:{p}:rg`` hash, written by the play
accounting at each sit, settle and last stand-up: ``sess_start_ms``, ``sess_net_cents``,
``sess_wager_cents`` (absent: no session), and the player's ``reality_check_minutes`` preference (absent or
``null``: the deployment's default). The reality checks add ``next_check_ms`` (when the next one is due),
``check_session_ms`` (the session that ``next_check_ms`` belongs to: a new session starts its own count) and
``checks_shown`` (a statistic the operator reads). A check is claimed by one script, so that one player
sitting at several tables on several processes is shown each check once.
"""

from __future__ import annotations

from dataclasses import dataclass

from redis.asyncio import Redis

from paigow_server.store import keys
from paigow_server.store.errors import store_boundary

__all__ = ["PlaySessions", "SessionFigures", "interval_ms"]

MINUTE_MS = 60_000
_FIELDS = ("sess_start_ms", "sess_net_cents", "sess_wager_cents", "reality_check_minutes", "next_check_ms",
           "check_session_ms")


def _int(value: bytes | str | None) -> int | None:
    if value is None:
        return None
    text = value.decode() if isinstance(value, bytes) else value
    try:
        return int(text)
    except ValueError:  # "null", "": not set
        return None


def interval_ms(minutes: int | None, default_minutes: int) -> int:
    """The interval between checks: the player's choice, else the deployment's; 0 = no checks."""
    chosen = default_minutes if minutes is None else minutes
    return max(chosen, 0) * MINUTE_MS


@dataclass(frozen=True, slots=True)
class SessionFigures:
    started_ms: int | None
    net_cents: int = 0
    wagered_cents: int = 0
    check_minutes: int | None = None
    """The player's own interval (None: the deployment's)."""
    next_check_ms: int | None = None
    """When the next check is due, as stored (for ``check_session_ms``'s session only)."""
    check_session_ms: int | None = None

    def check_due(self, now_ms: int, default_minutes: int) -> bool:
        """A reality check is due at ``now_ms`` (the claim decides; this spares the script on most steps)."""
        every = interval_ms(self.check_minutes, default_minutes)
        if self.started_ms is None or every <= 0:
            return False
        due = self.started_ms + every
        if self.check_session_ms == self.started_ms and self.next_check_ms is not None:
            due = self.next_check_ms
        return now_ms >= due


# KEYS the rg hash; ARGV now_ms, the deployment's interval (ms). A session in progress whose check is due
# (``next_check_ms`` of this session, else the session's start plus the interval) -> the next one is set,
# ``checks_shown`` counted, and {start, net, wagered, next} returned; else nil.
_CLAIM = """
local f = redis.call('HMGET', KEYS[1], 'sess_start_ms', 'sess_net_cents', 'sess_wager_cents',
                     'reality_check_minutes', 'next_check_ms', 'check_session_ms')
local start = tonumber(f[1])
if not start then return nil end
local every = tonumber(ARGV[2])
local own = tonumber(f[4])
if own then every = own * 60000 end
if every <= 0 then return nil end
local now = tonumber(ARGV[1])
local due = start + every
if tonumber(f[6]) == start and tonumber(f[5]) then due = tonumber(f[5]) end
if now < due then return nil end
local next = now + every
redis.call('HSET', KEYS[1], 'next_check_ms', next, 'check_session_ms', f[1])
redis.call('HINCRBY', KEYS[1], 'checks_shown', 1)
return {start, tonumber(f[2]) or 0, tonumber(f[3]) or 0, next}
"""


@store_boundary
class PlaySessions:
    def __init__(self, redis: Redis) -> None:
        self.redis = redis
        self._claim = redis.register_script(_CLAIM)

    async def figures_many(self, player_ids: list[str]) -> dict[str, SessionFigures]:
        """Each player's figures, in one round trip."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for player_id in player_ids:
                pipe.hmget(keys.rg(player_id), list(_FIELDS))
            rows = await pipe.execute()
        found: dict[str, SessionFigures] = {}
        for player_id, row in zip(player_ids, rows, strict=True):
            start, net, wagered, minutes, next_ms, of_session = (_int(v) for v in row)
            found[player_id] = SessionFigures(start, net or 0, wagered or 0, minutes, next_ms, of_session)
        return found

    async def claim_check(self, player_id: str, now_ms: int,
                          default_minutes: int) -> tuple[int, int, int, int] | None:
        """Claim the player's due reality check: (started_ms, net_cents, wagered_cents, next_ms), or None
        when none is due (or another table or process claimed it)."""
        got = await self._claim(keys=[keys.rg(player_id)], args=[now_ms, interval_ms(None, default_minutes)])
        if got is None:
            return None
        start, net, wagered, next_ms = (int(v) for v in got)
        return start, net, wagered, next_ms

    async def seated_at(self, player_id: str) -> list[str]:
        """The tables the player sits at, on any process (the play accounting's ``seat:<table>`` fields)."""
        fields = await self.redis.hkeys(keys.rg(player_id))
        names = (f.decode() if isinstance(f, bytes) else f for f in fields)
        return sorted(name[5:] for name in names if name.startswith("seat:"))

    async def checks_shown(self, player_id: str) -> int:
        return _int(await self.redis.hget(keys.rg(player_id), "checks_shown")) or 0
