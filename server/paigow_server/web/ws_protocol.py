"""The uvicorn WebSocket protocol the server runs with: uvicorn's ``websockets-sansio``, with two changes.

uvicorn decodes each text message before the app sees it; one that is not valid UTF-8 makes it log a full
traceback and fail the connection with 1007, so any client could fill the log and a seated player's
connection would go away. Here a text message is decoded with ``surrogateescape`` instead: every byte
that is not part of valid UTF-8 becomes a lone surrogate (U+DC80..U+DCFF), which valid UTF-8 can never
produce, and the app (``ws.py``) answers such a frame with ``MALFORMED_JSON`` and keeps the connection.

And the connection offers the app a way to write text messages at once, below ASGI: the scope's
extension ``SEND_NOW`` holds (as ``"send"``) a function that takes a list of texts and writes them as that
many text frames in one write to the socket when it can do so now (the connection is open and the socket
is not paused for flow control), answering True; else it writes nothing and answers False, and the app
sends them the ASGI way (``websocket.send``, which waits while the socket is paused). The frames are the
same; this saves, per message, the trip through ASGI's ``send`` and the middlewares, and lets ``ws.py``
write all the messages one connection has in one loop iteration (an ``accepted`` and its ``patch``) in
one system call.

Pass ``ws=WebSocketProtocol`` to ``uvicorn.Config`` (``paigow serve`` does).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.http11 import Request
from websockets.protocol import State

__all__ = ["SEND_NOW", "SendNow", "WebSocketProtocol", "send_now_of"]

SEND_NOW = "paigow.send_now"
"""The scope extension: ``{"send": SendNow}`` (ASGI extensions are dicts)."""

SendNow = Callable[[Sequence[str]], bool]


def send_now_of(scope: Mapping[str, Any]) -> SendNow | None:
    """A connection's ``SEND_NOW`` function, from its ASGI scope (None under another ASGI server: every
    message then goes through ``websocket.send``)."""
    extension = scope.get("extensions", {}).get(SEND_NOW)
    send = None if extension is None else extension.get("send")
    return send if callable(send) else None


class WebSocketProtocol(WebSocketsSansIOProtocol):
    def send_receive_event_to_app(self) -> None:
        if self.curr_msg_data_type != "text" or self.close_sent:
            super().send_receive_event_to_app()
            return
        data = b"".join(self.frames)
        self.frames = []
        self.queue.put_nowait({"type": "websocket.receive", "text": data.decode("utf-8", "surrogateescape")})
        if not self.read_paused:  # as uvicorn does: one message at a time reaches the app
            self.read_paused = True
            self.transport.pause_reading()

    def handle_connect(self, event: Request) -> None:
        super().handle_connect(event)
        if not self.close_sent:  # upgraded: the app's task is created, not yet started
            extensions = self.scope.get("extensions")
            if extensions is not None:
                extensions[SEND_NOW] = {"send": self.send_now}

    def send_now(self, texts: Sequence[str]) -> bool:
        """Write ``texts`` as text frames in one write if the connection is open and writable now."""
        if (not self.handshake_complete or self.close_sent or self.disconnected
                or self.initial_response is not None or not self.writable.is_set()
                or self.conn.state is not State.OPEN or self.transport.is_closing()):
            return False
        for text in texts:
            self.conn.send_text(text.encode())
        self.transport.write(b"".join(self.conn.data_to_send()))
        return True
