"""A player's limits: loss and wager limits per day, week and month, and a session time limit
(docs/responsible-play.md, "Limits"; the HTTP contract: docs/http-api.md, "Limits").

The limits live beside the block in the account's ``paigow:{global}:player:{p}:rg`` hash:

- ``limits`` JSON ``{"loss_day", "loss_week", "loss_month", "wager_day", "wager_week", "wager_month"}``
  (cents, or null: none) and ``"session_minutes"`` (minutes or null);
- ``pending`` JSON ``{name: {"value", "asked_ms", "effective_ms"}}``: a loosening asked for, in force from
  ``effective_ms``;
- ``reality_check_minutes``: the player's reality-check interval (absent: the deployment's default). A
  preference, not a limit: it changes at once.

**Tighten now, loosen later.** A lower value, or a value where there was none, is in force at once (and
drops a loosening of that limit waiting). A higher value, or none where there was one, waits: it is in
force from the first end of that limit's period (a day, a week from Monday, a month from the 1st, at 00:00
in ``limits_timezone``) at least 24 hours after it was asked for; a session limit's 24 hours after. A newer
request replaces one waiting. A loosening whose moment came is promoted by the next script that reads the
limits (``PROMOTE_LUA``: the setting's, the bet check's), with the caller's clock (the table's injectable
clock on the table's path, never Redis ``TIME``), so a reader always sees the limits in force.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from redis.asyncio import Redis

from paigow.rules.house_rules import MAX_CENTS
from paigow_server.store import keys
from paigow_server.store.errors import store_boundary

__all__ = [
    "DAY_MS",
    "LIMIT_NAMES",
    "MONEY_LIMITS",
    "PERIODS",
    "PROMOTE_LUA",
    "Periods",
    "PlayLimits",
    "configure_timezone",
    "effective_after",
    "limits_zone",
    "periods_at",
]

DAY_MS = 86_400_000
PERIODS = ("day", "week", "month")
MONEY_LIMITS: tuple[str, ...] = tuple(f"{kind}_{period}" for kind in ("loss", "wager") for period in PERIODS)
"""The money limits, in cents."""
LIMIT_NAMES: tuple[str, ...] = (*MONEY_LIMITS, "session_minutes")
MAX_SESSION_MINUTES = 7 * 24 * 60
_PREFIX = {"day": "D", "week": "W", "month": "M"}

_zone = ZoneInfo("UTC")


def configure_timezone(name: str) -> None:
    """The deployment's ``limits_timezone`` (called once at start-up: the periods are the deployment's, the
    same on every process)."""
    global _zone
    _zone = ZoneInfo(name)


def limits_zone() -> ZoneInfo:
    return _zone


def _ms(at: datetime) -> int:
    return int(at.timestamp() * 1000)


@dataclass(frozen=True, slots=True)
class Periods:
    """The periods a moment falls in: each one's id (``D2026-12-06``, ``W2026-49``, ``M2026-12``) and end."""

    ids: dict[str, str]
    ends_ms: dict[str, int]

    def to_json(self) -> dict[str, Any]:
        return {p: {"id": self.ids[p], "ends_ms": self.ends_ms[p]} for p in PERIODS}


def periods_at(now_ms: int, zone: ZoneInfo | None = None) -> Periods:
    """The day, week and month holding ``now_ms``, in ``zone`` (the deployment's by default)."""
    local = datetime.fromtimestamp(now_ms / 1000, zone or _zone)
    midnight = local.replace(hour=0, minute=0, second=0, microsecond=0)
    day_end = (midnight + timedelta(days=1)).replace(tzinfo=local.tzinfo)
    monday = midnight - timedelta(days=local.weekday())
    week_end = monday + timedelta(days=7)
    first = midnight.replace(day=1)
    month_end = first.replace(year=first.year + 1, month=1) if first.month == 12 else first.replace(
        month=first.month + 1)
    iso = local.isocalendar()
    ids = {"day": f"D{local:%Y-%m-%d}", "week": f"W{iso.year}-{iso.week:02d}", "month": f"M{local:%Y-%m}"}
    return Periods(ids, {"day": _ms(day_end), "week": _ms(week_end), "month": _ms(month_end)})


def effective_after(name: str, asked_ms: int) -> int:
    """When a loosening of ``name`` asked for at ``asked_ms`` is in force: the first end of its period at
    least 24 hours later (``session_minutes``: 24 hours later)."""
    at = asked_ms + DAY_MS
    if name == "session_minutes":
        return at
    return periods_at(at - 1).ends_ms[name.split("_", 1)[1]]


