"""Private tables on the table WebSocket: who may say hello (the invite, an admission, the spectators
policy, a removed player's bar), the host's messages checked by the table for every sender, audited naming
the sender and the host, removal, mute, hand-over races, closing mid-round with the money balanced, and the
waiting list wired through (docs/protocol.md, "Private tables and the waiting list")."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
import websockets

from paigow.protocol.version import PROTOCOL_VERSION
from paigow_server.process.settings import Settings
from support.homes import Homes, auth, home_settings

FAST = {"bank_offer_ms": 2_000, "betting_ms": 5_000, "setting_ms": 5_000, "between_rounds_ms": 150}
OPERATOR = {"Authorization": "Bearer test-operator-token-0123456789"}


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return home_settings(settings)


@pytest.fixture
async def homes(live_server: Any):
    async with httpx.AsyncClient(base_url=live_server.url) as client:
        yield Homes(client)


async def hello(client: Any, token: str | None = None, **fields: Any) -> dict[str, Any]:
    message: dict[str, Any] = {"type": "hello", "protocol": PROTOCOL_VERSION, **fields}
    if token is not None:
        message["token"] = token
    await client.send(message)
    return await client.recv()


async def refused(client: Any, token: str | None, code: str, **fields: Any) -> dict[str, Any]:
    answer = await hello(client, token, **fields)
    assert answer["type"] == "error", answer
    assert answer["code"] == code, answer
    await client.ws.wait_closed()
    assert client.ws.close_code == 4403
    return answer


def every_host_message(host_id: str, other_id: str) -> list[dict[str, Any]]:
    return [{"type": "host_approve", "player_id": other_id}, {"type": "host_deny", "player_id": other_id},
            {"type": "host_remove", "player_id": host_id, "bar_minutes": 5},
            {"type": "host_mute", "player_id": host_id, "muted": True},
            {"type": "host_hand_over", "player_id": other_id}, {"type": "host_pause"},
            {"type": "host_resume"},
            {"type": "host_close"}, {"type": "host_limits", "min_bet_cents": 100, "max_bet_cents": 200},
            {"type": "host_timers", "betting_ms": 9_000}, {"type": "host_settings", "seating": "open"}]


@dataclasses.dataclass
class Party:
    table_id: str
    code: str
    ids: tuple[str, str, str]
    tokens: tuple[str, str, str]
    clients: tuple[Any, Any, Any]


@contextlib.asynccontextmanager
async def three_at_a_table(homes: Homes, connect: Any, *, friends_sit: bool = False) -> AsyncIterator[Party]:
    """A host and two friends who came by the link, each connected (the host first); with ``friends_sit``
    the friends take seats 2 and 3."""
    accounts = [await homes.account() for _ in range(3)]
    body = await homes.table(accounts[0][1], timers=FAST)
    table_id, code = body["table_id"], body["invite"]["code"]
    async with contextlib.AsyncExitStack() as stack:
        clients = [await stack.enter_async_context(connect(table_id, player_id=pid)) for pid, _ in accounts]
        await hello(clients[0], accounts[0][1])
        for client, (_, token) in zip(clients[1:], accounts[1:], strict=True):
            await hello(client, token, invite=code)
        seats = enumerate(clients[1:], start=2) if friends_sit else iter(())
        for seat, client in seats:
            answer = await client.command({"type": "sit", "seat": seat, "buy_in_cents": 10_000})
            assert answer["type"] == "accepted", answer
        (a, ta), (b, tb), (c, tc) = accounts
        yield Party(table_id, code, (a, b, c), (ta, tb, tc), (clients[0], clients[1], clients[2]))


async def audit(homes: Homes) -> list[dict[str, Any]]:
    page = await homes.client.get("/api/operator/audit?limit=1000", headers=OPERATOR)
    return list(page.json()["entries"])


async def test_hello_needs_access_at_a_private_table(homes: Homes, connect: Any) -> None:
    _, ann = await homes.account()
    body = await homes.table(ann)
    table_id, code = body["table_id"], body["invite"]["code"]
    _, bob = await homes.account()
    async with connect(table_id) as client:
        await refused(client, bob, "NO_ACCESS")
    async with connect(table_id) as client:
        await refused(client, None, "NO_ACCESS")
    async with connect(table_id) as client:
        await refused(client, bob, "NO_ACCESS", invite="x" * 32)
    async with connect(table_id) as client:  # a token-less spectator with the link
        snapshot = await hello(client, None, invite=code)
        assert snapshot["type"] == "snapshot"
        assert snapshot["role"] == "spectator"
        assert snapshot["view"]["home"]["host_name"] == body["table"]["host_name"]
    bob_id, bob = await homes.account()
    async with connect(table_id, player_id=bob_id) as client:  # the link admits Bob's account
        assert (await hello(client, bob, invite=code))["type"] == "snapshot"
    async with connect(table_id, player_id=bob_id) as client:  # and then he needs it no more
        snapshot = await hello(client, bob)
        assert snapshot["type"] == "snapshot"
        assert snapshot["view"]["waiting"] == []
    async with connect(table_id) as client:  # the operator always
        await client.send({"type": "hello", "protocol": PROTOCOL_VERSION,
                           "operator_token": "test-operator-token-0123456789"})
        assert (await client.recv())["type"] == "snapshot"


async def test_with_spectators_none_nobody_watches(homes: Homes, connect: Any) -> None:
    _, ann = await homes.account()
    body = await homes.table(ann, spectators="none")
    table_id, code = body["table_id"], body["invite"]["code"]
    async with connect(table_id) as client:
        await refused(client, None, "SPECTATORS_OFF", invite=code)
    bob_id, bob = await homes.account()
    assert (await homes.resolve(code, bob)).status_code == 200
    async with connect(table_id) as client:
        await refused(client, bob, "SPECTATORS_OFF", spectate=True)
    async with connect(table_id, player_id=bob_id) as client:
        assert (await hello(client, bob))["type"] == "snapshot"


async def test_approval_every_host_message_from_a_non_host_and_the_audit(homes: Homes, connect: Any) -> None:
    ann_id, ann = await homes.account()
    body = await homes.table(ann, seating="approval", timers=FAST)
    table_id, code = body["table_id"], body["invite"]["code"]
    bob_id, bob = await homes.account()
    assert (await homes.resolve(code, bob)).status_code == 200
    async with connect(table_id, player_id=ann_id) as host, connect(table_id, player_id=bob_id) as guest:
        await hello(host, ann)
        await hello(guest, bob)
        sit = {"type": "sit", "seat": 3, "buy_in_cents": 10_000}
        assert (await guest.command(sit))["code"] == "APPROVAL_REQUIRED"
        assert (await guest.command({"type": "request_seat"}))["type"] == "accepted"
        await host.until_event(lambda e: e["kind"] == "seat_requested" and e["player_id"] == bob_id)
        assert [r["player_id"] for r in host.view["home"]["requests"]] == [bob_id]
        for message in every_host_message(ann_id, bob_id):
            answer = await guest.command(message)
            assert answer["code"] == "NOT_HOST", (message, answer)
        assert (await host.command({"type": "host_approve", "player_id": bob_id}))["type"] == "accepted"
        await guest.until_view(lambda v: bob_id in v["home"]["approved"])
        assert (await guest.command(sit))["type"] == "accepted"
    entries = [e for e in await audit(homes) if e["table_id"] == table_id and e["action"].startswith("host_")]
    refused_ones = [e for e in entries if e["outcome"] == "NOT_HOST"]
    assert len(refused_ones) == 11
    assert {e["actor"] for e in refused_ones} == {f"player:{bob_id}"}  # the sender, who is not the host
    assert {(e["params"]["host_player_id"], e["params"]["host_name"]) for e in refused_ones} == {
        (ann_id, body["table"]["host_name"])}
    approved = next(e for e in entries if e["action"] == "host_approve" and e["outcome"] == "ok")
    assert approved["actor"] == f"host:{ann_id}"
    assert approved["params"]["host_name"] == body["table"]["host_name"]


async def test_a_removed_player_is_barred_even_with_the_old_link_and_a_muted_one_cannot_chat(
        homes: Homes, connect: Any) -> None:
    async with three_at_a_table(homes, connect) as party:
        host, guest, third = party.clients
        (_, bob_id, cat_id), (_, bob, _) = party.ids, party.tokens
        table_id, code = party.table_id, party.code
        assert (await guest.command({"type": "sit", "seat": 2, "buy_in_cents": 10_000}))["type"] == "accepted"
        assert (await host.command({"type": "host_mute", "player_id": cat_id, "muted": True}))["type"] == \
            "accepted"
        muted = await third.until_event(lambda e: e["kind"] == "player_muted")
        assert muted == {"kind": "player_muted", "player_id": cat_id, "muted": True}
        assert (await third.until_view(lambda v: v["home"]["muted"] == [cat_id]))["home"]["muted"] == [cat_id]
        assert (await third.command({"type": "chat", "text": "hi"}))["code"] == "CHAT_MUTED"
        read = await homes.client.get(f"/api/tables/{table_id}/chat", headers=auth(party.tokens[2]))
        assert read.json()["muted"] is True
        again = await host.command({"type": "host_mute", "player_id": cat_id, "muted": True})
        assert again["code"] == "ALREADY_DONE"
        removed = await host.command({"type": "host_remove", "player_id": bob_id, "bar_minutes": 30})
        assert removed["type"] == "accepted", removed
        kicked = await guest.until_event(lambda e: e["kind"] in ("player_kicked", "player_leaving"))
        assert kicked["barred_until_ms"] is not None
        assert kicked["by"] == "host"
        told = await guest.until(lambda f: f["type"] == "error")  # then the removed player's socket closes
        assert told["code"] == "BARRED"
        await guest.ws.wait_closed()
        assert guest.ws.close_code == 4403
    async with connect(table_id, player_id=bob_id) as again:
        answer = await refused(again, bob, "BARRED", invite=code)
        assert answer["until_ms"] == kicked["barred_until_ms"]
    resolved = await homes.resolve(code, bob)
    assert resolved.status_code == 403
    assert resolved.json()["error"] == "BARRED"
    assert resolved.json()["until_ms"] == kicked["barred_until_ms"]
    actions = [(e["action"], e["outcome"]) for e in await audit(homes) if e["table_id"] == table_id]
    assert ("host_mute", "ok") in actions
    assert ("host_remove", "ok") in actions


async def test_hand_over_race_leaves_one_host(homes: Homes, connect: Any) -> None:
    async with three_at_a_table(homes, connect, friends_sit=True) as party:
        host, b, c = party.clients
        ann_id, bob_id, cat_id = party.ids
        # the host hands the role to Bob and to Cat at once: the table takes one, refuses the other
        await host.send({"type": "host_hand_over", "id": "h1", "player_id": bob_id})
        await host.send({"type": "host_hand_over", "id": "h2", "player_id": cat_id})
        answers: dict[str, dict[str, Any]] = {}
        while len(answers) < 2:
            frame = await host.until(lambda f: f["type"] in ("accepted", "error"))
            answers[frame["id"]] = frame
        kinds = sorted(a.get("code", a["type"]) for a in answers.values())
        assert kinds == ["NOT_HOST", "accepted"]
        view = await host.until_view(lambda v: v["home"]["host_player_id"] != ann_id)
        new_host = view["home"]["host_player_id"]
        assert (await host.command({"type": "host_pause"}))["code"] == "NOT_HOST"
        winner = b if new_host == bob_id else c
        assert (await winner.command({"type": "host_pause"}))["type"] == "accepted"


async def test_a_host_acts_only_at_their_own_table(homes: Homes, connect: Any) -> None:
    ann_id, ann = await homes.account()
    _bob_id, bob = await homes.account()
    mine = await homes.table(ann)
    theirs = await homes.table(bob)
    async with connect(theirs["table_id"], player_id=ann_id) as client:
        await hello(client, ann, invite=theirs["invite"]["code"])
        assert (await client.command({"type": "host_pause"}))["code"] == "NOT_HOST"
        assert (await client.command({"type": "host_close"}))["code"] == "NOT_HOST"
    async with connect(mine["table_id"], player_id=ann_id) as client:
        await hello(client, ann)
        assert (await client.command({"type": "host_pause"}))["type"] == "accepted"


async def test_host_messages_at_a_public_table_are_not_private(tables: Any, connect: Any) -> None:
    table_id = await tables.table()
    player_id, token = await tables.player("Ann")
    async with connect(table_id, player_id=player_id) as client:
        await client.hello(token)
        assert (await client.command({"type": "host_pause"}))["code"] == "NOT_PRIVATE"
        assert (await client.command({"type": "request_seat"}))["code"] == "NOT_PRIVATE"
        assert (await client.command({"type": "join_waitlist"}))["code"] == "SEATS_FREE"
        assert (await client.command({"type": "take_seat", "buy_in_cents": 5_000}))["code"] == "NO_OFFER"


async def test_the_host_closes_mid_round_the_round_finishes_and_the_money_balances(
        homes: Homes, connect: Any) -> None:
    ann_id, ann = await homes.account()
    body = await homes.table(ann, timers=FAST, rules={"player_banking": False})
    table_id, code = body["table_id"], body["invite"]["code"]
    bob_id, bob = await homes.account()
    async with connect(table_id, player_id=ann_id) as host, connect(table_id, player_id=bob_id) as guest:
        await hello(host, ann)
        await hello(guest, bob, invite=code)
        for client, seat in ((host, 1), (guest, 2)):
            assert (await client.command({"type": "sit", "seat": seat, "buy_in_cents": 10_000}))["type"] == \
                "accepted"
        await host.until_view(lambda v: v["phase"] == "betting", within=10)
        for client in (host, guest):
            assert (await client.command({"type": "place_bet", "amount_cents": 1_000}))["type"] == "accepted"
        await host.until_view(lambda v: v["phase"] == "setting")
        assert (await host.command({"type": "host_close"}))["type"] == "accepted"
        await host.until_event(lambda e: e["kind"] == "table_closing")
        for client in (host, guest):
            await client.command({"type": "use_house_way"})
        await host.until_event(lambda e: e["kind"] == "round_settled")
        view = await host.until_view(lambda v: v["phase"] == "closed")
        assert all(seat is None for seat in view["seats"])
    money = (await homes.client.get("/api/operator/money", headers=OPERATOR)).json()
    for _ in range(50):  # the ledger's part of a commit is delivered an instant after it
        if money["balanced"] and money["in_transit_cents"] == 0:
            break
        await asyncio.sleep(0.05)
        money = (await homes.client.get("/api/operator/money", headers=OPERATOR)).json()
    assert money["balanced"] is True
    assert (await homes.resolve(code)).status_code == 404
    rounds = await homes.client.get(f"/api/tables/{table_id}/rounds", headers=auth(bob))
    assert rounds.status_code == 200
    assert len(rounds.json()["rounds"]) == 1  # a closed table's history stays readable by those who played


@pytest.mark.parametrize(("message", "code", "names"), [
    ({"type": "host_remove", "player_id": "p_x", "bar_minutes": 0}, "INVALID_VALUE", "bar_minutes"),
    ({"type": "host_remove", "player_id": "p_x"}, "MISSING_FIELD", "bar_minutes"),
    ({"type": "host_timers"}, "INVALID_VALUE", "at least one"),
    ({"type": "host_timers", "betting_ms": "9000"}, "WRONG_TYPE", "betting_ms"),
    ({"type": "host_settings", "seating": "closed"}, "INVALID_VALUE", "seating"),
    ({"type": "host_mute", "player_id": "p_x", "muted": 1}, "WRONG_TYPE", "muted"),
    ({"type": "take_seat", "buy_in_cents": -5}, "INVALID_VALUE", "buy_in_cents"),
    ({"type": "join_waitlist", "seat": 2}, "UNKNOWN_FIELD", "seat"),
    ({"type": "host_limits", "min_bet_cents": 100, "max_bet_cents": 100_001}, "INVALID_VALUE", "100000"),
])
async def test_bad_host_input_names_what_was_wrong_and_changes_nothing(homes: Homes, connect: Any, message,
                                                                        code, names) -> None:
    ann_id, ann = await homes.account()
    table_id = (await homes.table(ann))["table_id"]
    async with connect(table_id, player_id=ann_id) as host:
        await hello(host, ann)
        await host.drain()
        version = host.version
        answer = await host.command(message)
        assert answer["code"] == code, answer
        assert names in answer["message"], answer
        await host.drain()
        assert host.version == version


async def test_a_host_token_is_no_operator_token(homes: Homes, connect: Any) -> None:
    ann_id, ann = await homes.account()
    table_id = (await homes.table(ann))["table_id"]
    for path in ("/api/operator/home-tables", f"/api/operator/tables/{table_id}", "/api/operator/money"):
        response = await homes.client.get(path, headers=auth(ann))
        assert response.status_code == 401, path
        assert response.json()["error"] == "BAD_OPERATOR_TOKEN"
    closed = await homes.client.post(f"/api/operator/tables/{table_id}/close", headers=auth(ann))
    assert closed.status_code == 401
    async with connect(table_id) as client:
        await client.send({"type": "hello", "protocol": PROTOCOL_VERSION, "operator_token": ann})
        answer = await client.recv()
        assert answer["code"] == "UNAUTHORIZED"
    async with connect(table_id, player_id=ann_id) as client:
        snapshot = await hello(client, ann)
        assert snapshot["role"] == "player"
        assert snapshot["view"]["admin"] is None


async def test_two_server_processes_one_host_after_a_hand_over_race(homes: Homes, connect: Any,
                                                                     other_ws_url: str,
                                                                     frame_checker: Any) -> None:
    async with three_at_a_table(homes, connect, friends_sit=True) as party:
        host, b, _ = party.clients
        ann_id, bob_id, cat_id = party.ids
        async with websockets.connect(f"{other_ws_url}/ws/tables/{party.table_id}") as ws:
            elsewhere = frame_checker(ann_id)
            elsewhere.ws = ws
            assert (await hello(elsewhere, party.tokens[0]))["type"] == "snapshot"
            await host.send({"type": "host_hand_over", "id": "here", "player_id": bob_id})
            await elsewhere.send({"type": "host_hand_over", "id": "there", "player_id": cat_id})
            here = await host.until(lambda f: f.get("id") == "here")
            there = await elsewhere.until(lambda f: f.get("id") == "there")
        assert sorted(a.get("code", a["type"]) for a in (here, there)) == ["NOT_HOST", "accepted"]
        view = await b.until_view(lambda v: v["home"]["host_player_id"] != ann_id)
        assert view["home"]["host_player_id"] in (bob_id, cat_id)
        assert sum(1 for e in b.events if e["kind"] == "host_changed") == 1


async def test_a_removed_player_connected_to_another_process_is_closed_there_too(
        homes: Homes, connect: Any, other_ws_url: str, frame_checker: Any) -> None:
    async with three_at_a_table(homes, connect) as party:
        host, bob = party.clients[0], party.clients[1]
        _, bob_id, _ = party.ids
        assert (await bob.command({"type": "sit", "seat": 2, "buy_in_cents": 10_000}))["type"] == "accepted"
        async with websockets.connect(f"{other_ws_url}/ws/tables/{party.table_id}") as ws:
            elsewhere = frame_checker(bob_id)
            elsewhere.ws = ws
            assert (await hello(elsewhere, party.tokens[1]))["type"] == "snapshot"
            removed = await host.command({"type": "host_remove", "player_id": bob_id, "bar_minutes": 10})
            assert removed["type"] == "accepted"
            await elsewhere.until_event(lambda e: e["kind"] == "admission_ended")
            told = await elsewhere.until(lambda f: f["type"] == "error")
            assert told["code"] == "BARRED"
            assert told["until_ms"] is not None
            await ws.wait_closed()
            assert ws.close_code == 4403
