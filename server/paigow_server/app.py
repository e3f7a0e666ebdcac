"""``create_app(settings)``: the Starlette application of one server process, and its composition root.

``build(settings, redis, metrics)`` makes every service of the process, in dependency order, each given
what it needs as constructor arguments (the store's and the web's services in ``AppContext``, the live side
in ``realtime.Realtime``, the background tasks in ``Parts``); nothing runs yet. The lifespan starts (when
no ``redis_url`` is set) a private Redis, opens the client, builds, then starts every background task
(``start``), here and nowhere else, each stopped in reverse order on shutdown within a bound
(``process.tasks.bounded``). Routes (``paigow_server.web``): the JSON API (``http``, ``session_routes``,
``account_routes``, ``analysis_routes``, ``practice_routes``, ``operators``, ``operator``), the health and
metrics endpoints, the table WebSockets (``ws``), and the browser client's static files at ``/``; in front
of them the security headers (``headers``), the ``Host`` allow-list (``hosts``) and the JSON-only bodies
(``json_only``); errors answered through ``paigow_server.errors``. The one module that wires every layer
(``web``, ``realtime``, ``store``, ``process``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from paigow_server.errors import ServerError
from paigow_server.process.analysis_pool import AnalysisPool
from paigow_server.process.embedded_redis import EmbeddedRedis
from paigow_server.process.metrics import CONTENT_TYPE, Metrics
from paigow_server.process.redis_client import redis_from_url
from paigow_server.process.replica_guard import ReplicaGuard
from paigow_server.process.settings import Settings
from paigow_server.process.tasks import bounded
from paigow_server.realtime.account_closer import AccountCloser
from paigow_server.realtime.fanout import Fanout
from paigow_server.realtime.guest_collector import GuestCollector
from paigow_server.realtime.lease import LeaseManager
from paigow_server.realtime.outbox_sweeper import OutboxSweeper
from paigow_server.realtime.play_block_guard import PlayBlockGuard
from paigow_server.realtime.play_session_push import PlaySessionPush
from paigow_server.realtime.presence import ConnectionCounter, Presence
from paigow_server.realtime.realtime import Realtime
from paigow_server.realtime.router import Router
from paigow_server.realtime.tables import TableService
from paigow_server.realtime.time_limits import TimeLimitGuard
from paigow_server.realtime.timers import TableTimers
from paigow_server.realtime.waitlist_moves import WaitlistMoves
from paigow_server.store import keys
from paigow_server.store.account_closure import AccountClosure
from paigow_server.store.accounts import Accounts
from paigow_server.store.audit import AuditLog
from paigow_server.store.bars import Bars
from paigow_server.store.channels import Channels
from paigow_server.store.chat import ChatStore
from paigow_server.store.client import StoreClient, is_cluster, ping
from paigow_server.store.credentials import Credentials
from paigow_server.store.device_keys import DeviceKey
from paigow_server.store.durability import Durability
from paigow_server.store.errors import StoreUnavailable
from paigow_server.store.guests import Guests
from paigow_server.store.hand_analyses import HandAnalyses
from paigow_server.store.help_notice import HelpNotice
from paigow_server.store.history import History
from paigow_server.store.home_tables import HomeTables
from paigow_server.store.leases import Leases
from paigow_server.store.ledger import Ledger
from paigow_server.store.live_hands import LiveHands
from paigow_server.store.migration import migrate_key_names
from paigow_server.store.operators import OperatorAccounts
from paigow_server.store.play_blocks import PlayBlocks
from paigow_server.store.play_limits import PlayLimits, configure_timezone
from paigow_server.store.play_risk import PlayRisk
from paigow_server.store.play_sessions import PlaySessions
from paigow_server.store.practice import PracticeDeals
from paigow_server.store.primary_config import PrimaryConfig
from paigow_server.store.rate_counters import RateCounters
from paigow_server.store.session_tokens import SessionTokens
from paigow_server.store.sign_ins import SignInGuard
from paigow_server.store.spectator_counts import SpectatorCountStore
from paigow_server.store.tables import TableRepo
from paigow_server.store.top_ups import TopUps
from paigow_server.store.waitlists import Waitlists
from paigow_server.web import (
    account_close_routes,
    account_data_routes,
    account_routes,
    analysis_routes,
    chat_routes,
    floor_routes,
    home_routes,
    http,
    language_routes,
    operator,
    operator_kick,
    operators,
    play_block_routes,
    practice_routes,
    responsible_config,
    session_routes,
    top_up_routes,
)
from paigow_server.web.api import api_error_response, api_fallback
from paigow_server.web.client_address import TrustedProxies
from paigow_server.web.context import AppContext, context_of
from paigow_server.web.device_tokens import DeviceTokens
from paigow_server.web.headers import SecurityHeaders
from paigow_server.web.hosts import HostGuard
from paigow_server.web.json_only import JsonOnly
from paigow_server.web.operator_auth import OperatorAuth
from paigow_server.web.passwords import Passwords
from paigow_server.web.rate_limits import Limit, RateLimits
from paigow_server.web.revocations import RevocationListener
from paigow_server.web.rounds_cache import RoundsCache
from paigow_server.web.session_watch import SessionWatch
from paigow_server.web.sessions import Sessions
from paigow_server.web.ws import TableConnection, ws_routes
from paigow_server.web.ws_home import close_removed

__all__ = ["Parts", "build", "create_app", "start", "web_root"]

log = logging.getLogger("paigow_server.app")

READY_TIMEOUT_S = 2.0
_REDIS_CONNECT_ATTEMPTS = 50
_REDIS_CONNECT_PAUSE_S = 0.1


def web_root() -> Path:
    """The folder of the browser client (the ``paigow_web`` package)."""
    return Path(str(files("paigow_web")))


async def _wait_for_redis(redis: StoreClient) -> None:
    for attempt in range(_REDIS_CONNECT_ATTEMPTS):
        try:
            await ping(redis)
            return
        except StoreUnavailable:
            if attempt == _REDIS_CONNECT_ATTEMPTS - 1:
                raise
            await asyncio.sleep(_REDIS_CONNECT_PAUSE_S)


async def healthz(request: Request) -> Response:
    guard: ReplicaGuard | None = getattr(request.app.state, "replica_guard", None)
    replicas = None if guard is None else guard.health()
    return JSONResponse({"status": "ok"} if replicas is None else {"status": "ok", "replicas": replicas})


async def readyz(request: Request) -> Response:
    ctx = context_of(request)
    try:
        await asyncio.wait_for(ping(ctx.redis), READY_TIMEOUT_S)
    except (StoreUnavailable, TimeoutError) as exc:
        ctx.metrics.redis_errors.labels(operation="ping").inc()
        return JSONResponse({"status": "unavailable", "error": f"redis: {exc}"}, status_code=503)
    return JSONResponse({"status": "ready"})


async def metrics_endpoint(request: Request) -> Response:
    ctx = context_of(request)
    try:
        ctx.metrics.tables.set(await ctx.tables.count())
    except StoreUnavailable:
        ctx.metrics.redis_errors.labels(operation="metrics").inc()
    return Response(ctx.metrics.render(), media_type=CONTENT_TYPE)


async def _store_unavailable(request: Request, exc: Exception) -> Response:
    context_of(request).metrics.redis_errors.labels(operation="http").inc()
    log.error("redis error while serving %s", request.url.path, exc_info=exc)
    return JSONResponse({"error": "UNAVAILABLE", "message": "the data store is unavailable; try again"},
                        status_code=503)


@dataclass(frozen=True, slots=True)
class Parts:
    """Everything ``build`` made: the handlers' context, the live side, and the other background tasks."""

    ctx: AppContext
    realtime: Realtime
    router: Router
    guard: ReplicaGuard
    sweeper: OutboxSweeper
    revocations: RevocationListener
    watch: SessionWatch


