"""Player sessions: guests, registered accounts, sign-in and sign-out, who holds a token (``Identity``),
and the session JSON.

``Sessions`` is the service (``AppContext.sessions``); its HTTP routes are in ``session_routes`` and
``account_routes``. The session JSON is ``{"player_id", "display_name", "balance_cents", "registered",
"username", "expires_ms"}`` plus ``token`` when a token was minted. A token lapses after
``session_idle_days`` unused (every use extends it: HTTP with the token, a WebSocket hello, an open table
connection); signing out revokes it, signing out everywhere revokes every token of the player and closes
their table connections (4401) in every process. Redis keeps only each token's SHA-256.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace

from paigow_server.store.account_closure import CLOSED_NAME, closed_tombstone_free
from paigow_server.store.accounts import Accounts, Player
from paigow_server.store.channels import Channels
from paigow_server.store.credentials import Credentials
from paigow_server.store.session_tokens import SessionTokens, Touched, hash_token
from paigow_server.store.sign_ins import SignInGuard
from paigow_server.web.api import ApiError
from paigow_server.web.device_tokens import DeviceTokens
from paigow_server.web.impersonation import impersonated
from paigow_server.web.names import InvalidNameError, check_combining_marks, check_name
from paigow_server.web.passwords import Passwords
from paigow_server.web.revocations import Revoked, publish_revocation
from paigow_server.web.sign_in import verify_sign_in

__all__ = [
    "MAX_NAME_LENGTH",
    "DisplayNameError",
    "Identity",
    "Sessions",
    "check_display_name",
    "hash_token",
    "session_json",
]

MAX_NAME_LENGTH = 24


DisplayNameError = InvalidNameError
"""A display name that is empty, too long, has a control or separator character or too many combining
marks, or passes for the house; the message quotes it."""


def check_display_name(raw: object) -> str:
    """The name with surrounding space removed and inner runs of space collapsed (``names.check_name``),
    with at most ``MAX_COMBINING_RUN`` combining marks in a row, and not passing for the house or its staff
    (``impersonation``), nor a closed account's ``CLOSED_NAME``."""
    name = check_combining_marks(check_name(raw, "display_name", MAX_NAME_LENGTH), "display_name")
    if name.casefold() == CLOSED_NAME.casefold():
        raise DisplayNameError(f"display_name {name!r} is what a closed account is shown as")
    word = impersonated(name)
    if word is not None:
        raise DisplayNameError(f"display_name {name!r} looks like {word!r}: a player's name must not pass "
                               "for the house, a dealer, a banker, a moderator or an operator")
    return name


@dataclass(frozen=True, slots=True)
class Identity:
    """Who a session token belongs to."""

    player_id: str
    name: str


def _now_ms() -> int:
    return time.time_ns() // 1_000_000


