"""Free top-ups over HTTP (docs/http-api.md, "Free top-ups"); the rules and the money are ``store.top_ups``.

``GET /api/top-up`` (the player's bearer token): the **top-up JSON**, whether a top-up may be taken now,
and if not why and from when (the lobby's panel). ``POST /api/top-up`` (no body, or ``{}``): takes it,
``200 {"amount_cents", "balance_cents", "top_up"}``; a refusal changes nothing and names why, its body
carrying ``top_up`` too: ``409 TOP_UPS_OFF``, ``409 TOP_UP_NOT_NEEDED``, ``409 TOP_UP_AT_TABLE``,
``429 TOP_UP_TOO_SOON`` and ``429 RATE_LIMITED`` (the address network's daily allowance), both with
``next_ms`` and ``Retry-After``. The network is the one every per-address limit counts
(``RateLimits.client_network``).
"""

from __future__ import annotations

import time

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from paigow_server.store.top_ups import TopUpReason, TopUpStatus, TopUpTaken
from paigow_server.web.api import ApiError, json_body, only_fields, retry_after
from paigow_server.web.context import context_of
from paigow_server.web.play_checks import refuse_blocked_http
from paigow_server.web.session_routes import current_player

__all__ = ["REFUSALS", "routes"]

REFUSALS: dict[TopUpReason, tuple[int, str]] = {
    TopUpReason.OFF: (409, "TOP_UPS_OFF"),
    TopUpReason.NOT_NEEDED: (409, "TOP_UP_NOT_NEEDED"),
    TopUpReason.AT_TABLE: (409, "TOP_UP_AT_TABLE"),
    TopUpReason.TOO_SOON: (429, "TOP_UP_TOO_SOON"),
    TopUpReason.NETWORK_LIMIT: (429, "RATE_LIMITED"),
}
"""Each refusal's status and error code."""


def _gone(player_id: str) -> ApiError:
    return ApiError(404, "PLAYER_NOT_FOUND", f"no player {player_id!r}")


def refusal(status: TopUpStatus) -> ApiError:
    """The error answer of a refused top-up: its code, the reason in words, ``top_up`` (and ``next_ms`` with
    ``Retry-After`` when it is a matter of time)."""
    assert status.reason is not None
    http_status, code = REFUSALS[status.reason]
    extra: dict[str, object] = {"top_up": status.to_json()}
    if status.next_ms is None:
        return ApiError(http_status, code, status.detail, extra=extra)
    error = retry_after(http_status, code, status.detail,
                        (status.next_ms - _now_ms()) / 1000)
    error.extra.update({**extra, "next_ms": status.next_ms})
    return error


def _now_ms() -> int:
    return time.time_ns() // 1_000_000


async def top_up_status(request: Request) -> Response:
    player = await current_player(request)
    ctx = context_of(request)
    status = await ctx.top_ups.status(player.player_id, ctx.rate_limits.client_network(request))
    if status is None:
        raise _gone(player.player_id)
    return JSONResponse(status.to_json())


async def take_top_up(request: Request) -> Response:
    ctx = context_of(request)
    data = await json_body(request)  # first: a refusal sent before the body is read can drop the connection
    player = await current_player(request)
    only_fields(data, frozenset())  # no body, or {}
    await refuse_blocked_http(ctx.play_blocks, player.player_id)
    taken = await ctx.top_ups.take(player.player_id, ctx.rate_limits.client_network(request))
    if taken is None:
        raise _gone(player.player_id)
    if not isinstance(taken, TopUpTaken):
        raise refusal(taken)
    return JSONResponse({"amount_cents": taken.amount_cents, "balance_cents": taken.status.balance_cents,
                         "top_up": taken.status.to_json()})


def routes() -> list[BaseRoute]:
    return [
        Route("/api/top-up", top_up_status, methods=["GET"]),
        Route("/api/top-up", take_top_up, methods=["POST"]),
    ]
