"""The sending side of a table connection (``ws.TableConnection`` is one): what the fanout delivers, and
the connection's own answers, reach the client in order, and a client that cannot keep up is closed.

What one loop iteration delivers (an ``accepted`` and its ``patch``) is written at the end of the
iteration in one write, below ASGI (``ws_protocol.SEND_NOW``). Only while the socket is paused for flow
control, or a message is being sent the ASGI way, do messages queue for the send loop, which closes a
client that falls ``SEND_QUEUE`` messages behind (1013: it reconnects with its last version). A close is
queued after what was delivered before it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from dataclasses import dataclass

from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from paigow.protocol.codes import CloseCode
from paigow.protocol.server import Accepted
from paigow_server.web.ws_protocol import send_now_of

__all__ = ["SEND_QUEUE", "Sender", "accepted_text"]

log = logging.getLogger("paigow_server.ws")

SEND_QUEUE = 256
"""Messages waiting to be sent to one client; a client that falls further behind is closed (1013)."""

_PLAIN_ID = re.compile(r'[ !#-\[\]-~]+')
"""Printable ASCII but ``"`` and ``\\``: a JSON string of these characters is written as they are."""


@dataclass(frozen=True, slots=True)
class _Close:
    code: CloseCode
    reason: str


class Sender:
    """A connection's outgoing messages: ``deliver`` (the fanout's and the connection's own), ``close_soon``
    and the send loop (``send_loop``, a task of the connection's)."""

    def __init__(self, websocket: WebSocket, table_id: str) -> None:
        self.ws = websocket
        self.table_id = table_id
        self._outbox: asyncio.Queue[str | _Close] = asyncio.Queue(SEND_QUEUE)
        self._send_now = send_now_of(websocket.scope)
        self._loop = asyncio.get_running_loop()
        """Held: on Python 3.11 each ``get_running_loop()`` is a ``getpid`` system call."""
        self._pending: list[str] = []
        """Messages to write at the end of this loop iteration through ``_send_now``, in one write."""
        self._sending = False
        """The send loop holds a message it is sending (the ASGI way): later ones wait in the outbox."""
        self._closing = False

    def deliver(self, text: str) -> None:
        if self._closing:
            return
        if self._send_now is not None and not self._sending and self._outbox.empty():
            self._pending.append(text)
            if len(self._pending) == 1:
                self._loop.call_soon(self._flush)
            return
        try:
            self._outbox.put_nowait(text)
        except asyncio.QueueFull:
            self._fell_behind()

    def _flush(self) -> None:
        """Write the pending messages now, in one write; when the socket cannot take them now (paused by
        flow control, or closing), hand them to the send loop, which sends them the ASGI way."""
        if not self._pending:
            return
        assert self._send_now is not None
        try:
            if not self._sending and self._outbox.empty() and self._send_now(self._pending):
                self._pending.clear()
            elif not self._spill():
                self._fell_behind()
        except Exception:  # never left with messages pending and no flush to come: end the connection
            log.exception("writing to a client of table %s failed; closing", self.table_id)
            self._pending.clear()
            self._close_soon(CloseCode.INTERNAL_ERROR, "server error: reconnect with your last version")

    def _spill(self) -> bool:
        """Move the pending messages to the send loop's outbox, in order; False when it overflowed."""
        pending, self._pending = self._pending, []
        try:
            for text in pending:
                self._outbox.put_nowait(text)
        except asyncio.QueueFull:
            return False
        return True

    def _fell_behind(self) -> None:
        log.warning("client of table %s fell %d messages behind; closing", self.table_id, SEND_QUEUE)
        self._close_soon(CloseCode.TRY_AGAIN_LATER, "too far behind: reconnect with your last version")

    def _close_soon(self, code: CloseCode, reason: str) -> None:
        if self._closing:
            return
        self._closing = True
        self._spill()  # what was delivered before goes out before the close (unless the queue is full)
        with contextlib.suppress(asyncio.QueueFull):
            self._outbox.put_nowait(_Close(code, reason))
            return
        # The queue is full: drop what is waiting, the client reconnects and resumes anyway.
        while not self._outbox.empty():
            self._outbox.get_nowait()
        self._outbox.put_nowait(_Close(code, reason))

    async def _send_loop(self) -> None:
        try:
            while True:
                item = await self._outbox.get()
                if isinstance(item, _Close):
                    if self.ws.application_state is not WebSocketState.DISCONNECTED:
                        await self.ws.close(code=item.code, reason=item.reason[:120])
                    return
                self._sending = True
                await self.ws.send_text(item)
                self._sending = False
        except (WebSocketDisconnect, RuntimeError, OSError):
            self._closing = True  # the client is gone; the receive loop ends on its own


def accepted_text(client_id: str, version: int) -> str:
    """``Accepted(id=client_id, version=version).model_dump_json()``, written directly for an id of plain
    ASCII (what clients send), which needs no escape in JSON."""
    if _PLAIN_ID.fullmatch(client_id) is None:
        return Accepted(id=client_id, version=version).model_dump_json()
    return f'{{"type":"accepted","id":"{client_id}","version":{int(version)}}}'
