"""Player sessions: a display name in, a player id and an unguessable token out.

``POST /api/session {"display_name": "Ann"}`` creates a player with the starting balance and answers
``{"player_id", "display_name", "token", "balance_cents"}``; the browser keeps the token and resumes with
``GET /api/session`` (``Authorization: Bearer <token>``). Redis keeps only the token's SHA-256.
"""

from __future__ import annotations

import hashlib
import secrets

from redis.asyncio import Redis
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from paigow_server.api import ApiError, bearer_token, json_body, only_fields
from paigow_server.context import context_of
from paigow_server.names import InvalidNameError, check_name
from paigow_server.realtime import Identity
from paigow_server.store import keys
from paigow_server.store.accounts import Accounts, Player

__all__ = ["MAX_NAME_LENGTH", "DisplayNameError", "Sessions", "check_display_name", "hash_token", "routes"]

MAX_NAME_LENGTH = 24
MAX_TOKEN_LENGTH = 256


DisplayNameError = InvalidNameError
"""A display name that is empty, too long or has a control or separator character; the message quotes it."""


def check_display_name(raw: object) -> str:
    """The name with surrounding space removed and inner runs of space collapsed (``names.check_name``)."""
    return check_name(raw, "display_name", MAX_NAME_LENGTH)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Sessions:
    def __init__(self, redis: Redis, accounts: Accounts) -> None:
        self.redis = redis
        self.accounts = accounts

    async def start(self, display_name: object) -> tuple[Player, str]:
        """A new player and their session token (shown once; only its hash is stored). Raises
        ``DisplayNameError``."""
        player = await self.accounts.create(check_display_name(display_name))
        token = secrets.token_urlsafe(32)
        await self.redis.set(keys.session(hash_token(token)), player.player_id)
        return player, token

    async def player_id_of(self, token: str) -> str | None:
        if not token or len(token) > MAX_TOKEN_LENGTH:
            return None
        player_id = await self.redis.get(keys.session(hash_token(token)))
        return None if player_id is None else str(player_id)

    async def player_of(self, token: str) -> Player | None:
        player_id = await self.player_id_of(token)
        return None if player_id is None else await self.accounts.get(player_id)

    async def identify(self, token: str) -> Identity | None:
        """For the WebSocket hello: who holds this token."""
        player = await self.player_of(token)
        return None if player is None else Identity(player.player_id, player.name)


def _session_json(player: Player, token: str | None = None) -> dict[str, object]:
    body: dict[str, object] = {"player_id": player.player_id, "display_name": player.name,
                               "balance_cents": player.balance_cents}
    if token is not None:
        body["token"] = token
    return body


async def current_player(request: Request) -> Player:
    """The player of the request's bearer session token, or a 401."""
    token = bearer_token(request)
    if token is None:
        raise ApiError(401, "UNAUTHORIZED", "send the session token as 'Authorization: Bearer <token>'")
    player = await context_of(request).sessions.player_of(token)
    if player is None:
        raise ApiError(401, "UNKNOWN_SESSION", "this session token is unknown; start a new session")
    return player


async def create_session(request: Request) -> Response:
    data = await json_body(request)
    only_fields(data, {"display_name"})
    try:
        player, token = await context_of(request).sessions.start(data.get("display_name"))
    except DisplayNameError as exc:
        raise ApiError(400, "INVALID_NAME", str(exc)) from None
    return JSONResponse(_session_json(player, token), status_code=201)


async def resume_session(request: Request) -> Response:
    return JSONResponse(_session_json(await current_player(request)))


def routes() -> list[BaseRoute]:
    return [
        Route("/api/session", create_session, methods=["POST"]),
        Route("/api/session", resume_session, methods=["GET"]),
    ]
