"""The public JSON API: the table list, a table's last rounds and a player's hand history.

``GET /api/tables`` -> ``{"tables": [summary...]}`` (every table, oldest first);
``GET /api/tables/{id}`` -> one summary (404 ``TABLE_NOT_FOUND``, also for every private table);
``GET /api/tables/{id}/rounds?limit=N`` -> ``{"table_id", "rounds": [record...]}``, the public records of
the table's last N settled rounds (default 10, 1..100; voided rounds are not listed), newest first, each
the ``record`` of its ``round_settled`` event (400 ``INVALID_FIELD``; 404 ``TABLE_NOT_FOUND``, also for a
private table the caller may not see: ``private_access``; 429 ``RATE_LIMITED`` past ``round_reads_per_minute``
per address network); the encoded answer is kept while the table's version holds (``rounds_cache``);
``GET /api/players/me/history`` (``Authorization: Bearer <session token>``) -> ``{"player_id", "hands",
"sessions"}``, the player's last 10 settled hands, newest first, each with its ``total_net_cents`` (from
its parts for an entry stored before the field) and its ``analysis`` (null until analysed), and their
sessions with the coach's score (``hand_sessions``).
"""

from __future__ import annotations

import re
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from paigow.ledger.effects import history_total_cents
from paigow.table.state import PLAYER_SEATS, TableState
from paigow_server.store.history import TABLE_ROUNDS_KEPT
from paigow_server.web.api import ApiError
from paigow_server.web.context import SpectatorCounter, context_of
from paigow_server.web.hand_sessions import sessions_of
from paigow_server.web.home_gate import is_private_id
from paigow_server.web.private_access import check_private_access, no_table
from paigow_server.web.rate_limits import Limit
from paigow_server.web.session_routes import current_player

__all__ = ["DEFAULT_ROUNDS", "routes", "table_summary"]

DEFAULT_ROUNDS = 10
"""Rounds ``GET /api/tables/{id}/rounds`` answers without ``limit``."""
_DIGITS = re.compile(r"[0-9]{1,9}")


def table_summary(state: TableState, spectators: SpectatorCounter) -> dict[str, Any]:
    taken = sum(1 for position in PLAYER_SEATS if state.seats[position] is not None)
    bonuses = state.round.bonuses if state.round is not None else ()
    rules = state.rules
    return {
        "table_id": state.table_id,
        "name": state.name,
        "phase": str(state.phase),
        "paused": state.paused,
        "closing": state.closing,
        "version": state.version,
        "seats_taken": taken,
        "seats": len(PLAYER_SEATS),
        "min_bet_cents": rules.min_bet_cents,
        "max_bet_cents": rules.max_bet_cents,
        "commission_bps": rules.commission_bps,
        "fortune_enabled": rules.fortune_enabled,
        "fortune_pay_table": rules.fortune_pay_table if rules.fortune_enabled else None,
        "bonus_bets": len(bonuses),
        "bonus_bets_cents": sum(b.amount_cents for b in bonuses),
        "commission_form": str(rules.commission_form),
        "queens_dragon_enabled": rules.queens_dragon_enabled,
        "dragon_enabled": rules.dragon_enabled,
        "dragon_set_by": str(rules.dragon_set_by) if rules.dragon_enabled else None,
        "co_banking": rules.co_banking,
        "player_banking": rules.player_banking,
        "players_bank_in_turn": rules.players_bank_in_turn,
        "round_number": state.round.number if state.round is not None else None,
        "spectators": spectators.count(state.table_id),
        "private": state.home is not None,
        "waiting": len(state.waiting),
    }


async def list_tables(request: Request) -> Response:
    ctx = context_of(request)
    states = await ctx.tables.shown.load_many(await ctx.tables.list_ids())
    return JSONResponse({"tables": [table_summary(s, ctx.spectators) for s in states
                                    if s is not None and s.home is None]})


async def get_table(request: Request) -> Response:
    ctx = context_of(request)
    table_id = request.path_params["table_id"]
    if is_private_id(table_id):  # a private table or none: one answer, nothing read (the invite resolves it)
        raise no_table(table_id)
    state = await ctx.tables.shown.load(table_id)
    if state is None or state.home is not None:
        raise no_table(table_id)
    return JSONResponse(table_summary(state, ctx.spectators))


def _rounds_limit(request: Request) -> int:
    text = request.query_params.get("limit", str(DEFAULT_ROUNDS))
    limit = int(text) if _DIGITS.fullmatch(text) else 0
    if not 1 <= limit <= TABLE_ROUNDS_KEPT:
        raise ApiError(400, "INVALID_FIELD",
                       f"limit={text!r} must be a whole number from 1 to {TABLE_ROUNDS_KEPT}",
                       extra={"field": "limit"})
    return limit


async def table_rounds(request: Request) -> Response:
    ctx = context_of(request)
    table_id = request.path_params["table_id"]
    limit = _rounds_limit(request)
    await ctx.rate_limits.check(request, Limit.ROUND_READS)
    await check_private_access(request, table_id)
    version = await ctx.tables.shown.version(table_id)  # the confirmed one, under replica acknowledgements
    if version is None:
        raise no_table(table_id)
    kept = ctx.rounds_cache.get(table_id, limit, version)
    if kept is not None:
        return Response(kept, media_type="application/json")
    rounds = await ctx.tables.shown.table_rounds(table_id, limit)
    body = bytes(JSONResponse({"table_id": table_id, "rounds": rounds}).body)
    if await ctx.tables.shown.version(table_id) == version:  # no settlement meanwhile: exact for this version
        ctx.rounds_cache.keep(table_id, limit, version, body)
    return Response(body, media_type="application/json")


async def my_history(request: Request) -> Response:
    player = await current_player(request)
    hands = [{**hand, "total_net_cents": hand.get("total_net_cents", history_total_cents(hand)),
              "analysis": hand.get("analysis")}
             for hand in await context_of(request).history.recent(player.player_id)]
    play_sessions = await context_of(request).play_limits.limits.sessions(player.player_id)
    return JSONResponse({"player_id": player.player_id, "hands": hands, "sessions": sessions_of(hands),
                         "play_sessions": play_sessions})


def routes() -> list[BaseRoute]:
    return [
        Route("/api/tables", list_tables, methods=["GET"]),
        Route("/api/tables/{table_id}", get_table, methods=["GET"]),
        Route("/api/tables/{table_id}/rounds", table_rounds, methods=["GET"]),
        Route("/api/players/me/history", my_history, methods=["GET"]),
    ]
