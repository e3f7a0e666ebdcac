"""Player accounts: a display name and a play-money balance in cents, moved only with a ledger entry.

A new account gets the starting balance (ledger: bank -> player). A guest is also entered in the guest
index (``paigow:guests:seen``) in the same script, so no guest can exist that collection would not find;
a registered account (``username`` given) claims its username in the same script instead (a closed account's
tombstone ``!closed:<until ms>`` keeps it taken until then, ``account_closure``). With
``fresh_ms`` a guest starts **fresh** instead (``store.fresh_guests``): its hash alone, with a time to live,
its balance not issued until it is settled (every money movement settles it first). The operator
credits or debits with a mandatory reason; the balance, the ledger entry and the audit entry are written
by one Lua script, and a debit never takes a balance below zero. Buy-ins and cash-outs are table commits
(``TableRepo.commit``).
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import StrEnum

from redis.asyncio import Redis

from paigow.ledger.accounts import BANK, EntryKind, LedgerEntry, player_account
from paigow.protocol.codes import ErrorCode
from paigow.rules.house_rules import MAX_CENTS
from paigow_server.errors import ServerError
from paigow_server.store import keys
from paigow_server.store.audit import AuditEntry
from paigow_server.store.errors import store_boundary
from paigow_server.store.fresh_guests import CREATE_FRESH, FRESH, SETTLE_FRESH, FreshGuests

__all__ = [
    "MAX_ADJUSTMENT_CENTS",
    "MAX_REASON_LENGTH",
    "AccountError",
    "Accounts",
    "AdjustmentError",
    "Found",
    "InsufficientBalanceError",
    "Player",
    "UnknownPlayerError",
    "UsernameTakenError",
]

MAX_REASON_LENGTH = 500
MAX_ADJUSTMENT_CENTS = MAX_CENTS
"""A credit or debit is bounded like every other amount (``paigow.rules.house_rules.MAX_CENTS``)."""


class AccountError(ServerError, ValueError):
    """An account operation that cannot be done; the message names the player and the amounts."""

    code = "INVALID_FIELD"
    http_status = 400


class UnknownPlayerError(AccountError):
    code = "PLAYER_NOT_FOUND"
    http_status = 404


class InsufficientBalanceError(AccountError):
    """More than the player's balance: a debit, or a buy-in (``TableService`` raises it for a ``sit``)."""

    code = ErrorCode.INSUFFICIENT_BALANCE
    http_status = 409


class UsernameTakenError(AccountError):
    code = "USERNAME_TAKEN"
    http_status = 409


class AdjustmentError(AccountError):
    """A credit or debit with a bad amount or reason."""


class Direction(StrEnum):
    CREDIT = "credit"
    DEBIT = "debit"


@dataclass(frozen=True, slots=True)
class Player:
    player_id: str
    name: str
    balance_cents: int
    created_ms: int
    username: str | None = None
    """None: a guest."""
    fresh: bool = False
    """A fresh guest: not settled yet (``store.fresh_guests``)."""
    language: str | None = None
    """The language the player chose for the page (a code of the client's ``i18n/languages.json``), kept
    on the player's hash (``lang``); None when never chosen."""

    @property
    def registered(self) -> bool:
        return self.username is not None


@dataclass(frozen=True, slots=True)
class Found:
    """A page of ``Accounts.find``: the players that match, and how many match in all."""

    players: list[Player]
    total: int


_FIND_BATCH = 500


# KEYS: player hash, players set, issued counter, ledger, guests index, username key.
# ARGV: name, balance, now, player id, opening ledger JSON ('' when none), username ('' = guest), pw hash.
_CREATE = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
if ARGV[6] ~= '' then
  if redis.call('SET', KEYS[6], ARGV[4], 'NX') == false then
    local held = redis.call('GET', KEYS[6])
    if string.sub(held, 1, 8) ~= '!closed:' or tonumber(string.sub(held, 9)) > tonumber(ARGV[3]) then
      return -1
    end
    redis.call('SET', KEYS[6], ARGV[4])
  end
  redis.call('HSET', KEYS[1], 'username', ARGV[6], 'pw', ARGV[7], 'registered', '1')
else
  redis.call('ZADD', KEYS[5], ARGV[3], ARGV[4])
end
redis.call('HSET', KEYS[1], 'name', ARGV[1], 'balance', ARGV[2], 'created_ms', ARGV[3],
           'last_seen_ms', ARGV[3])
redis.call('SADD', KEYS[2], ARGV[4])
if tonumber(ARGV[2]) > 0 then
  redis.call('INCRBY', KEYS[3], ARGV[2])
  redis.call('XADD', KEYS[4], '*', 'e', ARGV[5])
end
return 1
"""

# KEYS: player hash, issued counter, ledger, audit, players set, guests index, fresh guests index. ARGV:
# signed delta, ledger JSON, audit JSON (ok), audit JSON (refused: insufficient), audit JSON (refused:
# unknown player), player id. A fresh guest is settled only once the adjustment is allowed.
_ADJUST = SETTLE_FRESH + """
local balance = redis.call('HGET', KEYS[1], 'balance')
if not balance then
  redis.call('XADD', KEYS[4], '*', 'e', ARGV[5])
  return {'UNKNOWN_PLAYER', 0}