# promote(rg key, now): the limits in force at now (a Lua table name -> number or cjson.null), the pending
# loosenings whose moment came moved into them and written back.
PROMOTE_LUA = """
local function promote(rg, now)
  local text = redis.call('HGET', rg, 'limits')
  local limits = text and cjson.decode(text) or {}
  local ptext = redis.call('HGET', rg, 'pending')
  if ptext then
    local pending = cjson.decode(ptext)
    local moved = false
    for name, p in pairs(pending) do
      if tonumber(p['effective_ms']) <= now then
        limits[name] = p['value']
        pending[name] = nil
        moved = true
      end
    end
    if moved then
      redis.call('HSET', rg, 'limits', cjson.encode(limits))
      if next(pending) == nil then redis.call('HDEL', rg, 'pending')
      else redis.call('HSET', rg, 'pending', cjson.encode(pending)) end
    end
  end
  return limits
end
"""

# KEYS rg hash, limits generation. ARGV now, changes JSON {name: [value|null, effective_ms]}, reality check
# ('' = unchanged, 'null' = the default, else minutes), player id (a changed reality check is published on
# the play-sessions channel: every process's ``PlaySessionPush`` reads it again). A player who had no limit
# and no loosening waiting and now has either counts the generation up (``play_risk``: every process's "no
# limit" cache).
_SET = PROMOTE_LUA + """
local function limited(limits, pending)
  if next(pending) ~= nil then return true end
  for _, v in pairs(limits) do if v ~= cjson.null then return true end end
  return false
end
local now = tonumber(ARGV[1])
local limits = promote(KEYS[1], now)
local ptext = redis.call('HGET', KEYS[1], 'pending')
local pending = ptext and cjson.decode(ptext) or {}
local was = limited(limits, pending)
for name, change in pairs(cjson.decode(ARGV[2])) do
  local new, old = change[1], limits[name]
  if old == nil then old = cjson.null end
  local tighter = (old == cjson.null and new ~= cjson.null)
                  or (old ~= cjson.null and new ~= cjson.null and tonumber(new) < tonumber(old))
  local looser = (old ~= cjson.null and new == cjson.null)
                 or (old ~= cjson.null and new ~= cjson.null and tonumber(new) > tonumber(old))
  if tighter then
    limits[name] = new
    pending[name] = nil
  elseif looser then
    pending[name] = {value = new, asked_ms = now, effective_ms = tonumber(change[2])}
  else
    pending[name] = nil
  end
end
redis.call('HSET', KEYS[1], 'limits', cjson.encode(limits))
if next(pending) == nil then redis.call('HDEL', KEYS[1], 'pending')
else redis.call('HSET', KEYS[1], 'pending', cjson.encode(pending)) end
if not was and limited(limits, pending) then redis.call('INCR', KEYS[2]) end
if ARGV[3] == 'null' then redis.call('HDEL', KEYS[1], 'reality_check_minutes')
elseif ARGV[3] ~= '' then redis.call('HSET', KEYS[1], 'reality_check_minutes', ARGV[3]) end
if ARGV[3] ~= '' then redis.call('PUBLISH', '""" + keys.PLAY_SESSIONS + """', ARGV[4]) end
return 1
"""

# KEYS rg hash. ARGV now. The limits in force (promoted), as JSON.
_READ = PROMOTE_LUA + """
return cjson.encode(promote(KEYS[1], tonumber(ARGV[1])))
"""


def check_limit_value(name: str, value: Any) -> str | None:
    """Why ``value`` is not a value of limit ``name`` (None: it is)."""
    if name not in LIMIT_NAMES:
        return f"no limit {name!r}: one of {', '.join(LIMIT_NAMES)}"
    if value is None:
        return None
    top = MAX_SESSION_MINUTES if name == "session_minutes" else MAX_CENTS
    if type(value) is not int or not 1 <= value <= top:
        unit = "minutes" if name == "session_minutes" else "cents"
        return f"{name} must be null or a whole number of {unit} from 1 to {top}"
    return None


def _text(value: str | bytes | None) -> str | None:
    return value.decode() if isinstance(value, bytes) else value


def _int(value: str | bytes | None) -> int | None:
    text = _text(value)
    return None if text is None else int(text)


def _limits(text: str | None) -> dict[str, int | None]:
    stored = json.loads(text) if text else {}
    return {name: (None if stored.get(name) is None else int(stored[name])) for name in LIMIT_NAMES}


