"""``Realtime``: the live side of one server process — command execution, fanout, timers, presence.

``create_app``'s lifespan builds it once the Redis client is open::

    rt = Realtime.create(settings, channels, counts, metrics, repo)  # store objects (TableRepo...)
    await rt.start()                              # fanout listener + timers (and the router, if any)
    app.state.realtime = rt; ctx.spectators = rt.fanout
    ...
    await rt.stop()                               # closes every connection with 1012, stops the tasks

The WebSocket edge (``web.ws``) registers each open connection in ``rt.connections`` and tells
``rt.presence`` when a player's connection opens and closes. The operator API executes its commands with
``rt.service.execute(...)``.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Protocol

from paigow_server.process.metrics import Metrics
from paigow_server.process.settings import Settings
from paigow_server.realtime.fanout import Fanout
from paigow_server.realtime.guest_collector import GuestCollector
from paigow_server.realtime.presence import ConnectionCounter, Presence
from paigow_server.realtime.tables import CommandRouter, TableService
from paigow_server.realtime.timers import TableTimers
from paigow_server.store.channels import Channels
from paigow_server.store.spectator_counts import SpectatorCountStore
from paigow_server.store.tables import TableRepo

__all__ = ["ClaimingRouter", "Connection", "Realtime"]


class ClaimingRouter(CommandRouter, Protocol):
    """``paigow_server.realtime.router.Router``: routes commands to the table's process; ``claim`` says
    whether this process drives a table (only that one ticks its timers)."""

    async def claim(self, table_id: str) -> bool: ...

    def drives(self, table_id: str) -> bool:
        """This process holds the table's lease now (no Redis call)."""
        ...

    @property
    def owner(self) -> str:
        """This process's name (its leases' owner)."""
        ...


class Connection(Protocol):
    """An open client connection (``web.ws.TableConnection``), as the shutdown sees it."""

    def close_for_shutdown(self) -> None:
        """Tell the client to reconnect (close 1012)."""
        ...


@dataclass(slots=True)
class Realtime:
    settings: Settings
    metrics: Metrics
    store: TableRepo
    service: TableService
    fanout: Fanout
    timers: TableTimers
    player_connections: ConnectionCounter
    presence: Presence
    """Each player's connections per table here: the drops and reconnections they cause."""
    connections: set[Connection] = field(default_factory=set)
    guest_collector: GuestCollector | None = None
    """Set by ``create_app`` (tests run ``collect_once`` through it)."""

    @classmethod
    def create(cls, settings: Settings, channels: Channels, counts: SpectatorCountStore, metrics: Metrics,
               store: TableRepo, *, router: ClaimingRouter | None = None,
               timer_rescan_s: float = 1.0) -> Realtime:
        """The services, wired. ``channels``: the table channels' pub/sub; ``counts``: where this process's
        spectator counts go. With a ``router`` (several processes), commands go through it and the
        timers tick only the tables this process drives; start and stop the router yourself."""
        service = TableService(store, metrics)
        service.attach_router(router)
        fanout = Fanout(channels, counts, store.shown, metrics)
        service.observe_executed(fanout.command_executed)
        service.observe_written(fanout.written)
        timers = TableTimers(service, store, rescan_s=timer_rescan_s,
                             claim=router.claim if router is not None else None,
                             hold_back=None if router is None else
                             lambda table_id: not router.drives(table_id) and not fanout.watched(table_id))
        rt = cls(settings=settings, metrics=metrics, store=store, service=service, fanout=fanout,
                 timers=timers, player_connections=ConnectionCounter(settings.connections_per_player),
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
