"""Player sessions: guests, registered accounts, sign-in and sign-out, and the session JSON.

``POST /api/session {"display_name": "Ann"}`` starts a guest (the starting balance, a token); accounts,
sign-in and keeping a guest are in ``account_routes``. Every answer is the session JSON
``{"player_id", "display_name", "balance_cents", "registered", "username", "expires_ms"}`` plus
``token`` when a token was minted. A token lapses after ``session_idle_days`` unused (every use extends
it: HTTP with the token, a WebSocket hello, an open table connection); ``DELETE /api/session`` revokes
it, ``DELETE /api/sessions`` revokes every token of the player and closes their table connections
(4401) in every process. Redis keeps only each token's SHA-256.
"""

from __future__ import annotations

import time
import unicodedata
from collections.abc import Callable

from redis.asyncio import Redis
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from paigow_server.api import ApiError, bearer_token, json_body, only_fields
from paigow_server.context import context_of
from paigow_server.passwords import Passwords
from paigow_server.rate_limits import Limit
from paigow_server.realtime import Identity
from paigow_server.revocations import Revoked, publish_revocation
from paigow_server.sign_in import verify_sign_in
from paigow_server.store import keys
from paigow_server.store.accounts import Accounts, Player
from paigow_server.store.credentials import Credentials
from paigow_server.store.session_tokens import SessionTokens, Touched, hash_token
from paigow_server.store.sign_ins import SignInGuard

__all__ = [
    "MAX_NAME_LENGTH",
    "DisplayNameError",
    "Sessions",
    "check_display_name",
    "current_player",
    "hash_token",
    "routes",
    "session_json",
    "session_of",
]

MAX_NAME_LENGTH = 24


class DisplayNameError(ValueError):
    """A display name that is empty, too long or has control characters; the message quotes it."""


def check_display_name(raw: object) -> str:
    """The name with surrounding space removed and inner runs of space collapsed."""
    if not isinstance(raw, str):
        raise DisplayNameError(f"display_name must be text, not {raw!r}")
    name = " ".join(raw.split())
    if not name:
        raise DisplayNameError("display_name must not be empty")
    if len(name) > MAX_NAME_LENGTH:
        raise DisplayNameError(f"display_name {name!r} is {len(name)} characters; at most {MAX_NAME_LENGTH}")
    if any(unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co", "Cn") for c in name):
        raise DisplayNameError(f"display_name {name!r} contains control or unassigned characters")
    return name


def _now_ms() -> int:
    return time.time_ns() // 1_000_000


class Sessions:
    def __init__(self, redis: Redis, accounts: Accounts, passwords: Passwords, *, idle_ms: int,
                 lock_ms: int, clock: Callable[[], int] = _now_ms) -> None:
        self.redis = redis
        self.accounts = accounts
        self.passwords = passwords
        self.credentials = Credentials(redis)
        self.tokens = SessionTokens(redis, session_key=keys.session, owner_set=keys.player_sessions,
                                    idle_ms=idle_ms, clock=clock)
        self.guard = SignInGuard(redis, "player", lock_ms=lock_ms)
        self._clock = clock

    async def start(self, display_name: object) -> tuple[Player, str, int]:
        """A new guest, their token (shown once; only its hash is stored) and its expiry. Raises
        ``DisplayNameError``."""
        player = await self.accounts.create(check_display_name(display_name))
        token, expires = await self.tokens.issue(player.player_id)
        return player, token, expires

    async def register(self, username: str, password: str, display_name: str) -> tuple[Player, str, int]:
        """A new registered account. Raises ``UsernameTakenError``."""
        if await self.credentials.player_of(username) is not None:  # spare the hash; the script re-checks
            raise ApiError(409, "USERNAME_TAKEN", f"the username {username!r} is taken")
        pw_hash = await self.passwords.hash(password)
        player = await self.accounts.create(display_name, username=username, pw_hash=pw_hash)
        token, expires = await self.tokens.issue(player.player_id)
        return player, token, expires

    async def sign_in(self, username: str, password: str) -> tuple[Player, str, int]:
        """A new token for the account, or ``ApiError`` (backoff, lock, bad credentials)."""
        login = await self.credentials.login_of(username)
        await verify_sign_in(self.guard, self.passwords, username, password,
                             None if login is None else login.pw_hash, self._clock())
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
        for found in touched:
            if found is not None and found.refreshed:
                await self.credentials.seen(found.owner, now)
        return [found is not None for found in touched]

    async def sign_out(self, token: str, player_id: str) -> None:
        await self.tokens.revoke(token, player_id)
        await publish_revocation(self.redis, Revoked(token_hash=hash_token(token)))

    async def sign_out_everywhere(self, player_id: str) -> int:
        count = await self.tokens.revoke_all(player_id)
        await publish_revocation(self.redis, Revoked(player_id=player_id))
        return count


def session_json(player: Player, expires_ms: int, token: str | None = None) -> dict[str, object]:
    body: dict[str, object] = {"player_id": player.player_id, "display_name": player.name,
                               "balance_cents": player.balance_cents, "registered": player.registered,
                               "username": player.username, "expires_ms": expires_ms}
    if token is not None:
        body["token"] = token
    return body


def _token_of(request: Request) -> str:
    token = bearer_token(request)
    if token is None:
        raise ApiError(401, "UNAUTHORIZED", "send the session token as 'Authorization: Bearer <token>'")
    return token


async def session_of(request: Request) -> tuple[str, Player, Touched]:
    """The request's bearer token, its player and its (slid) expiry, or a 401."""
    token = _token_of(request)
    found = await context_of(request).sessions.touch(token)
    if found is None:
        raise ApiError(401, "UNKNOWN_SESSION",
                       "this session token is unknown, expired or signed out; sign in or start a new session")
    return token, *found


async def current_player(request: Request) -> Player:
    """The player of the request's bearer session token (sliding its expiry), or a 401."""
    return (await session_of(request))[1]


async def create_session(request: Request) -> Response:
    ctx = context_of(request)
    await ctx.rate_limits.check(request, Limit.SESSIONS)
    data = await json_body(request)
    only_fields(data, {"display_name"})
    try:
        player, token, expires = await ctx.sessions.start(data.get("display_name"))
    except DisplayNameError as exc:
        raise ApiError(400, "INVALID_NAME", str(exc)) from None
    return JSONResponse(session_json(player, expires, token), status_code=201)


async def resume_session(request: Request) -> Response:
    _, player, touched = await session_of(request)
    return JSONResponse(session_json(player, touched.expires_ms))


async def sign_out(request: Request) -> Response:
    token, player, _ = await session_of(request)
    await context_of(request).sessions.sign_out(token, player.player_id)
    return Response(status_code=204)


async def sign_out_everywhere(request: Request) -> Response:
    _, player, _ = await session_of(request)
    await context_of(request).sessions.sign_out_everywhere(player.player_id)
    return Response(status_code=204)


def routes() -> list[BaseRoute]:
    return [
        Route("/api/session", create_session, methods=["POST"]),
        Route("/api/session", resume_session, methods=["GET"]),
        Route("/api/session", sign_out, methods=["DELETE"]),
        Route("/api/sessions", sign_out_everywhere, methods=["DELETE"]),
    ]
