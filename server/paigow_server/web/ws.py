"""``WS /ws/tables/{table_id}``: one connection per viewer of a table.

The flow: the upgrade's ``Host`` is checked (``hosts``: refused with HTTP 400) and its ``Origin``
(``ws_limits.origin_allowed``: refused with HTTP 403); the client's first message is
``hello`` (protocol version, optional session token, optional ``last_version``); a token makes it the
player's connection, none (or ``spectate``) a spectator's, the operator token the operator's (it watches
with the admin view). The server answers with a ``snapshot`` (or the
events missed since ``last_version``), then pushes every change. Each command gets ``accepted`` or
``error`` naming its id; how it is sent (in one write per loop iteration, a client that falls behind
closed) is ``ws_send.Sender``'s, which a connection is. Each player connection tells ``presence`` when it
opens and closes: a seated player whose last connection closes is dropped (away, with the table's grace
time); their next hello reconnects them. A player's accepted command notes the connection's address network
at the table (``store.networks``: the operator's second looks, docs/floor.md).

Bad input never closes a healthy connection: it gets an ``error`` with a code and changes nothing. Only
the limits close: a frame over ``max_frame_bytes`` (1009), a flood over the message rate (1008), too many
connections of one player, or token-less ones from one address network (``spectators_per_address``: 4429);
and a wrong protocol version (4426), an unknown, expired or revoked token (4401, also when it is revoked or
lapses while the connection is open: ``session_watch``), an unknown table (4404) or no hello in time (4408).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Mapping
from typing import Protocol

from starlette.routing import BaseRoute, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from paigow.protocol.client import Chat, ClientCommand, Hello, Ping, Sync
from paigow.protocol.codes import CloseCode, ErrorCode
from paigow.protocol.convert import to_command
from paigow.protocol.parse import ProtocolError, client_id_of, parse_client_message
from paigow.protocol.server import ErrorMessage, Pong
from paigow.protocol.version import PROTOCOL_VERSION, SUPPORTED_PROTOCOLS
from paigow.table.rejections import RejectCode, Rejection
from paigow.table.state import KickedBy
from paigow.table.views import OperatorViewer, PlayerViewer, SpectatorViewer, Viewer
from paigow_server.errors import ServerError, wire_error
from paigow_server.realtime.presence import ConnectionCounter
from paigow_server.realtime.realtime import Realtime
from paigow_server.realtime.table_feed import TableGoneError
from paigow_server.store.bars import Bar
from paigow_server.store.errors import StoreUnavailable
from paigow_server.store.networks import NetworkSightings
from paigow_server.web.barred import barred_message
from paigow_server.web.chat import ChatPoster, ChatSender
from paigow_server.web.context import context_of, realtime_of
from paigow_server.web.home_gate import HomeGate, is_private_id
from paigow_server.web.operator_auth import OperatorAuthError
from paigow_server.web.play_checks import check_play
from paigow_server.web.sessions import Identity
from paigow_server.web.ws_home import HOST_MESSAGES, SITTING, hello_refusal, host_message, host_refused
from paigow_server.web.ws_limits import RateLimiter, Verdict, origin_allowed
from paigow_server.web.ws_send import Sender, accepted_text

__all__ = ["BarLookup", "OperatorLookup", "SessionLookup", "TableConnection", "ws_routes"]

log = logging.getLogger("paigow_server.ws")

HELLO_TIMEOUT_S = 10.0
NOTE_EVERY_S = 600.0
"""A player's address network is noted at their first accepted command, then at most this often."""


class SessionLookup(Protocol):
    """``sessions.Sessions``, as the hello sees it."""

    async def identify(self, token: str) -> Identity | None:
        """The player of a session token, or None when the token is unknown."""
        ...


class OperatorLookup(Protocol):
    """``operator_auth.OperatorAuth``, as the hello sees it."""

    async def actor_of(self, token: str) -> str:
        """The operator of a bootstrap or operator session token; raises ``OperatorAuthError``."""
        ...


class BarLookup(Protocol):
    """``bars.Bars``, as a ``sit`` sees it."""

    async def get(self, table_id: str, player_id: str) -> Bar | None:
        """The player's bar at that table while it runs, else None."""
        ...


def ws_routes() -> list[BaseRoute]:
    return [WebSocketRoute("/ws/tables/{table_id}", table_socket)]


