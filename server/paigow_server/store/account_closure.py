"""Closing an account (docs/http-api.md, "Closing your account"; docs/responsible-play.md).

``begin`` (one script): the account's block becomes ``{"kind": "closed"}`` for ever
(``G:player:{p}:rg`` + ``G:rg:blocks``, see ``play_blocks``), its password hash goes (no sign-in can
give it a new token from then on), and the player joins ``G:closing``. The
route then revokes every token and stands the player up everywhere (a dealt hand plays out).

``finish`` (one script, run by ``realtime/account_closer.py`` once no seat, hold or outbox credit of the
player is left): the balance goes player -> bank (ledger ``account_closed``; ``G:money:issued`` down as
much, as a collected guest's), the display name becomes ``CLOSED_NAME``, the personal fields are deleted
(username, password hash, language, last-seen and top-up times), and so are the sessions, history and
analyses, practice deal and waiting lists; the player joins ``G:closed-players``; a registered username
becomes a tombstone ``!closed:<until_ms>`` (PEXPIREAT ``until_ms``), taken until then (``accounts``);
audit ``account_closed`` (actor ``player:<id>``). The ledger is never touched: the random player id is the
pseudonym. ``G:player:{p}:rg`` stays (the block). A finished account is a no-op (``DONE``).
"""

from __future__ import annotations

import json
from enum import StrEnum

from redis.asyncio import Redis

from paigow.ledger.accounts import BANK, EntryKind, LedgerEntry, player_account
from paigow_server.store import keys
from paigow_server.store.audit import AuditEntry
from paigow_server.store.errors import store_boundary
from paigow_server.store.play_blocks import FOREVER_MS, BlockKind, PlayBlock

__all__ = ["CLOSED_NAME", "CLOSED_USERNAME", "AccountClosure", "FinishOutcome", "closed_tombstone_free"]

CLOSED_NAME = "Closed account"
"""The display name a closed account keeps (the page shows its catalog's words instead)."""
CLOSED_USERNAME = "!closed:"
"""A closed account's username key holds this and the ms it is taken until."""


def closed_tombstone_free(value: str | bytes | None, now_ms: int) -> bool:
    """Whether a username key's ``value`` is a closed account's tombstone that has run out at ``now_ms``."""
    text = value.decode() if isinstance(value, bytes) else value
    if text is None or not text.startswith(CLOSED_USERNAME):
        return False
    return int(text[len(CLOSED_USERNAME):]) <= now_ms


class FinishOutcome(StrEnum):
    OK = "OK"
    DONE = "DONE"
    """Finished before."""
    GONE = "GONE"
    CHANGED = "CHANGED"
    """The balance moved since it was read: try again."""
    HELD = "HELD"
    """A buy-in hold of the player is still open: try again later."""


# KEYS rg hash, blocks index, closing index, player hash. ARGV block JSON, until, player id, now.
_BEGIN = """
if redis.call('EXISTS', KEYS[4]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'block', ARGV[1])
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[3])
redis.call('HDEL', KEYS[4], 'pw')
if redis.call('HEXISTS', KEYS[4], 'closed_ms') == 0 then
  redis.call('ZADD', KEYS[3], 'NX', ARGV[4], ARGV[3])
end
return 1
"""

# KEYS 1 player hash, 2 issued, 3 ledger, 4 sessions set, 5 history, 6 analyses, 7 waitlists, 8 practice,
# 9 audit, 10 closing index, 11 username key ('' none), 12 guests index, 13 closed players, 14 holds,
# 15 fresh guests index, 16 the player's play hash (its seat index), 17 the blocks index.
# ARGV 1 player id, 2 expected balance, 3 ledger JSON ('' if 0), 4 audit JSON, 5 session key prefix,
# 6 tombstone value, 7 tombstone until ms, 8 closed name, 9 now, 10 username.
_FINISH = """
if redis.call('HEXISTS', KEYS[1], 'closed_ms') == 1 then
  redis.call('ZREM', KEYS[10], ARGV[1])
  return 'DONE'
end
if redis.call('EXISTS', KEYS[1]) == 0 then redis.call('ZREM', KEYS[10], ARGV[1]) return 'GONE' end
local fresh = redis.call('HGET', KEYS[1], 'fresh') == '1'
local balance = redis.call('HGET', KEYS[1], 'balance') or '0'
if balance ~= ARGV[2] then return 'CHANGED' end
for _, h in ipairs(redis.call('HVALS', KEYS[14])) do
  if cjson.decode(h)['player_id'] == ARGV[1] then return 'HELD' end
end
for _, f in ipairs(redis.call('HKEYS', KEYS[16])) do
  if string.sub(f, 1, 5) == 'seat:' then return 'HELD' end  -- a sit that committed since the tables were read
end
if tonumber(balance) > 0 and not fresh then
  redis.call('DECRBY', KEYS[2], balance)
  redis.call('XADD', KEYS[3], '*', 'e', ARGV[3])
end
for _, h in ipairs(redis.call('SMEMBERS', KEYS[4])) do redis.call('DEL', ARGV[5] .. h) end
redis.call('DEL', KEYS[4], KEYS[5], KEYS[6], KEYS[7], KEYS[8])
if ARGV[10] ~= '' and redis.call('GET', KEYS[11]) == ARGV[1] then
  redis.call('SET', KEYS[11], ARGV[6])
  redis.call('PEXPIREAT', KEYS[11], ARGV[7])
end
redis.call('HDEL', KEYS[1], 'username', 'pw', 'registered', 'lang', 'last_seen_ms', 'top_up_ms', 'fresh')
redis.call('HSET', KEYS[1], 'name', ARGV[8], 'balance', '0', 'closed_ms', ARGV[9])
redis.call('PERSIST', KEYS[1])
redis.call('ZREM', KEYS[12], ARGV[1])
redis.call('ZREM', KEYS[15], ARGV[1])
redis.call('SADD', KEYS[13], ARGV[1])
redis.call('ZREM', KEYS[10], ARGV[1])
redis.call('ZREM', KEYS[17], ARGV[1])  -- the block stays in the play hash; the index stays small
redis.call('XADD', KEYS[9], '*', 'e', ARGV[4])
return 'OK'
"""


