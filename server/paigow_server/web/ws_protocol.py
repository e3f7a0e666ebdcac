"""The uvicorn WebSocket protocol the server runs with: uvicorn's ``websockets-sansio``, with one change.

uvicorn decodes each text message before the app sees it; one that is not valid UTF-8 makes it log a full
traceback and fail the connection with 1007, so any client could fill the log and a seated player's
connection would go away. Here a text message is decoded with ``surrogateescape`` instead: every byte
that is not part of valid UTF-8 becomes a lone surrogate (U+DC80..U+DCFF), which valid UTF-8 can never
produce, and the app (``ws.py``) answers such a frame with ``MALFORMED_JSON`` and keeps the connection.

Pass ``ws=WebSocketProtocol`` to ``uvicorn.Config`` (``paigow serve`` does).
"""

from __future__ import annotations

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

__all__ = ["WebSocketProtocol"]


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

