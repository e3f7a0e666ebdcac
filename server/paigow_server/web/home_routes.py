"""Home games over HTTP (docs/http-api.md, "Home games (players)" and "Private tables (operator)").

``POST /api/home/tables`` (an account, not a guest) opens a private table with the caller as host, within
``home_tables_per_account`` and ``home_tables_max`` open ones; ``GET /api/home/tables`` lists the caller's;
``GET /api/home/tables/{id}`` and ``POST /api/home/tables/{id}/invite`` are the host's (the invite, and a new
one that ends the old); ``POST /api/invites/resolve`` turns a long or short code into its table and admits
the caller's account, ``invite_lookups_per_minute`` per address network and per account (a short code
also within ``short_code_lookups_per_minute`` on the whole deployment);
``GET /api/operator/home-tables`` lists every private table for the operator; a game's ledger and hand log
downloads are ``home_downloads``'s. What a host does at the
table goes over its WebSocket (``home_gate``).
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import replace
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from paigow.table.home import Home, Seating, SpectatorsPolicy
from paigow.table.state import TIMER_MAX_MS, Phase, TableState, Timers, new_table
from paigow_server.store.accounts import Player
from paigow_server.store.audit import AuditEntry
from paigow_server.store.home_tables import LONG_CODE, HomeRecord, normal_short_code
from paigow_server.web import home_downloads
from paigow_server.web.api import ApiError, bearer_token, json_body, leading_field, only_fields
from paigow_server.web.barred import barred_error
from paigow_server.web.context import AppContext, context_of
from paigow_server.web.home_chip_setting import chip_setting, chips_summary
from paigow_server.web.home_gate import is_private_id
from paigow_server.web.host_audit import host_actor
from paigow_server.web.http import table_summary
from paigow_server.web.operator import NEW_TABLE_RULES, merged_fields, table_name
from paigow_server.web.operator_gate import require_operator
from paigow_server.web.private_access import no_table, require_access
from paigow_server.web.rate_limits import Limit
from paigow_server.web.session_routes import current_player

__all__ = ["home_summary", "routes"]

HOST_RULES = frozenset({"min_bet_cents", "max_bet_cents", "house_way", "fortune_enabled", "player_banking"})
HOST_TIMERS = frozenset({"bank_offer_ms", "betting_ms", "setting_ms", "between_rounds_ms"})
CLOSED_LISTED = 20
CREATION_TRIES = 150
"""Waits of 20 ms for the creation turn (3 s) before ``503 BUSY``."""


def _now_ms() -> int:
    return time.time_ns() // 1_000_000


def _is_open(state: TableState | None) -> bool:
    return state is not None and state.phase != Phase.CLOSED


def home_summary(ctx: AppContext, state: TableState, record: HomeRecord | None, *,
                 show_invite: bool) -> dict[str, Any]:
    home = state.home
    assert home is not None
    invite = record.invite if record is not None and show_invite and _is_open(state) else None
    return {**table_summary(state, ctx.spectators), "private": True, "host_player_id": home.host_player_id,
            "host_name": home.host_name, "seating": str(home.seating),
            "spectators_policy": str(home.spectators),
            "created_ms": record.created_ms if record is not None else None,
            "closed": state.phase == Phase.CLOSED, "chips": chips_summary(state, home),
            "invite": None if invite is None else invite.to_json(state.table_id)}


def _choice(data: dict[str, Any], name: str, choices: type[Seating] | type[SpectatorsPolicy],
            default: Seating | SpectatorsPolicy) -> Any:
    value = data.get(name, str(default))
    names = [str(c) for c in choices]
    if value not in names:
        raise ApiError(400, "INVALID_FIELD", f"{name} must be one of {', '.join(names)}, not {value!r}"[:300],
                       extra={"field": name})
    return choices(value)


@contextlib.contextmanager
def _field(path: str, inner: frozenset[str] = frozenset()) -> Iterator[None]:
    """A ``400 INVALID_FIELD`` raised inside names its field in the body's ``field`` and at the start of its
    message: ``path`` (``"rules"``), or ``path.<name>`` for the inner field its message starts with
    (``"rules.max_bet_cents (400) must not be below min_bet_cents (500)"``)."""
    try:
        yield
    except ApiError as exc:
        if exc.code != "INVALID_FIELD" or "field" in exc.extra:
            raise
        leading = leading_field(exc.message, inner)
        if leading is not None:
            field, message = f"{path}.{leading}", f"{path}.{exc.message}"
        else:
            field = path
            message = exc.message if exc.message.startswith(path) else f"{path}: {exc.message}"
        raise ApiError(400, "INVALID_FIELD", message[:300], extra={"field": field}) from None


def create_bounds(ctx: AppContext) -> dict[str, Any]:
    """What the lobby's create form needs to know before a table exists: the operator's bounds."""
    settings = ctx.settings
    return {"max_bet_cap_cents": settings.home_max_bet_cents, "timer_max_ms": TIMER_MAX_MS,
            "tables_per_account": settings.home_tables_per_account,
            "max_buy_in_cap_cents": settings.home_max_buy_in_cents}


async def _open_states(ctx: AppContext, ids: list[str]) -> list[TableState]:
    """The open private tables among ``ids``; those seen closed end their codes (and leave the index)."""
    states = await ctx.tables.load_many(ids)
    for table_id, state in zip(ids, states, strict=True):
        if not _is_open(state):
            await ctx.homes.closed(table_id)
    return [s for s in states if s is not None and _is_open(s)]


async def _check_caps(ctx: AppContext, player: Player) -> None:
    mine = await _open_states(ctx, await ctx.homes.ids_by(player.player_id))
    per_account = ctx.settings.home_tables_per_account
    if len(mine) >= per_account:
        raise ApiError(409, "HOME_TABLE_LIMIT", f"you already have {len(mine)} open private tables, the most "
                                               f"one account may have ({per_account}): close one first",
                       extra={"open_tables": len(mine), "max_tables": per_account})
    everyone = await _open_states(ctx, await ctx.homes.open_ids())
    if len(everyone) >= ctx.settings.home_tables_max:
        most = ctx.settings.home_tables_max
        raise ApiError(409, "HOME_TABLES_FULL", f"this server already has {len(everyone)} open private "
                                               f"tables, its most ({most}): try later",
                       extra={"open_tables": len(everyone), "max_tables": most})


async def create_home_table(request: Request) -> Response:
    ctx = context_of(request)
    data = await json_body(request)
    player = await current_player(request)
    if not player.registered:
        raise ApiError(403, "ACCOUNT_REQUIRED", "a private table is hosted by an account: register, or keep "
                                                "this guest, first")
    entry = AuditEntry("host_create_table", _now_ms(), "ok", host_actor(player.player_id),
                       params={**data, "host_name": player.name})
    try:
        async with _creation_turn(ctx):
            body = await _create(ctx, data, player)
    except ApiError as exc:
        await ctx.audit.append(replace(entry, outcome=exc.code, detail=exc.message))
        raise
    await ctx.audit.append(replace(entry, table_id=body["table_id"], detail=f"version {body['version']}"))
    return JSONResponse(body, status_code=201)


@contextlib.asynccontextmanager
async def _creation_turn(ctx: AppContext) -> AsyncIterator[None]:
    """One creation at a time on the deployment (``HomeTables.claim_creation``): the caps hold exactly."""
    token = secrets.token_hex(8)
    for _ in range(CREATION_TRIES):
        if await ctx.homes.claim_creation(token):
            break
        await asyncio.sleep(0.02)
    else:
        raise ApiError(503, "BUSY", "other private tables are being created: send it again",
                       headers={"Retry-After": "1"})
    try:
        yield
    finally:
        await ctx.homes.release_creation(token)


async def _create(ctx: AppContext, data: dict[str, Any], player: Player) -> dict[str, Any]:
    only_fields(data, {"name", "rules", "timers", "seating", "spectators", "chips"})
    with _field("name"):
        name = table_name(data.get("name"))
    with _field("rules", HOST_RULES):
        rules = merged_fields(NEW_TABLE_RULES, data.get("rules", {}), HOST_RULES, "rules")
    cap = ctx.settings.home_max_bet_cents
    if rules.max_bet_cents > cap:
        raise ApiError(400, "INVALID_FIELD", f"rules.max_bet_cents {rules.max_bet_cents} is over this "
                                             f"server's bound for home games, {cap}",
                       extra={"field": "rules.max_bet_cents"})
    base = Timers(reconnect_grace_ms=ctx.settings.grace_seconds * 1000)
    with _field("timers", HOST_TIMERS):
        timers = merged_fields(base, data.get("timers", {}), HOST_TIMERS, "timers")
    chips, rules = chip_setting(data.get("chips"), rules, ctx.settings.home_max_buy_in_cents)
    seating = _choice(data, "seating", Seating, Seating.OPEN)
    spectators = _choice(data, "spectators", SpectatorsPolicy, SpectatorsPolicy.LINK)
    await _check_caps(ctx, player)
    home = Home(player.player_id, player.name, seating, spectators, max_bet_cap_cents=cap,
                host_grace_ms=ctx.settings.home_host_grace_seconds * 1000,
                idle_close_ms=ctx.settings.home_idle_close_minutes * 60_000,
                max_buy_in_cap_cents=ctx.settings.home_max_buy_in_cents, chips=chips)
    state = new_table(ctx.homes.new_table_id(), name, rules, timers, home=home,
                      seat_offer_ms=ctx.settings.seat_offer_seconds * 1000)
    if not await ctx.tables.create(state):
        raise ApiError(409, "TABLE_EXISTS", f"table {state.table_id!r} already exists")
    invite = await ctx.homes.register(state.table_id, player.player_id, _now_ms())
    record = HomeRecord(state.table_id, player.player_id, _now_ms(), invite)
    return {"table_id": state.table_id, "version": state.version,
            "table": home_summary(ctx, state, record, show_invite=True),
            "invite": invite.to_json(state.table_id)}


async def _hosted(request: Request) -> tuple[AppContext, Player, TableState, HomeRecord]:
    """The table of the path, for its host; 403 for another player with access; for anyone else (and a
    public or unknown id) the unknown table's 404, before the table is read (``private_access``)."""
    ctx = context_of(request)
    player = await current_player(request)
    table_id = request.path_params["table_id"]
    if not is_private_id(table_id):
        raise no_table(table_id)
    await require_access(ctx, table_id, player.player_id)
    state = await ctx.tables.load(table_id)
    record = await ctx.homes.record(table_id) if state is not None and state.home is not None else None
    if state is None or state.home is None or record is None:
        raise no_table(table_id)
    if state.home.host_player_id != player.player_id:
        raise ApiError(403, "NOT_HOST", f"you are not the host of table {table_id!r} (the host is "
                                        f"{state.home.host_name})")
    return ctx, player, state, record


