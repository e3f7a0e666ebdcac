"""The second-look figures, written by the settling commit (docs/floor.md, "Second looks").

A settled round's figures (``paigow.ledger.pair_flows.round_figures``: per player-banker and player, the
flow and its honest mean and variance, hands and fouls; per player, hands and fouls under the round's
banker) become one seating effect per player in the round (``seating_effects``: on one Redis the commit's
script writes them, on a Cluster its outbox entry carries them to ``{global}``, exactly once):

    ["look", player, banker ("" when the house banked), table, round, ms, day, hour, previous hour,
     first day of 7, first day of 30, hands, fouls, (flow, expected milli-cents, variance)]

``apply_look`` adds them into per-bucket fields (``d<YYYYMMDD>``: UTC days, the last 30 kept;
``h<YYYYMMDDHH>``: UTC hours, this one and the one before) of the player's hash (``keys.floor_player``:
``hands,fouls``) and, when a player banked, the pair's hash (``keys.floor_pair``:
``rounds,hands,fouls,flow,expected_milli,variance``) and round list (the last ``ROUNDS_KEPT``
``"<ms> <table> <round>"``). It then sums the pair's buckets over each window (``WINDOWS``) and writes the
pair's score there in two indexes (sorted sets, ``keys.floor_looks``): ``pairs`` by the flow's |z|,
``fouls`` (a pair with a foul in the window) by the fouls' z against the player's other hands (a normal
approximation: it only orders the candidates; the reader works the exact figure out). The 7- and 30-day
indexes keep the ``INDEX_KEPT`` highest; a day's and an hour's expire after their window. Home games with
their own chips are not watched (their chips are the game's, never a casino balance).

An index entry is as fresh as the pair's last round: days leaving a window do not lower it. The reader
(``second_looks``) takes the top of an index, works each candidate's figures out again from its buckets,
and drops an entry with no round left in the 7- or 30-day window.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from paigow.ledger.home_entries import plays_home_chips
from paigow.ledger.pair_flows import FOUL_PRIOR_HANDS, FOUL_PRIOR_RATE, round_figures
from paigow.table.commit import Commit
from paigow.table.events import RoundSettled
from paigow.table.records import RoundRecord
from paigow_server.store import keys

__all__ = ["DAYS_KEPT", "INDEX_KEPT", "LOOK_LUA", "ROUNDS_KEPT", "WINDOWS", "Buckets", "buckets_at",
           "index_keys", "look_effect_keys", "look_effects", "round_looks", "window_sums"]

DAYS_KEPT = 30
ROUNDS_KEPT = 20
INDEX_KEPT = 10_000
WINDOWS = ("7d", "30d", "today", "hour")
"""The windows, in ``apply_look``'s order."""
_KEEP_MS = (DAYS_KEPT + 1) * 86_400_000


@dataclass(frozen=True, slots=True)
class Buckets:
    """The UTC buckets a moment falls in, and the first bucket of each window."""

    day: str
    hour: str
    prev_hour: str
    day7: str
    day30: str

    def index_names(self) -> tuple[str, str, str, str]:
        """The index name of each window (``WINDOWS``' order); the hour's is this hour's."""
        return "7d", "30d", f"D{self.day}", f"H{self.hour}"


def buckets_at(now_ms: int) -> Buckets:
    at = datetime.fromtimestamp(now_ms / 1000, UTC)
    return Buckets(at.strftime("%Y%m%d"), at.strftime("%Y%m%d%H"),
                   (at - timedelta(hours=1)).strftime("%Y%m%d%H"),
                   (at - timedelta(days=6)).strftime("%Y%m%d"),
                   (at - timedelta(days=DAYS_KEPT - 1)).strftime("%Y%m%d"))


def index_keys(kind: str, buckets: Buckets) -> list[str]:
    return [keys.floor_looks(kind, name) for name in buckets.index_names()]


def look_effects(commit: Commit) -> list[list[str]]:
    """The settling commit's ``look`` effects (none for any other commit)."""
    return [effect for event in commit.events
            if isinstance(event, RoundSettled) and not plays_home_chips(commit.after)
            for effect in round_looks(event.record, commit.before.rules.commission_bps, commit.after.table_id,
                                      commit.now_ms)]


def round_looks(record: RoundRecord, commission_bps: int, table_id: str, now_ms: int) -> list[list[str]]:
    """The ``look`` effects of one settled round: one per player in it."""
    figures = round_figures(record, commission_bps)
    pairs = {p.player_id: p for p in figures.pairs}
    b = buckets_at(now_ms)
    out: list[list[str]] = []
    for hands in figures.hands:
        pair = pairs.get(hands.player_id)
        effect = ["look", hands.player_id, "" if pair is None else pair.banker_id, table_id, record.round_id,
                  str(now_ms), b.day, b.hour, b.prev_hour, b.day7, b.day30, str(hands.hands),
                  str(hands.fouls)]
        if pair is not None:
            effect += [str(pair.flow_cents), str(pair.expected_milli), str(pair.variance)]
        out.append(effect)
    return out


def look_effect_keys(effect: Sequence[str]) -> list[str]:
    """The keys ``apply_look`` writes for one effect, in order (1, or 11 when a player banked)."""
    player, banker = effect[1], effect[2]
    if banker == "":
        return [keys.floor_player(player)]
    b = Buckets(effect[6], effect[7], effect[8], effect[9], effect[10])
    return [keys.floor_player(player), keys.floor_pair(banker, player),
            keys.floor_pair_rounds(banker, player), *index_keys("pairs", b), *index_keys("fouls", b)]


