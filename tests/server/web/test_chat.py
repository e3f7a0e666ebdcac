"""The table chat over real WebSockets and the HTTP API: who may read and post under each setting, the
checks of a message, the per-account rate, the last 100 kept for a late joiner, and the operator's mute and
delete (pushed live, audited).

Every frame is checked by ``TableClient`` (tests/conftest.py) as a valid server message; a chat frame holds
exactly the message people posted, with the sender's name and role, nothing from the table's state."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from redis.asyncio import Redis

from paigow.protocol.chat import CHAT_KEPT, ChatRole
from paigow_server.store.chat import ChatStore

CHAT_TYPES = ("chat", "chat_deleted", "chat_setting")


@dataclass
class Room:
    """A table with Ann seated, Bob watching with his session, Carl watching without one, and the
    operator's connection."""

    table_id: str
    ann_id: str
    ann_token: str
    bob_id: str
    bob_token: str
    ann: Any
    bob: Any
    carl: Any
    op: Any
    http: httpx.AsyncClient
    op_headers: dict[str, str]

    def viewers(self) -> list[Any]:
        return [self.ann, self.bob, self.carl, self.op]

    async def setting(self, setting: str) -> None:
        answer = await self.http.put(f"/api/operator/tables/{self.table_id}/chat", json={"setting": setting},
                                     headers=self.op_headers)
        assert answer.status_code == 200, answer.text
        for viewer in self.viewers():
            frame = await viewer.until(lambda f: f["type"] == "chat_setting")
            assert frame == {"type": "chat_setting", "setting": setting}

    async def history(self, token: str | None = None) -> dict[str, Any]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        answer = await self.http.get(f"/api/tables/{self.table_id}/chat", headers=headers)
        assert answer.status_code == 200, answer.text
        body: dict[str, Any] = answer.json()
        return body


async def chat(client: Any, **fields: Any) -> dict[str, Any]:
    answer: dict[str, Any] = await client.command({"type": "chat", **fields})
    return answer


async def next_chat(client: Any) -> dict[str, Any]:
    frame: dict[str, Any] = await client.until(lambda f: f["type"] in CHAT_TYPES)
    return frame


async def no_chat(client: Any) -> None:
    """Nothing of the chat reaches ``client`` (what arrived meanwhile was read)."""
    seen = len(client.frames)
    await client.drain(0.3)
    assert [f for f in client.frames[seen:] if f["type"] in CHAT_TYPES] == []


@pytest.fixture
async def room(tables: Any, connect: Any, live_server: Any) -> AsyncIterator[Room]:
    table_id = await tables.table()
    ann_id, ann_token = await tables.player("Ann")
    bob_id, bob_token = await tables.player("Bob")
    async with (connect(table_id, player_id=ann_id) as ann, connect(table_id, player_id=bob_id) as bob,
                connect(table_id) as carl, connect(table_id) as op,
                httpx.AsyncClient(base_url=live_server.url) as http):
        await ann.hello(ann_token)
        assert (await ann.command({"type": "sit", "seat": 2, "buy_in_cents": 10_000}))["type"] == "accepted"
        await bob.hello(bob_token)
        await carl.hello()
        await op.hello_as_operator(live_server.operator_token)
        await ann.until_view(lambda v: v["you"] is not None)
        for viewer in (bob, carl, op):
            await viewer.until_view(lambda v: v["seats"][2] is not None)
        yield Room(table_id, ann_id, ann_token, bob_id, bob_token, ann, bob, carl, op, http,
                   {"Authorization": f"Bearer {live_server.operator_token}"})


def expect(frame: dict[str, Any], *, name: str, role: ChatRole, text: str, emote: str | None = None,
           player_id: str | None) -> dict[str, Any]:
    assert frame["type"] == "chat", frame
    message: dict[str, Any] = frame["message"]
    assert set(frame) == {"type", "message"}
    assert set(message) == {"id", "ts_ms", "player_id", "name", "role", "text", "emote"}
    assert (message["name"], message["role"], message["text"], message["emote"], message["player_id"]) == (
        name, role.value, text, emote, player_id)
    return message


