"""Kicking a player, with a reason and an optional bar from the table, and the bars the console lists and
lifts: ``POST /api/operator/tables/{id}/kick``, ``GET /api/operator/bars``,
``DELETE /api/operator/tables/{id}/bars/{player_id}``.

A kick with ``bar_minutes`` bars the player before the kick goes to the table, so there is no moment in
which the kicked player could sit again; a kick the table refuses (``NOT_SEATED``...) leaves the bars as
they were. The bar itself is ``store.bars``; the table connection enforces it (``web/ws.py``).
"""

from __future__ import annotations

import time
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from paigow.table.commands import Kick
from paigow_server.store.bars import Bar
from paigow_server.web.api import ApiError, json_body, only_fields, str_field
from paigow_server.web.barred import utc_text
from paigow_server.web.context import AppContext
from paigow_server.web.operator import execute
from paigow_server.web.operator_gate import actor_of, audited, require_operator
from paigow_server.web.reasons import reason_of

__all__ = ["MAX_BAR_MINUTES", "routes"]

MAX_BAR_MINUTES = 10_080
"""A bar lasts at most a week."""


def _now_ms() -> int:
    return time.time_ns() // 1_000_000


def _bar_minutes(data: dict[str, Any]) -> int | None:
    value = data.get("bar_minutes")
    if value is None:
        return None
    if type(value) is not int or not 1 <= value <= MAX_BAR_MINUTES:
        raise ApiError(400, "INVALID_FIELD", f"bar_minutes={value!r}: must be a whole number of minutes "
                                             f"from 1 to {MAX_BAR_MINUTES:,} (a week), or null for no bar")
    return value


async def kick(request: Request) -> Response:
    ctx = await require_operator(request)
    table_id = request.path_params["table_id"]
    data = await json_body(request)
    player_id = data.get("player_id") if isinstance(data.get("player_id"), str) else None

    async def run() -> dict[str, Any]:
        only_fields(data, {"player_id", "reason", "bar_minutes"})
        target = str(str_field(data, "player_id"))
        reason = reason_of(data, "a kick")
        minutes = _bar_minutes(data)
        if minutes is None:
            return {**await execute(request, table_id, Kick(target)), "barred_until_ms": None}
        now = _now_ms()
        bar = Bar(table_id, target, now + minutes * 60_000, now, actor_of(request), reason)
        earlier = await ctx.bars.get(table_id, target)
        await ctx.bars.put(bar)  # first: the kicked player cannot sit again in between
        try:
            answer = await execute(request, table_id, Kick(target, barred_until_ms=bar.until_ms))
        except ApiError:
            await (ctx.bars.lift(table_id, target) if earlier is None else ctx.bars.put(earlier))
            raise
        return {**answer, "barred_until_ms": bar.until_ms}

    def describe(result: dict[str, Any]) -> str:
        until = result["barred_until_ms"]
        barred = "" if until is None else f"; barred from the table until {utc_text(until)}"
        return f"version {result['version']}{barred}"

    return await audited(request, "kick", run, table_id=table_id, player_id=player_id, params=data,
                         describe=describe)


async def _bar_json(ctx: AppContext, bars: list[Bar]) -> list[dict[str, Any]]:
    """Each bar with the player's display name and the table's name beside their ids."""
    names = await ctx.accounts.names(bar.player_id for bar in bars)
    tables = {table_id: await ctx.tables.load(table_id) for table_id in {bar.table_id for bar in bars}}
    out = []
    for bar in bars:
        state = tables[bar.table_id]
        out.append({**bar.to_json(), "player_name": names.get(bar.player_id),
                    "table_name": None if state is None else state.name})
    return out


async def list_bars(request: Request) -> Response:
    ctx = await require_operator(request)
    only_fields(dict(request.query_params), {"table_id"})
    table_id = request.query_params.get("table_id") or None
    bars = await ctx.bars.active(_now_ms(), table_id=table_id)
    return JSONResponse({"bars": await _bar_json(ctx, bars)})


async def lift_bar(request: Request) -> Response:
    ctx = await require_operator(request)
    table_id, player_id = request.path_params["table_id"], request.path_params["player_id"]

    async def run() -> dict[str, Any]:
        only_fields(await json_body(request), frozenset())  # no body, or {}
        lifted = await ctx.bars.lift(table_id, player_id)
        if lifted is None:
            raise ApiError(404, "BAR_NOT_FOUND",
                           f"player {player_id!r} is not barred from table {table_id!r}")
        return {"table_id": table_id, "player_id": player_id, "lifted": lifted.to_json()}

    return await audited(request, "lift_bar", run, table_id=table_id, player_id=player_id)


def routes() -> list[BaseRoute]:
    """Before ``operator.routes()``: ``/tables/{id}/kick`` must win over ``/tables/{id}/{action}``."""
    base = "/api/operator"
    return [
        Route(f"{base}/tables/{{table_id}}/kick", kick, methods=["POST"]),
        Route(f"{base}/tables/{{table_id}}/bars/{{player_id}}", lift_bar, methods=["DELETE"]),
        Route(f"{base}/bars", list_bars, methods=["GET"]),
    ]
