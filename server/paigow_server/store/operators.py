"""Named operator accounts: ``paigow:operator:{name}`` (``pw``, ``disabled``, ``created_ms``,
``last_sign_in_ms``) and the set of every name, ``paigow:operators``. Operator sessions are
``SessionTokens`` under ``paigow:operator-session:``."""

from __future__ import annotations

from dataclasses import dataclass

from redis.asyncio import Redis

from paigow_server.store import keys
from paigow_server.store.errors import store_boundary

__all__ = ["OperatorAccount", "OperatorAccounts"]


@dataclass(frozen=True, slots=True)
class OperatorAccount:
    username: str
    disabled: bool
    created_ms: int
    last_sign_in_ms: int | None
    pw_hash: str

    def to_json(self, *, with_sign_in: bool = True) -> dict[str, object]:
        body: dict[str, object] = {"username": self.username, "disabled": self.disabled,
                                   "created_ms": self.created_ms}
        if with_sign_in:
            body["last_sign_in_ms"] = self.last_sign_in_ms
        return body


# KEYS: operator hash, operators set. ARGV: username, pw hash, now.
_CREATE = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'pw', ARGV[2], 'disabled', '0', 'created_ms', ARGV[3])
redis.call('SADD', KEYS[2], ARGV[1])
return 1
"""

# KEYS: operator hash. ARGV: field, value. Only for an existing operator.
_SET_FIELD = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1
"""


@store_boundary
class OperatorAccounts:
    def __init__(self, redis: Redis) -> None:
        self.redis = redis
        self._create = redis.register_script(_CREATE)
        self._set_field = redis.register_script(_SET_FIELD)

    async def create(self, username: str, pw_hash: str, now_ms: int) -> OperatorAccount | None:
        """The new operator, or None when the name is taken."""
        if not int(await self._create(keys=[keys.operator(username), keys.OPERATORS],
                                      args=[username, pw_hash, now_ms])):
            return None
        return OperatorAccount(username, False, now_ms, None, pw_hash)

    async def get(self, username: str) -> OperatorAccount | None:
        fields = await self.redis.hgetall(keys.operator(username))
        if not fields or "pw" not in fields:
            return None
        last = fields.get("last_sign_in_ms")
        return OperatorAccount(username, fields.get("disabled") == "1", int(fields["created_ms"]),
                               None if last is None else int(last), str(fields["pw"]))

    async def all(self) -> list[OperatorAccount]:
        names = sorted(str(n) for n in await self.redis.smembers(keys.OPERATORS))
        found = [await self.get(name) for name in names]
        return [account for account in found if account is not None]

    async def set_disabled(self, username: str, disabled: bool) -> bool:
        return bool(await self._set_field(keys=[keys.operator(username)],
                                          args=["disabled", "1" if disabled else "0"]))

    async def signed_in(self, username: str, now_ms: int) -> None:
        await self._set_field(keys=[keys.operator(username)], args=["last_sign_in_ms", now_ms])

    async def replace_hash(self, username: str, new_hash: str) -> None:
        await self._set_field(keys=[keys.operator(username)], args=["pw", new_hash])
