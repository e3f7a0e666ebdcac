"""How a connection writes its messages, and its ``accepted`` answers. The messages delivered in one loop
iteration go out in one write below ASGI (``ws_protocol.SEND_NOW``); when the socket cannot take them now
they go through the send loop, in order, and a close comes after everything delivered before it."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Sequence
from types import SimpleNamespace
from typing import Any, cast

import pytest
import uvicorn
import websockets
from hypothesis import given
from hypothesis import strategies as st
from starlette.applications import Starlette
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket, WebSocketState

from paigow.protocol.codes import CloseCode
from paigow.protocol.server import Accepted
from paigow_server.process.embedded_redis import free_port
from paigow_server.process.settings import Settings
from paigow_server.realtime.realtime import Realtime
from paigow_server.web.chat import ChatPoster
from paigow_server.web.ws import BarLookup, OperatorLookup, SessionLookup, TableConnection
from paigow_server.web.ws_protocol import SEND_NOW, WebSocketProtocol
from paigow_server.web.ws_send import SEND_QUEUE, accepted_text


class FakeSocket:
    """The ASGI side a connection writes to, with (``now=True``) or without the protocol's ``SEND_NOW``."""

    def __init__(self, *, now: bool) -> None:
        self.writable = True
        self.writes: list[list[str]] = []
        """What ``SEND_NOW`` wrote, one list per write."""
        self.sent: list[str] = []
        """What went the ASGI way (``send_text``)."""
        self.closed: tuple[int, str] | None = None
        self.application_state = WebSocketState.CONNECTED
        self.scope: dict[str, Any] = {"extensions": {SEND_NOW: {"send": self.send_now}} if now else {}}

    def send_now(self, texts: Sequence[str]) -> bool:
        if not self.writable:
            return False
        self.writes.append(list(texts))
        return True

    async def send_text(self, text: str) -> None:
        self.sent.append(text)

    async def close(self, code: int, reason: str) -> None:
        self.closed = (code, reason)
        self.application_state = WebSocketState.DISCONNECTED


def _connection(socket: FakeSocket) -> TableConnection:
    rt = cast(Realtime, SimpleNamespace(settings=Settings()))
    return TableConnection(cast(WebSocket, socket), rt, "t1", sessions=cast(SessionLookup, None),
                           operators=cast(OperatorLookup, None), bars=cast(BarLookup, None),
                           chat=cast(ChatPoster, None))


@contextlib.asynccontextmanager
async def _send_loop(conn: TableConnection) -> AsyncIterator[asyncio.Task[None]]:
    task = asyncio.create_task(conn._send_loop())
    try:
        yield task
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


async def _settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


async def test_the_messages_of_one_loop_iteration_go_out_in_one_write() -> None:
    socket = FakeSocket(now=True)
    conn = _connection(socket)
    async with _send_loop(conn):
        conn.deliver("a")
        conn.deliver("b")
        assert socket.writes == []  # not yet: the write is at the end of the iteration
        await _settle()
        conn.deliver("c")
        await _settle()
    assert socket.writes == [["a", "b"], ["c"]]
    assert socket.sent == []


async def test_a_paused_socket_gets_them_through_the_send_loop_in_order() -> None:
    socket = FakeSocket(now=True)
    conn = _connection(socket)
    socket.writable = False
    async with _send_loop(conn):
        conn.deliver("a")
        conn.deliver("b")
        await asyncio.sleep(0)  # the flush hands them to the send loop
        socket.writable = True
        conn.deliver("c")  # behind them, not written past them
        await _settle()
        conn.deliver("d")  # the outbox is empty again: at once
        await _settle()
    assert socket.sent == ["a", "b", "c"]
    assert socket.writes == [["d"]]


