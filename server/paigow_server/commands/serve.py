"""``paigow serve``: run the table server (uvicorn + websockets) on a Redis, private or given.

Every setting is an option here and a ``PAIGOW_*`` environment variable (the option wins); bad values stop
the start with a message naming the option or variable. Without ``--redis-url`` a private Redis keeps its
data in ``--data-dir``, started before the server: a folder another ``paigow serve`` uses stops the start
at once with one line naming it and that server's pid (exit status 1). SIGTERM or Ctrl-C shut down
gracefully: open WebSockets are closed with 1012 (service restart: reconnect), background tasks stop, then
Redis.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import logging
import os
import signal
import socket
import sys
from collections.abc import Iterator
from typing import Any, cast

import uvicorn

from paigow_server.process.embedded_redis import EmbeddedRedis, EmbeddedRedisError
from paigow_server.process.gc_policy import settle_gc
from paigow_server.process.settings import (
    SETTING_NAMES,
    Settings,
    SettingsError,
    env_name,
    load_settings,
    option_name,
)

_HELP: dict[str, str] = {
    "host": "address to listen on (default 127.0.0.1)",
    "port": "port to listen on (default 8000)",
    "redis_url": "Redis to use, e.g. redis://127.0.0.1:6379/0 (default: start a private one)",
    "redis_replica_acks": "replicas that must acknowledge each table commit (WAIT) before it is answered "
                          "accepted; auto (the default): 1 with redis+sentinel://, else 0",
    "redis_ack_timeout_ms": "how long a commit waits for those acknowledgements before the command is "
                            "answered UNCONFIRMED (default 500)",
    "data_dir": "folder of the private Redis's data (default ./paigow-data)",
    "operator_token": "bearer token of the operator API, at least 16 characters (default: a new one "
                      "generated and printed at every start; give one to keep it across restarts)",
    "allowed_origins": ("comma-separated extra origins allowed to open WebSockets (the server's own origin "
                        "is, when its host is in --allowed-hosts)"),
    "allowed_hosts": "comma-separated names the server answers to in the Host header (example.com, "
                     "*.example.com, 10.0.0.5, [::1], or * for any); others get 400 (default localhost, "
                     "127.0.0.1, [::1] and the --host address)",
    "starting_balance_cents": "play money of a new player, in cents, until an operator sets it with "
                              "PUT /api/operator/settings (default 100000)",
    "top_up_hours": "a player below every open table's minimum may take a free top-up back to the starting "
                    "balance once in this many hours; 0: off (default 24; an operator changes it with "
                    "PUT /api/operator/settings)",
    "top_ups_per_address_per_day": "free top-ups per address network per day, every account of it together "
                                   "(default 20)",
    "grace_seconds": "a dropped player's time to come back before the House Way sets their hand, "
                     "for new tables (default 60)",
    "max_frame_bytes": "largest WebSocket message accepted (default 16384)",
    "messages_per_second": "messages per second one connection may send (default 20)",
    "connections_per_player": "open connections one player may hold (default 4)",
    "event_log_length": "table events kept for resuming clients (default 500)",
    "log_level": "debug, info, warning or error (default info)",
    "log_format": "plain (the default: one line a person reads) or json (one JSON object per line, with the "
                  "table and round, for a deployment's log collector)",
    "starter_tables": "tables to open at start when there are none yet (default 1)",
    "ws_compression": "permessage-deflate on WebSocket frames: true or false (default false: it costs "
                      "CPU on every push)",
    "session_idle_days": "a session token lapses after this many days unused; every use extends it "
                         "(default 30)",
    "guest_retention_days": "a guest account unseen this many days is collected, its money returned to "
                            "the bank through the ledger (default 7)",
    "fresh_guest_minutes": "a new guest lapses after this many minutes unused until it first sits, chats, "
                           "is credited or is kept, and costs Redis a small hash meanwhile (default 60)",
    "guest_collect_seconds": "how often to look for guest accounts to collect (default 600)",
    "sign_in_max_wait_minutes": "the longest wait after failed sign-ins (doubling each time; default 15)",
    "operator_session_hours": "an operator session lapses after this many hours unused (default 12)",
    "sessions_per_minute": "new sessions (guests and registrations) per client address per minute "
                           "(default 10)",
    "sign_ins_per_minute": "sign-in attempts per client address per minute (default 10)",
    "chat_per_minute": "table chat messages per account per minute (default 10)",
    "analyses_per_minute": "split analyses per account per minute (default 10)",
    "analysis_workers": "processes that run split analyses off the event loop (default 1)",
    "analysis_queue_per_client": "analyses one account or one address network may have waiting or running "
                                 "in a process (default 2)",
    "guests_per_minute": "new guests per minute on the whole deployment, every address together "
                         "(default 120)",
    "limit_ipv4_prefix": "per-address limits count IPv4 clients by network of this many bits (default 24)",
    "limit_ipv6_prefix": "per-address limits count IPv6 clients by network of this many bits (default 64)",
    "chat_per_address_per_minute": "table chat messages per address network per minute (default 20)",
    "account_settings_per_minute": "changes of an account's own settings (its language) per account per "
                                   "minute (default 10)",
    "data_downloads_per_hour": "downloads of a player's own data (GET /api/account/data) per account per "
                               "hour (default 6)",
    "practice_deals_per_minute": "practice deals per account and per address network per minute "
                                 "(default 30)",
    "round_reads_per_minute": "GET /api/tables/{id}/rounds per address network per minute (default 120)",
    "home_tables_per_account": "private tables (home games) one account may have open (default 3)",
    "home_tables_max": "private tables open on the whole deployment (default 200)",
    "home_idle_close_minutes": "a private table with nobody seated closes after this long (default 30)",
    "home_host_grace_seconds": "a host who left keeps the role this long (default 120)",
    "home_max_bet_cents": "the highest maximum bet a host may set (default 100000)",
    "home_max_buy_in_cents": "the most a buy-in, rebuy or chip correction may be at a home game with its "
                             "own chips (default 1000000)",
    "seat_offer_seconds": "how long a waiting-list offer holds a free seat (default 30)",
    "invite_lookups_per_minute": "invite code look-ups per address network and per account per minute "
                                 "(default 10)",
    "short_code_lookups_per_minute": "short invite code look-ups per minute on the whole deployment, every "
                                     "address together; the long code of a link is never held back "
                                     "(default 300)",
    "host_messages_per_minute": "host messages at private tables per sender per minute, refused ones too, "
                                "each audited (default 30)",
    "spectators_per_address": "token-less table connections per address network in one process "
                              "(default 20)",
    "trusted_proxies": "comma-separated addresses or CIDR networks of your proxies, whose "
                       "X-Forwarded-For is believed (default none)",
    "argon2_memory_kib": "argon2id memory per password hash in KiB (default 47104: 46 MiB)",
    "argon2_time_cost": "argon2id passes per password hash (default 1)",
    "argon2_parallelism": "argon2id lanes per password hash (default 1)",
    "responsible_play": "the responsible-play set: the help notice, no live aid (true or false; default "
                        "true; docs/responsible-play.md)",
    "no_live_aid": "POST /api/analyze refuses a seated player's live hand until its round settles: true, "
                   "false or auto (the default: as --responsible-play)",
    "help_notice": "the help notice shown at sign-in and after signing out, plain text of at most 1,000 "
                   "characters (default none), until an operator sets one with PUT /api/operator/settings",
    "limits_timezone": "the IANA time zone of the players' limit periods: a day from 00:00, a week from "
                       "Monday 00:00, a month from the 1st (default UTC)",
    "session_limit_pause_minutes": "after a session time limit ended a player's session, sitting again is "
                                   "refused for this many minutes (default 60)",
    "reality_check_minutes": "the default reality-check interval in minutes for a player who chose none "
                             "(default 60; 0 off; else 5..1440)",
}

SERVE_STARTER_TABLES = "1"
"""``paigow serve`` on an empty Redis opens one table, so a new user can play at once."""

GRACEFUL_SHUTDOWN_S = 10


class _Server(uvicorn.Server):
    """uvicorn re-raises the stop signal after its graceful shutdown (so the exit status says "killed");
    a finished graceful shutdown is a success here, so the status is 0. Once started (the lifespan has run:
    Redis, tables, timers), the garbage collector is settled for serving (``gc_policy``)."""

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        if self.started:
            settle_gc()

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        handled = (signal.SIGINT, signal.SIGTERM)
        original = {sig: signal.signal(sig, self.handle_exit) for sig in handled}
        try:
            yield
        finally:
            for sig, handler in original.items():
                signal.signal(sig, handler)


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "serve", help="run the table server",
        description="Run the Pai Gow Poker table server. Each option can also be set with the environment "
                    "variable shown.")
    for name in SETTING_NAMES:
        parser.add_argument(option_name(name), dest=name, default=None, metavar=name.split("_")[-1].upper(),
                            help=f"{_HELP[name]} [{env_name(name)}]")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        cli = {name: getattr(args, name) for name in SETTING_NAMES}
        if cli["starter_tables"] is None and env_name("starter_tables") not in os.environ:
            cli["starter_tables"] = SERVE_STARTER_TABLES
        settings = load_settings(cli, os.environ)
    except SettingsError as exc:
        print(f"paigow serve: {exc}", file=sys.stderr)
        return 2

    from paigow_server.process.logs import configure_logging

    configure_logging(settings.log_level, settings.log_format)
    embedded: EmbeddedRedis | None = None
    if settings.redis_url is None:
        # Started here, before the server, so a refusal (the data folder in use, no redis-server) is one
        # plain line and a non-zero exit at once, not a failed application start.
        embedded = EmbeddedRedis(settings.data_dir)
        try:
            url = embedded.start()
        except EmbeddedRedisError as exc:
            print(f"paigow serve: {exc}", file=sys.stderr)
            return 1
        logging.getLogger("paigow_server.app").info(
            "started a private Redis", extra={"redis_url": url, "data_dir": str(settings.data_dir)})
        settings = dataclasses.replace(settings, redis_url=url)
    try:
        return _serve(settings)
    finally:
        if embedded is not None:
            embedded.stop()


def _serve(settings: Settings) -> int:
    from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

    from paigow_server.app import create_app
    from paigow_server.web.client_address import KeepPeer
    from paigow_server.web.ws_protocol import WebSocketProtocol

    app = create_app(settings)
    shown = settings.base_url
    if settings.host in ("0.0.0.0", "::"):  # every interface: show one that works on this machine
        shown = f"{shown} (all interfaces; on this machine http://127.0.0.1:{settings.port})"
    print(f"paigow: serving on {shown}", flush=True)
    hosts = ", ".join(settings.trusted_hosts)
    if settings.allowed_hosts is None and settings.host in ("0.0.0.0", "::"):
        hosts += " (set --allowed-hosts to the names clients reach this server by)"
    print(f"paigow: answering requests whose Host is {hosts}", flush=True)
    if settings.operator_token_generated:
        print(f"paigow: operator token (generated for this run): {settings.operator_token}", flush=True)
        print("paigow: to keep one across restarts, start with --operator-token TOKEN or set "
              "PAIGOW_OPERATOR_TOKEN (at least 16 characters)", flush=True)
    config = uvicorn.Config(app, host=settings.host, port=settings.port, ws=WebSocketProtocol,
                            ws_max_size=settings.max_frame_bytes,
                            ws_per_message_deflate=settings.ws_compression, lifespan="on", log_config=None,
                            timeout_graceful_shutdown=GRACEFUL_SHUTDOWN_S, server_header=False,
                            proxy_headers=False)
    # uvicorn's proxy headers still set the scheme (and its idea of the client) from FORWARDED_ALLOW_IPS,
    # but inside KeepPeer, so the per-address limits see the real peer and only trusted_proxies widen it
    proxied: Any = ProxyHeadersMiddleware(cast(Any, app), trusted_hosts=config.forwarded_allow_ips)
    config.app = KeepPeer(proxied)
    server = _Server(config)
    server.run()
    return 0 if server.started else 1
