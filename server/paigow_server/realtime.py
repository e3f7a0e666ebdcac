"""``Realtime``: the live side of one server process — command execution, fanout, timers, connections.

``create_app``'s lifespan builds it once the Redis client is open::

    rt = Realtime.create(ctx, repo, sessions)     # ctx: AppContext; repo: store.tables.TableRepo
    await rt.start()                              # fanout listener + timers (and the router, if any)
    app.state.realtime = rt; ctx.spectators = rt.fanout
    ...
    await rt.stop()                               # closes every connection with 1012, stops the tasks

Routes: ``ws.ws_routes()``. The operator API executes its commands with ``rt.service.execute(...)``.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from redis.exceptions import RedisError
from starlette.requests import HTTPConnection

from paigow.table.commands import Reconnect
from paigow.table.rejections import Rejection
from paigow_server.fanout import Fanout
from paigow_server.metrics import Metrics
from paigow_server.settings import Settings
from paigow_server.store.tables import TableRepo
from paigow_server.tables import CommandRouter, ServiceError, TableService
from paigow_server.tasks import stop_task
from paigow_server.timers import TableTimers
from paigow_server.ws_limits import ConnectionCounter

if TYPE_CHECKING:
    from paigow_server.context import AppContext
    from paigow_server.guest_collector import GuestCollector
    from paigow_server.ws import TableConnection

log = logging.getLogger("paigow_server.realtime")

__all__ = ["ClaimingRouter", "Identity", "OperatorLookup", "Presence", "Realtime", "SessionLookup",
           "realtime_of"]


@dataclass(frozen=True, slots=True)
class Identity:
    """Who a session token belongs to."""

    player_id: str
    name: str


class ClaimingRouter(CommandRouter, Protocol):
    """``paigow_server.router.Router``: routes commands to the table's process; ``claim`` says whether
    this process drives a table (only that one ticks its timers)."""

    async def claim(self, table_id: str) -> bool: ...

    def drives(self, table_id: str) -> bool:
        """This process holds the table's lease now (no Redis call)."""
        ...

    @property
    def owner(self) -> str:
        """This process's name (its leases' owner)."""
        ...


class SessionLookup(Protocol):
    async def identify(self, token: str) -> Identity | None:
        """The player of a session token, or None when the token is unknown."""
        ...


class OperatorLookup(Protocol):
    async def actor_of(self, token: str) -> str:
        """The operator of a bootstrap or operator session token; raises ``OperatorAuthError``."""
        ...


@dataclass(slots=True)
class Presence:
    """Open player connections per (table, player) in this process: the last one closing drops the
    player (away), the first one opening reconnects them."""

    _open: Counter[tuple[str, str]] = field(default_factory=Counter)

    def add(self, table_id: str, player_id: str) -> int:
        self._open[(table_id, player_id)] += 1
        return self._open[(table_id, player_id)]

    def count(self, table_id: str, player_id: str) -> int:
        return self._open[(table_id, player_id)]

    def remove(self, table_id: str, player_id: str) -> int:
        key = (table_id, player_id)
        self._open[key] -= 1
        left = self._open[key]
        if left <= 0:
            del self._open[key]
        return max(left, 0)


@dataclass(slots=True)
class Realtime:
    settings: Settings
    metrics: Metrics
    store: TableRepo
    sessions: SessionLookup
    operators: OperatorLookup
    service: TableService
    fanout: Fanout
    timers: TableTimers
    player_connections: ConnectionCounter
    table_presence: Presence = field(default_factory=Presence)
    connections: set[TableConnection] = field(default_factory=set)
    guest_collector: GuestCollector | None = None
    """Set by ``create_app`` (tests run ``collect_once`` through it)."""
    _background: set[asyncio.Task[None]] = field(default_factory=set)

    @classmethod
    def create(cls, ctx: AppContext, store: TableRepo, sessions: SessionLookup, *,
               router: ClaimingRouter | None = None, timer_rescan_s: float = 1.0) -> Realtime:
        """The services, wired. With a ``router`` (several processes), commands go through it and the
        timers tick only the tables this process drives; start and stop the router yourself."""
        service = TableService(store, ctx.metrics)
        service.attach_router(router)
        fanout = Fanout(ctx.redis, store, ctx.metrics, owner=router.owner if router is not None else None)
        service.observe_executed(fanout.command_executed)
        timers = TableTimers(service, store, rescan_s=timer_rescan_s,
                             claim=router.claim if router is not None else None,
                             hold_back=None if router is None else
                             lambda table_id: not router.drives(table_id) and not fanout.watched(table_id))
        rt = cls(settings=ctx.settings, metrics=ctx.metrics, store=store, sessions=sessions,
                 operators=ctx.operators, service=service, fanout=fanout, timers=timers,
                 player_connections=ConnectionCounter(ctx.settings.connections_per_player))
        fanout.on_player_dropped(rt._dropped_elsewhere)
        return rt

    def _dropped_elsewhere(self, table_id: str, player_id: str) -> None:
        """A player was marked away (their last connection to another process closed) but is still
        connected here: bring them back at once."""
        if self.table_presence.count(table_id, player_id) > 0:
            task = asyncio.create_task(self._reconnect(table_id, player_id))
            self._background.add(task)
            task.add_done_callback(self._background.discard)

    async def _reconnect(self, table_id: str, player_id: str) -> None:
        try:
            await self.service.execute(table_id, Reconnect(player_id=player_id, now_ms=self.service.now_ms()))
        except (Rejection, ServiceError, RedisError, OSError) as exc:
            log.info("reconnect of %s at table %s not done: %s", player_id, table_id, exc)

    async def start(self) -> None:
        await self.fanout.start()
        await self.timers.start()

    async def stop(self) -> None:
        """Tell every client to reconnect (1012), then stop the timers and the fanout."""
        for conn in list(self.connections):
            conn.close_for_shutdown()
        for _ in range(100):
            if not self.connections:
                break
            await asyncio.sleep(0.02)
        await self.timers.stop()
        await self.fanout.stop()
        for task in list(self._background):
            await stop_task(task)


def realtime_of(conn: HTTPConnection) -> Realtime:
    rt = getattr(conn.app.state, "realtime", None)
    if not isinstance(rt, Realtime):
        raise RuntimeError("the app's lifespan has not started the realtime services (app.state.realtime)")
    return rt
