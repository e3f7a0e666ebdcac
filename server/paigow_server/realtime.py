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
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from starlette.requests import HTTPConnection

from paigow_server.fanout import Fanout
from paigow_server.metrics import Metrics
from paigow_server.presence import ConnectionCounter, Presence
from paigow_server.settings import Settings
from paigow_server.store.tables import TableRepo
from paigow_server.tables import CommandRouter, TableService
from paigow_server.timers import TableTimers

if TYPE_CHECKING:
    from paigow_server.context import AppContext
    from paigow_server.guest_collector import GuestCollector
    from paigow_server.ws import TableConnection

__all__ = ["ClaimingRouter", "Identity", "OperatorLookup", "Realtime", "SessionLookup", "realtime_of"]


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
    presence: Presence
    """Each player's connections per table here: the drops and reconnections they cause."""
    connections: set[TableConnection] = field(default_factory=set)
    guest_collector: GuestCollector | None = None
    """Set by ``create_app`` (tests run ``collect_once`` through it)."""

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
                 player_connections=ConnectionCounter(ctx.settings.connections_per_player),
                 presence=Presence(service, fanout.state_of, store.load))
        fanout.on_player_dropped(rt.presence.dropped_elsewhere)
        return rt

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
        await self.presence.stop()


def realtime_of(conn: HTTPConnection) -> Realtime:
    rt = getattr(conn.app.state, "realtime", None)
    if not isinstance(rt, Realtime):
        raise RuntimeError("the app's lifespan has not started the realtime services (app.state.realtime)")
    return rt
