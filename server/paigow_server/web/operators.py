"""Named operators, operator sign-in, unlocking players and the operator settings, over HTTP.

``POST /api/operator/operators`` (bootstrap token only) creates an operator with their own credentials;
``GET`` lists them; ``.../{username}/disable`` · ``/enable`` (bootstrap, or another enabled operator);
``POST /api/operator/session`` signs in (a 12-hour sliding session token; backoff and device token as for
players), ``DELETE`` signs out; ``POST /api/operator/players/{id}/unlock`` and
``/operators/{username}/unlock`` start an account's failed sign-in counters again;
``GET`` / ``PUT /api/operator/settings {"starting_balance_cents", "top_up_hours", "help_notice"}`` (any of
them; 0 hours turns free top-ups off: ``store.top_ups``; the help notice at sign-in and sign-out, plain text,
``null`` for the serve setting's: ``store.help_notice``). Every change is audited with its actor.
"""

from __future__ import annotations

import math
import time
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from paigow_server.process.settings import MAX_HELP_NOTICE, MAX_TOP_UP_HOURS, check_help_notice
from paigow_server.store.audit import BOOTSTRAP, AuditEntry
from paigow_server.store.operators import OperatorAccount
from paigow_server.web.account_routes import (
    credentials_of,
    limit_untrusted,
    prefix_of,
    sign_in_fields,
    with_device,
)
from paigow_server.web.api import ApiError, bearer_token, int_field, json_body, only_fields
from paigow_server.web.context import AppContext, context_of
from paigow_server.web.operator_gate import actor_of, audited, require_operator
from paigow_server.web.passwords import UsernameError, check_username

__all__ = ["MAX_STARTING_BALANCE_CENTS", "routes"]

MAX_STARTING_BALANCE_CENTS = 1_000_000_000


def _now_ms() -> int:
    return time.time_ns() // 1_000_000


def _name(request: Request) -> str:
    try:
        return check_username(request.path_params["username"])
    except UsernameError as exc:
        raise ApiError(404, "OPERATOR_NOT_FOUND", str(exc)) from None


async def create_operator(request: Request) -> Response:
    ctx = await require_operator(request)
    data = await json_body(request)

    async def run() -> dict[str, Any]:
        if actor_of(request) != BOOTSTRAP:
            raise ApiError(403, "BOOTSTRAP_ONLY", "only the bootstrap operator token creates operators")
        only_fields(data, {"username", "password"})
        username, password = await credentials_of(data)
        created = await ctx.operators.create(username, password)
        if created is None:
            raise ApiError(409, "OPERATOR_EXISTS", f"there is already an operator {username!r}")
        return created.to_json(with_sign_in=False)

    shown = {"username": data.get("username")}  # never the password
    return await audited(request, "create_operator", run, params=shown, status=201)


async def list_operators(request: Request) -> Response:
    ctx = await require_operator(request)
    return JSONResponse({"operators": [a.to_json() for a in await ctx.operators.accounts.all()]})


def _switch(disabled: bool) -> Any:
    action = "disable_operator" if disabled else "enable_operator"

    async def handler(request: Request) -> Response:
        ctx = await require_operator(request)

        async def run() -> dict[str, Any]:
            only_fields(await json_body(request), frozenset())  # no body, or {}
            username = _name(request)
            if disabled and actor_of(request) == username:
                raise ApiError(409, "CANNOT_DISABLE_SELF",
                               "an operator cannot disable themselves; ask another operator")
            account: OperatorAccount | None = await ctx.operators.set_disabled(username, disabled)
            if account is None:
                raise ApiError(404, "OPERATOR_NOT_FOUND", f"no operator {username!r}")
            return account.to_json()

        return await audited(request, action, run, params={"username": request.path_params["username"]})

    return handler


async def operator_sign_in(request: Request) -> Response:
    ctx = context_of(request)
    body = await json_body(request)  # first: a refusal sent before the body is read can drop the connection
    username, password = sign_in_fields(body)
    device = await limit_untrusted(request, "operator", username)
    token, expires = await ctx.operators.sign_in(username, password, device=device, prefix=prefix_of(request))
    await ctx.audit.append(AuditEntry("sign_in", _now_ms(), "ok", username))
    answer = JSONResponse({"username": username, "token": token, "expires_ms": expires})
    return await with_device(request, answer, "operator", username)


async def operator_sign_out(request: Request) -> Response:
    ctx = await require_operator(request)
    actor = actor_of(request)
    if actor == BOOTSTRAP:
        raise ApiError(400, "BOOTSTRAP_TOKEN",
                       "the bootstrap operator token cannot be signed out; change --operator-token instead")
    await ctx.operators.sign_out(bearer_token(request) or "", actor)
    return Response(status_code=204)


