"""Breaks and self-exclusion over HTTP (the contract: docs/http-api.md, "Breaks and self-exclusion").

``GET /api/account/responsible-play`` -> ``{"block": {...} | null, ...}`` (the limits beside it, and its
``PUT``: web/play_limit_routes.py); ``POST /api/account/break {"length": "24h"|"7d"|"30d"}``;
``POST /api/account/exclusion {"length": "6m"|"1y"|"5y", "confirm": true}``
- each with the bearer token (a guest's too). A POST counts against the account's
``account_settings_per_minute`` (a refused one too), answers ``{"block": {...}}`` and, before answering,
stands the player up at every table (a dealt hand plays out). A block never shortens: ``409
ALREADY_BLOCKED`` (``until_ms``) when one in force ends no earlier; nothing changed on any refusal.

The operator may read (``GET /api/operator/players/{id}/responsible-play``, ``GET
/api/operator/responsible-play/blocks``) and nothing else: no route lifts or shortens a block.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from paigow_server.store.play_blocks import (
    BREAK_LENGTHS,
    EXCLUSION_LENGTHS,
    AlreadyBlocked,
    BlockKind,
    PlayBlock,
)
from paigow_server.store.play_sessions import PlaySessions
from paigow_server.web.api import ApiError, json_body, only_fields
from paigow_server.web.context import context_of
from paigow_server.web.operator_gate import require_operator
from paigow_server.web.play_limit_routes import limits_json, set_limits
from paigow_server.web.rate_limits import Limit
from paigow_server.web.session_routes import current_player

__all__ = ["routes"]


def _json(block: PlayBlock | None) -> dict[str, Any]:
    return {"block": None if block is None else block.to_json()}


async def my_block(request: Request) -> Response:
    player = await current_player(request)
    ctx = context_of(request)
    guard = ctx.play_blocks
    return JSONResponse({**_json(await guard.blocks.get(player.player_id, guard.now_ms())),
                         **await limits_json(ctx, player.player_id)})


def _length(data: dict[str, Any], offered: dict[str, int]) -> str:
    length = data.get("length")
    if not isinstance(length, str) or length not in offered:
        message = f"length must be one of {', '.join(offered)}, not {length!r}"[:300]
        raise ApiError(400, "INVALID_FIELD", message, extra={"field": "length"})
    return length


async def _start(request: Request, kind: BlockKind) -> Response:
    data = await json_body(request)  # first: a refusal before the body is read can drop the connection
    player = await current_player(request)
    ctx = context_of(request)
    await ctx.rate_limits.check_account(Limit.ACCOUNT_SETTINGS, player.player_id)
    if kind is BlockKind.BREAK:
        only_fields(data, {"length"})
        length = _length(data, BREAK_LENGTHS)
    else:
        only_fields(data, {"length", "confirm"})
        length = _length(data, EXCLUSION_LENGTHS)
        if data.get("confirm") is not True:
            raise ApiError(400, "CONFIRM_REQUIRED", "a self-exclusion cannot be undone or shortened: send "
                           "\"confirm\": true to start it", extra={"field": "confirm"})
    guard = ctx.play_blocks
    try:
        block = await guard.blocks.start(player.player_id, kind, length, guard.now_ms())
    except AlreadyBlocked as exc:
        raise ApiError(409, exc.code, exc.message, extra=dict(exc.fields)) from None
    await guard.stand_up_everywhere(player.player_id, block)
    return JSONResponse(_json(block))


async def start_break(request: Request) -> Response:
    return await _start(request, BlockKind.BREAK)


async def start_exclusion(request: Request) -> Response:
    return await _start(request, BlockKind.EXCLUSION)


async def operator_player_block(request: Request) -> Response:
    ctx = await require_operator(request)
    player_id = request.path_params["player_id"]
    if await ctx.accounts.get(player_id) is None:
        raise ApiError(404, "PLAYER_NOT_FOUND", f"no player {player_id!r}")
    guard = ctx.play_blocks
    shown = await PlaySessions(ctx.redis).checks_shown(player_id)  # reality checks shown
    return JSONResponse({"player_id": player_id, **_json(await guard.blocks.get(player_id, guard.now_ms())),
                         **await limits_json(ctx, player_id, operator=True), "checks_shown": shown})


async def operator_blocks(request: Request) -> Response:
    ctx = await require_operator(request)
    only_fields(dict(request.query_params), frozenset())
    found = await ctx.play_blocks.blocks.listing(ctx.play_blocks.now_ms())
    names = await ctx.accounts.names(player_id for player_id, _ in found)
    return JSONResponse({"blocks": [{"player_id": player_id, "player_name": names.get(player_id),
                                     **block.to_json()} for player_id, block in found]})


def routes() -> list[BaseRoute]:
    """Before ``operator.routes()``: ``/players/{id}/responsible-play`` must win over its
    ``/players/{id}/{direction}`` (a POST there still reaches that route, which knows no such direction)."""
    return [
        Route("/api/account/responsible-play", my_block, methods=["GET"]),
        Route("/api/account/responsible-play", set_limits, methods=["PUT"]),
        Route("/api/account/break", start_break, methods=["POST"]),
        Route("/api/account/exclusion", start_exclusion, methods=["POST"]),
        Route("/api/operator/players/{player_id}/responsible-play", operator_player_block, methods=["GET"]),
        Route("/api/operator/responsible-play/blocks", operator_blocks, methods=["GET"]),
    ]