async def my_home_tables(request: Request) -> Response:
    ctx = context_of(request)
    player = await current_player(request)
    ids = await ctx.homes.ids_by(player.player_id)
    states = await ctx.tables.load_many(ids)
    listed = []
    shown = [s for s in states if s is not None and _is_open(s)]
    shown += [s for s in states if s is not None and not _is_open(s)][:CLOSED_LISTED]
    for state in shown:
        assert state.home is not None
        hosts = state.home.host_player_id == player.player_id
        listed.append(home_summary(ctx, state, await ctx.homes.record(state.table_id), show_invite=hosts))
    return JSONResponse({"tables": listed, **create_bounds(ctx)})


async def get_home_table(request: Request) -> Response:
    ctx, _, state, record = await _hosted(request)
    return JSONResponse(home_summary(ctx, state, record, show_invite=True))


async def new_invite(request: Request) -> Response:
    data = await json_body(request)
    only_fields(data, set())
    ctx, player, state, _ = await _hosted(request)
    entry = AuditEntry("host_new_invite", _now_ms(), "ok", host_actor(player.player_id),
                       table_id=state.table_id, params={"host_name": player.name})
    if not _is_open(state) or state.closing:
        error = ApiError(409, "TABLE_CLOSED", f"table {state.table_id!r} is closed: its invite has ended")
        await ctx.audit.append(replace(entry, outcome=error.code, detail=error.message))
        raise error
    invite = await ctx.homes.renew_invite(state.table_id)
    await ctx.audit.append(replace(entry, detail="the old codes ended"))
    return JSONResponse({"table_id": state.table_id, "invite": invite.to_json(state.table_id)})


