"""``create_app(settings)``: the Starlette application of one server process.

The lifespan starts (when no ``redis_url`` is set) a private Redis, opens the client, builds the
``AppContext`` (``web.context``) and the live side (``realtime.Realtime``), starts the background tasks and,
on shutdown, stops them in reverse order. Routes (``paigow_server.web``): the JSON API (``http``,
``session_routes``, ``account_routes``, ``analysis_routes``, ``practice_routes``, ``operators``,
``operator``), the health and
metrics endpoints, the table WebSockets (``ws``), and the browser client's static files at ``/``; in
front of them the security headers (``headers``), the ``Host`` allow-list (``hosts``) and the JSON-only
bodies (``json_only``). The
composition root: the one module that wires every layer (``web``, ``realtime``, ``store``, ``process``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from importlib.resources import files
from pathlib import Path

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from paigow_server.process.embedded_redis import EmbeddedRedis
from paigow_server.process.metrics import CONTENT_TYPE, Metrics
from paigow_server.process.redis_client import redis_from_url
from paigow_server.process.replica_guard import ReplicaGuard
from paigow_server.process.settings import Settings
from paigow_server.process.tasks import bounded
from paigow_server.realtime.guest_collector import GuestCollector
from paigow_server.realtime.lease import LeaseManager
from paigow_server.realtime.outbox_sweeper import OutboxSweeper
from paigow_server.realtime.realtime import Realtime
from paigow_server.realtime.router import Router
from paigow_server.store.channels import Channels
from paigow_server.store.client import StoreClient, is_cluster, ping
from paigow_server.store.errors import StoreUnavailable
from paigow_server.store.guests import Guests
from paigow_server.store.leases import Leases
from paigow_server.store.migration import migrate_key_names
from paigow_server.store.primary_config import PrimaryConfig
from paigow_server.store.spectator_counts import SpectatorCountStore
from paigow_server.web import (
    account_routes,
    analysis_routes,
    chat_routes,
    http,
    operator,
    operator_kick,
    operators,
    practice_routes,
    session_routes,
)
from paigow_server.web.api import ApiError, api_error_response, api_fallback
from paigow_server.web.context import AppContext, context_of
from paigow_server.web.headers import SecurityHeaders
from paigow_server.web.hosts import HostGuard
from paigow_server.web.json_only import JsonOnly
from paigow_server.web.revocations import RevocationListener
from paigow_server.web.session_watch import SessionWatch
from paigow_server.web.ws import ws_routes

__all__ = ["create_app", "web_root"]

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


async def _start_account_tasks(stack: contextlib.AsyncExitStack, ctx: AppContext,
                               realtime: Realtime) -> None:
    """Open connections follow their sessions (``session_watch``); unused guests are collected. Both stop
    before the realtime services (the exit stack runs in reverse)."""
    watch = SessionWatch(realtime.connections, players=ctx.sessions.still_valid,
                         operators=ctx.operators.still_valid,
                         interval_s=ctx.sessions.tokens.refresh_ms / 1000)
    listener = RevocationListener(Channels(ctx.redis), watch.revoked)
    await listener.start()
    stack.push_async_callback(bounded(listener.stop, "listener"))
    await watch.start()
    stack.push_async_callback(bounded(watch.stop, "watch"))
    collector = GuestCollector(ctx.tables, ctx.accounts, Guests(ctx.redis), realtime.service,
                               lambda player_id: realtime.player_connections.count(player_id) > 0,
                               retention_ms=ctx.settings.guest_retention_ms,
                               interval_s=ctx.settings.guest_collect_seconds)
    await collector.start()
    stack.push_async_callback(bounded(collector.stop, "collector"))
    realtime.guest_collector = collector


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
            ctx = AppContext.build(settings, client, metrics)
            stack.callback(ctx.close)
            app.state.ctx = ctx
            guard = ReplicaGuard(PrimaryConfig(client).min_replicas_to_write, metrics, settings.replica_acks)
            await guard.check()  # warns when the primary takes writes with no replica in sync
            stack.push_async_callback(bounded(guard.stop, "guard"))
            app.state.replica_guard = guard
            # Several processes may share this Redis: each table is driven by the lease holder (router).
            channels = Channels(client)
            router = Router(channels, LeaseManager(Leases(client)), registry=metrics.registry)
            realtime = Realtime.create(settings, channels, SpectatorCountStore(client, router.owner), metrics,
                                       ctx.tables, router=router)
            router.bind(realtime.service.execute_owned)
            await router.start()
            # after realtime.stop: the leases are released last
            stack.push_async_callback(bounded(router.stop, "router"))
            await realtime.start()
            stack.push_async_callback(bounded(realtime.stop, "realtime"))
            sweeper = OutboxSweeper(ctx.tables)
            await sweeper.start()
            stack.push_async_callback(bounded(sweeper.stop, "sweeper"))
            app.state.realtime = realtime
            ctx.spectators = realtime.fanout
            await _start_account_tasks(stack, ctx, realtime)
            opened = await operator.open_starter_tables(ctx)
            if opened:
                log.info("opened starter tables", extra={"tables": opened})
            yield

    api_routes = [
        *session_routes.routes(),
        *account_routes.routes(),
        *http.routes(),
        *chat_routes.routes(),
        *analysis_routes.routes(),
        *practice_routes.routes(),
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
                     exception_handlers={ApiError: api_error_response, StoreUnavailable: _store_unavailable})
