"""Player sessions over HTTP (the contract: docs/http-api.md); the service is ``sessions.Sessions``.

``POST /api/session {"display_name": "Ann"}`` starts a guest (the starting balance, a token): 201 with the
session JSON and the token; ``GET /api/session`` resumes (slides) it; ``DELETE /api/session`` signs it
out; ``DELETE /api/sessions`` signs out every token of the player and closes their table connections
(4401) in every process. Registered accounts, sign-in and keeping a guest are in ``account_routes``.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from paigow_server.store.accounts import Player
from paigow_server.store.session_tokens import Touched
from paigow_server.web.api import ApiError, bearer_token, json_body, only_fields
from paigow_server.web.context import context_of
from paigow_server.web.rate_limits import Limit
from paigow_server.web.sessions import DisplayNameError, session_json

__all__ = ["current_player", "routes", "session_of"]


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
    data = await json_body(request)  # first: a refusal sent before the body is read can drop the connection
    await ctx.rate_limits.check(request, Limit.SESSIONS)
    await ctx.rate_limits.check_everyone(Limit.GUESTS)
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