async def unlock_player(request: Request) -> Response:
    ctx = await require_operator(request)
    player_id = request.path_params["player_id"]

    async def run() -> dict[str, Any]:
        only_fields(await json_body(request), frozenset())  # no body, or {}
        player = await ctx.accounts.get(player_id)
        if player is None:
            raise ApiError(404, "PLAYER_NOT_FOUND", f"no player {player_id!r}")
        was_locked = False
        if player.username is not None:
            was_locked = await ctx.sessions.guard.reset(player.username, _now_ms())
        return {"player_id": player_id, "locked": False, "was_locked": was_locked}

    return await audited(request, "unlock_player", run, player_id=player_id)


async def unlock_operator(request: Request) -> Response:
    """Every failed sign-in counter of the operator starts again (the bootstrap token or any operator)."""
    ctx = await require_operator(request)

    async def run() -> dict[str, Any]:
        only_fields(await json_body(request), frozenset())  # no body, or {}
        username = _name(request)
        if await ctx.operators.accounts.get(username) is None:
            raise ApiError(404, "OPERATOR_NOT_FOUND", f"no operator {username!r}")
        was_locked = await ctx.operators.guard.reset(username, _now_ms())
        return {"username": username, "locked": False, "was_locked": was_locked}

    shown = {"username": request.path_params["username"]}
    return await audited(request, "unlock_operator", run, params=shown)


async def _settings(ctx: AppContext) -> dict[str, Any]:
    return {"starting_balance_cents": await ctx.accounts.starting_balance(),
            "top_up_hours": await ctx.top_ups.hours(), "help_notice": await ctx.help_notice.get()}


async def get_settings(request: Request) -> Response:
    return JSONResponse(await _settings(await require_operator(request)))


def _hours(data: dict[str, Any]) -> float:
    value = data["top_up_hours"]
    if type(value) not in (int, float) or not math.isfinite(value) or not 0 <= value <= MAX_TOP_UP_HOURS:
        raise ApiError(400, "INVALID_FIELD", f"top_up_hours={value!r}: must be a number from 0 (free top-ups "
                                             f"off) to {MAX_TOP_UP_HOURS:,} hours")
    return float(value)


def _notice(data: dict[str, Any]) -> str | None:
    """The help notice asked for (None: the serve setting's again), or a 400 naming the field."""
    value = data["help_notice"]
    if value is None:
        return None
    message = check_help_notice(value)
    if message is not None:
        raise ApiError(400, "INVALID_FIELD", f"help_notice: {message} (or null: the server's own)",
                       extra={"field": "help_notice"})
    return str(value)


def _audited_params(data: dict[str, Any]) -> dict[str, Any]:
    """What the audit entry keeps of the request: a help notice too long to be set cut at the bound."""
    notice = data.get("help_notice")
    if isinstance(notice, str) and len(notice) > MAX_HELP_NOTICE:
        return {**data, "help_notice": notice[:MAX_HELP_NOTICE] + "…"}
    return data


async def put_settings(request: Request) -> Response:
    ctx = await require_operator(request)
    data = await json_body(request)

    async def run() -> dict[str, Any]:
        only_fields(data, {"starting_balance_cents", "top_up_hours", "help_notice"})
        if not data:
            raise ApiError(400, "INVALID_FIELD",
                           "name a setting to change: starting_balance_cents, top_up_hours, help_notice")
        amount = None
        if "starting_balance_cents" in data:
            amount = int_field(data, "starting_balance_cents")
            if not 0 <= amount <= MAX_STARTING_BALANCE_CENTS:
                raise ApiError(400, "INVALID_FIELD", f"starting_balance_cents={amount}: must be 0, or from 1 "
                                                     f"to {MAX_STARTING_BALANCE_CENTS:,} cents")
        hours = _hours(data) if "top_up_hours" in data else None  # all checked before any is changed
        notice = _notice(data) if "help_notice" in data else None
        if amount is not None:
            await ctx.accounts.set_starting_balance(amount)
        if hours is not None:
            await ctx.top_ups.set_hours(hours)
        if "help_notice" in data:
            await ctx.help_notice.set(notice)
        return await _settings(ctx)

    return await audited(request, "change_settings", run, params=_audited_params(data))


def routes() -> list[BaseRoute]:
    """Before ``operator.routes()``: ``/players/{id}/unlock`` must win over ``/players/{id}/{direction}``."""
    base = "/api/operator"
    return [
        Route(f"{base}/operators", create_operator, methods=["POST"]),
        Route(f"{base}/operators", list_operators, methods=["GET"]),
        Route(f"{base}/operators/{{username}}/disable", _switch(True), methods=["POST"]),
        Route(f"{base}/operators/{{username}}/enable", _switch(False), methods=["POST"]),
        Route(f"{base}/operators/{{username}}/unlock", unlock_operator, methods=["POST"]),
        Route(f"{base}/session", operator_sign_in, methods=["POST"]),
        Route(f"{base}/session", operator_sign_out, methods=["DELETE"]),
        Route(f"{base}/players/{{player_id}}/unlock", unlock_player, methods=["POST"]),
        Route(f"{base}/settings", get_settings, methods=["GET"]),
        Route(f"{base}/settings", put_settings, methods=["PUT"]),
    ]