def _code(value: object) -> str:
    if isinstance(value, str):
        if LONG_CODE.fullmatch(value):
            return value
        short = normal_short_code(value)
        if short is not None:
            return short
    raise ApiError(400, "INVALID_FIELD", f"code {value!r} is neither an invite code (32 characters of A-Z, "
                                         "a-z, 0-9, - and _) nor a short code (six letters)"[:300])


async def resolve_invite(request: Request) -> Response:
    ctx = context_of(request)
    data = await json_body(request)
    player = await current_player(request) if bearer_token(request) is not None else None
    await ctx.rate_limits.check(request, Limit.INVITE_LOOKUPS)
    if player is not None:
        await ctx.rate_limits.check_account(Limit.INVITE_LOOKUPS, player.player_id)
    only_fields(data, {"code"})
    code = _code(data.get("code"))
    if not LONG_CODE.fullmatch(code):
        await ctx.rate_limits.check_everyone(Limit.SHORT_CODE_LOOKUPS,
                                             instead=" (the invite link, with its long code, works now)")
    table_id = await ctx.homes.table_of_code(code)
    state = None if table_id is None else await ctx.tables.load(table_id)
    if table_id is not None and not _is_open(state):
        await ctx.homes.closed(table_id)
    if table_id is None or state is None or state.home is None or not _is_open(state) or state.closing:
        raise ApiError(404, "INVITE_NOT_FOUND", "no open table has that invite code (it may be mistyped, "
                                                "replaced by the host, or the table closed)")
    record = await ctx.homes.record(table_id)
    if player is not None:
        bar = await ctx.bars.get(table_id, player.player_id)
        if bar is not None:
            raise barred_error(bar, state.name)
        await ctx.homes.admit(table_id, player.player_id)
    summary = table_summary(state, ctx.spectators)
    return JSONResponse({"table_id": table_id, "name": state.name, "host_name": state.home.host_name,
                         "seating": str(state.home.seating), "spectators_policy": str(state.home.spectators),
                         "seats_taken": summary["seats_taken"], "seats": summary["seats"],
                         "waiting": len(state.waiting), "phase": str(state.phase),
                         "code": None if record is None or record.invite is None else record.invite.code,
                         "admitted": player is not None})


