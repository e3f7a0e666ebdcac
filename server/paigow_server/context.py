"""``AppContext``: the services one server process holds, reachable from every handler.

``create_app`` builds it in the lifespan and keeps it on ``app.state.ctx``; HTTP and WebSocket handlers get
it with ``context_of(request_or_websocket)``. Nothing in it is the source of truth: Redis is.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from redis.asyncio import Redis
from starlette.requests import HTTPConnection

from paigow_server.metrics import Metrics
from paigow_server.settings import Settings

__all__ = ["AppContext", "NoSpectators", "SpectatorCounter", "context_of"]


class SpectatorCounter(Protocol):
    """How many spectators watch a table (implemented by the fanout, which holds the connections)."""

    def count(self, table_id: str) -> int: ...


class NoSpectators:
    def count(self, table_id: str) -> int:
        return 0


@dataclass(slots=True)
class AppContext:
    settings: Settings
    redis: Redis
    metrics: Metrics
    spectators: SpectatorCounter = field(default_factory=NoSpectators)


def context_of(conn: HTTPConnection) -> AppContext:
    ctx = getattr(conn.app.state, "ctx", None)
    if not isinstance(ctx, AppContext):
        raise RuntimeError("the app's lifespan has not started: no AppContext on app.state.ctx")
    return ctx
