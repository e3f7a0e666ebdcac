"""``AppContext``: the services one server process holds, reachable from every handler.

``create_app`` builds it in the lifespan and keeps it on ``app.state.ctx``; HTTP and WebSocket handlers get
it with ``context_of(request_or_websocket)``, and the live side (``realtime.Realtime``, on
``app.state.realtime``) with ``realtime_of``. Nothing in it is the source of truth: Redis is.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from starlette.requests import HTTPConnection

from paigow_server.process.analysis_pool import AnalysisPool
from paigow_server.process.metrics import Metrics
from paigow_server.process.settings import Settings
from paigow_server.realtime.presence import ConnectionCounter
from paigow_server.realtime.realtime import Realtime
from paigow_server.store import keys
from paigow_server.store.accounts import Accounts
from paigow_server.store.audit import AuditLog
from paigow_server.store.bars import Bars
from paigow_server.store.channels import Channels
from paigow_server.store.chat import ChatStore
from paigow_server.store.client import StoreClient
from paigow_server.store.credentials import Credentials
from paigow_server.store.device_keys import DeviceKey
from paigow_server.store.durability import Durability
from paigow_server.store.hand_analyses import HandAnalyses
from paigow_server.store.history import History
from paigow_server.store.ledger import Ledger
from paigow_server.store.operators import OperatorAccounts
from paigow_server.store.practice import PracticeDeals
from paigow_server.store.rate_counters import RateCounters
from paigow_server.store.session_tokens import SessionTokens
from paigow_server.store.sign_ins import SignInGuard
from paigow_server.store.tables import TableRepo
from paigow_server.web.client_address import TrustedProxies
from paigow_server.web.device_tokens import DeviceTokens
from paigow_server.web.operator_auth import OperatorAuth
from paigow_server.web.passwords import Passwords
from paigow_server.web.rate_limits import Limit, RateLimits
from paigow_server.web.rounds_cache import RoundsCache
from paigow_server.web.sessions import Sessions

__all__ = ["AppContext", "NoSpectators", "SpectatorCounter", "context_of", "realtime_of"]


class SpectatorCounter(Protocol):
    """How many spectators watch a table (implemented by the fanout, which holds the connections)."""

    def count(self, table_id: str) -> int: ...


class NoSpectators:
    def count(self, table_id: str) -> int:
        return 0


@dataclass(slots=True)
class AppContext:
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
    spectators: SpectatorCounter = field(default_factory=NoSpectators)
    spectator_networks: ConnectionCounter = field(default_factory=lambda: ConnectionCounter(20))
    """Token-less table connections per address network in this process (``spectators_per_address``)."""
    rounds_cache: RoundsCache = field(default_factory=RoundsCache)

    @classmethod
    def build(cls, settings: Settings, redis: StoreClient, metrics: Metrics) -> AppContext:
        """The services; ``close()`` it when done (the password hashing threads, the analysis processes)."""
        accounts = Accounts(redis, starting_balance_cents=settings.starting_balance_cents)
        passwords = Passwords(memory_kib=settings.argon2_memory_kib, time_cost=settings.argon2_time_cost,
                              parallelism=settings.argon2_parallelism)
        max_wait_ms = settings.sign_in_max_wait_minutes * 60_000
        devices = DeviceTokens(DeviceKey(redis))
        revocations = Channels(redis)
        player_tokens = SessionTokens(redis, session_key=keys.session, owner_set=keys.player_sessions,
                                      idle_ms=settings.session_idle_ms)
        operator_tokens = SessionTokens(redis, session_key=keys.operator_session,
                                        owner_set=keys.operator_sessions,
                                        idle_ms=settings.operator_session_ms)
        return cls(settings=settings, redis=redis, metrics=metrics,
                   tables=TableRepo(redis, log_length=settings.event_log_length,
                                    durability=Durability(settings.replica_acks,
                                                          settings.redis_ack_timeout_ms)), accounts=accounts,
                   sessions=Sessions(accounts, Credentials(redis), player_tokens,
                                     SignInGuard(redis, "player", max_wait_ms=max_wait_ms), revocations,
                                     passwords, devices, fresh_ms=settings.fresh_guest_ms),
                   ledger=Ledger(redis), history=History(redis), audit=AuditLog(redis), passwords=passwords,
                   operators=OperatorAuth(OperatorAccounts(redis), operator_tokens,
                                          SignInGuard(redis, "operator", max_wait_ms=max_wait_ms),
                                          revocations, settings.operator_token, passwords, devices),
                   rate_limits=RateLimits(RateCounters(redis), TrustedProxies(settings.trusted_proxies),
                                          {Limit.SESSIONS: settings.sessions_per_minute,
                                           Limit.SIGN_INS: settings.sign_ins_per_minute,
                                           Limit.CHAT: settings.chat_per_minute,
                                           Limit.ANALYSES: settings.analyses_per_minute,
                                           Limit.GUESTS: settings.guests_per_minute,
                                           Limit.CHAT_NETWORK: settings.chat_per_address_per_minute,
                                           Limit.PRACTICE_DEALS: settings.practice_deals_per_minute,
                                           Limit.ROUND_READS: settings.round_reads_per_minute},
                                          ipv4_prefix=settings.limit_ipv4_prefix,
                                          ipv6_prefix=settings.limit_ipv6_prefix),
                   chat=ChatStore(redis), bars=Bars(redis), analyses=AnalysisPool(settings.analysis_workers,
                                                                     per_client=settings.analysis_queue_per_client),
                   hand_analyses=HandAnalyses(redis), practice=PracticeDeals(redis),
                   spectator_networks=ConnectionCounter(settings.spectators_per_address))

    def close(self) -> None:
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
