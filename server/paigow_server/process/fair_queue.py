"""``FairQueue``: fair shares of a few workers among many clients, in one process.

At most ``capacity`` holders run at once. A request names its account and its address network
(``RateLimits.client_network``) and a ``Priority``; when every place is taken it waits, and a freed place
goes to the highest priority class that has a waiter, and within it to the network whose turn it is: the
waiting network served least recently (one not served since it last held nothing comes first), each
network's own waiters first come first served. So networks take turns, and a network with many waiters gets
a place in turn like a network with one; a newcomer waits for at most the analyses already holding places.
Each account and each network holds at most ``per_client`` places (waiting or running); past that ``turn``
raises ``QueueFull`` at once, without waiting. Past ``max_waiting`` waiters in all it raises ``QueueBusy``.
Neither refusal changes anything.

Holding no state in Redis, the shares are per process; the per-account rate limits (``RateLimits``) are
the deployment's.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter, deque
from collections.abc import AsyncIterator
from enum import IntEnum

from paigow_server.errors import ServerError

__all__ = ["FairQueue", "Priority", "QueueBusy", "QueueFull"]


class Priority(IntEnum):
    """Served lowest first."""

    PLAYED = 0
    """A seated player's hand of the table's last settled round."""
    OTHER = 1
    """Everything else: seven cards (``POST /api/analyze``), practice answers, older hands (history)."""


class QueueFull(ServerError):
    """This account or network already holds its places."""

    code = "ANALYSIS_QUEUE_FULL"
    http_status = 429

    def __init__(self, who: str, places: int) -> None:
        super().__init__(f"{who} already has {places} analyses waiting or running")
        self.who = who
        self.places = places


class QueueBusy(ServerError):
    """Every waiting place of the process is taken."""

    code = "ANALYSIS_BUSY"
    http_status = 503


class FairQueue:
    def __init__(self, capacity: int, *, per_client: int, max_waiting: int) -> None:
        self.capacity = capacity
        self.per_client = per_client
        self.max_waiting = max_waiting
        self._running = 0
        self._waiting = 0
        self._held: Counter[str] = Counter()
        self._served: dict[str, int] = {}
        """When each network holding places was last given a worker (a count of grants)."""
        self._grants = 0
        self._queues: list[dict[str, deque[asyncio.Future[None]]]] = [{} for _ in Priority]

    @property
    def waiting(self) -> int:
        return self._waiting

    @property
    def running(self) -> int:
        return self._running

    @contextlib.asynccontextmanager
    async def turn(self, account: str, network: str, priority: Priority) -> AsyncIterator[None]:
        """Wait for a worker in turn; raises ``QueueFull`` or ``QueueBusy`` before waiting at all."""
        clients = (f"account {account}", f"network {network}")
        for who in clients:
            if self._held[who] >= self.per_client:
                raise QueueFull(who, self.per_client)
        must_wait = self._running >= self.capacity or self._waiting > 0
        if must_wait and self._waiting >= self.max_waiting:
            raise QueueBusy(f"all {self.max_waiting} waiting places are taken")
        self._held.update(clients)
        try:
            if must_wait:
                await self._wait(network, priority)
            else:
                self._running += 1
                self._grant(network)
            try:
                yield
            finally:
                self._release()
        finally:
            self._held.subtract(clients)
            for who in clients:
                if self._held[who] <= 0:
                    del self._held[who]
            if clients[1] not in self._held:
                self._served.pop(network, None)

    async def _wait(self, network: str, priority: Priority) -> None:
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        queues = self._queues[priority]
        queues.setdefault(network, deque()).append(waiter)
        self._waiting += 1
        try:
            await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():  # granted, then cancelled before it ran
                self._release()
            else:
                self._forget(queues, network, waiter)
            raise

    def _forget(self, queues: dict[str, deque[asyncio.Future[None]]], network: str,
                waiter: asyncio.Future[None]) -> None:
        queue = queues.get(network)
        if queue is not None and waiter in queue:
            queue.remove(waiter)
            self._waiting -= 1
            if not queue:
                del queues[network]

    def _release(self) -> None:
        self._running -= 1
        while self._running < self.capacity and self._waiting > 0:
            network, waiter = self._next()
            if not waiter.done():  # else cancelled while it waited
                self._running += 1
                self._grant(network)
                waiter.set_result(None)

    def _grant(self, network: str) -> None:
        self._grants += 1
        self._served[network] = self._grants

    def _next(self) -> tuple[str, asyncio.Future[None]]:
        """The first waiter of the network whose turn it is, in the highest class that has one."""
        for queues in self._queues:
            if queues:
                network = min(queues, key=lambda n: self._served.get(n, 0))
                queue = queues[network]
                waiter = queue.popleft()
                self._waiting -= 1
                if not queue:
                    del queues[network]
                return network, waiter
        raise RuntimeError("no waiter although the count says there is one")  # pragma: no cover
