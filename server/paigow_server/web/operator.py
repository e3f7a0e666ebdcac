"""The operator API, ``/api/operator/...``, behind ``Authorization: Bearer <operator token>``.

Table actions are table commands executed through the same ``TableService`` as the players' (so they
obey the same compare-and-set and rules); money actions go through ``Accounts``. Every action, refused or
not, is written to the audit log. Responses are JSON; errors are ``{"error": CODE, "message": ...}``.
"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from paigow.rules.house_rules import HouseRules, HouseRulesError
from paigow.table.commands import (
    ChangeLimits,
    ChangeRules,
    ChangeTimers,
    CloseTable,
    Command,
    OpenTable,
    PauseTable,
    ResumeTable,
    VoidRound,
)
from paigow.table.rejections import Rejection
from paigow.table.state import TableState, Timers, TimersError, new_table
from paigow.table.views import OperatorViewer, view_for
from paigow_server.errors import ServerError, http_error
from paigow_server.store import keys
from paigow_server.store.accounts import (
    MAX_REASON_LENGTH,
    AccountError,
    InsufficientBalanceError,
    UnknownPlayerError,
)
from paigow_server.store.audit import SYSTEM, AuditEntry
from paigow_server.store.client import claim_once
from paigow_server.store.codec import jsonable
from paigow_server.store.errors import StoreUnavailable
from paigow_server.store.hand_analyses import with_analyses
from paigow_server.store.money import money_totals
from paigow_server.store.streams import Page
from paigow_server.web.api import (
    ApiError,
    StoredJSONResponse,
    int_field,
    json_body,
    leading_field,
    only_fields,
    page_params,
)
from paigow_server.web.context import AppContext, realtime_of
from paigow_server.web.http import table_summary
from paigow_server.web.names import InvalidNameError, check_name
from paigow_server.web.operator_gate import actor_of, audited, require_operator
from paigow_server.web.reasons import reason_of

__all__ = ["MAX_TABLE_NAME_LENGTH", "NEW_TABLE_RULES", "execute", "merged_fields", "routes", "table_name"]

log = logging.getLogger("paigow_server.operator")

MAX_TABLE_NAME_LENGTH = 40
_T = TypeVar("_T", HouseRules, Timers)
_RULE_FIELDS = frozenset(f.name for f in dataclasses.fields(HouseRules))
_TIMER_FIELDS = frozenset(f.name for f in dataclasses.fields(Timers))
_LIMIT_FIELDS = frozenset({"min_bet_cents", "max_bet_cents"})
NEW_TABLE_RULES = HouseRules(fortune_enabled=True)
"""The rules a new table starts from (the starter tables', and an operator's new table's beneath the fields
its request gives): the defaults, with the Fortune bonus on, as most casino Pai Gow tables deal it."""
_SIMPLE_COMMANDS: dict[str, Callable[[], Command]] = {
    "open": OpenTable, "close": CloseTable, "pause": PauseTable, "resume": ResumeTable,
}
_KNOWN_ACTIONS = ", ".join([*_SIMPLE_COMMANDS, "void", "kick", "limits", "rules", "timers"])


def _now_ms() -> int:
    return time.time_ns() // 1_000_000


async def execute(request: Request, table_id: str, command: Command) -> dict[str, Any]:
    try:
        executed = await realtime_of(request).service.execute(table_id, command)
    except StoreUnavailable:
        raise  # the app's handler: logged, counted, 503 UNAVAILABLE
    except (Rejection, ServerError) as exc:  # 409 with its RejectCode, or the error's own (errors.py)
        error = http_error(exc)
        if error is None:
            raise
        raise error from None
    return {"table_id": table_id, "version": executed.version, "events": [e.kind for e in executed.events]}


def table_name(raw: object) -> str:
    try:
        return check_name(raw, "name", MAX_TABLE_NAME_LENGTH)
    except InvalidNameError as exc:
        raise ApiError(400, "INVALID_FIELD", str(exc)) from None


def merged_fields(current: _T, changes: object, allowed: frozenset[str], what: str, *,
                  path: str | None = None) -> _T:
    """``changes`` laid over ``current``; a bad value is a ``400 INVALID_FIELD`` with the checker's message.
    With ``path`` (where ``changes`` stand in the body: ``"rules"``, or ``""`` for the body itself) the
    error's ``field`` names the field as its path in the body (``rules.queens_dragon_enabled``), when the
    message starts with the name of one of ``allowed``."""
    if not isinstance(changes, dict):
        raise ApiError(400, "INVALID_FIELD", f"{what} must be a JSON object of fields, not {changes!r}",
                       extra={} if not path else {"field": path})
    only_fields(changes, allowed)
    try:
        return dataclasses.replace(current, **changes)
    except (HouseRulesError, TimersError) as exc:
        name = leading_field(str(exc), allowed) if path is not None else None
        field: dict[str, object] = {} if name is None else {"field": f"{path}.{name}" if path else name}
        raise ApiError(400, "INVALID_FIELD", str(exc), extra=field) from None


# --- tables -----------------------------------------------------------------------------------------
async def open_table(request: Request) -> Response:
    ctx = await require_operator(request)
    data = await json_body(request)

    async def run() -> dict[str, Any]:
        only_fields(data, {"name", "rules", "timers"})
        name = table_name(data.get("name"))
        rules = merged_fields(NEW_TABLE_RULES, data.get("rules", {}), _RULE_FIELDS, "rules", path="rules")
        if rules.players_bank_in_turn:
            raise ApiError(400, "INVALID_FIELD", "rules.players_bank_in_turn: the players bank in turn only "
                           "at a home game, not at a public table",
                           extra={"field": "rules.players_bank_in_turn"})
        base = Timers(reconnect_grace_ms=ctx.settings.grace_seconds * 1000)
        timers = merged_fields(base, data.get("timers", {}), _TIMER_FIELDS, "timers", path="timers")
        state = await create_table(ctx, name, rules, timers)
        return {"table_id": state.table_id, "version": state.version,
                "table": table_summary(state, ctx.spectators)}

    return await audited(request, "open_table", run, params=data, status=201)


async def create_table(ctx: AppContext, name: str, rules: HouseRules, timers: Timers) -> TableState:
    table_id = await ctx.tables.next_id()
    state = new_table(table_id, name, rules, timers)
    if not await ctx.tables.create(state):
        raise ApiError(409, "TABLE_EXISTS", f"table {table_id!r} already exists")
    return state


async def open_starter_tables(ctx: AppContext) -> list[str]:
    """Open ``settings.starter_tables`` tables with the default rules and the Fortune bonus on (as most
    casino Pai Gow tables deal it) when Redis holds none yet, once per Redis (several processes starting
    together open them once), each with an audit entry."""
    count = ctx.settings.starter_tables
    if count == 0 or await ctx.tables.count() > 0:
        return []
    if not await claim_once(ctx.redis, keys.STARTER_TABLES):
        return []
    opened: list[str] = []
    timers = Timers(reconnect_grace_ms=ctx.settings.grace_seconds * 1000)
    for n in range(1, count + 1):
        state = await create_table(ctx, f"Table {n}", NEW_TABLE_RULES, timers)
        await ctx.audit.append(AuditEntry("open_table", _now_ms(), "ok", SYSTEM, table_id=state.table_id,
                                          params={"name": state.name, "starter": True},
                                          detail="opened at start on an empty Redis"))
        opened.append(state.table_id)
    return opened


async def table_action(request: Request) -> Response:
    await require_operator(request)
    table_id, action = request.path_params["table_id"], request.path_params["action"]
    if action not in _SIMPLE_COMMANDS:
        raise ApiError(404, "UNKNOWN_ACTION",
                       f"no table action {action!r}; known: {_KNOWN_ACTIONS}")
    command = _SIMPLE_COMMANDS[action]()
    audit_action = "reopen_table" if action == "open" else f"{action}_table"  # open_table: a new table

    async def run() -> dict[str, Any]:
        only_fields(await json_body(request), frozenset())  # no body, or {}
        return await execute(request, table_id, command)

    return await audited(request, audit_action, run, table_id=table_id)


async def _current(ctx: AppContext, table_id: str) -> TableState:
    state = await ctx.tables.load(table_id)
    if state is None:
        raise ApiError(404, "TABLE_NOT_FOUND", f"no table {table_id!r}")
    return state


async def change_limits(request: Request) -> Response:
    await require_operator(request)
    table_id = request.path_params["table_id"]
    data = await json_body(request)

    async def run() -> dict[str, Any]:
        only_fields(data, _LIMIT_FIELDS)
        for name in ("min_bet_cents", "max_bet_cents"):
            int_field(data, name)  # both are required
        limits = merged_fields(HouseRules(), data, _LIMIT_FIELDS, "limits", path="")  # HouseRules' bounds
        return await execute(request, table_id, ChangeLimits(limits.min_bet_cents, limits.max_bet_cents))

    return await audited(request, "change_limits", run, table_id=table_id, params=data)


Handler = Callable[[Request], Awaitable[Response]]


def _settings_change(action: str, fields: frozenset[str],
                     command: Callable[[TableState, dict[str, Any]], Command]) -> Handler:
    """A handler that merges the body's fields over the table's current (or already scheduled) values."""

    async def handler(request: Request) -> Response:
        ctx = await require_operator(request)
        table_id = request.path_params["table_id"]
        data = await json_body(request)

        async def run() -> dict[str, Any]:
            only_fields(data, fields)
            return await execute(request, table_id, command(await _current(ctx, table_id), data))

        return await audited(request, action, run, table_id=table_id, params=data)

    return handler


change_rules = _settings_change("change_rules", _RULE_FIELDS, lambda state, data: ChangeRules(
    merged_fields(state.pending_rules or state.rules, data, _RULE_FIELDS, "rules", path="")))
change_timers = _settings_change("change_timers", _TIMER_FIELDS, lambda state, data: ChangeTimers(
    merged_fields(state.pending_timers or state.timers, data, _TIMER_FIELDS, "timers", path="")))


async def void_round(request: Request) -> Response:
    """``/void`` takes the operator's reason, kept in the audit log (the players see the table's own words,
    "voided by the operator")."""
    await require_operator(request)
    table_id = request.path_params["table_id"]
    data: dict[str, Any] = {}

    async def run() -> dict[str, Any]:
        data.update(await json_body(request))
        only_fields(data, {"reason"})
        reason_of(data, "a void")
        return await execute(request, table_id, VoidRound())

    return await audited(request, "void_table", run, table_id=table_id, params=data)


async def table_view(request: Request) -> Response:
    ctx = await require_operator(request)
    table_id = request.path_params["table_id"]
    state = await ctx.tables.shown.load(table_id)  # as a replica holds it (store/confirmed.py)
    if state is None:
        raise ApiError(404, "TABLE_NOT_FOUND", f"no table {table_id!r}")
    return JSONResponse({"version": state.version, "view": jsonable(view_for(state, OperatorViewer()))})


# --- players and money ------------------------------------------------------------------------------
async def get_player(request: Request) -> Response:
    ctx = await require_operator(request)
    player = await ctx.accounts.get(request.path_params["player_id"])
    if player is None:
        raise ApiError(404, "PLAYER_NOT_FOUND", f"no player {request.path_params['player_id']!r}")
    locked = None if player.username is None else await ctx.sessions.guard.held_until(player.username,
                                                                                      _now_ms())
    return JSONResponse({"player_id": player.player_id, "display_name": player.name,
                         "balance_cents": player.balance_cents, "created_ms": player.created_ms,
                         "registered": player.registered, "username": player.username,
                         "locked_until_ms": locked})


MAX_QUERY_LENGTH = 64
MAX_FOUND = 100


async def find_players(request: Request) -> Response:
    """``?q=`` (0-64 characters: part of a display name, username or id, any case) and ``?limit=`` (1-100,
    20 by default): the matching players in the order of their names, and how many match in all."""
    ctx = await require_operator(request)
    query, limit_text = request.query_params.get("q", ""), request.query_params.get("limit", "20")
    if len(query) > MAX_QUERY_LENGTH:
        raise ApiError(400, "INVALID_FIELD", f"q is {len(query)} characters; at most {MAX_QUERY_LENGTH}")
    if not (limit_text.isascii() and limit_text.isdigit() and 1 <= int(limit_text) <= MAX_FOUND):
        raise ApiError(400, "INVALID_FIELD",
                       f"limit={limit_text[:60]!r} must be a whole number from 1 to {MAX_FOUND} "
                       "(ASCII digits)")
    found = await ctx.accounts.find(" ".join(query.split()), limit=int(limit_text))
    players = [{"player_id": p.player_id, "display_name": p.name, "username": p.username,
                "registered": p.registered, "balance_cents": p.balance_cents} for p in found.players]
    return JSONResponse({"players": players, "total": found.total})


async def adjust_balance(request: Request) -> Response:
    ctx = await require_operator(request)
    player_id, direction = request.path_params["player_id"], request.path_params["direction"]
    if direction not in ("credit", "debit"):
        raise ApiError(404, "UNKNOWN_ACTION", f"no player action {direction!r}; known: credit, debit")
    actor = actor_of(request)
    data = await json_body(request)
    only_fields(data, {"amount_cents", "reason"})
    amount, reason = data.get("amount_cents"), data.get("reason")
    if not isinstance(reason, str) or not reason.strip():
        await ctx.audit.append(AuditEntry(direction, _now_ms(), "REASON_REQUIRED", actor, player_id=player_id,
                                          params=data))
        raise ApiError(400, "REASON_REQUIRED", f"a {direction} needs a non-empty reason",
                       extra={"max_chars": MAX_REASON_LENGTH})
    method = ctx.accounts.credit if direction == "credit" else ctx.accounts.debit
    try:
        balance = await method(player_id, amount, reason, actor=actor)  # type: ignore[arg-type]  # checked
    except AccountError as exc:  # answered with its status and code: 404, 409 or 400 (errors.py)
        if not isinstance(exc, UnknownPlayerError | InsufficientBalanceError):  # Accounts audited those
            await ctx.audit.append(AuditEntry(direction, _now_ms(), exc.code, actor, player_id=player_id,
                                              params=data, detail=exc.message))
        raise
    return JSONResponse({"player_id": player_id, "balance_cents": balance})


async def money(request: Request) -> Response:
    """The money invariant, live: everything issued is in balances, at tables, or the house's; and each
    home game with its own chips, its own check."""
    totals = await money_totals((await require_operator(request)).redis)  # SnapshotError: 503 UNAVAILABLE
    casino = {f.name: getattr(totals, f.name) for f in dataclasses.fields(totals) if f.name != "home_games"}
    return JSONResponse({**casino, "balanced": totals.balanced,
                         "home_games": [game.to_json() for game in totals.home_games]})


# --- logs and export --------------------------------------------------------------------------------
async def _stream_page(request: Request, read: Callable[..., Awaitable[Page]]) -> Response:
    """One page of an append-only stream (audit or ledger), cursor and limit from the query string; each
    entry gets ``player_name``, the display name of its ``player_id`` now (null: no player, or gone)."""
    ctx = await require_operator(request)
    after, limit = page_params(request)
    page = await read(after=after, limit=limit)  # PageError: 400 INVALID_FIELD
    ids = {e["player_id"] for e in page.entries if isinstance(e.get("player_id"), str)}
    names = await ctx.accounts.names(ids)
    entries = [{**e, "player_name": names.get(str(e.get("player_id")))} for e in page.entries]
    return StoredJSONResponse({"entries": entries, "next_after": page.next_after})


async def read_audit(request: Request) -> Response:
    return await _stream_page(request, (await require_operator(request)).audit.page)


async def read_ledger(request: Request) -> Response:
    return await _stream_page(request, (await require_operator(request)).ledger.page)


async def export_history(request: Request) -> Response:
    """Every settled and voided round (optionally of one table or one player) as one JSON document."""
    ctx = await require_operator(request)
    table_id = request.query_params.get("table_id") or None
    player_id = request.query_params.get("player_id") or None

    async def run() -> dict[str, Any]:
        rounds: list[dict[str, Any]] = []
        after: str | None = None
        while True:
            page = await ctx.history.rounds(after=after, limit=1000, table_id=table_id, player_id=player_id)
            rounds.extend(page.entries)
            if page.next_after is None:
                return {"exported_ms": _now_ms(), "table_id": table_id, "player_id": player_id,
                        "rounds": await with_analyses(ctx.hand_analyses, rounds)}
            after = page.next_after

    response = await audited(request, "export_history", run, table_id=table_id, player_id=player_id)
    response.headers["content-disposition"] = 'attachment; filename="paigow-hands.json"'
    return response


def routes() -> list[BaseRoute]:
    base = "/api/operator"
    return [
        Route(f"{base}/tables", open_table, methods=["POST"]),
        Route(f"{base}/tables/{{table_id}}", table_view, methods=["GET"]),
        Route(f"{base}/tables/{{table_id}}/limits", change_limits, methods=["PUT"]),
        Route(f"{base}/tables/{{table_id}}/rules", change_rules, methods=["PUT"]),
        Route(f"{base}/tables/{{table_id}}/timers", change_timers, methods=["PUT"]),
        Route(f"{base}/tables/{{table_id}}/void", void_round, methods=["POST"]),
        Route(f"{base}/tables/{{table_id}}/{{action}}", table_action, methods=["POST"]),
        Route(f"{base}/players", find_players, methods=["GET"]),
        Route(f"{base}/players/{{player_id}}", get_player, methods=["GET"]),
        Route(f"{base}/players/{{player_id}}/{{direction}}", adjust_balance, methods=["POST"]),
        Route(f"{base}/money", money, methods=["GET"]),
        Route(f"{base}/audit", read_audit, methods=["GET"]),
        Route(f"{base}/ledger", read_ledger, methods=["GET"]),
        Route(f"{base}/history/export", export_history, methods=["GET"]),
    ]
