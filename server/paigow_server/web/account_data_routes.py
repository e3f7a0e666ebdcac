"""A player's own data over HTTP (the contract: docs/http-api.md, "Your data").

``GET /api/account/data`` with the bearer token (a guest's too) answers everything the store holds about
the token's player (``store.account_data``) as one JSON attachment, ``paigow-data-<date>.json``. Only the
session's own player: the route takes no player id. In this order: the token (``401``), the process's
queue (``503 BUSY`` with ``Retry-After`` when ``WAITING_MAX`` downloads already wait: not counted), the
account's ``data_downloads_per_hour`` (``429 RATE_LIMITED`` with ``Retry-After``; a refused request reads
none of the player's data), then the reading, at most ``AT_ONCE`` downloads at a time in a process (the
others wait their turn), since one reads the ledger, audit and rounds streams whole.
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
from paigow_server.web.api import ApiError, retry_after
from paigow_server.web.context import context_of
from paigow_server.web.rate_limits import Limit
from paigow_server.web.session_routes import session_of

__all__ = ["AT_ONCE", "WAITING_MAX", "download_name", "routes"]

AT_ONCE = 2
"""Downloads one process assembles at once."""
WAITING_MAX = 8
"""Downloads that may wait for their turn in one process; past it, ``503 BUSY``."""


def download_name(generated_ms: int) -> str:
    """The attachment's file name: ``paigow-data-2026-12-06.json`` (the UTC date it was made)."""
    return f"paigow-data-{datetime.fromtimestamp(generated_ms / 1000, UTC):%Y-%m-%d}.json"


def routes() -> list[BaseRoute]:
    turns = asyncio.Semaphore(AT_ONCE)
    asked = 0
    """Downloads running or waiting in this process."""

    async def my_data(request: Request) -> Response:
        nonlocal asked
        _, player, _ = await session_of(request)
        ctx = context_of(request)
        if asked >= AT_ONCE + WAITING_MAX:
            raise retry_after(503, "BUSY", "too many data downloads are being made here: send it again", 5)
        asked += 1
        try:
            await ctx.rate_limits.check_account(Limit.DATA_DOWNLOADS, player.player_id)
            async with turns:
                now_ms = time.time_ns() // 1_000_000
                data = await AccountData(ctx.redis).collect(player.player_id, now_ms)
        finally:
            asked -= 1
        if data is None:
            raise ApiError(401, "UNKNOWN_SESSION", "this session's player no longer exists")
        body = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
        return Response(body, media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="{download_name(now_ms)}"'})

    return [Route("/api/account/data", my_data, methods=["GET"])]
