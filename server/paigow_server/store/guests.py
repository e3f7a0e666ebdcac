"""Guest accounts left unused: the index of when each guest was last seen, and the script that removes
one, its money going back to the bank through the ledger.

``expire`` runs only when the guest is still unseen since the cutoff, still a guest, and holds exactly the
balance the caller read (so a buy-in or a credit meanwhile makes it change nothing). In one script: the
balance goes player -> bank (ledger ``guest_expired``; the issued total goes down by as much), the
guest's sessions, history (with its analyses), hash and index entries are deleted, and an audit entry
(actor ``system``) says so. Seated chips must have gone back to the balance first (a kick through the table).
"""

from __future__ import annotations

from enum import StrEnum

from redis.asyncio import Redis

from paigow.ledger.accounts import BANK, EntryKind, LedgerEntry, player_account
from paigow_server.store import keys
from paigow_server.store.audit import SYSTEM, AuditEntry
from paigow_server.store.errors import store_boundary

__all__ = ["ExpireOutcome", "Guests"]


class ExpireOutcome(StrEnum):
    OK = "OK"
    GONE = "GONE"
    FRESH = "FRESH"
    """A fresh guest (``store.fresh_guests``): nothing issued, it expires by itself."""
    REGISTERED = "REGISTERED"
    SEEN = "SEEN"
    CHANGED = "CHANGED"


# KEYS: player hash, players set, guests index, issued, ledger, player's sessions set, history, audit,
# the history's analyses, the player's waiting lists (``waitlists``), play totals and ended play sessions.
# ARGV: player id, expected balance, cutoff ms, ledger JSON ('' when the balance is 0), audit JSON,
# session key prefix (the sessions' keys are the set's members under it: one Redis, not a cluster).
_EXPIRE = """
if redis.call('EXISTS', KEYS[1]) == 0 then redis.call('ZREM', KEYS[3], ARGV[1]) return 'GONE' end
if redis.call('HGET', KEYS[1], 'fresh') == '1' then redis.call('ZREM', KEYS[3], ARGV[1]) return 'FRESH' end
if redis.call('HGET', KEYS[1], 'registered') == '1' then
  redis.call('ZREM', KEYS[3], ARGV[1])
  return 'REGISTERED'
end
local seen = redis.call('ZSCORE', KEYS[3], ARGV[1])
if seen and tonumber(seen) > tonumber(ARGV[3]) then return 'SEEN' end
local balance = redis.call('HGET', KEYS[1], 'balance')
if balance ~= ARGV[2] then return 'CHANGED' end
if tonumber(balance) > 0 then
  redis.call('DECRBY', KEYS[4], balance)
  redis.call('XADD', KEYS[5], '*', 'e', ARGV[4])
end
for _, h in ipairs(redis.call('SMEMBERS', KEYS[6])) do redis.call('DEL', ARGV[6] .. h) end
redis.call('DEL', KEYS[6], KEYS[7], KEYS[9], KEYS[10], KEYS[11], KEYS[12], KEYS[1])
redis.call('SREM', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
redis.call('XADD', KEYS[8], '*', 'e', ARGV[5])
return 'OK'
"""


@store_boundary
class Guests:
    def __init__(self, redis: Redis) -> None:
        self.redis = redis
        self._expire = redis.register_script(_EXPIRE)

    async def unseen_since(self, cutoff_ms: int, limit: int) -> list[str]:
        """Guests last seen at or before ``cutoff_ms``, longest unseen first."""
        found = await self.redis.zrangebyscore(keys.GUESTS_SEEN, "-inf", cutoff_ms, start=0, num=limit)
        return [str(player_id) for player_id in found]

    async def take_turn(self, owner: str, ms: int) -> bool:
        """The collector's turn for ``owner`` for ``ms`` (False: another process has it)."""
        return bool(await self.redis.set(keys.GUEST_COLLECTOR, owner, nx=True, px=ms))

    async def claim(self, player_id: str, owner: str, ms: int) -> bool:
        return bool(await self.redis.set(keys.guest_collecting(player_id), owner, nx=True, px=ms))

    async def release(self, player_id: str) -> None:
        await self.redis.delete(keys.guest_collecting(player_id))

    async def expire(self, player_id: str, balance_cents: int, cutoff_ms: int, now_ms: int) -> ExpireOutcome:
        entry = "" if balance_cents == 0 else LedgerEntry(
            EntryKind.GUEST_EXPIRED, player_account(player_id), BANK, balance_cents, now_ms,
            player_id=player_id, reason="guest unseen since the retention cutoff").to_json()
        audit = AuditEntry("collect_guest", now_ms, "ok", SYSTEM, player_id=player_id,
                           params={"balance_cents": balance_cents, "cutoff_ms": cutoff_ms}).to_json()
        outcome = await self._expire(
            keys=[keys.player(player_id), keys.PLAYERS, keys.GUESTS_SEEN, keys.MONEY_ISSUED, keys.LEDGER,
                  keys.player_sessions(player_id), keys.history(player_id), keys.AUDIT,
                  keys.history_analyses(player_id), keys.waitlists(player_id), keys.rg_totals(player_id),
                  keys.rg_sessions(player_id)],
            args=[player_id, balance_cents, cutoff_ms, entry, audit, keys.session("")])
        return ExpireOutcome(outcome.decode() if isinstance(outcome, bytes) else str(outcome))