async def test_a_player_and_spectators_chat_when_it_is_for_everyone(room: Room) -> None:
    answer = await chat(room.ann, text="  good luck   everyone <b>!</b> ")
    assert answer["type"] == "accepted", answer
    first = None
    for viewer in room.viewers():
        message = expect(await next_chat(viewer), name="Ann", role=ChatRole.PLAYER,
                         text="good luck everyone <b>!</b>", player_id=room.ann_id)
        first = first or message
        assert message == first  # the same message, as sent, to everyone
    assert (await chat(room.bob, emote="nice_hand"))["type"] == "accepted"
    for viewer in room.viewers():
        second = expect(await next_chat(viewer), name="Bob", role=ChatRole.SPECTATOR, text="Nice hand!",
                        emote="nice_hand", player_id=room.bob_id)
        assert first is not None
        assert second["id"] > first["id"]
    refused = await chat(room.carl, text="hello?")
    assert refused["code"] == "CHAT_NEEDS_SESSION", refused
    assert (await chat(room.op, text="Welcome to the table")).get("type") == "accepted"
    expect(await next_chat(room.bob), name="Operator", role=ChatRole.OPERATOR, text="Welcome to the table",
           player_id=None)
    history = await room.history()
    assert [(m["name"], m["text"]) for m in history["messages"]] == [
        ("Ann", "good luck everyone <b>!</b>"), ("Bob", "Nice hand!"), ("Operator", "Welcome to the table")]
    assert (history["setting"], history["muted"]) == ("everyone", False)


async def test_players_only_is_read_and_written_by_seated_players(room: Room) -> None:
    await room.setting("players_only")
    refused = await chat(room.bob, text="can I talk?")
    assert refused["code"] == "CHAT_PLAYERS_ONLY", refused
    assert (await chat(room.ann, text="just us")).get("type") == "accepted"
    expect(await next_chat(room.ann), name="Ann", role=ChatRole.PLAYER, text="just us", player_id=room.ann_id)
    expect(await next_chat(room.op), name="Ann", role=ChatRole.PLAYER, text="just us", player_id=room.ann_id)
    await no_chat(room.bob)
    await no_chat(room.carl)
    assert [m["text"] for m in (await room.history(room.ann_token))["messages"]] == ["just us"]
    for reader in (room.bob_token, None):
        history = await room.history(reader)
        assert history == {"table_id": room.table_id, "setting": "players_only", "muted": False,
                           "messages": []}


async def test_off_refuses_everyone_and_shows_nothing(room: Room) -> None:
    assert (await chat(room.ann, text="before")).get("type") == "accepted"
    await room.setting("off")
    for viewer in (room.ann, room.bob, room.op):
        refused = await chat(viewer, text="anyone?")
        assert refused["code"] == "CHAT_OFF", refused
    assert (await room.history(room.ann_token))["messages"] == []
    operator_view = await room.http.get(f"/api/operator/tables/{room.table_id}/chat", headers=room.op_headers)
    assert [m["text"] for m in operator_view.json()["messages"]] == ["before"]
    await room.setting("everyone")
    assert [m["text"] for m in (await room.history())["messages"]] == ["before"]


@pytest.mark.parametrize(("fields", "code", "words"), [
    ({"text": "hi", "emote": "thanks"}, "INVALID_VALUE", "exactly one of 'text' and 'emote', not both"),
    ({}, "INVALID_VALUE", "exactly one of 'text' and 'emote'"),
    ({"text": "line\nbreak"}, "INVALID_VALUE", "U+000A"),
    ({"text": "zero\u200bwidth"}, "INVALID_VALUE", "U+200B"),
    ({"text": "   "}, "INVALID_VALUE", "must not be empty"),
    ({"text": "x" * 201}, "CHAT_TOO_LONG", "201 characters; at most 200"),
    ({"emote": "gloat"}, "INVALID_VALUE", "unknown emote 'gloat'"),
    ({"text": 5}, "WRONG_TYPE", "chat.text"),
])
async def test_a_bad_message_is_refused_by_name_and_nothing_is_kept(room: Room, fields: dict[str, Any],
                                                                    code: str, words: str) -> None:
    refused = await chat(room.ann, **fields)
    assert (refused["type"], refused["code"]) == ("error", code), refused
    assert words in refused["message"]
    assert refused["max_chars"] == (200 if code == "CHAT_TOO_LONG" else None)  # for the page's words
    await no_chat(room.bob)
    assert (await room.history())["messages"] == []
    assert (await chat(room.ann, text="x" * 200))["type"] == "accepted"  # the limit itself is fine