class Sessions:
    def __init__(self, accounts: Accounts, credentials: Credentials, tokens: SessionTokens,
                 guard: SignInGuard, revocations: Channels, passwords: Passwords, devices: DeviceTokens, *,
                 fresh_ms: int | None = None, clock: Callable[[], int] = _now_ms) -> None:
        """``tokens``: the players' (``keys.session``, ``keys.player_sessions``); ``revocations``: where a
        sign-out is published (``web.revocations``). ``fresh_ms``: new guests start fresh
        (``store.fresh_guests``), their token lapsing with them after that long unused (or the idle time, if
        shorter); None: every guest is settled at once."""
        self.revocations = revocations
        self.accounts = accounts
        self.passwords = passwords
        self.credentials = credentials
        self.tokens = tokens
        self.devices = devices
        self.guard = guard
        self.fresh_ms = None if fresh_ms is None else min(fresh_ms, tokens.idle_ms)
        self._clock = clock

    async def start(self, display_name: object) -> tuple[Player, str, int]:
        """A new guest, their token (shown once; only its hash is stored) and its expiry. Raises
        ``DisplayNameError``."""
        player = await self.accounts.create(check_display_name(display_name), fresh_ms=self.fresh_ms)
        token, expires = await self.tokens.issue(player.player_id, idle_ms=self.fresh_ms)
        return player, token, expires

    async def register(self, username: str, password: str, display_name: str) -> tuple[Player, str, int]:
        """A new registered account. Raises ``UsernameTakenError``."""
        held = await self.credentials.player_of(username)
        if held is not None and not closed_tombstone_free(held, self._clock()):  # spare the hash; the
            # script re-checks
            raise ApiError(409, "USERNAME_TAKEN", f"the username {username!r} is taken")
        pw_hash = await self.passwords.hash(password)
        player = await self.accounts.create(display_name, username=username, pw_hash=pw_hash)
        token, expires = await self.tokens.issue(player.player_id)
        return player, token, expires

    async def sign_in(self, username: str, password: str, *, device: str | None,
                      prefix: str) -> tuple[Player, str, int]:
        """A new token for the account, or ``ApiError`` (backoff, bad credentials). ``device``: the id of the
        request's valid device token of this account, if any (``account_routes.limit_untrusted``);
        ``prefix``: its client's address prefix (``sign_in``)."""
        login = await self.credentials.login_of(username)
        await verify_sign_in(self.guard, self.passwords, username, password,
                             None if login is None else login.pw_hash, self._clock(), device=device,
                             prefix=prefix)
        assert login is not None  # verify_sign_in never passes a missing hash
        if self.passwords.needs_rehash(login.pw_hash):
            await self.credentials.replace_hash(login.player_id, login.pw_hash,
                                                await self.passwords.hash(password))
        player = await self.accounts.get(login.player_id)
        if player is None:
            raise ApiError(401, "BAD_CREDENTIALS", "wrong username or password")
        await self.credentials.seen(player.player_id, self._clock())
        token, expires = await self.tokens.issue(player.player_id)
        return player, token, expires

    async def touch(self, token: str) -> tuple[Player, Touched] | None:
        """The token's player, sliding its expiry (and the player's last seen time) when due."""
        touched = await self.tokens.touch(token)
        if touched is None:
            return None
        player = await self.accounts.get(touched.owner)
        if player is None:
            return None
        if touched.refreshed:
            if player.fresh and self.fresh_ms is not None and await self._slid(player.player_id, token):
                return player, replace(touched, expires_ms=self._clock() + self.fresh_ms)
            await self.credentials.seen(player.player_id, self._clock())
        return player, touched

    async def player_of(self, token: str) -> Player | None:
        found = await self.touch(token)
        return None if found is None else found[0]

    async def identify(self, token: str) -> Identity | None:
        """For the WebSocket hello: who holds this token."""
        player = await self.player_of(token)
        return None if player is None else Identity(player.player_id, player.name)

    async def still_valid(self, tokens: list[str]) -> list[bool]:
        """The open connections' periodic check: which tokens still live (sliding those that do)."""
        touched = await self.tokens.touch_many(tokens)
        now = self._clock()
        for token, found in zip(tokens, touched, strict=True):
            if found is not None and found.refreshed and not await self._slid(found.owner, token):
                await self.credentials.seen(found.owner, now)
        return [found is not None for found in touched]

    async def _slid(self, player_id: str, token: str) -> bool:
        """A fresh guest's token in use: its hash, token and sessions set live ``fresh_ms`` more."""
        return self.fresh_ms is not None and await self.accounts.fresh.slide(
            player_id, self.tokens.session_key(token), self.fresh_ms)

    async def sign_out(self, token: str, player_id: str) -> None:
        await self.tokens.revoke(token, player_id)
        await publish_revocation(self.revocations, Revoked(token_hash=hash_token(token)))

    async def sign_out_everywhere(self, player_id: str) -> int:
        count = await self.tokens.revoke_all(player_id)
        await publish_revocation(self.revocations, Revoked(player_id=player_id))
        return count


def session_json(player: Player, expires_ms: int, token: str | None = None) -> dict[str, object]:
    body: dict[str, object] = {"player_id": player.player_id, "display_name": player.name,
                               "balance_cents": player.balance_cents, "registered": player.registered,
                               "username": player.username, "language": player.language,
                               "expires_ms": expires_ms}
    if token is not None:
        body["token"] = token
    return body
