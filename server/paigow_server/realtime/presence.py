"""``Presence``: a player's connections to the tables in this process, and what they mean for the seat.

Presence is not participation: a seat's status (``SeatPlayer.playing``) is the player's choice, ``away``
only says nobody is connected. This module is the one place that turns connections into ``Drop`` and
``Reconnect`` commands (the server's own; a refusal, e.g. already away or not seated, is normal):

- a player connection opens (``opened``): if the player is seated and away, reconnect them;
- the player's last connection to the table in this process closes (``closed``): if they are seated, drop
  them (away, with the table's grace time);
- another process drops a player who is still connected here (``dropped_elsewhere``, fed by
  ``Fanout.on_player_dropped``: their last connection *there* closed): reconnect them at once.

The WebSocket edge only says "opened" and "closed". ``ConnectionCounter`` is the other count of this
process: open connections per player over every table, capped (``connections_per_player``), which also
tells the guest collector who is connected.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Protocol

from paigow.table.commands import Command, Drop, Reconnect
from paigow.table.rejections import Rejection
from paigow.table.state import TableState
from paigow_server.process.tasks import stop_task
from paigow_server.realtime.tables import ServiceError
from paigow_server.store.errors import StoreUnavailable

__all__ = ["ConnectionCounter", "Presence", "PresenceService"]

log = logging.getLogger("paigow_server.presence")


class PresenceService(Protocol):
    """What presence needs of ``TableService``: the clock and command execution."""

    def now_ms(self) -> int: ...

    async def execute(self, table_id: str, command: Command) -> object: ...


@dataclass(slots=True)
class ConnectionCounter:
    """Open connections per player in this process, capped at ``limit``."""

    limit: int
    _open: Counter[str] = field(default_factory=Counter)

    def acquire(self, player_id: str) -> bool:
        if self._open[player_id] >= self.limit:
            return False
        self._open[player_id] += 1
        return True

    def release(self, player_id: str) -> None:
        self._open[player_id] -= 1
        if self._open[player_id] <= 0:
            del self._open[player_id]

    def count(self, player_id: str) -> int:
        return self._open[player_id]


class Presence:
    """Open player connections per (table, player) in this process, and the drops and reconnections
    they cause. ``seen`` is the table as this process last saw it (the fanout's feed; None when nobody
    here watches it), ``load`` reads it from the store."""

    def __init__(self, service: PresenceService, seen: Callable[[str], TableState | None],
                 load: Callable[[str], Awaitable[TableState | None]]) -> None:
        self._service = service
        self._seen = seen
        self._load = load
        self._open: Counter[tuple[str, str]] = Counter()
        self._background: set[asyncio.Task[None]] = set()

    def count(self, table_id: str, player_id: str) -> int:
        """The player's open connections to the table in this process."""
        return self._open[(table_id, player_id)]

    async def opened(self, table_id: str, player_id: str) -> None:
        """A connection of the player joined the table's feed: reconnect them if they are away."""
        self._open[(table_id, player_id)] += 1
        state = self._seen(table_id)
        seat = state.seat_of(player_id) if state is not None else None
        if state is None or seat is None:
            return
        player = state.seats[seat]
        if player is not None and player.away:
            await self._quietly(table_id, Reconnect(player_id=player_id, now_ms=self._service.now_ms()))

    async def closed(self, table_id: str, player_id: str) -> None:
        """A connection that ``opened`` closed: the last one drops the player if they are seated."""
        key = (table_id, player_id)
        self._open[key] -= 1
        if self._open[key] > 0:
            return
        del self._open[key]
        state = self._seen(table_id) or await self._load(table_id)
        if state is not None and state.seat_of(player_id) is not None:
            await self._quietly(table_id, Drop(player_id=player_id, now_ms=self._service.now_ms()))

    def dropped_elsewhere(self, table_id: str, player_id: str) -> None:
        """A watched table marked the player away (``Fanout.on_player_dropped``): if they are still
        connected here, bring them back at once (in the background: this is the fanout's callback)."""
        if self.count(table_id, player_id) > 0:
            task = asyncio.create_task(self._reconnect(table_id, player_id))
            self._background.add(task)
            task.add_done_callback(self._background.discard)

    async def stop(self) -> None:
        """Wait for (or cancel) the reconnections still under way."""
        for task in list(self._background):
            await stop_task(task)

    async def _reconnect(self, table_id: str, player_id: str) -> None:
        try:
            await self._service.execute(table_id, Reconnect(player_id=player_id,
                                                            now_ms=self._service.now_ms()))
        except (Rejection, ServiceError, StoreUnavailable, OSError) as exc:
            log.info("reconnect of %s at table %s not done: %s", player_id, table_id, exc)

    async def _quietly(self, table_id: str, command: Command) -> None:
        try:
            await self._service.execute(table_id, command)
        except Rejection as exc:
            log.debug("%s of table %s refused: %s", command.kind, table_id, exc)
        except (ServiceError, StoreUnavailable, OSError) as exc:
            log.warning("%s of table %s failed: %s", command.kind, table_id, exc)