def _rate_limits(settings: Settings, redis: StoreClient) -> RateLimits:
    return RateLimits(RateCounters(redis), TrustedProxies(settings.trusted_proxies),
                      {Limit.SESSIONS: settings.sessions_per_minute,
                       Limit.SIGN_INS: settings.sign_ins_per_minute,
                       Limit.CHAT: settings.chat_per_minute, Limit.ANALYSES: settings.analyses_per_minute,
                       Limit.GUESTS: settings.guests_per_minute,
                       Limit.CHAT_NETWORK: settings.chat_per_address_per_minute,
                       Limit.PRACTICE_DEALS: settings.practice_deals_per_minute,
                       Limit.ACCOUNT_SETTINGS: settings.account_settings_per_minute,
                       Limit.ROUND_READS: settings.round_reads_per_minute,
                       Limit.INVITE_LOOKUPS: settings.invite_lookups_per_minute,
                       Limit.SHORT_CODE_LOOKUPS: settings.short_code_lookups_per_minute,
                       Limit.HOST_MESSAGES: settings.host_messages_per_minute,
                       Limit.HOST_LIMIT_NOTES: 1},
                      per_hour={Limit.DATA_DOWNLOADS: settings.data_downloads_per_hour},
                      ipv4_prefix=settings.limit_ipv4_prefix, ipv6_prefix=settings.limit_ipv6_prefix)