@store_boundary
class PlayLimits:
    def __init__(self, redis: Redis) -> None:
        self.redis = redis
        self._set = redis.register_script(_SET)
        self._read = redis.register_script(_READ)

    async def limits(self, player_id: str, now_ms: int) -> dict[str, int | None]:
        """The limits in force at ``now_ms`` (each name; null: none)."""
        return _limits(_text(await self._read(keys=[keys.rg(player_id)], args=[now_ms])))

    async def set(self, player_id: str, changes: dict[str, int | None], now_ms: int, *,
                  reality_check: int | str | None = "") -> None:
        """Apply ``changes`` (checked values) by the tighten-now / loosen-later rule; ``reality_check``:
        ``""`` unchanged, None the default, else minutes."""
        plan = {name: [value, effective_after(name, now_ms)] for name, value in changes.items()}
        check = "" if reality_check == "" else "null" if reality_check is None else str(reality_check)
        await self._set(keys=[keys.rg(player_id), keys.RG_LIMITS_GEN],
                        args=[now_ms, json.dumps(plan), check, player_id])

    async def status(self, player_id: str, now_ms: int) -> dict[str, Any]:
        """What ``GET /api/account/responsible-play`` answers besides ``block``: ``limits``, ``pending``,
        ``reality_check_minutes``, ``session``, ``used``, ``room`` (the least room any money limit in force
        leaves: its limit less this period's settled total and the money at risk at every table; null with
        none), ``periods``."""
        limits = await self.limits(player_id, now_ms)
        fields = ("pending", "reality_check_minutes", "sess_start_ms", "sess_net_cents", "sess_wager_cents",
                  "limits_hit", "time_hit_ms")
        raw = dict(zip(fields, await self.redis.hmget(keys.rg(player_id), list(fields)), strict=True))
        periods = periods_at(now_ms)
        totals = await self.totals(player_id, periods)
        pending_text = _text(raw["pending"])
        start = _int(raw["sess_start_ms"])
        session = None if start is None else {
            "start_ms": start, "net_cents": _int(raw["sess_net_cents"]) or 0,
            "wagered_cents": _int(raw["sess_wager_cents"]) or 0}
        used: dict[str, dict[str, int]] = {}
        room: dict[str, Any] | None = None
        at_risk = await self.at_risk(player_id)
        for name in MONEY_LIMITS:
            limit = limits[name]
            if limit is not None:
                kind, period = name.split("_", 1)
                value = totals[f"{kind}:{period}"]
                used[name] = {"used_cents": value, "until_ms": periods.ends_ms[period]}
                left = max(0, limit - value - at_risk)
                if room is None or left < room["room_cents"]:
                    room = {"room_cents": left, "limit": name, "until_ms": periods.ends_ms[period]}
        return {"limits": limits, "pending": json.loads(pending_text) if pending_text else {},
                "reality_check_minutes": _int(raw["reality_check_minutes"]), "session": session,
                "used": used, "room": room, "periods": periods.to_json(),
                "limits_hit": _int(raw["limits_hit"]) or 0, "time_hit_ms": _int(raw["time_hit_ms"])}

    async def totals(self, player_id: str, periods: Periods) -> dict[str, int]:
        """``wager:<period>`` and ``loss:<period>`` (the net loss, never below 0) of the periods holding now,
        settled rounds only."""
        names = [f"{kind}:{periods.ids[p]}" for p in PERIODS for kind in ("wager", "net")]
        values = await self.redis.hmget(keys.rg_totals(player_id), names)
        got = dict(zip(names, (_int(v) or 0 for v in values), strict=True))
        out: dict[str, int] = {}
        for p in PERIODS:
            out[f"wager:{p}"] = got[f"wager:{periods.ids[p]}"]
            out[f"loss:{p}"] = max(0, -got[f"net:{periods.ids[p]}"])
        return out

    async def at_risk(self, player_id: str) -> int:
        """The money the player has at risk in rounds not settled yet, at every table (``open:<table>``)."""
        fields = await self.redis.hgetall(keys.rg_totals(player_id))
        return sum(int(json.loads(_text(v) or "{}").get("cents", 0)) for f, v in fields.items()
                   if (_text(f) or "").startswith("open:"))

    async def sessions(self, player_id: str, count: int = 200) -> list[dict[str, Any]]:
        """The player's ended sessions, newest first."""
        texts = await self.redis.lrange(keys.rg_sessions(player_id), 0, count - 1)
        return [json.loads(t) for t in texts]
