"""The downloads of a home game (docs/http-api.md, "Home games"): ``GET /api/home/tables/{id}/ledger`` and
``GET /api/home/tables/{id}/hands``, each ``?format=json`` (the default) or ``csv``.

Who may: any player the game admitted with no bar running there (``private_access``), while it is open and
after it closed; everyone else, a public id and an unknown one get the unknown table's ``404``, after the
same reads. In this order, as ``GET /api/tables/{id}/rounds``: a bad ``format`` (``400 INVALID_FIELD``),
the address network's ``round_reads_per_minute`` (``429``), the token (``401``), the access (``404``).
Each answer is an attachment (``Content-Disposition``); a process keeps the encoded answer of each table
and download while the table's version holds (``rounds_cache``; up to ``KEPT_MAX_BYTES``), so a read of a
closed game's ledger costs one version lookup.
"""

from __future__ import annotations

import json

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from paigow.table.state import TableState
from paigow_server.store.history import HOME_ROUNDS_KEPT, History
from paigow_server.web.api import ApiError, only_fields
from paigow_server.web.context import AppContext, context_of
from paigow_server.web.home_exports import download_name, hand_log, hands_csv, ledger_csv, ledger_json
from paigow_server.web.home_gate import is_private_id
from paigow_server.web.private_access import no_table, require_access
from paigow_server.web.rate_limits import Limit
from paigow_server.web.session_routes import current_player

__all__ = ["routes"]

FORMATS = {"json": "application/json", "csv": "text/csv; charset=utf-8"}
KEPT_MAX_BYTES = 512 * 1024
"""A download larger than this (a long game's hand log: about 3.6 kB a round) is made again at each read
rather than kept: the process keeps at most ``rounds_cache.MAX_ENTRIES`` answers."""


def _format(request: Request) -> str:
    only_fields(dict(request.query_params), {"format"})
    chosen = request.query_params.get("format", "json")
    if chosen not in FORMATS:
        raise ApiError(400, "INVALID_FIELD", f"format={chosen!r} must be json or csv"[:300],
                       extra={"field": "format"})
    return chosen


async def _game(request: Request) -> tuple[AppContext, TableState, str]:
    """The table of the path for a player it admitted, and the format asked for."""
    ctx = context_of(request)
    table_id = request.path_params["table_id"]
    chosen = _format(request)
    await ctx.rate_limits.check(request, Limit.ROUND_READS)
    player = await current_player(request)
    if not is_private_id(table_id):
        raise no_table(table_id)
    await require_access(ctx, table_id, player.player_id)
    state = await ctx.tables.shown.load(table_id)
    if state is None or state.home is None:
        raise no_table(table_id)
    return ctx, state, chosen


def _attachment(body: bytes, chosen: str, filename: str) -> Response:
    return Response(body, media_type=FORMATS[chosen],
                    headers={"Content-Disposition": f'attachment; filename="{filename}"'})


async def _download(request: Request, what: str) -> Response:
    ctx, state, chosen = await _game(request)
    table_id = state.table_id
    key = f"{what}.{chosen}"
    filename = download_name(state, what, chosen)
    kept = ctx.rounds_cache.get(table_id, key, state.version)
    if kept is not None:
        return _attachment(kept, chosen, filename)
    if what == "hands":
        body, final = await _hands(ctx, state, chosen)
    else:
        body, final = (ledger_csv(state) if chosen == "csv" else _json(ledger_json(state))).encode(), True
    final = final and len(body) <= KEPT_MAX_BYTES
    if final and await ctx.tables.shown.version(table_id) == state.version:  # nothing settled meanwhile
        ctx.rounds_cache.keep(table_id, key, state.version, body)
    return _attachment(body, chosen, filename)


def _json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


async def _hands(ctx: AppContext, state: TableState, chosen: str) -> tuple[bytes, bool]:
    """The hand log's body, and whether it may be kept for the table's version: not while its newest
    round's time is not written yet (it is written just after the settling commit)."""
    records = await ctx.tables.shown.table_rounds(state.table_id, HOME_ROUNDS_KEPT + 1)
    times = await History(ctx.tables.redis).round_times(state.table_id)
    log = hand_log(state, records, times, HOME_ROUNDS_KEPT)
    final = all(entry["settled_ms"] is not None for entry in log["rounds"][-1:])
    return (hands_csv(log) if chosen == "csv" else _json(log)).encode(), final


async def ledger_download(request: Request) -> Response:
    return await _download(request, "ledger")


async def hands_download(request: Request) -> Response:
    return await _download(request, "hands")


def routes() -> list[BaseRoute]:
    return [
        Route("/api/home/tables/{table_id}/ledger", ledger_download, methods=["GET"]),
        Route("/api/home/tables/{table_id}/hands", hands_download, methods=["GET"]),
    ]