def build(settings: Settings, redis: StoreClient, metrics: Metrics) -> Parts:
    """Every service of one process, in dependency order; nothing runs until ``start``. ``close()`` the
    context when done (the password hashing threads, the analysis processes)."""
    # The store, and the web's services over it.
    tables = TableRepo(redis, log_length=settings.event_log_length,
                       durability=Durability(settings.replica_acks, settings.redis_ack_timeout_ms))
    accounts = Accounts(redis, starting_balance_cents=settings.starting_balance_cents)
    passwords = Passwords(memory_kib=settings.argon2_memory_kib, time_cost=settings.argon2_time_cost,
                          parallelism=settings.argon2_parallelism)
    devices = DeviceTokens(DeviceKey(redis))
    max_wait_ms = settings.sign_in_max_wait_minutes * 60_000
    channels = Channels(redis)
    player_tokens = SessionTokens(redis, session_key=keys.session, owner_set=keys.player_sessions,
                                  idle_ms=settings.session_idle_ms)
    operator_tokens = SessionTokens(redis, session_key=keys.operator_session,
                                    owner_set=keys.operator_sessions, idle_ms=settings.operator_session_ms)
    sessions = Sessions(accounts, Credentials(redis), player_tokens,
                        SignInGuard(redis, "player", max_wait_ms=max_wait_ms), channels, passwords, devices,
                        fresh_ms=settings.fresh_guest_ms)
    operators = OperatorAuth(OperatorAccounts(redis), operator_tokens,
                             SignInGuard(redis, "operator", max_wait_ms=max_wait_ms), channels,
                             settings.operator_token, passwords, devices)
    homes = HomeTables(redis)
    # The live side. Several processes may share this Redis: each table is driven by its lease holder.
    router = Router(channels, LeaseManager(Leases(redis)), registry=metrics.registry)
    fanout = Fanout(channels, SpectatorCountStore(redis, router.owner), tables.shown, metrics)
    service = TableService(tables, metrics, router=router)
    router.bind(service.execute_owned)  # the one cycle: the router runs this process's commands on it
    service.observe_executed(fanout.command_executed)
    service.observe_written(fanout.written)
    service.observe_writes(fanout)
    moves = WaitlistMoves(Waitlists(redis))  # a sit takes the player off the other tables' lists
    moves.bind(service.execute)
    service.check_offers(moves.first)
    service.observe_written(moves.written)
    timers = TableTimers(service, tables, claim=router.claim,
                         hold_back=lambda table_id: not (router.drives(table_id) or fanout.watched(table_id)))
    presence = Presence(service, fanout.state_of, tables.load)
    fanout.on_player_dropped(presence.dropped_elsewhere)
    player_connections = ConnectionCounter(settings.connections_per_player)
    collector = GuestCollector(tables, accounts, Guests(redis), service,
                               lambda player_id: player_connections.count(player_id) > 0,
                               retention_ms=settings.guest_retention_ms,
                               interval_s=settings.guest_collect_seconds)
    play_blocks = PlayBlockGuard(PlayBlocks(redis), tables, service,
                                 closer=AccountCloser(AccountClosure(redis), tables, service,
                                                      username_ms=settings.closed_username_ms))
    configure_timezone(settings.limits_timezone)
    service.play_risk = PlayRisk(redis, pause_ms=settings.session_limit_pause_minutes * 60_000)
    time_limits = TimeLimitGuard(PlayLimits(redis), service.play_risk, service)
    realtime = Realtime(settings=settings, metrics=metrics, store=tables, service=service, fanout=fanout,
                        timers=timers, player_connections=player_connections, presence=presence,
                        guest_collector=collector, waitlist_moves=moves, play_blocks=play_blocks)
    realtime.play_sessions = session_push = PlaySessionPush(
        PlaySessions(redis), lambda: [c for c in realtime.connections if isinstance(c, TableConnection)],
        fanout.state_of, service.now_ms,
        default_minutes=lambda: settings.reality_check_minutes, load=tables.load)
    fanout.on_removed(lambda table_id, player_id, until_ms, by: close_removed(realtime.connections, table_id,
                                                                              player_id, until_ms, by))
    # Open connections follow their sessions: revoked or lapsed ones are closed.
    watch = SessionWatch(realtime.connections, players=sessions.still_valid, operators=operators.still_valid,
                         interval_s=sessions.tokens.refresh_ms / 1000)
    ctx = AppContext(settings=settings, redis=redis, metrics=metrics, tables=tables, accounts=accounts,
                     sessions=sessions, ledger=Ledger(redis), history=History(redis), audit=AuditLog(redis),
                     passwords=passwords, operators=operators, rate_limits=_rate_limits(settings, redis),
                     chat=ChatStore(redis), bars=Bars(redis),
                     analyses=AnalysisPool(settings.analysis_workers,
                                           per_client=settings.analysis_queue_per_client),
                     hand_analyses=HandAnalyses(redis), practice=PracticeDeals(redis), spectators=fanout,
                     spectator_networks=ConnectionCounter(settings.spectators_per_address),
                     rounds_cache=RoundsCache(), homes=homes,
                     top_ups=TopUps(redis, tables, accounts, hours=settings.top_up_hours,
                                    per_network_per_day=settings.top_ups_per_address_per_day),
                     live_hands=LiveHands(redis), help_notice=HelpNotice(redis, default=settings.help_notice),
                     play_blocks=play_blocks, play_limits=time_limits)
    guard = ReplicaGuard(PrimaryConfig(redis).min_replicas_to_write, metrics, settings.replica_acks)
    return Parts(ctx=ctx, realtime=realtime, router=router, guard=guard,
                 sweeper=OutboxSweeper(tables), revocations=RevocationListener(
                     channels, watch.revoked, also={keys.PLAY_SESSIONS: session_push.changed}),
                 watch=watch)