async def table_socket(websocket: WebSocket) -> None:
    rt = realtime_of(websocket)
    origin = websocket.headers.get("origin")
    if not origin_allowed(origin, websocket.headers.get("host"), scheme=websocket.url.scheme,
                          origins=rt.settings.allowed_origins, hosts=rt.settings.trusted_hosts):
        log.info("refused a WebSocket from origin %r", origin)
        await websocket.close(code=CloseCode.POLICY_VIOLATION)  # before accept: HTTP 403
        return
    await websocket.accept()
    ctx = context_of(websocket)
    conn = TableConnection(websocket, rt, websocket.path_params["table_id"], sessions=ctx.sessions,
                           operators=ctx.operators, bars=ctx.bars,
                           chat=ChatPoster(ctx.chat, ctx.rate_limits, rt.fanout.state_of,
                                           ctx.accounts.fresh.settle),
                           network=ctx.rate_limits.client_network(websocket),
                           spectator_networks=ctx.spectator_networks, sightings=NetworkSightings(ctx.redis),
                           home=HomeGate(ctx.homes, ctx.bars, ctx.audit, rt.store.load, ctx.rate_limits))
    await conn.run()


class _Closed(Exception):
    """The connection is over (closed by either side); unwinds the receive loop."""


class TableConnection(Sender):
    """One client connection: reads frames, answers them, and sends what the fanout delivers."""

    def __init__(self, websocket: WebSocket, rt: Realtime, table_id: str, *, sessions: SessionLookup,
                 operators: OperatorLookup, bars: BarLookup, chat: ChatPoster, network: str = "unknown",
                 spectator_networks: ConnectionCounter | None = None, home: HomeGate | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 sightings: NetworkSightings | None = None) -> None:
        super().__init__(websocket, table_id)
        self.rt = rt
        self._sessions = sessions
        self._operators = operators
        self._chat = chat
        self._bars = bars
        self._home = home
        """Private tables' hello and host messages (None: the table is public, or a test left it out)."""
        self.network = network
        """The client's address network (``RateLimits.client_network``), for the per-address limits."""
        self._spectator_networks = spectator_networks
        self._counted_network: str | None = None
        self._sightings = sightings
        """Where the accounts playing from each network are noted (``store.networks``; None: not noted)."""
        self._noted_at: float | None = None
        self.identity: Identity | None = None
        self.token: str | None = None
        """The player's session token (``session_watch`` re-checks it while the connection is open)."""
        self.operator: str | None = None
        """The operator's name (``"bootstrap"`` or a named operator) on an operator connection."""
        self.operator_token: str | None = None
        self._viewer: Viewer = SpectatorViewer()
        self._clock = clock
        settings = rt.settings
        self._max_frame = settings.max_frame_bytes
        rate = float(settings.messages_per_second)
        self._limiter = RateLimiter(rate=rate, burst=rate, flood_after=2 * rate)
        self._joined = False
        self._counted_player: str | None = None

    @property
    def viewer(self) -> Viewer:  # the fanout's Subscriber: this and ``deliver`` (``Sender``)
        return self._viewer

    # --- the connection ---------------------------------------------------------------------------------
    async def run(self) -> None:
        sender = asyncio.create_task(self._send_loop(), name=f"ws-send-{self.table_id}")
        self.rt.connections.add(self)
        try:
            async with asyncio.timeout(HELLO_TIMEOUT_S):
                hello = await self._await_hello()
            if hello is not None and await self._greet(hello):
                while not self._closing:
                    await self._handle(await self._receive())
        except (_Closed, WebSocketDisconnect):
            pass
        except TimeoutError:
            self._close_soon(CloseCode.HELLO_TIMEOUT, "no hello in time")
        except Exception:  # e.g. the store is down while greeting: tell the client to come back
            log.exception("connection to table %s failed", self.table_id)
            self._error(None, ErrorCode.INTERNAL_ERROR, "the server could not serve this connection")
            self._close_soon(CloseCode.INTERNAL_ERROR, "server error: reconnect with your last version")
        finally:
            self.rt.connections.discard(self)
            try:
                await self._finish()
            except Exception:  # the store may be down: the connection still ends cleanly
                log.exception("cleanup of a connection to table %s failed", self.table_id)
            self._close_soon(CloseCode.NORMAL, "")
            with contextlib.suppress(Exception):  # the client may be gone already
                await asyncio.wait_for(sender, 2.0)
            sender.cancel()

    async def _await_hello(self) -> Hello | None:
        while not self._closing:
            msg = await self._receive()
            if isinstance(msg, Hello):
                return msg
            if msg is not None:
                self._error(getattr(msg, "id", None), ErrorCode.HELLO_REQUIRED,
                            f"say hello first: {{\"type\": \"hello\", \"protocol\": {PROTOCOL_VERSION}}}, "
                            f"not {msg.type!r}")
        return None

    async def _greet(self, hello: Hello) -> bool:
        """Check the hello, join the table's feed, reconnect a dropped player. False: closing."""
        if hello.protocol not in SUPPORTED_PROTOCOLS:
            return self._refuse(ErrorCode.UNSUPPORTED_PROTOCOL, CloseCode.UNSUPPORTED_PROTOCOL,
                                f"protocol {hello.protocol} is not spoken here; supported: "
                                f"{sorted(SUPPORTED_PROTOCOLS)}")
        if hello.operator_token is not None:
            try:
                self.operator = await self._operators.actor_of(hello.operator_token)
            except OperatorAuthError as exc:
                return self._refuse(ErrorCode.UNAUTHORIZED, CloseCode.UNAUTHORIZED, exc.message)
            self.operator_token = hello.operator_token
            self._viewer = OperatorViewer()
        elif hello.token is not None:
            identity = await self._sessions.identify(hello.token)
            if identity is None:
                return self._refuse(ErrorCode.UNAUTHORIZED, CloseCode.UNAUTHORIZED,
                                    "unknown, expired or signed-out session token: sign in or start a "
                                    "new session")
            self.identity = identity
            self.token = hello.token
            if not hello.spectate:
                self._viewer = PlayerViewer(identity.player_id)
        if not await self._may_enter(hello):
            return False
        if isinstance(self._viewer, PlayerViewer):
            player_id = self._viewer.player_id
            if not self.rt.player_connections.acquire(player_id):
                return self._refuse(ErrorCode.TOO_MANY_CONNECTIONS, CloseCode.TOO_MANY_CONNECTIONS,
                                    f"at most {self.rt.player_connections.limit} connections per player")
            self._counted_player = player_id
        elif self.identity is None and self.operator is None and self._spectator_networks is not None:
            if not self._spectator_networks.acquire(self.network):
                return self._refuse(ErrorCode.TOO_MANY_CONNECTIONS, CloseCode.TOO_MANY_CONNECTIONS,
                                    f"at most {self._spectator_networks.limit} connections without a session "
                                    f"token from {self.network}: say hello with a session token")
            self._counted_network = self.network
        if isinstance(self._viewer, PlayerViewer) and not is_private_id(self.table_id):
            # A barred player may watch a public table: told of the bar before the snapshot, so that a page
            # never offers them a seat (at a private table the bar refused the hello).
            await self._barred(None, self._viewer.player_id)
        try:
            await self.rt.fanout.join(self.table_id, self, hello.last_version)
        except TableGoneError:
            return self._refuse(ErrorCode.TABLE_NOT_FOUND, CloseCode.TABLE_NOT_FOUND,
                                f"no table {self.table_id!r}")
        self._joined = True
        self.rt.metrics.connections.labels(role=self._role()).inc()
        if isinstance(self._viewer, PlayerViewer):
            await self.rt.presence.opened(self.table_id, self._viewer.player_id)
        return True

    async def _may_enter(self, hello: Hello) -> bool:
        """A private table's access (``ws_home``); a public table lets every hello in."""
        refusal = await hello_refusal(self._home, self.table_id, hello, self.identity,
                                      spectate=not isinstance(self._viewer, PlayerViewer),
                                      operator=self.operator is not None)
        return refusal is None or self._refuse(refusal.code, CloseCode.FORBIDDEN, refusal.message,
                                               until_ms=refusal.until_ms, by=refusal.by)

    async def _finish(self) -> None:
        if self._counted_network is not None and self._spectator_networks is not None:
            network, self._counted_network = self._counted_network, None
            self._spectator_networks.release(network)
        if self._joined:
            self.rt.metrics.connections.labels(role=self._role()).dec()
            await self.rt.fanout.leave(self)
        if self._counted_player is not None:
            player_id, self._counted_player = self._counted_player, None
            self.rt.player_connections.release(player_id)
            if self._joined:
                await self.rt.presence.closed(self.table_id, player_id)

    def _role(self) -> str:
        if isinstance(self._viewer, PlayerViewer):
            return "player"
        return "operator" if isinstance(self._viewer, OperatorViewer) else "spectator"

    # --- frames -----------------------------------------------------------------------------------------
    async def _receive(self) -> Hello | Sync | Ping | ClientCommand | Chat | None:
        """The next frame as a message; None when it was refused (the error is already queued)."""
        message = await self.ws.receive()
        if message["type"] == "websocket.disconnect":
            raise _Closed
        received = self._clock()
        verdict = self._limiter.check(received)
        if verdict is Verdict.FLOOD:
            self._error(None, ErrorCode.RATE_LIMITED, "message flood: closing the connection")
            self._close_soon(CloseCode.POLICY_VIOLATION, "message flood")
            raise _Closed
        text = message.get("text")
        if text is None:
            self._error(None, ErrorCode.MALFORMED_JSON, "binary frames are not accepted: send JSON text")
            return None
        try:
            size = len(text) if len(text) > self._max_frame else len(text.encode())
        except UnicodeEncodeError as exc:  # ws_protocol delivers each byte of bad UTF-8 as a lone surrogate
            self._error(None, ErrorCode.MALFORMED_JSON,
                        f"the text frame is not valid UTF-8 (from character {exc.start} on)")
            return None
        if size > self._max_frame:
            self._error(None, ErrorCode.FRAME_TOO_LARGE, f"frame over {self._max_frame} bytes")
            self._close_soon(CloseCode.MESSAGE_TOO_BIG, "frame too large")
            raise _Closed
        if verdict is Verdict.LIMITED:
            rate = self.rt.settings.messages_per_second
            await self._refuse_frame(text, client_id_of(text), ErrorCode.RATE_LIMITED,
                                     f"over {rate} messages per second: dropped, send it again")
            return None
        try:
            return parse_client_message(text)
        except ProtocolError as exc:
            await self._refuse_frame(text, exc.client_id, exc.code, exc.message)
            return None

    async def _refuse_frame(self, frame: str | ClientCommand, client_id: str | None, code: ErrorCode,
                            message: str) -> None:
        """Answer a frame (or a command) refused before the table saw it; after the hello, a host message at a
        private table is audited, or ``RATE_LIMITED`` past its sender's budget (``ws_home.host_refused``)."""
        self._error(client_id, *(await host_refused(self._home, self, frame, code, message) if self._joined
                                 else (code, message)))

    async def _handle(self, msg: Hello | Sync | Ping | ClientCommand | Chat | None) -> None:
        """Answer one message. A failure of the server's own (a bug, a lost store) is answered with
        INTERNAL_ERROR and logged: it never takes the connection down."""
        try:
            await self._dispatch(msg)
        except (_Closed, WebSocketDisconnect, asyncio.CancelledError):
            raise
        except Exception:
            log.exception("%s on table %s failed", getattr(msg, "type", "?"), self.table_id)
            self._error(getattr(msg, "id", None), ErrorCode.INTERNAL_ERROR,
                        "the server could not do that; nothing changed")

    async def _dispatch(self, msg: Hello | Sync | Ping | ClientCommand | Chat | None) -> None:
        match msg:
            case None:
                return
            case Hello():
                self._error(None, ErrorCode.ALREADY_GREETED, "this connection already said hello")
            case Ping(id=ping_id):
                self._send(Pong(id=ping_id).model_dump_json())
            case Sync(last_version=last):
                await self.rt.fanout.resync(self, last)
            case Chat():
                await self._post_chat(msg)
            case _:
                await self._command(msg)

    async def _command(self, msg: ClientCommand) -> None:
        received_at = time.perf_counter()
        if not isinstance(self._viewer, PlayerViewer) or self.identity is None:
            await self._refuse_frame(msg, msg.id, ErrorCode.SPECTATOR_CANNOT_ACT,
                                     "this connection only watches: say hello with a session token to play"
                                     + (" (operator actions go through /api/operator)"
                                        if isinstance(self._viewer, OperatorViewer) else ""))
            return
        command = to_command(msg, player_id=self.identity.player_id, name=self.identity.name,
                             now_ms=self.rt.service.now_ms())
        try:
            if isinstance(msg, SITTING) and await self._barred(msg.id, self.identity.player_id):
                return
            await check_play(self.rt.play_blocks, msg, self.identity.player_id)
            if isinstance(msg, HOST_MESSAGES):
                version = await host_message(self._home, self.rt.service, self.table_id, msg, self.identity,
                                             command)
                self._send(accepted_text(msg.id, version))
                return
            executed = await self.rt.service.execute(self.table_id, command, received_at=received_at)
        except (StoreUnavailable, OSError) as exc:
            self.rt.metrics.redis_errors.labels(operation="command").inc()
            log.error("command %s on table %s failed: %s", msg.type, self.table_id, exc)
            self._error(msg.id, ErrorCode.INTERNAL_ERROR, "the data store is unavailable; nothing changed")
        except (Rejection, ServerError) as exc:
            self._refused(msg.id, exc)
        else:
            self._send(accepted_text(msg.id, executed.version))
            await self._note_network(self.identity.player_id)

    async def _note_network(self, player_id: str) -> None:
        """Note that the player plays at this table from this connection's address network (the second
        looks' shared networks); a store failure only loses the note."""
        now = self._clock()
        if self._sightings is None or (self._noted_at is not None and now - self._noted_at < NOTE_EVERY_S):
            return
        self._noted_at = now
        try:
            await self._sightings.seen(self.network, self.table_id, player_id, self.rt.service.now_ms())
        except (StoreUnavailable, OSError) as exc:
            log.warning("could not note the address network of a player at %s: %s", self.table_id, exc)

    async def _post_chat(self, msg: Chat) -> None:
        """Post to the table's chat; the message itself reaches everyone who may read it (this connection
        too) as ``chat``. ``accepted`` names the table's version as this process holds it: a chat moves
        none."""
        identity = self.identity
        sender = ChatSender(player_id=None if identity is None else identity.player_id,
                            name=None if identity is None else identity.name, operator=self.operator,
                            network=self.network)
        try:
            await self._chat.post(self.table_id, sender, msg)
        except (StoreUnavailable, OSError) as exc:
            self.rt.metrics.redis_errors.labels(operation="chat").inc()
            log.error("chat on table %s failed: %s", self.table_id, exc)
            self._error(msg.id, ErrorCode.INTERNAL_ERROR, "the data store is unavailable; nothing was posted")
        except ServerError as exc:  # ChatRefused, with its code
            self._refused(msg.id, exc)
        else:
            state = self.rt.fanout.state_of(self.table_id)
            self._send(accepted_text(msg.id, 0 if state is None else state.version))

    async def _barred(self, command_id: str | None, player_id: str) -> bool:
        """Refuse a barred player's ``sit`` (``BARRED``, with when the bar ends and who barred them), or tell
        a hello of the bar (``command_id`` None); the bar is in Redis, so it holds whichever server process
        the player connects to."""
        bar = await self._bars.get(self.table_id, player_id)
        if bar is None:
            return False
        self._error(command_id, ErrorCode.BARRED,
                    f"{barred_message(bar.by, self.table_id, bar.until_ms)}: you may watch, or play at "
                    "another table", until_ms=bar.until_ms, by=bar.by)
        return True

    # --- sending ------------------------------------------------------------------------------------------
    def _send(self, text: str) -> None:
        self.deliver(text)

    def _error(self, client_id: str | None, code: ErrorCode | RejectCode, message: str, *,
               until_ms: int | None = None, by: KickedBy | None = None,
               fields: Mapping[str, int] | None = None) -> None:
        """An ``error`` frame; ``fields``: the values its message names (``Rejection.fields``,
        ``ServerError.fields``), each a field of ``ErrorMessage``."""
        more = fields or {}
        self._send(ErrorMessage(id=client_id, code=code, message=message,
                                until_ms=until_ms if until_ms is not None else more.get("until_ms"), by=by,
                                amount_cents=more.get("amount_cents"), limit_cents=more.get("limit_cents"),
                                retry_after_s=more.get("retry_after_s"), max_chars=more.get("max_chars"))
                   .model_dump_json())

    def _refused(self, client_id: str, exc: ServerError | Rejection) -> None:
        """Answer a refusal with its code and message (``errors.wire_error``); a failure of the server's own
        is raised again (``_handle`` logs it and answers ``INTERNAL_ERROR``)."""
        answer = wire_error(exc)
        if answer is None:
            raise exc
        self._error(client_id, *answer, fields=exc.fields)  # the values it names, for a client to word it

    def _refuse(self, code: ErrorCode, close: CloseCode, message: str, until_ms: int | None = None,
                by: KickedBy | None = None) -> bool:
        self._error(None, code, message, until_ms=until_ms, by=by)
        self._close_soon(close, message)
        return False

    def close_removed(self, until_ms: int | None, by: KickedBy) -> None:
        """``by`` removed this connection's player: error ``BARRED`` (who, when the bar ends), then 4403."""
        self._refuse(ErrorCode.BARRED, CloseCode.FORBIDDEN, barred_message(by, self.table_id, until_ms),
                     until_ms, by)

    def close_unauthorized(self, message: str) -> None:
        """The session was revoked or lapsed: error ``UNAUTHORIZED``, then close 4401."""
        self._refuse(ErrorCode.UNAUTHORIZED, CloseCode.UNAUTHORIZED, message)

    def close_for_shutdown(self) -> None:
        self._close_soon(CloseCode.SERVICE_RESTART, "server restarting: reconnect with your last version")
