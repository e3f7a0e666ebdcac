"""The table chat across two ``paigow serve`` processes on one Redis: a message posted through one reaches
the viewers connected to the other, and so do the operator's deletion and setting change made through
either process's API."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import httpx

from support.harness import ServerProcess, WsClient

StartCluster = Callable[[int], Awaitable[list[ServerProcess]]]


async def until(client: WsClient, kind: str, *, name: str | None = None) -> dict[str, Any]:
    """The first message of ``kind`` (a chat by ``name``) received so far, or the next one to come."""
    for message in client.received:
        if message["type"] == kind and (name is None or message["message"]["name"] == name):
            return message
    while True:
        message = await client.receive()
        if message["type"] == kind and (name is None or message["message"]["name"] == name):
            return message


async def test_chat_crosses_processes(cluster: StartCluster) -> None:
    one, two = await cluster(2)
    op = {"Authorization": f"Bearer {one.operator_token}"}
    async with (httpx.AsyncClient(base_url=one.url) as http_one,
                httpx.AsyncClient(base_url=two.url) as http_two):
        opened = await http_one.post("/api/operator/tables", json={"name": "Chat"}, headers=op)
        table_id = opened.json()["table_id"]
        ann = (await http_one.post("/api/session", json={"display_name": "Ann"})).json()
        bob = (await http_two.post("/api/session", json={"display_name": "Bob"})).json()
        ann_ws = await WsClient.connect(one.ws_url, table_id, ann["token"])
        bob_ws = await WsClient.connect(two.ws_url, table_id, bob["token"])
        try:
            assert (await ann_ws.command("sit", seat=1, buy_in_cents=10_000))["type"] == "accepted"
            assert (await ann_ws.command("chat", text="hello from one"))["type"] == "accepted"
            on_two = await until(bob_ws, "chat")
            assert (on_two["message"]["name"], on_two["message"]["role"]) == ("Ann", "player")
            assert (await bob_ws.command("chat", emote="good_luck"))["type"] == "accepted"
            assert (await until(ann_ws, "chat", name="Ann"))["message"] == on_two["message"]
            on_one = await until(ann_ws, "chat", name="Bob")
            assert (on_one["message"]["name"], on_one["message"]["text"]) == ("Bob", "Good luck!")

            deleted = await http_two.delete(f"/api/operator/tables/{table_id}/chat/messages/"
                                            f"{on_two['message']['id']}", headers=op)
            assert deleted.status_code == 200, deleted.text
            assert (await until(ann_ws, "chat_deleted"))["message_id"] == on_two["message"]["id"]
            assert (await until(bob_ws, "chat_deleted"))["message_id"] == on_two["message"]["id"]

            changed = await http_one.put(f"/api/operator/tables/{table_id}/chat",
                                         json={"setting": "players_only"}, headers=op)
            assert changed.status_code == 200, changed.text
            assert (await until(bob_ws, "chat_setting"))["setting"] == "players_only"
            refused = await bob_ws.command("chat", text="still here?")
            assert refused["code"] == "CHAT_PLAYERS_ONLY"
            history = (await http_two.get(f"/api/tables/{table_id}/chat",
                                          headers={"Authorization": f"Bearer {ann['token']}"})).json()
            assert [m["text"] for m in history["messages"]] == ["Good luck!"]
        finally:
            await ann_ws.close()
            await bob_ws.close()