async def start(parts: Parts, stack: contextlib.AsyncExitStack) -> None:
    """Start every background task, in dependency order; each one's stop goes on ``stack`` (bounded), so
    a shutdown stops them in reverse: the clients are told to reconnect first, the leases released last."""

    async def run(name: str, begin: Callable[[], Awaitable[object]],
                  end: Callable[[], Awaitable[object]]) -> None:
        await begin()
        stack.push_async_callback(bounded(end, name))

    rt = parts.realtime
    await run("guard", parts.guard.check, parts.guard.stop)  # warns when no replica is in sync
    await run("router", parts.router.start, parts.router.stop)
    stack.push_async_callback(bounded(rt.presence.stop, "presence"))
    stack.push_async_callback(bounded(rt.waitlist_moves.stop, "waitlist moves"))
    await run("fanout", rt.fanout.start, rt.fanout.stop)
    await run("timers", rt.timers.start, rt.timers.stop)
    stack.push_async_callback(bounded(rt.close_connections, "connections"))
    await run("sweeper", parts.sweeper.start, parts.sweeper.stop)
    await run("listener", parts.revocations.start, parts.revocations.stop)
    await run("watch", parts.watch.start, parts.watch.stop)
    await run("collector", rt.guest_collector.start, rt.guest_collector.stop)
    await run("play blocks", rt.play_blocks.start, rt.play_blocks.stop)
    if rt.play_sessions is not None:
        await run("play sessions", rt.play_sessions.start, rt.play_sessions.stop)
    await run("time limits", parts.ctx.play_limits.start, parts.ctx.play_limits.stop)