async def test_a_close_comes_after_what_was_delivered_before_it() -> None:
    socket = FakeSocket(now=True)
    conn = _connection(socket)
    async with _send_loop(conn) as loop:
        conn.deliver("a")
        conn.close_for_shutdown()
        conn.deliver("b")  # after the close: dropped
        await asyncio.wait_for(loop, 1.0)
    assert socket.sent == ["a"]
    assert socket.writes == []
    assert socket.closed is not None
    assert socket.closed[0] == CloseCode.SERVICE_RESTART


async def test_a_write_that_fails_ends_the_connection_rather_than_stalling_it() -> None:
    socket = FakeSocket(now=True)

    def broken(texts: Sequence[str]) -> bool:
        raise RuntimeError("the transport broke")

    socket.scope["extensions"][SEND_NOW]["send"] = broken
    conn = _connection(socket)
    async with _send_loop(conn) as loop:
        conn.deliver("a")
        await asyncio.wait_for(loop, 1.0)  # closed: the send loop ends
        conn.deliver("b")  # after the close: dropped, never piling up
    assert conn._pending == []
    assert socket.closed is not None
    assert socket.closed[0] == CloseCode.INTERNAL_ERROR


async def test_a_client_too_far_behind_is_closed() -> None:
    socket = FakeSocket(now=True)
    conn = _connection(socket)
    socket.writable = False
    for i in range(SEND_QUEUE + 1):
        conn.deliver(str(i))
    await asyncio.sleep(0)
    async with _send_loop(conn) as loop:
        await asyncio.wait_for(loop, 1.0)
    assert socket.closed is not None
    assert socket.closed[0] == CloseCode.TRY_AGAIN_LATER


async def test_under_another_asgi_server_everything_goes_through_the_send_loop() -> None:
    socket = FakeSocket(now=False)
    conn = _connection(socket)
    async with _send_loop(conn):
        conn.deliver("a")
        conn.deliver("b")
        await _settle()
    assert socket.sent == ["a", "b"]
    assert socket.writes == []


@pytest.mark.parametrize("deflate", [False, True])
@pytest.mark.parametrize("texts", [["one"], ["un", "deux", "trois é"]])
async def test_the_protocol_writes_them_as_text_frames(texts: list[str], deflate: bool) -> None:
    """``deflate``: with permessage-deflate (``ws_compression``) the frames are compressed as any other."""
    answers: list[bool] = []

    async def endpoint(websocket: WebSocket) -> None:
        await websocket.accept()
        answers.append(websocket.scope["extensions"][SEND_NOW]["send"](texts))
        await websocket.receive()  # until the client closes

    port = free_port()
    config = uvicorn.Config(Starlette(routes=[WebSocketRoute("/ws", endpoint)]), host="127.0.0.1", port=port,
                            ws=WebSocketProtocol, lifespan="off", log_config=None,
                            ws_per_message_deflate=deflate)
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    try:
        for _ in range(500):
            if server.started or task.done():
                break
            await asyncio.sleep(0.01)
        assert server.started
        async with websockets.connect(f"ws://127.0.0.1:{port}/ws") as client:
            assert client.response is not None
            assert (client.response.headers.get("Sec-WebSocket-Extensions") is not None) is deflate
            received = [await client.recv() for _ in texts]
        assert received == texts
        assert answers == [True]
    finally:
        server.should_exit = True
        await asyncio.wait_for(task, 30)


@given(st.text(min_size=1, max_size=64), st.integers(min_value=0, max_value=2**53))
def test_accepted_is_written_as_the_model_writes_it(client_id: str, version: int) -> None:
    assert accepted_text(client_id, version) == Accepted(id=client_id, version=version).model_dump_json()


@pytest.mark.parametrize("client_id",
                         [chr(c) for c in range(0x20, 0x7f)] + ["bet-1", "a b", "é", "\n", "\x7f"])
def test_accepted_of_every_plain_character(client_id: str) -> None:
    assert accepted_text(client_id, 7) == Accepted(id=client_id, version=7).model_dump_json()
