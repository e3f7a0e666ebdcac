"""Registered accounts over HTTP: register, keep a guest account, sign in (the contract: docs/http-api.md).

``POST /api/accounts {"username", "password", "display_name"?}`` -> 201 session JSON (rate-limited per
address network with the guests, ``sessions_per_minute``, and within the deployment's budget of new players,
``guests_per_minute``); ``POST /api/accounts/keep {"username", "password"}`` with a guest's bearer token ->
200 session JSON, same player; ``POST /api/session/sign-in {"username", "password"}`` -> 200 session JSON
with a new token (``sign_ins_per_minute`` per address network, except for a device that signed in to the
account before, and the backoff, ``sign_in.py``). All three set the device's new device token cookie
(``device_tokens``), which a later sign-in to the same account presents.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from paigow_server.store.accounts import UsernameTakenError
from paigow_server.store.credentials import KeepOutcome
from paigow_server.web.api import ApiError, json_body, only_fields
from paigow_server.web.context import context_of
from paigow_server.web.device_tokens import device_cookie, set_device_cookie
from paigow_server.web.password_strength import check_strength
from paigow_server.web.passwords import PasswordError, UsernameError, check_password, check_username
from paigow_server.web.rate_limits import Limit
from paigow_server.web.session_routes import session_of
from paigow_server.web.sessions import DisplayNameError, check_display_name, session_json

__all__ = ["credentials_of", "limit_untrusted", "prefix_of", "routes", "sign_in_fields", "with_device"]


async def credentials_of(data: dict[str, Any], display_name: str | None = None) -> tuple[str, str]:
    """The body's username (case-folded) and a new password, checked (also against being too easy to guess,
    ``password_strength``), or a 400 naming what is wrong."""
    try:
        username, password = check_username(data.get("username")), check_password(data.get("password"))
        await check_strength(password, username=username, display_name=display_name)
    except UsernameError as exc:
        raise ApiError(400, "INVALID_USERNAME", str(exc)) from None
    except PasswordError as exc:
        raise ApiError(400, "INVALID_PASSWORD", str(exc)) from None
    return username, password


def sign_in_fields(data: dict[str, Any]) -> tuple[str, str]:
    """A sign-in's username and password: text, but not held to the rules (a wrong one is just wrong)."""
    only_fields(data, {"username", "password"})
    username, password = data.get("username"), data.get("password")
    if not isinstance(username, str) or not isinstance(password, str):
        raise ApiError(400, "INVALID_FIELD", "username and password must both be text")
    try:
        return check_username(username), password
    except UsernameError:
        raise ApiError(401, "BAD_CREDENTIALS", "wrong username or password") from None


async def register(request: Request) -> Response:
    ctx = context_of(request)
    data = await json_body(request)  # first: a refusal sent before the body is read can drop the connection
    await ctx.rate_limits.check(request, Limit.SESSIONS)
    await ctx.rate_limits.check_everyone(Limit.GUESTS)  # a new account is a new player, as a guest is
    only_fields(data, {"username", "password", "display_name"})
    try:
        display_name = check_display_name(data.get("display_name", check_username(data.get("username"))))
    except UsernameError as exc:
        raise ApiError(400, "INVALID_USERNAME", str(exc)) from None
    except DisplayNameError as exc:  # the username stands for the name when none was given: say so
        named = "display_name" if "display_name" in data else "username"
        raise ApiError(400, "INVALID_NAME", str(exc).replace("display_name", named, 1)) from None
    username, password = await credentials_of(data, display_name)
    try:
        player, token, expires = await ctx.sessions.register(username, password, display_name)
    except UsernameTakenError as exc:
        raise ApiError(409, "USERNAME_TAKEN", str(exc)) from None
    return await with_device(request, JSONResponse(session_json(player, expires, token), status_code=201),
                             "player", username)


async def keep(request: Request) -> Response:
    ctx = context_of(request)
    token, player, touched = await session_of(request)
    data = await json_body(request)
    only_fields(data, {"username", "password"})
    username, password = await credentials_of(data, player.name)
    if player.registered:
        raise ApiError(409, "ALREADY_REGISTERED",
                       f"this account is already registered as {player.username!r}")
    if await ctx.sessions.credentials.player_of(username) is not None:
        raise ApiError(409, "USERNAME_TAKEN", f"the username {username!r} is taken")
    pw_hash = await ctx.passwords.hash(password)
    outcome = await ctx.sessions.credentials.keep(player.player_id, username, pw_hash)
    if outcome == KeepOutcome.USERNAME_TAKEN:
        raise ApiError(409, "USERNAME_TAKEN", f"the username {username!r} is taken")
    if outcome == KeepOutcome.ALREADY_REGISTERED:
        raise ApiError(409, "ALREADY_REGISTERED", "this account is already registered")
    if outcome == KeepOutcome.UNKNOWN_PLAYER:
        raise ApiError(401, "UNKNOWN_SESSION", "this session's player no longer exists")
    kept = await ctx.accounts.get(player.player_id)
    assert kept is not None
    settled = await ctx.sessions.tokens.touch(token)  # a fresh guest's short-lived token now lives as any
    answer = JSONResponse(session_json(kept, (settled or touched).expires_ms))
    return await with_device(request, answer, "player", username)


def prefix_of(request: Request) -> str:
    """The request's client address prefix, which a sign-in's failures are counted by (``sign_ins``)."""
    return context_of(request).rate_limits.client_network(request)


async def with_device(request: Request, response: Response, kind: str, username: str) -> Response:
    """``response`` with a new device token for the account (``device_tokens``)."""
    devices = context_of(request).sessions.devices
    set_device_cookie(response, request, kind, await devices.issue(kind, username))
    return response


async def limit_untrusted(request: Request, kind: str, username: str) -> str | None:
    """The device id of the request's device token when it is a valid one of this account; otherwise the
    address network's ``sign_ins_per_minute`` applies (429) and the answer is None. A device that signed in
    to the account before is held only to its own backoff, so strangers on its network (a shared NAT, an
    IPv6 /64) never hold it back."""
    ctx = context_of(request)
    devices = ctx.sessions.devices if kind == "player" else ctx.operators.devices
    device = await devices.device_of(kind, username, device_cookie(request, kind))
    if device is None:
        await ctx.rate_limits.check(request, Limit.SIGN_INS)
    return device


async def sign_in(request: Request) -> Response:
    ctx = context_of(request)
    body = await json_body(request)  # first: a refusal sent before the body is read can drop the connection
    username, password = sign_in_fields(body)
    device = await limit_untrusted(request, "player", username)
    player, token, expires = await ctx.sessions.sign_in(username, password, device=device,
                                                        prefix=prefix_of(request))
    return await with_device(request, JSONResponse(session_json(player, expires, token)), "player", username)


def routes() -> list[BaseRoute]:
    return [
        Route("/api/accounts", register, methods=["POST"]),
        Route("/api/accounts/keep", keep, methods=["POST"]),
        Route("/api/session/sign-in", sign_in, methods=["POST"]),
    ]
