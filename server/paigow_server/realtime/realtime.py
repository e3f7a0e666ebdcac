"""``Realtime``: the live side of one server process — command execution, fanout, timers, presence.

A plain holder: the composition root (``paigow_server.app.build``) makes its parts, and its lifespan starts
and stops their tasks (``close_connections`` first, on shutdown: every client is told to reconnect).

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
from paigow_server.realtime.play_block_guard import PlayBlockGuard
from paigow_server.realtime.play_session_push import PlaySessionPush
from paigow_server.realtime.presence import ConnectionCounter, Presence
from paigow_server.realtime.tables import CommandRouter, TableService
from paigow_server.realtime.timers import TableTimers
from paigow_server.realtime.waitlist_moves import WaitlistMoves
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
    guest_collector: GuestCollector
    """Collects unused guests (tests run ``collect_once`` through it)."""
    waitlist_moves: WaitlistMoves
    """Takes a player who sat off the other tables' waiting lists."""
    play_blocks: PlayBlockGuard
    """Keeps a player on a break or self-excluded from sitting, betting, banking and buying in."""
    play_sessions: PlaySessionPush | None = None
    """Tells the seated players their play session and shows the reality checks (None: not wired)."""
    connections: set[Connection] = field(default_factory=set)

    async def close_connections(self) -> None:
        """Tell every client to reconnect (1012) and give them a moment to go (the first step of a
        shutdown: the timers, the fanout and the presence stop after it)."""
        for conn in list(self.connections):
            conn.close_for_shutdown()
        for _ in range(100):
            if not self.connections:
                break
            await asyncio.sleep(0.02)