def create_app(settings: Settings, *, redis: StoreClient | None = None,
               static_dir: Path | None = None) -> Starlette:
    """The app. ``redis``: an open client to use (the caller closes it); else one from ``settings``
    (``settings.redis_url``, or a private Redis in ``settings.data_dir`` when that is ``None``)."""
    metrics = Metrics()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        async with contextlib.AsyncExitStack() as stack:
            client = redis
            if client is None:
                url = settings.redis_url
                if url is None:
                    embedded = EmbeddedRedis(settings.data_dir)
                    url = embedded.start()
                    stack.callback(embedded.stop)
                    log.info("started a private Redis",
                             extra={"redis_url": url, "data_dir": str(settings.data_dir)})
                client = redis_from_url(url, decode_responses=True)
                stack.push_async_callback(client.aclose)
                await _wait_for_redis(client)
            if not is_cluster(client):  # a cluster starts empty: nothing of the old layout
                await migrate_key_names(client)
            parts = build(settings, client, metrics)
            stack.callback(parts.ctx.close)
            app.state.ctx = parts.ctx
            app.state.realtime = parts.realtime
            app.state.replica_guard = parts.guard
            await start(parts, stack)
            opened = await operator.open_starter_tables(parts.ctx)
            if opened:
                log.info("opened starter tables", extra={"tables": opened})
            yield

    api_routes = [
        *session_routes.routes(),
        *account_routes.routes(),
        *language_routes.routes(),
        *account_data_routes.routes(),
        *account_close_routes.routes(),
        *http.routes(),
        *chat_routes.routes(),
        *analysis_routes.routes(),
        *practice_routes.routes(),
        *home_routes.routes(),
        *top_up_routes.routes(),
        *responsible_config.routes(),
        *floor_routes.routes(),
        *play_block_routes.routes(),  # before operator's: /players/{id}/responsible-play
        *operators.routes(),  # before operator's: /players/{id}/unlock beats /players/{id}/{direction}
        *operator_kick.routes(),  # before operator's: /tables/{id}/kick beats /tables/{id}/{action}
        *operator.routes(),
    ]
    routes: list[BaseRoute] = [
        Route("/healthz", healthz, methods=["GET"]),
        Route("/readyz", readyz, methods=["GET"]),
        Route("/metrics", metrics_endpoint, methods=["GET"]),
        *api_routes,
        *api_fallback(api_routes),
        *ws_routes(),
        Mount("/", StaticFiles(directory=static_dir or web_root(), html=True), name="web"),
    ]
    middleware = [  # outermost first: every answer gets the headers, even a refused Host or body
        Middleware(SecurityHeaders, allowed_hosts=settings.trusted_hosts),
        Middleware(HostGuard, allowed_hosts=settings.trusted_hosts),
        Middleware(JsonOnly),
    ]
    return Starlette(routes=routes, lifespan=lifespan, middleware=middleware,
                     exception_handlers={ServerError: api_error_response,
                                         StoreUnavailable: _store_unavailable})