end
if tonumber(balance) + tonumber(ARGV[1]) < 0 then
  redis.call('XADD', KEYS[4], '*', 'e', ARGV[4])
  return {'INSUFFICIENT_BALANCE', tonumber(balance)}
end
settle_fresh(KEYS[1], ARGV[6], KEYS[5], KEYS[6], KEYS[2], KEYS[3], KEYS[7])
local after = redis.call('HINCRBY', KEYS[1], 'balance', ARGV[1])
redis.call('INCRBY', KEYS[2], ARGV[1])
redis.call('XADD', KEYS[3], '*', 'e', ARGV[2])
redis.call('XADD', KEYS[4], '*', 'e', ARGV[3])
return {'OK', after}
"""

# KEYS: player hash. ARGV: language code. 1: set; 0: no such player (nothing written: a lapsed fresh
# guest's hash is not made again).
_SET_LANGUAGE = """
if redis.call('HEXISTS', KEYS[1], 'balance') == 0 then return 0 end
redis.call('HSET', KEYS[1], 'lang', ARGV[1])
return 1
"""


def _now_ms() -> int:
    return time.time_ns() // 1_000_000


def new_player_id() -> str:
    return "p_" + secrets.token_hex(8)


@store_boundary
class Accounts:
    def __init__(self, redis: Redis, *, starting_balance_cents: int,
                 clock: Callable[[], int] | None = None) -> None:
        """``clock``: ms now (a closed account's username is free again once it passes the tombstone's
        time, ``account_closure``)."""
        self.redis = redis
        self._clock = clock or _now_ms
        self.starting_balance_cents = starting_balance_cents
        self._create = redis.register_script(_CREATE)
        self._adjust = redis.register_script(_ADJUST)
        self._set_language = redis.register_script(_SET_LANGUAGE)
        self._create_fresh = redis.register_script(CREATE_FRESH)
        self.fresh = FreshGuests(redis)

    async def starting_balance(self) -> int:
        """The operator's setting (``PUT /api/operator/settings``), else ``starting_balance_cents``."""
        stored = await self.redis.hget(keys.SETTINGS, "starting_balance_cents")
        return self.starting_balance_cents if stored is None else int(stored)

    async def set_starting_balance(self, amount_cents: int) -> None:
        """What new players start with from now on, in every process."""
        await self.redis.hset(keys.SETTINGS, "starting_balance_cents", amount_cents)

    async def create(self, name: str, *, username: str | None = None, pw_hash: str = "",
                     fresh_ms: int | None = None) -> Player:
        """A new player with the starting balance (recorded in the ledger as an opening entry): a guest,
        or with ``username`` a registered account; with ``fresh_ms`` a fresh guest living that long unused
        (its opening entry written when it is settled). Raises ``UsernameTakenError``."""
        now = self._clock()
        amount = await self.starting_balance()
        while fresh_ms is not None and username is None:
            player_id = new_player_id()
            if int(await self._create_fresh(keys=[keys.player(player_id), keys.FRESH_GUESTS],
                                            args=[name, amount, now, fresh_ms, player_id])):
                return Player(player_id, name, amount, now, None, fresh=True)
        while True:
            player_id = new_player_id()
            opening = "" if amount == 0 else LedgerEntry(
                EntryKind.OPENING, BANK, player_account(player_id), amount, now,
                player_id=player_id).to_json()
            created = int(await self._create(
                keys=[keys.player(player_id), keys.PLAYERS, keys.MONEY_ISSUED, keys.LEDGER, keys.GUESTS_SEEN,
                      keys.username(username or "")],
                args=[name, amount, now, player_id, opening, username or "", pw_hash]))
            if created == -1:
                raise UsernameTakenError(f"the username {username!r} is taken")
            if created == 1:
                return Player(player_id, name, amount, now, username)

    async def get(self, player_id: str) -> Player | None:
        fields = await self.redis.hgetall(keys.player(player_id))
        if not fields or "balance" not in fields:
            return None
        username, language = fields.get("username"), fields.get("lang")
        return Player(player_id, str(fields["name"]), int(fields["balance"]), int(fields["created_ms"]),
                      None if username is None else str(username), fresh=fields.get(FRESH) == "1",
                      language=None if language is None else str(language))

    async def set_language(self, player_id: str, language: str) -> None:
        """Keep the player's language (the caller checked it is offered) on its hash, a guest's too (one
        key: one Redis and a Cluster alike); ``UnknownPlayerError`` when the player is gone."""
        if not int(await self._set_language(keys=[keys.player(player_id)], args=[language])):
            raise UnknownPlayerError(f"no player {player_id!r}")

    async def balance(self, player_id: str) -> int | None:
        text = await self.redis.hget(keys.player(player_id), "balance")
        return None if text is None else int(text)

    async def credit(self, player_id: str, amount_cents: int, reason: str, *, actor: str) -> int:
        """Add play money (from outside the game); returns the new balance."""
        return await self._apply(Direction.CREDIT, player_id, amount_cents, reason, actor)

    async def debit(self, player_id: str, amount_cents: int, reason: str, *, actor: str) -> int:
        """Take play money out of the game; never below zero. Returns the new balance."""
        return await self._apply(Direction.DEBIT, player_id, amount_cents, reason, actor)

    async def _apply(self, direction: Direction, player_id: str, amount_cents: int, reason: str,
                     actor: str) -> int:
        if type(amount_cents) is not int or not 0 < amount_cents <= MAX_ADJUSTMENT_CENTS:
            raise AdjustmentError(f"amount_cents={amount_cents!r}: must be a whole number of cents from 1 "
                                  f"to {MAX_ADJUSTMENT_CENTS}")
        reason = reason.strip() if isinstance(reason, str) else ""
        if not reason or len(reason) > MAX_REASON_LENGTH:
            raise AdjustmentError(f"a {direction} needs a reason of 1 to {MAX_REASON_LENGTH} characters")
        now = _now_ms()
        delta = amount_cents if direction is Direction.CREDIT else -amount_cents
        source, target = (BANK, player_account(player_id))
        if direction is Direction.DEBIT:
            source, target = target, source
        kind = EntryKind.CREDIT if direction is Direction.CREDIT else EntryKind.DEBIT
        entry = LedgerEntry(kind, source, target, amount_cents, now, player_id=player_id, reason=reason)
        params = {"amount_cents": amount_cents, "reason": reason}

        def audit(outcome: str) -> str:
            return AuditEntry(str(direction), now, outcome, actor, player_id=player_id,
                              params=params).to_json()

        outcome, value = await self._adjust(
            keys=[keys.player(player_id), keys.MONEY_ISSUED, keys.LEDGER, keys.AUDIT, keys.PLAYERS,
                  keys.GUESTS_SEEN, keys.FRESH_GUESTS],
            args=[delta, entry.to_json(), audit("ok"), audit("INSUFFICIENT_BALANCE"),
                  audit("UNKNOWN_PLAYER"), player_id])
        outcome = outcome.decode() if isinstance(outcome, bytes) else outcome
        if outcome == "UNKNOWN_PLAYER":
            raise UnknownPlayerError(f"no player {player_id!r}")
        if outcome == "INSUFFICIENT_BALANCE":
            raise InsufficientBalanceError(f"cannot debit {amount_cents} cents from player {player_id!r}: "
                                           f"the balance is {int(value)} cents")
        return int(value)

    async def names(self, player_ids: Iterable[str]) -> dict[str, str]:
        """The display names of those of ``player_ids`` that are players, in one round trip."""
        ids = sorted(set(player_ids))
        async with self.redis.pipeline(transaction=False) as pipe:
            for player_id in ids:
                pipe.hget(keys.player(player_id), "name")
            values = await pipe.execute()
        return {pid: str(name) for pid, name in zip(ids, values, strict=True) if name is not None}

    async def find(self, query: str, *, limit: int) -> Found:
        """The players whose display name, username or id holds ``query`` (case-folded; ``""``: every
        player), in the order of their names, at most ``limit`` of them."""
        needle = query.casefold()
        found: list[Player] = []
        cursor, fresh, listed = 0, await self.fresh.fresh_ids(), set[str]()
        while True:
            cursor, batch = await self.redis.sscan(keys.PLAYERS, cursor, count=_FIND_BATCH)
            ids = [str(pid) for pid in batch if str(pid) not in listed]
            listed.update(ids)
            if int(cursor) == 0:  # the fresh guests (in no set) with the last batch
                ids += [pid for pid in fresh if pid not in listed]
            async with self.redis.pipeline(transaction=False) as pipe:
                for player_id in ids:
                    pipe.hmget(keys.player(player_id), "name", "balance", "created_ms", "username")
                rows = await pipe.execute()
            for player_id, (name, balance, created, username) in zip(ids, rows, strict=True):
                if name is None or balance is None:
                    continue
                text = f"{name}\n{username or ''}\n{player_id}".casefold()
                if needle in text:
                    found.append(Player(player_id, str(name), int(balance), int(created or 0),
                                        None if username is None else str(username)))
            if int(cursor) == 0:
                break
        found.sort(key=lambda p: (p.name.casefold(), p.player_id))
        return Found(found[:limit], len(found))

    async def all_ids(self) -> list[str]:
        return sorted(str(pid) for pid in await self.redis.smembers(keys.PLAYERS))

    async def total_balance(self) -> int:
        """The sum of every player's balance (for the money invariant)."""
        ids = await self.all_ids()
        async with self.redis.pipeline(transaction=False) as pipe:
            for player_id in ids:
                pipe.hget(keys.player(player_id), "balance")
            values = await pipe.execute()
        return sum(int(v) for v in values if v is not None)
