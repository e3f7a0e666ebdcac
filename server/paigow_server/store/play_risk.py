"""The play accounting behind the limits (store/play_limits.py): money at risk, period totals, sessions.

**Money at risk.** A player's money at risk at a table (``risk_of``) is what they have in play in the round
not yet settled: their bet, Fortune bonus, Queen's Dragon bet and bought Dragon wager, and, when they bank,
the bank's exposure (the house dealer's wager and the other players' bets - half of each at a co-bank -
and the Dragon's). It counts as wager, and as a loss that may happen.

**The check, before the table's commit** (``PlayRisk.reserve``, one script in ``{global}``, so every
table on every process is serialized by Redis): when a commit makes a player's money at risk at a table
grow, and that player has a limit, the script checks, for each period (day, week, month) and each limit
set, ``used + at risk at the other tables + the new amount here <= limit`` (``used``: the wager, or the net
loss never below 0, of the rounds settled in the period) and a session time limit not yet reached; on
passing it writes ``open:<table>`` = ``{"round", "cents"}`` in ``G:player:{p}:rg:totals``. If the commit is
then not written, ``PlayRisk.undo`` puts the earlier value back (if it is still the one written). A bet
lowered or taken back shrinks the record without a check. A refused command changes nothing of the play:
the script checks every player before it writes anything, and the table's commit is never attempted; it
only counts the refusal in the player's ``limits_hit`` (the operator's statistic).

A player-banker's exposure grows with each bet placed against them: when it would take the banker past a
limit, the *bettor's* bet is refused with the existing ``BET_OVER_COVERAGE`` (the bank covers at most the
banker's remaining room), the banker's own bets and the bank's acceptance with the limit's code.

**The accounting, with the commit** (``play_accounting.rg_effects``: effects riding the table's commit like
the other seating effects, ``seating_effects``: in its script on one Redis, through its outbox on a
cluster):

- ``["rgsit", p, table, ms]``: the player sat: ``seat:<table>`` in their rg hash; the first seat anywhere
  starts a session (``sess_start_ms``, ``sess_net_cents``, ``sess_wager_cents``, ``sess_tables``) and,
  with a session time limit, enters the player in ``G:rg:time-limits`` (score: when it is reached);
- ``["rgleave", p, table, ms, ended_by]``: the player left that table; the last seat ends the session,
  recorded in ``G:player:{p}:rg:sessions`` (newest first, 200 kept);
- ``["rgsettle", p, table, round, wagered, net, day, week, month]``: a round settled (or voided: 0, 0)
  clears ``open:<table>`` if it is that round's, adds the round's wager (the money the player had at risk)
  and net (the ledger movements in and out of the player's seat for the round: stakes, commission, side
  bets, envy, the Queen's Dragon) to the periods' totals (older periods pruned) and the session's figures.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from redis.asyncio import Redis

from paigow.ledger.home_entries import plays_home_chips
from paigow.table.commit import Commit
from paigow_server.store import keys
from paigow_server.store.errors import store_boundary
from paigow_server.store.play_accounting import players_of, risk_of, round_players
from paigow_server.store.play_limits import PERIODS, PROMOTE_LUA, periods_at

__all__ = ["PlayRisk", "Refusal", "Reservation"]

UNLIMITED_KEPT = 100_000
"""The most players a process remembers as having no limit (past it, it starts again)."""


# KEYS per player: rg hash, totals hash. ARGV: now, table, pause ms, periods JSON {day: [id, end], ...},
# then per player: player id, round id, new cents, grows (1/0), sits (1/0). Every player is checked before
# anything is written; a refusal only counts itself (``limits_hit``, a statistic for the operator).
# Refused: {'NO', player, code, limit, amount, until, period}; else {'OK', then per
# player the open text before and the one written ('' = none)}.
_RESERVE = PROMOTE_LUA + """
local now, table_id, pause = tonumber(ARGV[1]), ARGV[2], tonumber(ARGV[3])
local periods = cjson.decode(ARGV[4])
local n = (#ARGV - 4) / 5
local field = 'open:' .. table_id
local function refuse(rg, ...)
  redis.call('HINCRBY', rg, 'limits_hit', 1)
  return {'NO', ...}
end
for i = 1, n do
  local rg, totals = KEYS[2 * i - 1], KEYS[2 * i]
  local a = 4 + 5 * (i - 1)
  local player, new, grows, sits = ARGV[a + 1], tonumber(ARGV[a + 3]), ARGV[a + 4], ARGV[a + 5]
  if sits == '1' then
    local hit = redis.call('HGET', rg, 'time_hit_ms')
    if hit and tonumber(hit) + pause > now then
      return refuse(rg, player, 'TIME_LIMIT_REACHED', 0, 0, tonumber(hit) + pause, 'session')
    end
  end
  if grows == '1' then
    local limits = promote(rg, now)
    local minutes = limits['session_minutes']
    local start = redis.call('HGET', rg, 'sess_start_ms')
    if minutes and minutes ~= cjson.null and start and now >= tonumber(start) + minutes * 60000 then
      return refuse(rg, player, 'TIME_LIMIT_REACHED', 0, 0, now + pause, 'session')
    end
    local others = 0
    local all = redis.call('HGETALL', totals)
    for j = 1, #all, 2 do
      if string.sub(all[j], 1, 5) == 'open:' and all[j] ~= field then
        others = others + tonumber(cjson.decode(all[j + 1])['cents'])
      end
    end
    for _, period in ipairs({'day', 'week', 'month'}) do
      local id, ends = periods[period][1], periods[period][2]
      local wl, ll = limits['wager_' .. period], limits['loss_' .. period]
      if wl and wl ~= cjson.null then
        local amount = tonumber(redis.call('HGET', totals, 'wager:' .. id) or 0) + others + new
        if amount > wl then return refuse(rg, player, 'WAGER_LIMIT_REACHED', wl, amount, ends, period) end
      end
      if ll and ll ~= cjson.null then
        local loss = math.max(0, -tonumber(redis.call('HGET', totals, 'net:' .. id) or 0))
        local amount = loss + others + new
        if amount > ll then return refuse(rg, player, 'LOSS_LIMIT_REACHED', ll, amount, ends, period) end
      end
    end
  end
end
local out = {'OK'}
for i = 1, n do
  local totals = KEYS[2 * i]
  local a = 4 + 5 * (i - 1)
  local old = redis.call('HGET', totals, field) or ''
  local wrote = old
  if ARGV[a + 2] ~= '' then
    if tonumber(ARGV[a + 3]) > 0 then
      wrote = cjson.encode({round = ARGV[a + 2], cents = tonumber(ARGV[a + 3])})
      redis.call('HSET', totals, field, wrote)
    else
      wrote = ''
      redis.call('HDEL', totals, field)
    end
  end
  out[2 * i] = old
  out[2 * i + 1] = wrote
end
return out
"""

# KEYS per player: totals hash. ARGV: table, then per player: the text written, the old text ('' = none).
_UNDO = """
local field = 'open:' .. ARGV[1]
for i, key in ipairs(KEYS) do
  local wrote, old = ARGV[2 * i], ARGV[2 * i + 1]
  local now_text = redis.call('HGET', key, field) or ''
  if now_text == wrote then
    if old == '' then redis.call('HDEL', key, field) else redis.call('HSET', key, field, old) end
  end
end
return 1
"""


@dataclass(frozen=True, slots=True)
class Refusal:
    """A limit the commit would pass: who, which code, and the error's fields."""

    player_id: str
    code: str
    limit_cents: int
    amount_cents: int
    until_ms: int
    period: str


@dataclass(frozen=True, slots=True)
class Reservation:
    """What ``PlayRisk.reserve`` wrote (for ``undo``): the table, and per player what it wrote and what
    was there."""

    table_id: str
    written: tuple[tuple[str, str, str], ...]


def _text(value: str | bytes | None) -> str:
    if value is None:
        return ""
    return value.decode() if isinstance(value, bytes) else value


@store_boundary
class PlayRisk:
    def __init__(self, redis: Redis, *, pause_ms: int = 3_600_000) -> None:
        self.redis = redis
        self.pause_ms = pause_ms
        self._reserve = redis.register_script(_RESERVE)
        self._undo = redis.register_script(_UNDO)
        self._unlimited: set[str] = set()
        """The players this process read as having no limit, at limits generation ``_generation``."""
        self._generation = 0

    def forget(self, player_id: str) -> None:
        """The player's limits changed: read them at the next commit."""
        self._unlimited.discard(player_id)

    def forget_all(self) -> None:
        """A commit was refused for its limits generation (``CommitResult.LIMITS``): read them again."""
        self._unlimited.clear()

    async def _limited(self, player_ids: list[str], in_commit: bool) -> tuple[set[str], int | None]:
        """Which of ``player_ids`` have a limit (or a loosening waiting), and the limits generation the
        commit's script is to check (None: none to check). A "no limit" kept here holds only for the
        deployment's limits generation (``G:rg:limits-gen``, counted up by ``PlayLimits.set`` when a player
        with no limit gets one) it was read at, so a first limit set through any process is seen by the next
        commit on every process. When every player is known here as having none and ``in_commit`` (one
        Redis: the table's commit script can read ``{global}``), no call: the commit's script checks the
        generation and refuses (``LIMITS``) if it moved on. Else one round trip: the generation, then the
        limits of the players not known here (a second one after a change)."""
        if not player_ids:
            return set(), None
        unknown = [p for p in player_ids if p not in self._unlimited]
        if in_commit and not unknown:
            return set(), self._generation
        generation, answers = await self._read(unknown)
        if generation > self._generation:
            self._unlimited.clear()
            self._generation = generation
            if len(unknown) < len(player_ids):  # some were known at an older generation: read them too
                unknown = player_ids
                generation, answers = await self._read(unknown)
                if generation > self._generation:
                    self._unlimited.clear()
                    self._generation = generation
        limited: set[str] = set()
        remember = generation == self._generation and len(self._unlimited) < UNLIMITED_KEPT
        for p, (limits, pending) in zip(unknown, answers, strict=True):
            values = json.loads(limits) if limits else {}
            if pending or any(v is not None for v in values.values()):
                limited.add(p)
                self._unlimited.discard(p)
            elif remember:
                self._unlimited.add(p)
        return limited, None

    async def _read(self, player_ids: list[str]) -> tuple[int, list[list[str | None]]]:
        """The limits generation, then each player's ``limits`` and ``pending`` (in that order: a limit
        set after the generation was read counts it up past the one returned)."""
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.get(keys.RG_LIMITS_GEN)
            for p in player_ids:
                pipe.hmget(keys.rg(p), ["limits", "pending"])
            answers = await pipe.execute()
        return int(answers[0] or 0), answers[1:]

    async def reserve(self, commit: Commit, *, check: bool = True,
                      in_commit: bool = False) -> tuple[Reservation | None, Refusal | None, int | None]:
        """Check and record the commit's growth of money at risk (and its sits after a time limit).
        ``check`` False (a command of the server's own: a timer's tick, a stand-up, an operator's action)
        records without refusing: a table's clock must never be stopped by a player's limit. The third
        value: the limits generation the commit is to be written at (``TableRepo.commit``'s
        ``limits_generation``; None: no condition), when ``in_commit`` (see ``_limited``)."""
        reservation, refusal, generation = None, None, None
        before, after = commit.before, commit.after
        sits = players_of(after) - players_of(before) if before.seats is not after.seats else set()
        if (after.round is None or plays_home_chips(after)) and not sits:
            return reservation, refusal, generation
        same_round = before.round is not None and after.round is not None \
            and before.round.round_id == after.round.round_id
        changed: dict[str, tuple[int, int]] = {}
        if after.round is not None and before.round is not after.round and not plays_home_chips(after):
            for p in round_players(after) | (round_players(before) if same_round else set()):
                old = risk_of(before, p) if same_round else 0
                new = risk_of(after, p)
                if new != old:
                    changed[p] = (old, new)
        if not changed and not sits:
            return reservation, refusal, generation
        limited, generation = await self._limited(sorted(changed), in_commit)
        rows: list[tuple[str, str, int, bool, bool]] = []
        round_id = after.round.round_id if after.round is not None else ""
        for p in sorted(set(changed) | sits):
            old, new = changed.get(p, (0, 0))
            if p in limited or p in sits:
                rows.append((p, round_id if p in changed and p in limited else "", new,
                             check and p in limited and new > old, check and p in sits))
        if not rows:
            return reservation, refusal, generation
        table_id = after.table_id
        periods = periods_at(commit.now_ms)
        spans = {p: [periods.ids[p], periods.ends_ms[p]] for p in PERIODS}
        args: list[str | int] = [commit.now_ms, table_id, self.pause_ms, json.dumps(spans)]
        key_list: list[str] = []
        for p, rid, new, grows, sat in rows:
            key_list += [keys.rg(p), keys.rg_totals(p)]
            args += [p, rid, new, int(grows), int(sat)]
        answer = [_text(x) if isinstance(x, (bytes, str)) else x
                  for x in await self._reserve(keys=key_list, args=args)]
        if answer[0] == "NO":
            return None, Refusal(str(answer[1]), str(answer[2]), int(answer[3]), int(answer[4]),
                                 int(answer[5]), str(answer[6])), None
        written = tuple((row[0], str(answer[2 * i + 2]), str(answer[2 * i + 1]))
                        for i, row in enumerate(rows) if answer[2 * i + 1] != answer[2 * i + 2])
        return (Reservation(table_id, written) if written else None), None, generation

    async def undo(self, reservation: Reservation) -> None:
        """The commit was not written: put back what ``reserve`` replaced."""
        args: list[str] = [reservation.table_id]
        for _, wrote, old in reservation.written:
            args += [wrote, old]
        await self._undo(keys=[keys.rg_totals(p) for p, _, _ in reservation.written], args=args)
