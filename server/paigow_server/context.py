"""``AppContext``: the services one server process holds, reachable from every handler.

``create_app`` builds it in the lifespan and keeps it on ``app.state.ctx``; HTTP and WebSocket handlers get
it with ``context_of(request_or_websocket)``. Nothing in it is the source of truth: Redis is.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from redis.asyncio import Redis
from starlette.requests import HTTPConnection

from paigow_server.metrics import Metrics
from paigow_server.settings import Settings
from paigow_server.store.accounts import Accounts
from paigow_server.store.audit import AuditLog
from paigow_server.store.history import History
from paigow_server.store.ledger import Ledger
from paigow_server.store.tables import TableRepo

if TYPE_CHECKING:
    from paigow_server.sessions import Sessions

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
    tables: TableRepo
    accounts: Accounts
    sessions: Sessions
    ledger: Ledger
    history: History
    audit: AuditLog
    spectators: SpectatorCounter = field(default_factory=NoSpectators)

    @classmethod
    def build(cls, settings: Settings, redis: Redis, metrics: Metrics) -> AppContext:
        from paigow_server.sessions import Sessions

        accounts = Accounts(redis, starting_balance_cents=settings.starting_balance_cents)
        return cls(settings=settings, redis=redis, metrics=metrics,
                   tables=TableRepo(redis, log_length=settings.event_log_length), accounts=accounts,
                   sessions=Sessions(redis, accounts), ledger=Ledger(redis), history=History(redis),
                   audit=AuditLog(redis))


def context_of(conn: HTTPConnection) -> AppContext:
    ctx = getattr(conn.app.state, "ctx", None)
    if not isinstance(ctx, AppContext):
        raise RuntimeError("the app's lifespan has not started: no AppContext on app.state.ctx")
    return ctx
