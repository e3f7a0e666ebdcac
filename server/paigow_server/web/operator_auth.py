"""Who is the operator: the bootstrap token (``--operator-token``) or a named operator's session token.

``OperatorAuth.actor_of(token)`` answers ``"bootstrap"`` or the operator's username, or raises
``OperatorAuthError`` (``BAD_OPERATOR_TOKEN``: neither the bootstrap token nor a live operator session;
``OPERATOR_DISABLED``). It checks the WebSocket hello's ``operator_token`` and, through
``operator_gate.require_operator``, the bearer token of every ``/api/operator`` request. Operator sessions
slide like the players' (``operator_session_hours``, 12 h); sign-in backs off like the players' (device
tokens, never a lock), and another operator or the bootstrap token can reset an operator's counters.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable

from paigow_server.store.audit import BOOTSTRAP
from paigow_server.store.channels import Channels
from paigow_server.store.operators import OperatorAccount, OperatorAccounts
from paigow_server.store.session_tokens import TOMBSTONE, SessionTokens, hash_token
from paigow_server.store.sign_ins import SignInGuard
from paigow_server.web.api import ApiError
from paigow_server.web.device_tokens import DeviceTokens
from paigow_server.web.passwords import Passwords
from paigow_server.web.revocations import Revoked, publish_revocation
from paigow_server.web.sign_in import verify_sign_in

__all__ = ["OperatorAuth", "OperatorAuthError"]


class OperatorAuthError(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


def _now_ms() -> int:
    return time.time_ns() // 1_000_000


class OperatorAuth:
    def __init__(self, accounts: OperatorAccounts, tokens: SessionTokens, guard: SignInGuard,
                 revocations: Channels, bootstrap_token: str, passwords: Passwords, devices: DeviceTokens, *,
                 clock: Callable[[], int] = _now_ms) -> None:
        """``tokens``: the operators' (``keys.operator_session``, ``keys.operator_sessions``);
        ``revocations``: where a sign-out or a disabled operator is published (``web.revocations``)."""
        self.revocations = revocations
        self._bootstrap = bootstrap_token.encode()
        self.passwords = passwords
        self.accounts = accounts
        self.tokens = tokens
        self.devices = devices
        self.guard = guard
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

    async def sign_in(self, username: str, password: str, *, device: str | None,
                      prefix: str) -> tuple[str, int]:
        """A new operator session token and its expiry, or ``ApiError`` (as ``Sessions.sign_in``)."""
        account = await self.accounts.get(username)
        await verify_sign_in(self.guard, self.passwords, username, password,
                             None if account is None else account.pw_hash, self._clock(), device=device,
                             prefix=prefix)
        assert account is not None
        if account.disabled:
            raise ApiError(401, "OPERATOR_DISABLED", f"the operator {username!r} is disabled")
        if self.passwords.needs_rehash(account.pw_hash):
            await self.accounts.replace_hash(username, await self.passwords.hash(password))
        await self.accounts.signed_in(username, self._clock())
        return await self.tokens.issue(username)

    async def sign_out(self, token: str, username: str) -> None:
        await self.tokens.revoke(token, username)
        await publish_revocation(self.revocations, Revoked(token_hash=hash_token(token)))

    async def set_disabled(self, username: str, disabled: bool) -> OperatorAccount | None:
        """Disable (revoking every session of the operator, in every process) or enable."""
        if not await self.accounts.set_disabled(username, disabled):
            return None
        if disabled:
            await self.tokens.revoke_all(username, tombstone=True)
            await publish_revocation(self.revocations, Revoked(operator=username))
        return await self.accounts.get(username)
