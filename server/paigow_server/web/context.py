"""``AppContext``: the services one server process holds, reachable from every handler.

The composition root (``paigow_server.app.build``) makes it, with the rest, and the lifespan keeps it on
``app.state.ctx``; HTTP and WebSocket handlers get it with ``context_of(request_or_websocket)``, and the
live side (``realtime.Realtime``, on ``app.state.realtime``) with ``realtime_of``. Nothing in it is the
source of truth: Redis is.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from starlette.requests import HTTPConnection

from paigow_server.process.analysis_pool import AnalysisPool
from paigow_server.process.metrics import Metrics
from paigow_server.process.settings import Settings
from paigow_server.realtime.play_block_guard import PlayBlockGuard
from paigow_server.realtime.presence import ConnectionCounter
from paigow_server.realtime.realtime import Realtime
from paigow_server.realtime.time_limits import TimeLimitGuard
from paigow_server.store.accounts import Accounts
from paigow_server.store.audit import AuditLog
from paigow_server.store.bars import Bars
from paigow_server.store.chat import ChatStore
from paigow_server.store.client import StoreClient
from paigow_server.store.hand_analyses import HandAnalyses
from paigow_server.store.help_notice import HelpNotice
from paigow_server.store.history import History
from paigow_server.store.home_tables import HomeTables
from paigow_server.store.ledger import Ledger
from paigow_server.store.live_hands import LiveHands
from paigow_server.store.practice import PracticeDeals
from paigow_server.store.tables import TableRepo
from paigow_server.store.top_ups import TopUps
from paigow_server.web.operator_auth import OperatorAuth
from paigow_server.web.passwords import Passwords
from paigow_server.web.rate_limits import RateLimits
from paigow_server.web.rounds_cache import RoundsCache
from paigow_server.web.sessions import Sessions

__all__ = ["AppContext", "SpectatorCounter", "context_of", "realtime_of"]


class SpectatorCounter(Protocol):
    """How many spectators watch a table (implemented by the fanout, which holds the connections)."""

    def count(self, table_id: str) -> int: ...


@dataclass(slots=True)
class AppContext:
    """A plain holder: ``paigow_server.app.build`` makes every service and hands them over."""

    settings: Settings
    redis: StoreClient
    """The store's handle, only to build store objects with (``store.client``)."""
    metrics: Metrics
    tables: TableRepo
    accounts: Accounts
    sessions: Sessions
    ledger: Ledger
    history: History
    audit: AuditLog
    passwords: Passwords
    operators: OperatorAuth
    rate_limits: RateLimits
    chat: ChatStore
    bars: Bars
    analyses: AnalysisPool
    hand_analyses: HandAnalyses
    practice: PracticeDeals
    spectators: SpectatorCounter
    """The fanout, which holds the connections."""
    spectator_networks: ConnectionCounter
    """Token-less table connections per address network in this process (``spectators_per_address``)."""
    rounds_cache: RoundsCache
    homes: HomeTables
    """Private tables' invites, admissions and indexes (docs/home-games.md)."""
    top_ups: TopUps
    play_blocks: PlayBlockGuard
    """Breaks and self-exclusions: the store (``.blocks``), the check and the stand-ups."""
    """Free top-ups for players out of chips (``store.top_ups``)."""
    live_hands: LiveHands
    """The seated players' hands in play, which ``POST /api/analyze`` may refuse (``store.live_hands``)."""
    help_notice: HelpNotice
    """The help notice at sign-in and sign-out (``store.help_notice``)."""
    play_limits: TimeLimitGuard
    """The players' limits: the store (``.limits``), the bet check's cache (``.risk``), the session time
    limit's stand-ups."""

    def close(self) -> None:
        """Stop the password hashing threads and the analysis processes."""
        self.passwords.close()
        self.analyses.stop()


def context_of(conn: HTTPConnection) -> AppContext:
    ctx = getattr(conn.app.state, "ctx", None)
    if not isinstance(ctx, AppContext):
        raise RuntimeError("the app's lifespan has not started: no AppContext on app.state.ctx")
    return ctx


def realtime_of(conn: HTTPConnection) -> Realtime:
    rt = getattr(conn.app.state, "realtime", None)
    if not isinstance(rt, Realtime):
        raise RuntimeError("the app's lifespan has not started the realtime services (app.state.realtime)")
    return rt
