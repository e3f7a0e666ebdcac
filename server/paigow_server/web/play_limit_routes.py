"""A player's limits over HTTP (docs/http-api.md, "Limits"; the rules: store/play_limits.py).

``GET /api/account/responsible-play`` answers, beside ``block``, ``limits``, ``pending``,
``reality_check_minutes``, ``session``, ``used``, ``room``, ``periods`` and ``sit_paused_until_ms``
(``limits_json``). ``PUT
/api/account/responsible-play {"limits": {name: cents|minutes|null}, "reality_check_minutes": m|null}``
changes them by the tighten-now / loosen-later rule and answers the same JSON; it counts against the
account's ``account_settings_per_minute`` (a refused one too); a bad name or value is ``400`` naming the
field, nothing changed.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from paigow_server.store.play_limits import check_limit_value
from paigow_server.web.api import ApiError, json_body, only_fields
from paigow_server.web.context import AppContext, context_of
from paigow_server.web.rate_limits import Limit
from paigow_server.web.session_routes import current_player

__all__ = ["limits_json", "set_limits"]

_PLAYER_FIELDS = ("limits", "pending", "reality_check_minutes", "session", "used", "room", "periods")


async def limits_json(ctx: AppContext, player_id: str, *, operator: bool = False) -> dict[str, Any]:
    """The limits part of the responsible-play JSON (an operator's view adds ``limits_hit`` and
    ``time_hit_ms``)."""
    guard = ctx.play_limits
    status = await guard.limits.status(player_id, guard.now_ms())
    names = (*_PLAYER_FIELDS, "limits_hit", "time_hit_ms") if operator else _PLAYER_FIELDS
    return {**{name: status[name] for name in names}, "sit_paused_until_ms": _paused_until(ctx, status)}


def _paused_until(ctx: AppContext, status: dict[str, Any]) -> int | None:
    """When the pause after a session time limit ends (sitting is refused ``TIME_LIMIT_REACHED`` until then,
    ``PlayRisk``'s sit check), or None when no pause is running."""
    hit = status["time_hit_ms"]
    guard = ctx.play_limits
    until = None if hit is None else hit + guard.risk.pause_ms
    return until if until is not None and until > guard.now_ms() else None


def _bad(field: str, message: str) -> ApiError:
    return ApiError(400, "INVALID_FIELD", message[:300], extra={"field": field[:100]})


def _changes(data: dict[str, Any]) -> dict[str, int | None]:
    limits = data.get("limits", {})
    if not isinstance(limits, dict):
        raise _bad("limits", "limits must be an object of limit name -> value or null")
    for name, value in limits.items():
        problem = check_limit_value(str(name), value)
        if problem is not None:
            raise _bad(f"limits.{name}", problem)
    return {str(name): value for name, value in limits.items()}


def _reality_check(data: dict[str, Any]) -> int | str | None:
    if "reality_check_minutes" not in data:
        return ""
    value = data["reality_check_minutes"]
    if value is None or (type(value) is int and (value == 0 or 5 <= value <= 1440)):
        return value
    raise _bad("reality_check_minutes", "reality_check_minutes must be null (the default), 0 (off) or "
               "5..1440 minutes")


async def set_limits(request: Request) -> Response:
    data = await json_body(request)
    player = await current_player(request)
    ctx = context_of(request)
    await ctx.rate_limits.check_account(Limit.ACCOUNT_SETTINGS, player.player_id)
    only_fields(data, {"limits", "reality_check_minutes"})
    changes = _changes(data)
    check = _reality_check(data)
    guard = ctx.play_limits
    await guard.limits.set(player.player_id, changes, guard.now_ms(), reality_check=check)
    await guard.refresh(player.player_id)
    block = await ctx.play_blocks.blocks.get(player.player_id, ctx.play_blocks.now_ms())
    return JSONResponse({"block": None if block is None else block.to_json(),
                         **await limits_json(ctx, player.player_id)})
