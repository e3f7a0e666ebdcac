"""A player's own data over HTTP (the contract: docs/http-api.md, "Your data").

``GET /api/account/data`` with the bearer token (a guest's too) answers everything the store holds about
the token's player (``store.account_data``) as one JSON attachment, ``paigow-data-<date>.json``. Only the
session's own player: the route takes no player id. In this order: the token (``401``), the account's
``data_downloads_per_hour`` (``429 RATE_LIMITED`` with ``Retry-After``; a refused request reads none of
the player's data), then the reading, at most ``AT_ONCE`` downloads at a time in a process (others wait
their turn), since one reads the ledger, audit and rounds streams whole.
"""

from __future__ import annotations

import asyncio
import json
import time
from datetime import UTC, datetime

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from paigow_server.store.account_data import AccountData
from paigow_server.web.api import ApiError
from paigow_server.web.context import context_of
from paigow_server.web.rate_limits import Limit
from paigow_server.web.session_routes import session_of

__all__ = ["AT_ONCE", "download_name", "routes"]

AT_ONCE = 2
"""Downloads one process assembles at once."""


def download_name(generated_ms: int) -> str:
    """The attachment's file name: ``paigow-data-2026-12-06.json`` (the UTC date it was made)."""
    return f"paigow-data-{datetime.fromtimestamp(generated_ms / 1000, UTC):%Y-%m-%d}.json"


def routes() -> list[BaseRoute]:
    turns = asyncio.Semaphore(AT_ONCE)

    async def my_data(request: Request) -> Response:
        _, player, _ = await session_of(request)
        ctx = context_of(request)
        await ctx.rate_limits.check_account(Limit.DATA_DOWNLOADS, player.player_id)
        async with turns:
            now_ms = time.time_ns() // 1_000_000
            data = await AccountData(ctx.redis).collect(player.player_id, now_ms)
        if data is None:
            raise ApiError(401, "UNKNOWN_SESSION", "this session's player no longer exists")
        body = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
        return Response(body, media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="{download_name(now_ms)}"'})

    return [Route("/api/account/data", my_data, methods=["GET"])]