async def test_a_lone_surrogate_is_no_text(room: Room) -> None:
    await room.ann.send('{"type": "chat", "id": "s1", "text": "half \\ud800 a pair"}')
    refused = await room.ann.until(lambda f: f["type"] == "error")
    assert refused["code"] == "MALFORMED_JSON", refused
    await no_chat(room.bob)


async def test_each_account_may_post_so_often(room: Room) -> None:
    for n in range(10):  # chat_per_minute: 10, in a burst
        assert (await chat(room.ann, text=f"message {n}"))["type"] == "accepted"
    refused = await chat(room.ann, text="one more")
    assert refused["code"] == "CHAT_TOO_FAST", refused
    assert "at most 10 chat messages a minute" in refused["message"]
    assert 1 <= refused["retry_after_s"] <= 6  # the page words the wait from it
    assert (await chat(room.bob, text="my own allowance"))["type"] == "accepted"
    texts = [m["text"] for m in (await room.history())["messages"]]
    assert "one more" not in texts
    assert (texts[-1], len(texts)) == ("my own allowance", 11)


async def test_the_last_hundred_are_kept_for_a_late_joiner(room: Room, redis: Redis, connect: Any,
                                                           tables: Any) -> None:
    store = ChatStore(redis)
    for n in range(CHAT_KEPT + 5):
        await store.post(room.table_id, ts_ms=n, player_id=room.ann_id, name="Ann", role=ChatRole.PLAYER,
                         text=f"n{n}", emote=None)
    messages = (await room.history())["messages"]
    assert [m["text"] for m in messages] == [f"n{n}" for n in range(5, CHAT_KEPT + 5)]  # oldest first
    assert [m["id"] for m in messages] == list(range(6, CHAT_KEPT + 6))
    dan_id, dan_token = await tables.player("Dan")
    async with connect(room.table_id, player_id=dan_id) as dan:
        assert (await dan.hello(dan_token))["type"] == "snapshot"
        late = await room.history(dan_token)
        assert late["messages"] == messages
        assert (await chat(dan, text="hi, I just came")).get("type") == "accepted"
        frame = await room.ann.until(lambda f: f["type"] == "chat" and f["message"]["name"] == "Dan")
        expect(frame, name="Dan", role=ChatRole.SPECTATOR, text="hi, I just came", player_id=dan_id)
    assert len((await room.history())["messages"]) == CHAT_KEPT


async def audit_entries(room: Room, action: str) -> list[dict[str, Any]]:
    answer = await room.http.get("/api/operator/audit", headers=room.op_headers)
    return [e for e in answer.json()["entries"] if e["action"] == action]


async def test_the_operator_mutes_and_unmutes_a_player_audited(room: Room) -> None:
    base = f"/api/operator/tables/{room.table_id}/chat"
    muted = await room.http.post(f"{base}/mute", json={"player_id": room.ann_id}, headers=room.op_headers)
    assert muted.status_code == 200, muted.text
    assert muted.json() == {"table_id": room.table_id, "player_id": room.ann_id, "muted": True,
                            "changed": True}
    refused = await chat(room.ann, text="let me speak")
    assert refused["code"] == "CHAT_MUTED", refused
    await no_chat(room.bob)
    assert (await room.history(room.ann_token))["muted"] is True
    assert (await room.history(room.bob_token))["muted"] is False
    view = (await room.http.get(base, headers=room.op_headers)).json()
    assert view["muted"] == [room.ann_id]
    unknown = await room.http.post(f"{base}/mute", json={"player_id": "p_nobody"}, headers=room.op_headers)
    assert (unknown.status_code, unknown.json()["error"]) == (404, "PLAYER_NOT_FOUND")
    unmuted = await room.http.post(f"{base}/unmute", json={"player_id": room.ann_id}, headers=room.op_headers)
    assert unmuted.json()["muted"] is False
    assert (await chat(room.ann, text="thanks")).get("type") == "accepted"
    mutes = await audit_entries(room, "chat_mute")
    assert [(e["outcome"], e["player_id"], e["actor"], e["table_id"]) for e in mutes] == [
        ("ok", room.ann_id, "bootstrap", room.table_id),
        ("PLAYER_NOT_FOUND", "p_nobody", "bootstrap", room.table_id)]  # oldest first
    assert [e["outcome"] for e in await audit_entries(room, "chat_unmute")] == ["ok"]