def _in_window(field: str, window: str, b: Buckets) -> bool:
    kind, bucket = field[:1], field[1:]
    if kind == "h":
        return window == "hour" and bucket >= b.prev_hour
    if kind != "d" or window == "hour":
        return False
    return bucket >= {"7d": b.day7, "30d": b.day30, "today": b.day}[window]


def window_sums(fields: dict[str, str], window: str, b: Buckets, width: int) -> list[int]:
    """The sums of a hash's bucket fields (comma-separated integers) over one window, as ``apply_look``
    counts them: ``hour`` is this UTC hour and the one before; ``today`` this UTC day; ``7d``/``30d`` this
    day and the 6/29 before."""
    sums = [0] * width
    for field, value in fields.items():
        if _in_window(field, window, b):
            for i, part in enumerate(value.split(",")[:width]):
                sums[i] += int(part)
    return sums


# apply_look(e, at): one ``look`` effect; KEYS[at ...] are ``look_effect_keys(e)``. ``look_bump`` reads a
# bucket hash once, adds the effect into its day and hour fields, drops the fields out of every window and
# returns the sums per window (``WINDOWS``' order); an index is trimmed (7, 30 days) or given its expiry
# (a day's, an hour's) when an entry is new to it, the only time it can grow or be made.
LOOK_LUA = f"""
local function look_plus(text, add)
  local vals, out = {{}}, {{}}
  if text then for p in string.gmatch(text, '[^,]+') do vals[#vals + 1] = tonumber(p) end end
  for i, v in ipairs(add) do out[i] = string.format('%.0f', (vals[i] or 0) + v) end
  return table.concat(out, ',')
end
local function look_bump(key, e, add)
  local flat = redis.call('HGETALL', key)
  local cur = {{}}
  for i = 1, #flat, 2 do cur[flat[i]] = flat[i + 1] end
  local fd, fh = 'd' .. e[7], 'h' .. e[8]
  cur[fd] = look_plus(cur[fd], add)
  cur[fh] = look_plus(cur[fh], add)
  redis.call('HSET', key, fd, cur[fd], fh, cur[fh])
  local n = #add
  local s = {{}}
  for w = 1, 4 do s[w] = {{}}; for i = 1, n do s[w][i] = 0 end end
  local old = {{}}
  for f, text in pairs(cur) do
    local kind, b = string.sub(f, 1, 1), string.sub(f, 2)
    local ws = {{}}
    if kind == 'd' then
      if b < e[11] then old[#old + 1] = f else
        ws[#ws + 1] = 2
        if b >= e[10] then ws[#ws + 1] = 1 end
        if b == e[7] then ws[#ws + 1] = 3 end
      end
    elseif b < e[9] then old[#old + 1] = f
    else ws[#ws + 1] = 4 end
    if #ws > 0 then
      local j = 0
      for p in string.gmatch(text, '[^,]+') do
        j = j + 1
        if j <= n then for _, w in ipairs(ws) do s[w][j] = s[w][j] + tonumber(p) end end
      end
    end
  end
  if #old > 0 then redis.call('HDEL', key, unpack(old)) end
  redis.call('PEXPIRE', key, {_KEEP_MS})
  return s
end
local function look_index(key, w, score, member)
  if redis.call('ZADD', key, score, member) == 0 then return end
  if w <= 2 then
    if redis.call('ZCARD', key) > {INDEX_KEPT} then
      redis.call('ZREMRANGEBYRANK', key, 0, -{INDEX_KEPT + 1})
    end
  elseif w == 3 then redis.call('PEXPIRE', key, 2 * 86400000)
  else redis.call('PEXPIRE', key, 3 * 3600000) end
end
local function apply_look(e, at)
  local own = {{tonumber(e[12]), tonumber(e[13])}}
  local ps = look_bump(KEYS[at], e, own)
  if e[3] == '' then return end
  local add = {{1, own[1], own[2], tonumber(e[14]), tonumber(e[15]), tonumber(e[16])}}
  local s = look_bump(KEYS[at + 1], e, add)
  local rl = KEYS[at + 2]
  redis.call('LPUSH', rl, e[6] .. ' ' .. e[4] .. ' ' .. e[5])
  redis.call('LTRIM', rl, 0, {ROUNDS_KEPT - 1})
  redis.call('PEXPIRE', rl, {_KEEP_MS})
  local member = e[3] .. ' ' .. e[2]
  for w = 1, 4 do
    local z = 0
    if s[w][6] > 0 then z = math.abs((s[w][4] - s[w][5] / 1000) / math.sqrt(s[w][6])) end
    look_index(KEYS[at + 2 + w], w, z, member)
    local h, x = s[w][2], s[w][3]
    if x > 0 then
      local p = (ps[w][2] - x + {FOUL_PRIOR_RATE * FOUL_PRIOR_HANDS}) / (ps[w][1] - h + {FOUL_PRIOR_HANDS})
      look_index(KEYS[at + 6 + w], w, (x - h * p) / math.sqrt(h * p * (1 - p)), member)
    end
  end
end
"""
