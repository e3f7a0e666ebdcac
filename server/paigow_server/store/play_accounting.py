"""The play accounting behind the limits (docs/responsible-play.md, "Limits"): a player's money at risk
at a table (``risk_of``), and what a table's commit changes about the player's sessions and period totals
(``rg_effects``, applied by ``RG_LUA``'s ``apply_rg`` with the commit's other seating effects:
``seating_effects``; in its script on one Redis, through its outbox on a cluster). ``store/play_risk.py``
says the whole design.
"""

from __future__ import annotations

from collections.abc import Sequence

from paigow.ledger.accounts import seat_account
from paigow.ledger.home_entries import plays_home_chips
from paigow.table.cobank import half_up
from paigow.table.commit import Commit
from paigow.table.events import PlayerStoodUp, RoundVoided
from paigow.table.state import TableState
from paigow_server.store import keys
from paigow_server.store.play_limits import PERIODS, PROMOTE_LUA, periods_at

__all__ = ["RG_LUA", "SESSIONS_KEPT", "players_of", "rg_effect_keys", "rg_effects", "risk_of",
           "round_players"]

SESSIONS_KEPT = 200


def risk_of(state: TableState, player_id: str) -> int:
    """The player's money at risk at the table in the round in progress (0: none)."""
    rnd = state.round
    if rnd is None:
        return 0
    total = 0
    for bets in (rnd.bets, rnd.bonuses, rnd.queens_dragon_bets):
        for bet in bets:
            if bet.player_id == player_id:
                total += bet.amount_cents
    dragon = rnd.dragon
    if dragon is not None and dragon.buyer_player_id == player_id:
        total += dragon.wager_cents
    if rnd.banker_player_id == player_id:
        covered = rnd.dealer_wager_cents + sum(b.amount_cents for b in rnd.bets if b.player_id != player_id)
        if dragon is not None and dragon.buyer_player_id not in (None, player_id):
            covered += dragon.wager_cents
        total += half_up(covered) if rnd.co_banked else covered
    return total


def players_of(state: TableState) -> set[str]:
    return {s.player_id for s in state.seats if s is not None}


def round_players(state: TableState) -> set[str]:
    rnd = state.round
    if rnd is None:
        return set()
    found = {b.player_id for bets in (rnd.bets, rnd.bonuses, rnd.queens_dragon_bets) for b in bets}
    if rnd.banker_player_id is not None:
        found.add(rnd.banker_player_id)
    if rnd.dragon is not None and rnd.dragon.buyer_player_id is not None:
        found.add(rnd.dragon.buyer_player_id)
    return found


def _net(commit: Commit, table_id: str, player_id: str, round_id: str) -> int:
    """The ledger movements of the commit in and out of the player's seat for ``round_id`` (chips bought
    in or cashed out are not play)."""
    seat = seat_account(table_id, player_id)
    net = 0
    for entry in commit.effects.ledger:
        if entry.round_id != round_id:
            continue
        if entry.to_account == seat and not entry.from_account.startswith("player:"):
            net += entry.amount_cents
        elif entry.from_account == seat and not entry.to_account.startswith("player:"):
            net -= entry.amount_cents
    return net


def rg_effects(commit: Commit) -> list[list[str]]:
    """The commit's play-accounting effects (usually none: a few comparisons)."""
    before, after = commit.before, commit.after
    table_id = after.table_id
    effects: list[list[str]] = []
    rnd = before.round
    ended = rnd is not None and (after.round is None or after.round.round_id != rnd.round_id)
    if ended and rnd is not None and not plays_home_chips(after):
        round_id = rnd.round_id
        voided = any(isinstance(e, RoundVoided) for e in commit.events)
        ids = periods_at(commit.now_ms).ids
        for player_id in sorted(round_players(before)):
            wagered = 0 if voided else risk_of(before, player_id)
            net = 0 if voided else _net(commit, table_id, player_id, round_id)
            effects.append(["rgsettle", player_id, table_id, round_id, str(wagered), str(net),
                            *(ids[p] for p in PERIODS)])
    if before.seats is not after.seats:
        was, now_on = players_of(before), players_of(after)
        ms = str(commit.now_ms)
        effects += [["rgsit", p, table_id, ms] for p in sorted(now_on - was)]
        if was - now_on:
            reasons = {e.player_id: e.reason.value for e in commit.events if isinstance(e, PlayerStoodUp)}
            effects += [["rgleave", p, table_id, ms, _ended_by(reasons.get(p))] for p in sorted(was - now_on)]
    return effects


def _ended_by(reason: str | None) -> str:
    return reason if reason in ("time_limit", "break", "self_exclusion") else "left"