def _text(value: str | bytes) -> str:
    return value.decode() if isinstance(value, bytes) else value


@store_boundary
class AccountClosure:
    def __init__(self, redis: Redis) -> None:
        self.redis = redis
        self._begin = redis.register_script(_BEGIN)
        self._finish = redis.register_script(_FINISH)

    async def begin(self, player_id: str, now_ms: int) -> PlayBlock | None:
        """The closed block, written (None: no such player). Idempotent."""
        block = PlayBlock(BlockKind.CLOSED, "forever", now_ms, FOREVER_MS)
        done = await self._begin(keys=[keys.rg(player_id), keys.RG_BLOCKS, keys.CLOSING,
                                       keys.player(player_id)],
                                 args=[json.dumps(block.to_json()), FOREVER_MS, player_id, now_ms])
        return block if int(done) else None

    async def closing(self) -> list[str]:
        """The accounts closed and not yet finished, the oldest first."""
        return [m.decode() if isinstance(m, bytes) else str(m)
                for m in await self.redis.zrange(keys.CLOSING, 0, -1)]

    async def is_closed(self, player_ids: list[str]) -> set[str]:
        """Those of ``player_ids`` whose closing finished."""
        if not player_ids:
            return set()
        flags = await self.redis.smismember(keys.CLOSED_PLAYERS, player_ids)
        return {p for p, flag in zip(player_ids, flags, strict=True) if flag}

    async def finish(self, player_id: str, now_ms: int, username_ms: int) -> FinishOutcome:
        """Finish the closing of ``player_id`` (the caller made sure no seat or outbox credit is left);
        a registered username stays taken ``username_ms`` from ``now_ms``."""
        fields = await self.redis.hmget(keys.player(player_id), "balance", "username", "fresh")
        balance = int(fields[0] or 0)
        username = "" if fields[1] is None else str(fields[1])
        entry = "" if balance <= 0 or fields[2] == "1" else LedgerEntry(
            EntryKind.ACCOUNT_CLOSED, player_account(player_id), BANK, balance, now_ms,
            player_id=player_id, reason="the player closed the account").to_json()
        audit = AuditEntry("account_closed", now_ms, "ok", f"player:{player_id}", player_id=player_id,
                           params={"balance_cents": balance}).to_json()
        until = now_ms + username_ms
        outcome = await self._finish(
            keys=[keys.player(player_id), keys.MONEY_ISSUED, keys.LEDGER, keys.player_sessions(player_id),
                  keys.history(player_id), keys.history_analyses(player_id), keys.waitlists(player_id),
                  keys.practice_deal(player_id), keys.AUDIT, keys.CLOSING, keys.username(username),
                  keys.GUESTS_SEEN, keys.CLOSED_PLAYERS, keys.HOLDS, keys.FRESH_GUESTS, keys.rg(player_id),
                  keys.RG_BLOCKS],
            args=[player_id, str(balance) if fields[0] is not None else "0", entry, audit, keys.session(""),
                  f"{CLOSED_USERNAME}{until}", until, CLOSED_NAME, now_ms, username])
        result = FinishOutcome(outcome.decode() if isinstance(outcome, bytes) else str(outcome))
        if result is FinishOutcome.OK:
            # the play accounting's period totals and ended sessions (the block in the rg hash stays)
            await self.redis.delete(keys.rg_totals(player_id), keys.rg_sessions(player_id))
            if username:
                await self._forget_sign_ins(username)
        return result

    async def _forget_sign_ins(self, username: str) -> None:
        """The username's failed sign-in counters (by address and by device), after the script."""
        base = keys.sign_in("player", username)
        found = [base]
        for pattern in (f"{base}:from:*", f"{base}:device:*"):
            found += [k async for k in self.redis.scan_iter(match=pattern, count=500)]
        await self.redis.delete(*found)

    async def forget_chat(self, player_id: str, table_ids: list[str]) -> int:
        """Remove the player's lines from every table's chat list; the lines removed."""
        removed = 0
        for table_id in table_ids:
            key = keys.table_chat_messages(table_id)
            for line in await self.redis.lrange(key, 0, -1):
                try:
                    mine = json.loads(line).get("player_id") == player_id
                except (ValueError, AttributeError):
                    continue
                if mine:
                    removed += int(await self.redis.lrem(key, 0, _text(line)))
        return removed
