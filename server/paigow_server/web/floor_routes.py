"""``GET /api/operator/floor``: the floor view's figures (docs/floor.md, docs/http-api.md "Floor").

An operator's read, let in as every ``/api/operator`` GET (``require_operator``: the bootstrap token or an
operator session), not audited (no read is). Query: ``window`` (``hour``, ``today``, ``7d``, ``30d``; the
default ``today``) or ``from`` and ``to`` (ms), ``table`` (one table; 404 ``TABLE_NOT_FOUND`` for an
unknown id), ``format`` (``json``, the default, or ``csv``: the series, one row per bucket). A bad
parameter is a 400 ``INVALID_FIELD`` naming it (``UNKNOWN_FIELD`` for one it does not take).

Cost per call: one pipelined ``HGETALL`` per bucket (at most 1,440: a window just under a day read by the
minute; 31 for ``30d``, 169 for ``7d``, 61 for ``hour``), and for the deployment's list of tables one per
piece of the window (``floor_view.table_pieces``: whole days, hours, then minutes; 31 for ``30d``, at most
about 30 for ``7d``, 60 for ``hour``), the table list and each table's ``version`` (two reads), and the
state of each table whose version changed since this process last answered (the "now" figures:
``_NowCache``).
"""

from __future__ import annotations

import csv
import io
import time
from dataclasses import dataclass, field
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from paigow.table.state import PLAYER_SEATS, TableState
from paigow_server.store.floor_stats import FloorStats
from paigow_server.web.api import ApiError, only_fields
from paigow_server.web.context import AppContext
from paigow_server.web.floor_view import (
    SERIES_FIELDS,
    series,
    table_pieces,
    tables,
    totals,
    window_of,
)
from paigow_server.web.operator_gate import require_operator

__all__ = ["routes"]

_PARAMS = frozenset({"window", "from", "to", "table", "format"})


@dataclass(frozen=True, slots=True)
class _TableNow:
    name: str
    seats_occupied: int
    players_online: int


@dataclass(slots=True)
class _NowCache:
    """What the "now" figures need of each table, kept per version: a state is parsed again only when its
    table's version changed."""

    tables: dict[str, tuple[int, _TableNow]] = field(default_factory=dict)

    async def read(self, ctx: AppContext) -> dict[str, _TableNow]:
        ids = await ctx.tables.list_ids()
        versions = await ctx.tables.shown.versions(ids)
        stale = [t for t, v in zip(ids, versions, strict=True)
                 if v is not None and self.tables.get(t, (None,))[0] != v]
        for state in await ctx.tables.shown.load_many(stale) if stale else []:
            if state is not None:
                self.tables[state.table_id] = (state.version, _now_of(state))
        known = {t for t, v in zip(ids, versions, strict=True) if v is not None}
        for gone in set(self.tables) - known:
            del self.tables[gone]
        return {t: now for t, (_, now) in self.tables.items()}


def _now_of(state: TableState) -> _TableNow:
    seated = [state.seats[p] for p in PLAYER_SEATS if state.seats[p] is not None]
    return _TableNow(state.name, len(seated), sum(1 for s in seated if s is not None and not s.away))


def _cache(request: Request) -> _NowCache:
    cache = getattr(request.app.state, "floor_now", None)
    if not isinstance(cache, _NowCache):
        cache = request.app.state.floor_now = _NowCache()
    return cache


def _now_json(ctx: AppContext, now: dict[str, _TableNow], table_id: str | None) -> dict[str, int]:
    chosen = {t: n for t, n in now.items() if table_id is None or t == table_id}
    return {"tables_open": len(chosen), "players_online": sum(n.players_online for n in chosen.values()),
            "spectators_online": sum(ctx.spectators.count(t) for t in chosen),
            "seats_occupied": sum(n.seats_occupied for n in chosen.values()),
            "seats_total": len(PLAYER_SEATS) * len(chosen)}


def _csv(points: list[dict[str, Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(SERIES_FIELDS)
    for point in points:
        writer.writerow(["" if point[name] is None else point[name] for name in SERIES_FIELDS])
    return out.getvalue()


async def floor(request: Request) -> Response:
    ctx = await require_operator(request)
    params = dict(request.query_params)
    only_fields(params, _PARAMS)
    chosen = params.get("format", "json")
    if chosen not in ("json", "csv"):
        raise ApiError(400, "INVALID_FIELD", f"format={chosen[:40]!r} must be json or csv",
                       extra={"field": "format"})
    now_ms = time.time_ns() // 1_000_000
    window = window_of(params, now_ms)  # WindowError: 400 naming the parameter
    table_id = params.get("table") or None
    now = await _cache(request).read(ctx)
    if table_id is not None and table_id not in now:
        raise ApiError(404, "TABLE_NOT_FOUND", f"no table {table_id[:100]!r}")
    stats = FloorStats(ctx.redis)
    [buckets] = await stats.buckets(window.resolution, window.starts, [table_id])
    points = series(buckets, window)
    if chosen == "csv":
        name = f"floor-{table_id or 'all'}-{window.from_ms}-{window.to_ms}.csv"
        return Response(_csv(points), media_type="text/csv; charset=utf-8",
                        headers={"Content-Disposition": f'attachment; filename="{name}"'})
    body: dict[str, Any] = {
        "from_ms": window.from_ms, "to_ms": window.to_ms, "bucket_ms": window.resolution.size_ms,
        "table": table_id, "timezone": "UTC", "totals": totals(buckets, window),
        "now": _now_json(ctx, now, table_id), "series": points,
        "tables": [] if table_id is not None else tables(await stats.table_figures(table_pieces(window)),
                                                         {t: n.name for t, n in now.items()}),
    }
    return JSONResponse(body)


def routes() -> list[BaseRoute]:
    return [Route("/api/operator/floor", floor, methods=["GET"])]
