"""The table socket's limits by address network (issue 19, point 5), over real WebSockets through the trusted
proxy's ``X-Forwarded-For``: token-less connections per network (``spectators_per_address``: error
``TOO_MANY_CONNECTIONS`` and close 4429), chat lines per network (``chat_per_address_per_minute``: ten guests
of one network cannot replace a table's kept chat), and the cap on combining marks in a chat line."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
import websockets
from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosed

from paigow.protocol.version import PROTOCOL_VERSION
from paigow_server.process.settings import Settings
from paigow_server.store.chat import ChatStore

GUESTS = 10
LINES = 10


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return dataclasses.replace(settings, trusted_proxies=("127.0.0.1",), spectators_per_address=2,
                               chat_per_address_per_minute=3, sessions_per_minute=20, messages_per_second=200)


@contextlib.asynccontextmanager
async def _socket(tables: Any, table_id: str, address: str) -> AsyncIterator[ClientConnection]:
    async with websockets.connect(tables.url(table_id), additional_headers={"X-Forwarded-For": address},
                                  max_queue=None) as ws:
        yield ws


async def _hello(ws: ClientConnection, token: str | None = None) -> dict[str, Any]:
    hello: dict[str, Any] = {"type": "hello", "protocol": PROTOCOL_VERSION}
    if token is not None:
        hello["token"] = token
    await ws.send(json.dumps(hello))
    frame: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 5))
    return frame


async def _answer(ws: ClientConnection, command_id: str) -> dict[str, Any]:
    while True:
        frame: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 5))
        if frame["type"] in ("accepted", "error") and frame.get("id") == command_id:
            return frame


async def _guest(tables: Any, address: str, name: str) -> str:
    async with httpx.AsyncClient(base_url=tables.live.url) as http:
        answer = await http.post("/api/session", json={"display_name": name},
                                 headers={"X-Forwarded-For": address})
    assert answer.status_code == 201, answer.text
    return str(answer.json()["token"])


async def test_token_less_connections_are_capped_per_network(tables: Any) -> None:
    table_id = await tables.table()
    async with (_socket(tables, table_id, "198.51.100.1") as one,
                _socket(tables, table_id, "198.51.100.2") as two):
        assert (await _hello(one))["type"] == "snapshot"
        assert (await _hello(two))["type"] == "snapshot"
        async with _socket(tables, table_id, "198.51.100.3") as three:
            refused = await _hello(three)
            assert refused["code"] == "TOO_MANY_CONNECTIONS"
            assert "at most 2 connections without a session token from 198.51.100.0/24" in refused["message"]
            with pytest.raises(ConnectionClosed) as info:
                await asyncio.wait_for(three.recv(), 5)
            assert info.value.rcvd is not None
            assert info.value.rcvd.code == 4429
        async with _socket(tables, table_id, "203.0.113.1") as elsewhere:  # another network
            assert (await _hello(elsewhere))["type"] == "snapshot"
        token = await _guest(tables, "198.51.100.4", "Ann")
        async with _socket(tables, table_id, "198.51.100.4") as ann:  # a session token is not counted
            assert (await _hello(ann, token))["type"] == "snapshot"
    async with _socket(tables, table_id, "198.51.100.5") as again:  # the places were given back
        assert (await _hello(again))["type"] == "snapshot"


async def test_ten_guests_of_one_network_cannot_replace_the_kept_chat(tables: Any) -> None:
    table_id = await tables.table()
    bob = await _guest(tables, "203.0.113.9", "Bob")
    async with _socket(tables, table_id, "203.0.113.9") as ws:
        await _hello(ws, bob)
        await ws.send(json.dumps({"type": "chat", "id": "b1", "text": "good luck all"}))
        assert (await _answer(ws, "b1"))["type"] == "accepted"
    tokens = [await _guest(tables, f"198.51.100.{i + 1}", f"F{i}") for i in range(GUESTS)]
    answers: list[dict[str, Any]] = []
    async with contextlib.AsyncExitStack() as stack:
        sockets = [await stack.enter_async_context(_socket(tables, table_id, f"198.51.100.{i + 1}"))
                   for i in range(GUESTS)]
        for ws, token in zip(sockets, tokens, strict=True):
            await _hello(ws, token)
        for line in range(LINES):
            for i, ws in enumerate(sockets):
                await ws.send(json.dumps({"type": "chat", "id": f"{i}-{line}", "text": f"spam {i} {line}"}))
        for i, ws in enumerate(sockets):
            for line in range(LINES):
                answers.append(await _answer(ws, f"{i}-{line}"))
    accepted = [a for a in answers if a["type"] == "accepted"]
    refused = [a for a in answers if a["type"] == "error"]
    assert len(accepted) == 3
    assert {a["code"] for a in refused} == {"CHAT_TOO_FAST"}
    assert any("from your address network 198.51.100.0/24" in a["message"] for a in refused)
    kept = await ChatStore(tables.redis).messages(table_id)
    assert kept[0].text == "good luck all"
    assert len(kept) == 4


async def test_a_chat_line_may_stack_few_combining_marks(tables: Any) -> None:
    table_id = await tables.table()
    token = await _guest(tables, "203.0.113.9", "Bob")
    async with _socket(tables, table_id, "203.0.113.9") as ws:
        await _hello(ws, token)
        await ws.send(json.dumps({"type": "chat", "id": "z", "text": "a" + "\u0301" * 199}))
        zalgo = await _answer(ws, "z")
        assert (zalgo["type"], zalgo["code"]) == ("error", "INVALID_VALUE")
        assert "more than 4 combining marks on one character (from position 1)" in zalgo["message"]
        await ws.send(json.dumps({"type": "chat", "id": "vi", "text": "Vie\u0302\u0323t Nam"}))
        assert (await _answer(ws, "vi"))["type"] == "accepted"
    assert [m.text for m in await ChatStore(tables.redis).messages(table_id)] == ["Vie\u0302\u0323t Nam"]
