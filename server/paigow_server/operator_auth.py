"""Who is the operator: the bootstrap token (``--operator-token``) or a named operator's session token.

``await require_operator(request)`` is the gate of every ``/api/operator`` handler: it answers 401
``UNAUTHORIZED`` (no bearer token), ``BAD_OPERATOR_TOKEN`` (neither the bootstrap token nor a live operator
session) or ``OPERATOR_DISABLED``, and otherwise leaves the actor's name — the operator's username, or
``"bootstrap"`` — for the audit entries (``actor_of(request)``). The WebSocket hello's
``operator_token`` is checked by the same ``OperatorAuth.actor_of``. Operator sessions slide like the
players' (``operator_session_hours``, 12 h); sign-in backs off and locks like the players'.
"""

from __future__ import annotations

import dataclasses
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any

from redis.asyncio import Redis
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from paigow_server.api import ApiError, bearer_token
from paigow_server.context import AppContext, context_of
from paigow_server.logs import bind
from paigow_server.passwords import Passwords
from paigow_server.revocations import Revoked, publish_revocation
from paigow_server.sign_in import verify_sign_in
from paigow_server.store import keys
from paigow_server.store.audit import BOOTSTRAP, AuditEntry
from paigow_server.store.operators import OperatorAccount, OperatorAccounts
from paigow_server.store.session_tokens import TOMBSTONE, SessionTokens, hash_token
from paigow_server.store.sign_ins import SignInGuard

__all__ = ["OperatorAuth", "OperatorAuthError", "actor_of", "audited", "require_operator"]

log = logging.getLogger("paigow_server.operator")


class OperatorAuthError(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


def _now_ms() -> int:
    return time.time_ns() // 1_000_000


class OperatorAuth:
    def __init__(self, redis: Redis, bootstrap_token: str, passwords: Passwords, *, session_ms: int,
                 lock_ms: int, clock: Callable[[], int] = _now_ms) -> None:
        self.redis = redis
        self._bootstrap = bootstrap_token.encode()
        self.passwords = passwords
        self.accounts = OperatorAccounts(redis)
        self.tokens = SessionTokens(redis, session_key=keys.operator_session,
                                    owner_set=keys.operator_sessions, idle_ms=session_ms, clock=clock)
        self.guard = SignInGuard(redis, "operator", lock_ms=lock_ms)
        self._clock = clock

    def is_bootstrap(self, token: str) -> bool:
        return secrets.compare_digest(token.encode(), self._bootstrap)

    async def actor_of(self, token: str) -> str:
        """``"bootstrap"`` or the operator's username; raises ``OperatorAuthError``."""
        if self.is_bootstrap(token):
            return BOOTSTRAP
        touched = await self.tokens.touch(token)
        if touched is None:
            raise OperatorAuthError("BAD_OPERATOR_TOKEN",
                                    "this is neither the operator token nor a live operator session")
        if touched.owner == TOMBSTONE:
            raise OperatorAuthError("OPERATOR_DISABLED",
                                    "this operator session was revoked when its operator was disabled")
        account = await self.accounts.get(touched.owner)
        if account is None or account.disabled:
            raise OperatorAuthError("OPERATOR_DISABLED", f"the operator {touched.owner!r} is disabled")
        return account.username

    async def still_valid(self, tokens: list[str]) -> list[bool]:
        """The open operator connections' periodic check."""
        result: list[bool] = []
        for token in tokens:
            try:
                await self.actor_of(token)
            except OperatorAuthError:
                result.append(False)
            else:
                result.append(True)
        return result

    async def create(self, username: str, password: str) -> OperatorAccount | None:
        return await self.accounts.create(username, await self.passwords.hash(password), self._clock())

    async def sign_in(self, username: str, password: str) -> tuple[str, int]:
        """A new operator session token and its expiry, or ``ApiError``."""
        account = await self.accounts.get(username)
        await verify_sign_in(self.guard, self.passwords, username, password,
                             None if account is None else account.pw_hash, self._clock())
        assert account is not None
        if account.disabled:
            raise ApiError(401, "OPERATOR_DISABLED", f"the operator {username!r} is disabled")
        if self.passwords.needs_rehash(account.pw_hash):
            await self.accounts.replace_hash(username, await self.passwords.hash(password))
        await self.accounts.signed_in(username, self._clock())
        return await self.tokens.issue(username)

    async def sign_out(self, token: str, username: str) -> None:
        await self.tokens.revoke(token, username)
        await publish_revocation(self.redis, Revoked(token_hash=hash_token(token)))

    async def set_disabled(self, username: str, disabled: bool) -> OperatorAccount | None:
        """Disable (revoking every session of the operator, in every process) or enable."""
        if not await self.accounts.set_disabled(username, disabled):
            return None
        if disabled:
            await self.tokens.revoke_all(username, tombstone=True)
            await publish_revocation(self.redis, Revoked(operator=username))
        return await self.accounts.get(username)


async def require_operator(request: Request) -> AppContext:
    """The context, once the request's bearer token is an operator's (else a 401)."""
    ctx = context_of(request)
    token = bearer_token(request)
    if token is None:
        raise ApiError(401, "UNAUTHORIZED",
                       "the operator API needs 'Authorization: Bearer <operator token or session token>'")
    try:
        request.state.operator = await ctx.operators.actor_of(token)
    except OperatorAuthError as exc:
        raise ApiError(401, exc.code, exc.message) from None
    return ctx


def actor_of(request: Request) -> str:
    """The operator ``require_operator`` let in."""
    actor = getattr(request.state, "operator", None)
    if not isinstance(actor, str):
        raise RuntimeError("actor_of before require_operator")
    return actor


async def audited(request: Request, action: str, run: Callable[[], Awaitable[dict[str, Any]]], *,
                   table_id: str | None = None, player_id: str | None = None,
                   params: dict[str, Any] | None = None, status: int = 200) -> Response:
    """Run an operator action and write its audit entry (naming the operator), whatever the outcome."""
    ctx = context_of(request)
    entry = AuditEntry(action, _now_ms(), "ok", actor_of(request), table_id=table_id, player_id=player_id,
                       params=params or {})
    with bind(table_id=table_id, player_id=player_id, action=action):
        try:
            result = await run()
        except ApiError as exc:
            await ctx.audit.append(dataclasses.replace(entry, outcome=exc.code, detail=exc.message))
            log.info("operator action refused: %s", exc.message, extra={"outcome": exc.code})
            raise
        detail = f"version {result['version']}" if "version" in result else None
        await ctx.audit.append(dataclasses.replace(entry, detail=detail))
        log.info("operator action done", extra={"outcome": "ok", "version": result.get("version")})
    return JSONResponse(result, status_code=status)