async def operator_home_tables(request: Request) -> Response:
    ctx = await require_operator(request)
    only_fields(dict(request.query_params), {"closed"})
    closed = request.query_params.get("closed", "0")
    if closed not in ("0", "1"):
        raise ApiError(400, "INVALID_FIELD", f"closed={closed!r} must be 0 or 1")
    ids = await (ctx.homes.all_ids() if closed == "1" else ctx.homes.open_ids())
    listed = []
    for state in await ctx.tables.load_many(ids):
        if state is None or state.home is None or (closed == "0" and not _is_open(state)):
            continue
        record = await ctx.homes.record(state.table_id)
        listed.append({**home_summary(ctx, state, record, show_invite=True),
                       "created_by": None if record is None else record.creator})
    return JSONResponse({"tables": listed})


def routes() -> list[BaseRoute]:
    return [
        Route("/api/home/tables", create_home_table, methods=["POST"]),
        Route("/api/home/tables", my_home_tables, methods=["GET"]),
        Route("/api/home/tables/{table_id}", get_home_table, methods=["GET"]),
        Route("/api/home/tables/{table_id}/invite", new_invite, methods=["POST"]),
        Route("/api/invites/resolve", resolve_invite, methods=["POST"]),
        Route("/api/operator/home-tables", operator_home_tables, methods=["GET"]),
        *home_downloads.routes(),
    ]
