"""The commit on one Redis (plain or Sentinel): one script writes the table and everything it causes.

Where every key is on one node (anything but a Redis Cluster) no outbox and no hold is needed: one script
(``DIRECT_COMMIT``, sent by ``EVALSHA``) checks the version, the fencing token and the request id, checks
and debits each buy-in from the player's balance (``INSUFFICIENT_BALANCE`` answered by the script, nothing
written), writes the state, the event log, the request id, the table's list of its last rounds, the
balances, the ledger, the hand history, the rounds export, the house result, the deadline index and the
seating effects (a host's bar, the players' waiting lists: ``seating_effects``), and publishes the commit.
A buy-in moves straight from the player's account to the seat (ledger ``buy_in``, no ``hold`` account); a
fresh guest's first buy-in settles it first (``fresh_guests``), in the script.

What is sent is sent once (``DirectCall``):

- a settled round's record (about 3.6 kB) once, as its own argument: the history entries, the rounds
  export entry, the table's list and the commit's JSON (its ``round_settled`` event and each viewer's
  update, where the record is embedded as a JSON string) carry a one-byte mark in its place (``\\x01``
  for the record's text, ``\\x02`` for the same text escaped as a JSON string), which the script expands;
- the state as the part of its text that changed (``state_delta``) when the process knows the text it
  replaces (the one it loaded or wrote at that version); the script checks that text's SHA-1 and answers
  ``RESEND`` (nothing written) when the stored one is another, and the whole state is sent then.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from paigow.ledger.accounts import EntryKind
from paigow.ledger.effects import Effects
from paigow_server.store import keys
from paigow_server.store.confirmed import CONFIRM_LUA, SAVE_CONFIRMED_LUA
from paigow_server.store.history import HISTORY_LENGTH, TABLE_ROUNDS_KEPT
from paigow_server.store.outbox import APPLY_LUA, OutboxEntry
from paigow_server.store.seating_effects import SEATING_LUA, SeatingEffect, effect_keys

__all__ = ["CONFIRM_DELIVER", "DIRECT_COMMIT", "RECORD_MARK", "DirectCall", "compact", "direct_call",
           "entry_json", "record_json", "state_delta"]

RECORD_MARK = "\x01"
"""Stands for the settled round's record text in the texts a direct commit sends (``ESCAPED_MARK``: for
that text escaped as a JSON string). JSON text never holds a raw control character."""
ESCAPED_MARK = "\x02"

# KEYS: 1 table hash, 2 event log, 3 fence counter, 4 request ids, 5 the table's rounds list, 6 ledger,
#       7 house, 8 rounds export, 9 issued, 10 deadline index, 11 players set, 12 guests index, 13 fresh
#       guests index, 14 outbox, 15 outbox seq, then one player hash per buy-in, one per credit, one history
#       list per history entry, then the seating effects' keys (``seating_effects.effect_keys``).
# ARGV: 1 table id, 2 expected version, 3 new version, 4 the state's text (whole, or the part that changed),
#       5 '' (whole) or '<prefix> <suffix> <sha1>': the old text's bytes kept before and after the part,
#       and its digest, 6 commit JSON, 7 channel, 8 fencing token ('' = none), 9 next deadline ('' = none),
#       10 request id ('' = none), 11 the record's text ('' = none: no marks), 12 house delta, 13 now (ms),
#       14 log length, 15 request ids kept, 16 rounds kept, 17 history length, 18..23 how many buy-ins,
#       credits, ledger entries, history entries, export entries and table rounds follow, 24 '' (no
#       ``Durability``: the effects are applied) or, under ``Durability``, the outbox entry without its seq
#       ('-': none), 25 the seating effects (JSON, applied at once in every case; '' = none), then the
#       buy-ins and the credits (player id, cents each), the ledger entries, history entries, export
#       entries and table rounds (texts), and last the limits generation the commit was checked at ('' =
#       none; else the last key is ``G:rg:limits-gen``).
# Answers {'OK', the outbox entry's seq (0: none)} or {why nothing was written, 0}: CONFLICT, FENCED,
# DUPLICATE, INSUFFICIENT_BALANCE, RESEND, LIMITS.
DIRECT_COMMIT = SAVE_CONFIRMED_LUA + SEATING_LUA + r"""
local h = redis.call('HMGET', KEYS[1], 'version', 'deadline')
if not h[1] or h[1] ~= ARGV[2] then return {'CONFLICT', 0} end
if ARGV[8] ~= '' and (redis.call('GET', KEYS[3]) or '0') ~= ARGV[8] then return {'FENCED', 0} end
if ARGV[10] ~= '' and redis.call('ZSCORE', KEYS[4], ARGV[10]) then return {'DUPLICATE', 0} end
if ARGV[#ARGV] ~= '' and (redis.call('GET', KEYS[#KEYS]) or '0') ~= ARGV[#ARGV] then return {'LIMITS', 0} end
local state = ARGV[4]
if ARGV[5] ~= '' then
  local prefix, suffix, digest = string.match(ARGV[5], '^(%d+) (%d+) (%x+)$')
  local old = redis.call('HGET', KEYS[1], 'state') or ''
  if redis.sha1hex(old) ~= digest then return {'RESEND', 0} end
  state = string.sub(old, 1, tonumber(prefix)) .. state .. string.sub(old, #old - tonumber(suffix) + 1)
end
local n_buy, n_credit, n_ledger = tonumber(ARGV[18]), tonumber(ARGV[19]), tonumber(ARGV[20])
local n_history, n_export, n_rounds = tonumber(ARGV[21]), tonumber(ARGV[22]), tonumber(ARGV[23])
local buy_at, credit_at = 26, 26 + 2 * n_buy
local ledger_at = credit_at + 2 * n_credit
local history_at = ledger_at + n_ledger
local export_at = history_at + n_history
local rounds_at = export_at + n_export
local needed = {}
for i = 0, n_buy - 1 do
  local key = KEYS[16 + i]
  needed[key] = (needed[key] or 0) + tonumber(ARGV[buy_at + 2 * i + 1])
  local balance = redis.call('HGET', key, 'balance')
  if not balance or tonumber(balance) < needed[key] then return {'INSUFFICIENT_BALANCE', 0} end
end
-- every check passed: from here on everything is written
local record, escaped = ARGV[11], nil
local function expand(text)
  if record == '' then return text end
  return (string.gsub(text, '[\1\2]', function(mark)
    if mark == '\1' then return record end
    if not escaped then escaped = string.gsub(record, '[\\"]', '\\%0') end
    return escaped
  end))
end
for i = 0, n_buy - 1 do
  local key, player_id, cents = KEYS[16 + i], ARGV[buy_at + 2 * i], ARGV[buy_at + 2 * i + 1]
  settle_fresh(key, player_id, KEYS[11], KEYS[12], KEYS[9], KEYS[6], KEYS[13]) -- a fresh guest's first buy-in
  redis.call('HINCRBY', key, 'balance', '-' .. cents)
end
if ARGV[24] ~= '' then save_confirmed(KEYS[1], KEYS[15], h[1], n_rounds) end
redis.call('HSET', KEYS[1], 'state', state, 'version', ARGV[3], 'deadline', ARGV[9])
local commit = expand(ARGV[6])
redis.call('RPUSH', KEYS[2], commit)
redis.call('LTRIM', KEYS[2], -tonumber(ARGV[14]), -1)
if ARGV[10] ~= '' then
  redis.call('ZADD', KEYS[4], ARGV[3], ARGV[10])
  redis.call('ZREMRANGEBYRANK', KEYS[4], 0, -tonumber(ARGV[15]) - 1)
end
if h[2] ~= ARGV[9] then
  if ARGV[9] == '' then redis.call('ZREM', KEYS[10], ARGV[1])
  else redis.call('ZADD', KEYS[10], ARGV[9], ARGV[1]) end
end
for i = 0, n_ledger - 1 do redis.call('XADD', KEYS[6], '*', 'e', ARGV[ledger_at + i]) end
for i = 0, n_credit - 1 do
  local key, player_id, cents = KEYS[16 + n_buy + i], ARGV[credit_at + 2 * i], ARGV[credit_at + 2 * i + 1]
  if redis.call('EXISTS', key) == 1 then
    redis.call('HINCRBY', key, 'balance', cents)
  else -- a player collected meanwhile: the chips go to the bank, as the rest of a collected guest's money
    redis.call('DECRBY', KEYS[9], cents)
    redis.call('XADD', KEYS[6], '*', 'e', cjson.encode({kind = 'guest_expired',
      from_account = 'player:' .. player_id, to_account = 'bank', amount_cents = tonumber(cents),
      ts_ms = tonumber(ARGV[13]), table_id = ARGV[1], round_id = cjson.null, player_id = player_id,
      reason = 'player_gone'}))
  end
end
if ARGV[12] ~= '0' then redis.call('INCRBY', KEYS[7], ARGV[12]) end
for i = 0, n_history - 1 do
  local key = KEYS[16 + n_buy + n_credit + i]
  redis.call('LPUSH', key, expand(ARGV[history_at + i]))
  redis.call('LTRIM', key, 0, tonumber(ARGV[17]) - 1)
end
for i = 0, n_export - 1 do redis.call('XADD', KEYS[8], '*', 'e', expand(ARGV[export_at + i])) end
if ARGV[25] ~= '' then apply_seating(cjson.decode(ARGV[25]), 16 + n_buy + n_credit + n_history) end
for i = 0, n_rounds - 1 do
  redis.call('LPUSH', KEYS[5], expand(ARGV[rounds_at + i]))
  redis.call('LTRIM', KEYS[5], 0, tonumber(ARGV[16]) - 1)
end
local seq = 0
if ARGV[24] ~= '' and ARGV[24] ~= '-' then
  seq = redis.call('INCR', KEYS[15])
  redis.call('RPUSH', KEYS[14], '{"seq":' .. seq .. ',' .. expand(ARGV[24]))
end
if ARGV[7] ~= '' then redis.call('PUBLISH', ARGV[7], commit) end
return {'OK', seq}
"""

# Under ``Durability``, once a replica acknowledged a direct commit, on the same connection: confirms its
# version (``confirmed.CONFIRM_LUA``), applies its outbox entry when it is the table's next one (else
# answers 'GAP', publishing nothing: the caller delivers the earlier ones first) and trims the applied
# entries, then publishes the commit (its text read back from the log: not sent again).
# KEYS: 1 table hash, 2 outbox seq, 3 outbox, 4 event log, 5 applied hash, 6 holds hash, 7 ledger, 8 house,
#       9 rounds export, 10 issued, then the entry's players' keys (``outbox.apply_keys``, from the 7th on).
# ARGV: 1 version, 2 table id, 3 the entry's seq (0: none), 4 history length, 5 now (ms), 6 channel.
CONFIRM_DELIVER = CONFIRM_LUA + APPLY_LUA + r"""
confirm(KEYS[1], KEYS[2], ARGV[1])
local seq = tonumber(ARGV[3])
if seq > 0 then
  local applied = tonumber(redis.call('HGET', KEYS[5], ARGV[2]) or '0')
  if seq > applied + 1 then return 'GAP' end
  if seq == applied + 1 then
    local found = false
    for _, text in ipairs(redis.call('LRANGE', KEYS[3], 0, -1)) do
      if tonumber(string.match(text, '^{"seq":(%d+),')) == seq then
        apply_entry(cjson.decode(text), {applied = KEYS[5], holds = KEYS[6], ledger = KEYS[7],
                    house = KEYS[8], rounds = KEYS[9], issued = KEYS[10]}, 11, ARGV[2], ARGV[3], ARGV[4],
                    ARGV[5])
        found = true
        break
      end
    end
    if not found then return 'GAP' end
  end
  while true do
    local head = redis.call('LINDEX', KEYS[3], 0)
    if not head then break end
    local at = tonumber(string.match(head, '^{"seq":(%d+),'))
    if not at or at > seq then break end
    redis.call('LPOP', KEYS[3])
  end
end
if ARGV[6] ~= '' then
  local text = redis.call('LINDEX', KEYS[4], -1)
  local head = '{"version":' .. ARGV[1] .. ','
  if text and string.sub(text, 1, #head) == head then redis.call('PUBLISH', ARGV[6], text) end
end
return 'OK'
"""

compact = json.JSONEncoder(separators=(",", ":")).encode
"""``json.dumps(value, separators=(",", ":"))``, with one encoder instead of one per call."""


def record_json(record: dict[str, Any], records: dict[int, str]) -> str:
    """``compact(record)`` of a settlement's round record, made once per commit (``records``, by
    identity): the same dict is in the export entry, every player's history entry and the table's list."""
    text = records.get(id(record))
    if text is None:
        text = records[id(record)] = compact(record)
    return text


def entry_json(entry: dict[str, Any], records: dict[int, str]) -> str:
    """``compact(entry)`` of a history or export entry. A settlement's round record (about 3.6 kB of JSON)
    is the last field, ``round``, of its export entry and of every player's history entry: its text
    (``record_json``) is set in place."""
    record = entry.get("round")
    if record is None or next(reversed(entry)) != "round":
        return compact(entry)
    text = record_json(record, records)
    head = compact({name: value for name, value in entry.items() if name != "round"})
    return f'{head[:-1]}{"," if len(head) > 2 else ""}"round":{text}}}'


def _common_prefix(a: bytes, b: bytes, most: int) -> int:
    """How many first bytes ``a`` and ``b`` share (at most ``most``): a binary search over slices."""
    low, high = 0, most
    while low < high:
        middle = (low + high + 1) // 2
        if a[:middle] == b[:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def _common_suffix(a: bytes, b: bytes, most: int) -> int:
    low, high = 0, most
    while low < high:
        middle = (low + high + 1) // 2
        if a[len(a) - middle:] == b[len(b) - middle:]:
            low = middle
        else:
            high = middle - 1
    return low


def state_delta(old: bytes, new: bytes) -> tuple[bytes, str]:
    """(the part of ``new`` that differs from ``old``, ``'<prefix> <suffix> <sha1 of old>'``): ``new`` is
    ``old[:prefix] + part + old[len(old) - suffix:]``."""
    most = min(len(old), len(new))
    prefix = _common_prefix(old, new, most)
    suffix = _common_suffix(old, new, most - prefix)
    return new[prefix:len(new) - suffix], f"{prefix} {suffix} {hashlib.sha1(old).hexdigest()}"


@dataclass(slots=True)
class DirectCall:
    """The keys and arguments of one ``DIRECT_COMMIT`` call but the state's (``args`` from 4 on)."""

    keys: list[str]
    head: list[str | int]
    """ARGV 1..3."""
    tail: list[str | int | bytes] = field(default_factory=list)
    """ARGV 6 on."""
    commit: str = ""
    """The commit's JSON as it is stored and published (``tail`` holds it marked)."""
    entry: OutboxEntry | None = None
    """Under ``Durability``: what the outbox entry holds (None: no ``Durability``)."""

    def confirm_deliver(self, seq: int, now_ms: int, channel: str) -> tuple[list[str], list[str | int]]:
        """``CONFIRM_DELIVER``'s keys and arguments for this commit, its outbox entry being ``seq``."""
        table_id = str(self.head[0])
        entry = self.entry or OutboxEntry(table_id)
        return ([keys.table(table_id), keys.table_outbox_seq(table_id), keys.table_outbox(table_id),
                 keys.table_log(table_id), keys.OUTBOX_APPLIED, keys.HOLDS, keys.LEDGER, keys.HOUSE_NET,
                 keys.ROUNDS, keys.MONEY_ISSUED, *(keys.player(p) for p, _ in entry.credits),
                 *(keys.history(p) for p, _ in entry.history)],
                [self.head[2], table_id, seq, HISTORY_LENGTH, now_ms, channel])

    def args(self, state: str | bytes, delta: str) -> list[str | int | bytes]:
        return [*self.head, state, delta, *self.tail]


def _marked(records: Sequence[dict[str, Any]]) -> tuple[str, dict[int, str]]:
    """The one settled round's record text and the texts to put in its place (``record_json``'s
    cache, seeded with the mark), or ('', {}) when there is not exactly one."""
    if len(records) != 1:
        return "", {}
    return compact(records[0]), {id(records[0]): RECORD_MARK}


def _mark_commit(commit_json: str, record: str) -> str:
    """The commit JSON with the record's text, and its text escaped as a JSON string, marked."""
    escaped = record.replace("\\", "\\\\").replace('"', '\\"')
    return RECORD_MARK.join(part.replace(escaped, ESCAPED_MARK) for part in commit_json.split(record))


def direct_call(table_id: str, before_version: int, after_version: int, effects: Effects, commit_json: str,
                *, channel: str, fence: int | None, deadline: int | str, request_id: str | None,
                now_ms: int, log_length: int, requests_kept: int, durable: bool = False,
                rounds_kept: int = TABLE_ROUNDS_KEPT, seating: Sequence[SeatingEffect] = (),
                limits_generation: int | None = None) -> DirectCall:
    """The call that writes a commit with its ``effects`` and ``seating`` effects (``commit_json``: its log
    entry and publication). ``durable`` (under ``Durability``): the buy-ins (and the seating effects) are
    written at once, everything else goes to an outbox entry that ``CONFIRM_DELIVER`` applies once a
    replica holds the commit (``DirectCall.entry``). ``limits_generation``: written only if the
    deployment's limits generation is still this one (``LIMITS`` otherwise; ``play_risk``)."""
    settled = [r["round"] for r in effects.rounds if r["status"] == "settled"]
    record, texts = _marked(settled)
    if record and (RECORD_MARK in commit_json or ESCAPED_MARK in commit_json):
        record, texts = "", {}  # not JSON text: sent as it is (never so in practice)
    buy_ins = [(e.player_id, e.amount_cents) for e in effects.ledger
               if e.kind is EntryKind.BUY_IN and e.player_id is not None]
    credits = [(e.player_id, e.amount_cents) for e in effects.ledger
               if e.kind is EntryKind.CASH_OUT and e.player_id is not None]
    ledger = [entry.to_json() for entry in effects.ledger]
    history = [(h.player_id, entry_json(h.record, {} if durable else texts)) for h in effects.history]
    export = [entry_json(r, {} if durable else texts) for r in effects.rounds]
    rounds = [record_json(r, texts) for r in settled]
    body = ""
    entry = None
    house = effects.house_delta_cents
    if durable:  # the outbox entry carries them, its texts escaped in its JSON: the record marked there
        entry = OutboxEntry(table_id, credits=credits, house_cents=house, ledger=ledger, history=history,
                            rounds=export, debits=buy_ins)
        body = "-" if entry.empty() else entry.body_json()
        if record and body != "-":
            body = _mark_commit(body, record)
        credits, ledger, history, export, house = [], [], [], [], 0
    call_keys = [keys.table(table_id), keys.table_log(table_id), keys.table_fence(table_id),
                 keys.table_requests(table_id), keys.table_rounds(table_id), keys.LEDGER, keys.HOUSE_NET,
                 keys.ROUNDS, keys.MONEY_ISSUED, keys.DEADLINES, keys.PLAYERS, keys.GUESTS_SEEN,
                 keys.FRESH_GUESTS, keys.table_outbox(table_id), keys.table_outbox_seq(table_id),
                 *(keys.player(p) for p, _ in buy_ins), *(keys.player(p) for p, _ in credits),
                 *(keys.history(p) for p, _ in history), *effect_keys(seating),
                 *([] if limits_generation is None else [keys.RG_LIMITS_GEN])]
    tail: list[str | int | bytes] = [
        _mark_commit(commit_json, record) if record else commit_json, channel, "" if fence is None else fence,
        deadline, request_id or "", record, house, now_ms, log_length, requests_kept, rounds_kept,
        HISTORY_LENGTH, len(buy_ins), len(credits), len(ledger), len(history), len(export), len(rounds), body,
        compact(seating) if seating else "", *(x for pair in buy_ins for x in pair),
        *(x for pair in credits for x in pair), *ledger, *(text for _, text in history), *export, *rounds,
        "" if limits_generation is None else limits_generation]
    return DirectCall(call_keys, [table_id, before_version, after_version], tail, commit_json, entry)