def rg_effect_keys(effect: Sequence[str]) -> list[str]:
    """The keys ``apply_rg`` writes for one effect, in order."""
    player_id = effect[1]
    if effect[0] == "rgsettle":
        return [keys.rg(player_id), keys.rg_totals(player_id)]
    if effect[0] == "rgsit":
        return [keys.rg(player_id), keys.RG_TIME_LIMITS]
    return [keys.rg(player_id), keys.rg_sessions(player_id), keys.RG_TIME_LIMITS]


# apply_rg(e, k1, k2, k3): one rg effect (see rg_effect_keys for its keys); a change of the session's
# figures is published on the play-sessions channel as JSON [player, start ms or null, net, wagered]
# (``realtime/play_session_push.py``). rg_session_due(rg, now): when the session in progress reaches its
# time limit (nil: no session, or no limit).
RG_LUA = PROMOTE_LUA + f"""
local function rg_session_due(rg, now)
  local start = redis.call('HGET', rg, 'sess_start_ms')
  if not start then return nil end
  local minutes = promote(rg, now)['session_minutes']
  if minutes == nil or minutes == cjson.null then return nil end
  return tonumber(start) + tonumber(minutes) * 60000
end
local function rg_told(player, start, net, wagered)
  redis.call('PUBLISH', '{keys.PLAY_SESSIONS}', cjson.encode({{player, start, net, wagered}}))
end
local function apply_rg(e, k1, k2, k3)
  if e[1] == 'rgsettle' then
    local open = redis.call('HGET', k2, 'open:' .. e[3])
    if open and cjson.decode(open)['round'] == e[4] then redis.call('HDEL', k2, 'open:' .. e[3]) end
    local wagered, net = tonumber(e[5]), tonumber(e[6])
    if wagered == 0 and net == 0 then return end
    if redis.call('HEXISTS', k2, 'wager:' .. e[7]) == 0 then
      local keep = {{}}
      for i = 7, 9 do keep['wager:' .. e[i]] = true; keep['net:' .. e[i]] = true end
      for _, f in ipairs(redis.call('HKEYS', k2)) do
        if string.sub(f, 1, 5) ~= 'open:' and not keep[f] then redis.call('HDEL', k2, f) end
      end
    end
    for i = 7, 9 do
      redis.call('HINCRBY', k2, 'wager:' .. e[i], wagered)
      redis.call('HINCRBY', k2, 'net:' .. e[i], net)
    end
    if redis.call('HEXISTS', k1, 'sess_start_ms') == 1 then
      local net_now = redis.call('HINCRBY', k1, 'sess_net_cents', net)
      local wagered_now = redis.call('HINCRBY', k1, 'sess_wager_cents', wagered)
      rg_told(e[2], tonumber(redis.call('HGET', k1, 'sess_start_ms')), net_now, wagered_now)
    end
  elseif e[1] == 'rgsit' then
    redis.call('HSET', k1, 'seat:' .. e[3], e[4])
    if redis.call('HEXISTS', k1, 'sess_start_ms') == 0 then
      redis.call('HSET', k1, 'sess_start_ms', e[4], 'sess_net_cents', 0, 'sess_wager_cents', 0,
                 'sess_tables', cjson.encode({{e[3]}}))
      rg_told(e[2], tonumber(e[4]), 0, 0)
      local due = rg_session_due(k1, tonumber(e[4]))
      if due then redis.call('ZADD', k2, due, e[2]) end
    else
      local tables = cjson.decode(redis.call('HGET', k1, 'sess_tables') or '[]')
      local known = false
      for _, t in ipairs(tables) do if t == e[3] then known = true end end
      if not known then
        table.insert(tables, e[3])
        redis.call('HSET', k1, 'sess_tables', cjson.encode(tables))
      end
    end
  else
    redis.call('HDEL', k1, 'seat:' .. e[3])
    for _, f in ipairs(redis.call('HKEYS', k1)) do
      if string.sub(f, 1, 5) == 'seat:' then return end
    end
    local s = redis.call('HMGET', k1, 'sess_start_ms', 'sess_net_cents', 'sess_wager_cents', 'sess_tables',
                         'time_hit_ms')
    if not s[1] then return end
    local ended_by = e[5]
    if s[5] and tonumber(s[5]) >= tonumber(s[1]) then ended_by = 'time_limit' end
    local record = cjson.encode({{start_ms = tonumber(s[1]), end_ms = tonumber(e[4]),
      net_cents = tonumber(s[2] or 0), wagered_cents = tonumber(s[3] or 0),
      tables = cjson.decode(s[4] or '[]'), ended_by = ended_by}})
    redis.call('LPUSH', k2, record)
    redis.call('LTRIM', k2, 0, {SESSIONS_KEPT - 1})
    redis.call('HDEL', k1, 'sess_start_ms', 'sess_net_cents', 'sess_wager_cents', 'sess_tables')
    redis.call('ZREM', k3, e[2])
    rg_told(e[2], cjson.null, 0, 0)
  end
end
"""

