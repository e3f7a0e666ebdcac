"""The live side seen from operations: spectator counts in the table list, the command-to-push latency
histogram, and a shutdown that tells every client to reconnect (1012)."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from paigow.table.state import Timers

CALM = Timers(betting_ms=60_000)


async def _table_entry(url: str, table_id: str) -> dict[str, object]:
    async with httpx.AsyncClient(base_url=url) as client:
        body = (await client.get("/api/tables")).json()
    entry: dict[str, Any] = next(t for t in body["tables"] if t["table_id"] == table_id)
    return entry


async def test_the_table_list_counts_spectators(tables: Any, connect: Any, live_server: Any) -> None:
    table_id = await tables.table(timers=CALM)
    player_id, token = await tables.player("Ann")
    assert (await _table_entry(live_server.url, table_id))["spectators"] == 0
    async with connect(table_id) as one, connect(table_id) as two, connect(
            table_id, player_id=player_id) as player:
        await one.hello()
        await two.hello()
        await player.hello(token)
        assert (await _table_entry(live_server.url, table_id))["spectators"] == 2
    # Connections close asynchronously on the server: poll briefly.
    for _ in range(100):
        if (await _table_entry(live_server.url, table_id))["spectators"] == 0:
            break
        await asyncio.sleep(0.02)
    assert (await _table_entry(live_server.url, table_id))["spectators"] == 0


async def test_commands_feed_the_command_to_push_histogram(tables: Any, connect: Any,
                                                           live_server: Any) -> None:
    table_id = await tables.table(timers=CALM)
    player_id, token = await tables.player("Ann")
    async with connect(table_id, player_id=player_id) as client:
        await client.hello(token)
        answer = await client.command({"type": "sit", "seat": 1, "buy_in_cents": 5_000})
        assert answer["type"] == "accepted"
        await client.until(lambda f: f["type"] == "patch" and f["version"] >= answer["version"])
    async with httpx.AsyncClient(base_url=live_server.url) as http:
        metrics = (await http.get("/metrics")).text
    lines = metrics.splitlines()
    count = next(line for line in lines if line.startswith("paigow_command_to_push_seconds_count"))
    assert float(count.split()[-1]) >= 1
    assert 'paigow_commands_total{result="accepted",type="sit"} 1.0' in metrics


async def test_a_shutdown_tells_clients_to_reconnect(tables: Any, connect: Any,
                                                     live_server: Any) -> None:
    table_id = await tables.table(timers=CALM)
    async with connect(table_id) as client:
        await client.hello()
        await live_server.app.state.realtime.close_connections()
        with pytest.raises(ConnectionClosed) as info:
            await client.recv()
        assert info.value.rcvd is not None
        assert info.value.rcvd.code == 1012


async def test_the_operator_watches_with_the_admin_view_but_acts_over_http(
        tables: Any, connect: Any, live_server: Any) -> None:
    table_id = await tables.table()
    player_id, token = await tables.player("Ann")
    async with connect(table_id) as operator, connect(table_id, player_id=player_id) as ann:
        first = await operator.hello_as_operator(live_server.operator_token)
        assert (first["type"], first["role"], first["player_id"]) == ("snapshot", "operator", None)
        assert first["view"]["admin"] is not None
        await ann.hello(token)
        assert (await ann.command({"type": "sit", "seat": 3, "buy_in_cents": 10_000}))["type"] == "accepted"
        await ann.until_view(lambda v: v["phase"] == "betting")
        assert (await ann.command({"type": "place_bet", "amount_cents": 500}))["type"] == "accepted"
        # The operator follows the deal live and still never sees a hole card (checked on every frame).
        await operator.until_event(lambda e: e["kind"] == "hands_dealt")
        assert operator.view is not None
        assert operator.view["admin"]["ledger"]["bought_in_cents"] == 10_000
        refused = await operator.command({"type": "leave"})
        assert (refused["type"], refused["code"]) == ("error", "SPECTATOR_CANNOT_ACT")
        assert (await _table_entry(live_server.url, table_id))["spectators"] == 0


async def test_a_wrong_operator_token_is_refused(tables: Any, connect: Any) -> None:
    table_id = await tables.table()
    async with connect(table_id) as client:
        await client.send({"type": "hello", "protocol": 2, "operator_token": "x" * 30})
        assert (await client.recv())["code"] == "UNAUTHORIZED"
        with pytest.raises(ConnectionClosed) as info:
            await client.recv()
        assert info.value.rcvd is not None
        assert info.value.rcvd.code == 4401
