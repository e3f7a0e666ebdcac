"""Two server processes (two apps, two ports, one Redis): viewers connected to either one see every change
of a table, whichever process executed it, each projected for its viewer (``other_ws_url``: the second
app, from tests/conftest.py)."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import websockets


async def test_viewers_on_either_server_follow_the_table(tables: Any, connect: Any, other_ws_url: str,
                                                         frame_checker: Any) -> None:
    table_id = await tables.table()
    ann_id, ann_token = await tables.player("Ann")
    bo_id, bo_token = await tables.player("Bo")
    async with connect(table_id, player_id=ann_id) as ann, \
            websockets.connect(f"{other_ws_url}/ws/tables/{table_id}") as bo_ws, \
            websockets.connect(f"{other_ws_url}/ws/tables/{table_id}") as spectator_ws:
        bo = frame_checker(bo_id)
        bo.ws = bo_ws
        spectator = frame_checker(None)
        spectator.ws = spectator_ws
        await ann.hello(ann_token)
        await bo.hello(bo_token)
        await spectator.hello()
        assert (await ann.command({"type": "sit", "seat": 1, "buy_in_cents": 10_000}))["type"] == "accepted"
        assert (await bo.command({"type": "sit", "seat": 4, "buy_in_cents": 10_000}))["type"] == "accepted"
        await ann.until_view(lambda v: v["phase"] == "betting" and v["seats"][4] is not None)
        assert (await bo.command({"type": "place_bet", "amount_cents": 500}))["type"] == "accepted"
        assert (await ann.command({"type": "place_bet", "amount_cents": 700}))["type"] == "accepted"
        for client in (ann, bo):
            await client.until_view(lambda v: v["phase"] == "setting")
            assert (await client.command({"type": "use_house_way"}))["type"] == "accepted"
        records = [(await c.until_event(lambda e: e["kind"] == "round_settled"))["record"]
                   for c in (ann, bo, spectator)]  # every frame was checked for hidden cards on arrival
        assert records[0] == records[1] == records[2]
        assert {h["player_id"] for h in records[0]["hands"]} == {None, ann_id, bo_id}


async def test_the_table_list_counts_spectators_of_every_server(
        tables: Any, live_server: Any, other_ws_url: str, frame_checker: Any) -> None:
    table_id = await tables.table()

    async def listed() -> int:
        async with httpx.AsyncClient(base_url=live_server.url) as http:
            body = (await http.get("/api/tables")).json()
        return int(next(t["spectators"] for t in body["tables"] if t["table_id"] == table_id))

    async def eventually(expected: int) -> None:
        for _ in range(100):
            if await listed() == expected:
                return
            await asyncio.sleep(0.05)
        assert await listed() == expected

    async with websockets.connect(f"{other_ws_url}/ws/tables/{table_id}") as remote, \
            websockets.connect(f"{tables.url(table_id)}") as local:
        for ws in (remote, local):
            watcher = frame_checker(None)
            watcher.ws = ws
            await watcher.hello()
        await eventually(2)  # one here, one on the other server
    await eventually(0)


async def test_a_player_still_connected_to_another_server_is_brought_back_at_once(
        tables: Any, connect: Any, other_ws_url: str, frame_checker: Any) -> None:
    table_id = await tables.table()
    ann_id, token = await tables.player("Ann")
    async with websockets.connect(f"{other_ws_url}/ws/tables/{table_id}") as elsewhere_ws:
        elsewhere = frame_checker(ann_id)
        elsewhere.ws = elsewhere_ws
        await elsewhere.hello(token)
        async with connect(table_id, player_id=ann_id) as here:
            await here.hello(token)
            sat = await here.command({"type": "sit", "seat": 2, "buy_in_cents": 10_000})
            assert sat["type"] == "accepted"
            await elsewhere.until_view(lambda v: v["seats"][2] is not None)
        # Her connection to the first server closed: it drops her; the other server, where she is still
        # connected, reconnects her at once.
        await elsewhere.until_event(lambda e: e["kind"] == "player_dropped" and e["player_id"] == ann_id)
        await elsewhere.until_event(lambda e: e["kind"] == "player_reconnected" and e["player_id"] == ann_id)
        view = await elsewhere.until_view(lambda v: v["seats"][2]["status"] == "active")
        assert view["you"]["status"] == "active"
