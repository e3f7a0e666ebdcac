"""``GET /api/operator/second-looks?window=7d|30d|today|hour&limit=50``: the play that needs a second look
(docs/floor.md, "Second looks"; the contract: docs/http-api.md, "Second looks (operator)").

Behind the operator's bearer token like every operator GET (``require_operator``; a read, not audited).
``window`` (default ``7d``) and ``limit`` (1..100, default 50) are checked before anything is read: a bad one
is ``400 INVALID_FIELD`` naming it, another parameter ``400 UNKNOWN_FIELD``. Each row names the rounds
behind it (``round_ids``, and ``round_links``: each with its table, newest first); an operator opens one
as a table's round is opened: ``GET /api/tables/{table_id}/rounds?limit=100`` holds the table's last 100
records (each checks on the verify page, ``/verify/?round=&seed=...``, as the table page's history links
it), and ``GET /api/operator/history/export?table_id=&player_id=`` every one. A flag is a reason to look,
never an action: nothing here changes anything.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from paigow_server.store.networks import NetworkSightings
from paigow_server.store.pair_watch import WINDOWS, buckets_at
from paigow_server.store.second_looks import THRESHOLD_Z, RoundRef, SecondLooks, window_start_ms
from paigow_server.web.api import ApiError, only_fields
from paigow_server.web.operator_gate import require_operator

__all__ = ["DEFAULT_LIMIT", "MAX_LIMIT", "routes"]

DEFAULT_LIMIT = 50
MAX_LIMIT = 100
METHOD = "docs/floor.md#second-looks"
_DIGITS = re.compile(r"[0-9]{1,4}")


def _params(request: Request) -> tuple[str, int]:
    query = dict(request.query_params)
    only_fields(query, {"window", "limit"})
    window = query.get("window", "7d")
    if window not in WINDOWS:
        raise ApiError(400, "INVALID_FIELD",
                       f"window must be one of {', '.join(WINDOWS)}, not {window[:40]!r}",
                       extra={"field": "window"})
    text = query.get("limit", str(DEFAULT_LIMIT))
    limit = int(text) if _DIGITS.fullmatch(text) else 0
    if not 1 <= limit <= MAX_LIMIT:
        raise ApiError(400, "INVALID_FIELD", f"limit must be a whole number from 1 to {MAX_LIMIT}, not "
                       f"{text[:20]!r}", extra={"field": "limit"})
    return window, limit


def _rounds(refs: Iterable[RoundRef]) -> dict[str, Any]:
    listed = list(refs)
    return {"round_ids": [r.round_id for r in listed],
            "round_links": [{"table_id": r.table_id, "round_id": r.round_id, "settled_ms": r.settled_ms}
                       for r in listed]}


async def second_looks(request: Request) -> Response:
    ctx = await require_operator(request)
    window, limit = _params(request)
    now_ms = time.time_ns() // 1_000_000
    looks = SecondLooks(ctx.redis)
    pairs = await looks.pairs(window, now_ms, limit=limit)
    fouls = await looks.fouls(window, now_ms, limit=limit)
    since = window_start_ms(window, buckets_at(now_ms))
    networks = await NetworkSightings(ctx.redis).shared(since, limit=limit)
    names = await ctx.accounts.names([*(p.banker_id for p in pairs), *(p.player_id for p in pairs),
                                      *(f.banker_id for f in fouls), *(f.player_id for f in fouls),
                                      *(p for n in networks for p in n.players)])
    return JSONResponse({
        "window": window, "from_ms": since, "to_ms": now_ms,
        "pairs": [{"banker_id": p.banker_id, "banker_name": names.get(p.banker_id),
                   "player_id": p.player_id, "player_name": names.get(p.player_id), "rounds": p.rounds,
                   "hands": p.hands, "flow_cents": p.flow_cents,
                   "expected_flow_cents": round(p.expected_cents), "expected_sd_cents": round(p.sd_cents),
                   "z": round(p.z, 2), **_rounds(p.round_refs)} for p in pairs],
        "fouls": [{"player_id": f.player_id, "player_name": names.get(f.player_id),
                   "banker_id": f.banker_id, "banker_name": names.get(f.banker_id), "hands": f.hands,
                   "fouls": f.fouls, "foul_rate": round(f.fouls / f.hands, 4),
                   "base_rate": round(f.other_fouls / f.other_hands, 4) if f.other_hands else None,
                   "base_hands": f.other_hands, "z": round(f.z, 2), **_rounds(f.round_refs)} for f in fouls],
        "shared_networks": [{"network": n.network,
                             "players": [{"player_id": p, "player_name": names.get(p)} for p in n.players],
                             "tables": list(n.tables),
                             **_rounds(RoundRef(ms, t, r) for ms, t, r in n.round_refs)} for n in networks],
        "threshold_z": THRESHOLD_Z, "method": METHOD,
    })


def routes() -> list[BaseRoute]:
    return [Route("/api/operator/second-looks", second_looks, methods=["GET"])]
