"""Sessions end: a token lapses when unused (each use slides it, an open table connection too), and a
revoked or lapsed token gets ``UNAUTHORIZED`` and close 4401 on the WebSocket, at hello and while open.
The idle time is cut to 1.2 s here (so tokens are refreshed every 0.3 s)."""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from paigow_server.process.settings import Settings
from support.harness import LiveServer

IDLE_S = 1.2


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return dataclasses.replace(settings, session_idle_days=IDLE_S / 86_400, argon2_memory_kib=1024,
                               argon2_time_cost=1)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def expect_4401(client: Any, within: float = 3.0) -> str:
    error = await client.until(lambda f: f["type"] == "error", within)
    assert error["code"] == "UNAUTHORIZED"
    with pytest.raises(ConnectionClosed) as info:  # noqa: PT012 - read until the close
        while True:
            await client.recv(within)
    assert info.value.rcvd is not None
    assert info.value.rcvd.code == 4401
    return str(error["message"])


async def ping(client: Any) -> None:
    await client.send({"type": "ping", "id": "p1"})
    await client.until(lambda f: f["type"] == "pong" and f["id"] == "p1", 2.0)


async def test_an_unused_token_lapses_and_a_used_one_slides(live_server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=live_server.url) as http:
        idle = (await http.post("/api/session", json={"display_name": "Idle"})).json()
        busy = (await http.post("/api/session", json={"display_name": "Busy"})).json()
        for _ in range(6):  # 2.4 s, twice the idle time, used every 0.4 s
            await asyncio.sleep(0.4)
            answer = await http.get("/api/session", headers=bearer(busy["token"]))
            assert answer.status_code == 200
        lapsed = await http.get("/api/session", headers=bearer(idle["token"]))
        assert (lapsed.status_code, lapsed.json()["error"]) == (401, "UNKNOWN_SESSION")
        assert answer.json()["expires_ms"] > busy["expires_ms"]


async def test_a_lapsed_token_is_refused_at_hello_with_4401(tables: Any, connect: Any) -> None:
    table_id = await tables.table()
    _, token = await tables.player("Late")
    await asyncio.sleep(IDLE_S + 0.4)
    async with connect(table_id) as client:
        await client.send({"type": "hello", "protocol": 2, "token": token})
        assert "expired" in await expect_4401(client)


async def test_an_open_table_connection_keeps_its_session_alive(tables: Any, connect: Any,
                                                               live_server: LiveServer) -> None:
    table_id = await tables.table()
    _, token = await tables.player("Stays")
    async with connect(table_id) as client:
        assert (await client.hello(token))["type"] == "snapshot"
        await asyncio.sleep(IDLE_S * 2.5)
        await ping(client)
    async with httpx.AsyncClient(base_url=live_server.url) as http:
        assert (await http.get("/api/session", headers=bearer(token))).status_code == 200


async def test_sign_out_everywhere_closes_open_connections_with_4401(tables: Any, connect: Any,
                                                                    live_server: LiveServer) -> None:
    table_id = await tables.table()
    _, token = await tables.player("Ann")
    _, other_token = await tables.player("Bob")
    async with connect(table_id) as ann, connect(table_id) as bob:
        await ann.hello(token)
        await bob.hello(other_token)
        async with httpx.AsyncClient(base_url=live_server.url) as http:
            assert (await http.delete("/api/sessions", headers=bearer(token))).status_code == 204
        assert "signed out" in await expect_4401(ann, within=1.0)
        await ping(bob)  # others play on
    async with connect(table_id) as again:
        await again.send({"type": "hello", "protocol": 2, "token": token})
        await expect_4401(again)


async def test_signing_out_one_token_closes_the_connections_using_it(tables: Any, connect: Any,
                                                                    live_server: LiveServer) -> None:
    table_id = await tables.table()
    _, token = await tables.player("Ann")
    async with connect(table_id) as client:
        await client.hello(token)
        async with httpx.AsyncClient(base_url=live_server.url) as http:
            assert (await http.delete("/api/session", headers=bearer(token))).status_code == 204
        await expect_4401(client, within=1.0)