async def test_a_deleted_message_disappears_for_everyone_live_audited(room: Room) -> None:
    await chat(room.ann, text="something rude")
    await chat(room.bob, text="a kind word")
    message = (await next_chat(room.carl))["message"]
    base = f"/api/operator/tables/{room.table_id}/chat/messages"
    deleted = await room.http.delete(f"{base}/{message['id']}", headers=room.op_headers)
    assert deleted.status_code == 200, deleted.text
    assert deleted.json()["deleted"] == message
    for viewer in room.viewers():
        await viewer.until(lambda f: f["type"] == "chat_deleted")
        assert viewer.frames[-1] == {"type": "chat_deleted", "message_id": message["id"]}
    assert [m["text"] for m in (await room.history())["messages"]] == ["a kind word"]
    again = await room.http.delete(f"{base}/{message['id']}", headers=room.op_headers)
    assert (again.status_code, again.json()["error"]) == (404, "MESSAGE_NOT_FOUND")
    bad = await room.http.delete(f"{base}/abc", headers=room.op_headers)
    assert (bad.status_code, bad.json()["error"]) == (400, "INVALID_FIELD")
    nobody = await room.http.delete(f"{base}/{message['id']}")
    assert nobody.status_code == 401
    entries = await audit_entries(room, "chat_delete")
    assert [e["outcome"] for e in entries] == ["ok", "MESSAGE_NOT_FOUND", "INVALID_FIELD"]  # oldest first
    assert entries[0]["detail"] == (f"deleted message {message['id']} by Ann (player, {room.ann_id}): "
                                     "'something rude'")


async def test_setting_changes_are_checked_and_audited(room: Room) -> None:
    base = f"/api/operator/tables/{room.table_id}/chat"
    for body, code in (({"setting": "friends"}, "INVALID_FIELD"), ({"setting": 1}, "INVALID_FIELD"),
                       ({"setting": "off", "why": "x"}, "UNKNOWN_FIELD")):
        answer = await room.http.put(base, json=body, headers=room.op_headers)
        assert (answer.status_code, answer.json()["error"]) == (400, code), answer.text
    assert "everyone, players_only, off" in (await room.http.put(base, json={"setting": "friends"},
                                                                 headers=room.op_headers)).json()["message"]
    await no_chat(room.ann)
    assert (await room.history())["setting"] == "everyone"
    missing = await room.http.put("/api/operator/tables/t999/chat", json={"setting": "off"},
                                  headers=room.op_headers)
    assert (missing.status_code, missing.json()["error"]) == (404, "TABLE_NOT_FOUND")
    await room.setting("players_only")
    entries = await audit_entries(room, "change_chat")
    assert [e["outcome"] for e in entries] == ["INVALID_FIELD", "INVALID_FIELD", "UNKNOWN_FIELD",
                                               "INVALID_FIELD", "TABLE_NOT_FOUND", "ok"]
    assert entries[-1]["detail"] == "chat players_only"
    assert entries[-1]["params"] == {"setting": "players_only"}


async def test_reading_the_chat_of_no_table_or_with_a_dead_token(room: Room) -> None:
    assert (await room.http.get("/api/tables/t999/chat")).json()["error"] == "TABLE_NOT_FOUND"
    dead = await room.http.get(f"/api/tables/{room.table_id}/chat", headers={"Authorization": "Bearer nope"})
    assert (dead.status_code, dead.json()["error"]) == (401, "UNKNOWN_SESSION")


async def test_chat_text_is_kept_exactly_as_typed(room: Room) -> None:
    typed = '"quoted" & <script>alert(1)</script> 😀 ünïcode \\ back'
    assert (await chat(room.ann, text=typed)).get("type") == "accepted"
    frame = await next_chat(room.carl)
    expect(frame, name="Ann", role=ChatRole.PLAYER, text=typed, player_id=room.ann_id)
    assert (await room.history())["messages"][0]["text"] == typed
