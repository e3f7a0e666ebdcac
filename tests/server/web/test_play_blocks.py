"""Breaks and self-exclusion against the real app on real Redis: a break refuses sitting, betting, the bank,
buying in and top-ups after a reconnect, with a new token, from a second device on another server
process; an operator can read it and cannot lift it; a seated player plays the dealt hand out and is stood
up at the round's end with the chips back; a block is never shortened; an exclusion needs ``confirm``."""

from __future__ import annotations

import asyncio
import json
import time
from types import SimpleNamespace
from typing import Any

import httpx
import websockets
from redis.asyncio import Redis

from paigow.table.state import Phase, SeatStatus, Timers
from paigow_server.store import keys
from paigow_server.store.tables import TableRepo
from support.checks import assert_money_and_ledger_intact

SIT = {"type": "sit", "seat": 3, "buy_in_cents": 10_000}
PASSWORD = "violet-harbour-lantern-1987"
DAY_MS = 86_400_000
REFUSED = ({"type": "sit", "seat": 4, "buy_in_cents": 10_000}, {"type": "place_bet", "amount_cents": 1_000},
           {"type": "accept_bank"}, {"type": "accept_bank", "co_bank": True}, {"type": "rebuy",
                                                                               "amount_cents": 5_000},
           {"type": "join_waitlist"}, {"type": "take_seat", "buy_in_cents": 10_000})


def now_ms() -> int:
    return time.time_ns() // 1_000_000


async def register(client: httpx.AsyncClient, username: str) -> tuple[str, str]:
    answer = await client.post("/api/accounts", json={"username": username, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    return answer.json()["player_id"], answer.json()["token"]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def until_gone(repo: TableRepo, table_id: str, player_id: str, within: float = 15.0) -> None:
    give_up = time.monotonic() + within
    while True:
        state = await repo.load(table_id)
        assert state is not None
        if state.seat_of(player_id) is None:
            return
        assert time.monotonic() < give_up, f"{player_id} still seated at {table_id}"
        await asyncio.sleep(0.05)


async def refused_everything(client: Any, code: str, until_ms: int) -> None:
    for message in REFUSED:
        answer = await client.command(message)
        got = (answer["type"], answer["code"], answer["until_ms"])
        assert got == ("error", code, until_ms), (message, answer)


async def test_a_break_holds_after_a_reconnect_a_new_token_a_second_device_and_against_the_operator(
        tables: Any, connect: Any, other_ws_url: str, frame_checker: Any, live_server: Any,
        redis: Redis) -> None:
    table_id = await tables.table()
    api = httpx.AsyncClient(base_url=live_server.url)
    op = httpx.AsyncClient(base_url=live_server.url, headers=bearer(live_server.operator_token))
    try:
        ann_id, token = await register(api, "ann_on_break")
        async with connect(table_id, player_id=ann_id) as ann:
            await ann.hello(token)
            assert (await ann.command(SIT))["type"] == "accepted"
            before = now_ms()
            answer = await api.post("/api/account/break", json={"length": "24h"}, headers=bearer(token))
            assert answer.status_code == 200, answer.text
            block = answer.json()["block"]
            assert (block["kind"], block["length"]) == ("break", "24h")
            assert before <= block["from_ms"] <= now_ms()
            assert block["until_ms"] == block["from_ms"] + DAY_MS
            until = block["until_ms"]
            await until_gone(tables.repo, table_id, ann_id)  # stood up at once: no hand was dealt to her
            stood = await ann.until_event(lambda e: e["kind"] == "player_stood_up")
            assert (stood["reason"], stood["chips_returned_cents"]) == ("break", 10_000)
            await refused_everything(ann, "ON_BREAK", until)  # the same connection
        assert await tables.balance(ann_id) == 100_000, "every chip back to the balance"

        async with connect(table_id, player_id=ann_id) as again:  # a reconnect
            assert (await again.hello(token))["type"] == "snapshot"  # watching goes on
            await refused_everything(again, "ON_BREAK", until)

        signed_in = await api.post("/api/session/sign-in", json={"username": "ann_on_break",
                                                                "password": PASSWORD})
        assert signed_in.status_code == 200, signed_in.text
        new_token = signed_in.json()["token"]
        assert new_token != token
        async with websockets.connect(f"{other_ws_url}/ws/tables/{table_id}") as ws:  # a second device,
            other = frame_checker(ann_id)                                        # another server process
            other.ws = ws
            assert (await other.hello(new_token))["type"] == "snapshot"
            await refused_everything(other, "ON_BREAK", until)
        top_up = await api.post("/api/top-up", headers=bearer(new_token))
        refused = (top_up.status_code, top_up.json()["error"], top_up.json()["until_ms"])
        assert refused == (403, "ON_BREAK", until)
        history = await api.get("/api/players/me/history", headers=bearer(new_token))
        assert history.status_code == 200, "History stays"
        mine = await api.get("/api/account/responsible-play", headers=bearer(new_token))
        assert mine.json()["block"] == block

        stored = await redis.hgetall(keys.rg(ann_id))
        seen = await op.get(f"/api/operator/players/{ann_id}/responsible-play")
        assert (seen.json()["player_id"], seen.json()["block"]) == (ann_id, block)
        assert seen.json()["checks_shown"] == 0
        listed = (await op.get("/api/operator/responsible-play/blocks")).json()["blocks"]
        assert [(b["player_id"], b["player_name"], b["until_ms"]) for b in listed] == [
            (ann_id, "ann_on_break", until)]
        for method in ("PUT", "DELETE", "POST", "PATCH"):
            for path in (f"/api/operator/players/{ann_id}/responsible-play",
                         "/api/operator/responsible-play/blocks",
                         f"/api/operator/players/{ann_id}/responsible-play/lift"):
                tried = await op.request(method, path, json={})
                assert tried.status_code in (404, 405), (method, path, tried.status_code)
        credit = await op.post(f"/api/operator/players/{ann_id}/credit", json={"amount_cents": 500,
                                                                                "reason": "goodwill"})
        assert credit.status_code == 200, credit.text
        unlock = await op.post(f"/api/operator/players/{ann_id}/unlock", json={})
        assert unlock.status_code in (200, 404), unlock.text
        kick = await op.post(f"/api/operator/tables/{table_id}/kick",
                             json={"player_id": ann_id, "reason": "x"})
        assert kick.status_code == 409, kick.text  # not seated
        assert await redis.hgetall(keys.rg(ann_id)) == stored, "no operator action touched the block"
        async with connect(table_id, player_id=ann_id) as after:
            await after.hello(new_token)
            await refused_everything(after, "ON_BREAK", until)
        audit = [json.loads(fields["e"]) for _, fields in await redis.xrange(keys.AUDIT)]
        started = [e for e in audit if e["action"] == "break_started"]
        assert [(e["actor"], e["player_id"], e["params"]["until_ms"]) for e in started] == [
            (f"player:{ann_id}", ann_id, until)]
    finally:
        await api.aclose()
        await op.aclose()


async def test_a_break_mid_round_plays_the_hand_out_and_stands_up_at_the_round_end(
        tables: Any, connect: Any, live_server: Any, redis: Redis) -> None:
    table_id = await tables.table(timers=Timers(bank_offer_ms=2_000, betting_ms=400, setting_ms=30_000,
                                                between_rounds_ms=60_000, reconnect_grace_ms=400))
    ann_id, ann_token = await tables.player("Ann")
    bob_id, bob_token = await tables.player("Bob")
    async with connect(table_id, player_id=ann_id) as ann, connect(table_id, player_id=bob_id) as bob:
        await ann.hello(ann_token)
        await bob.hello(bob_token)
        assert (await ann.command(SIT))["type"] == "accepted"
        assert (await bob.command({**SIT, "seat": 4}))["type"] == "accepted"
        for client in (ann, bob):
            await client.until_view(lambda v: v.get("phase") == Phase.BETTING.value, within=10)
            assert (await client.command({"type": "place_bet", "amount_cents": 1_000}))["type"] == "accepted"
        await ann.until_view(lambda v: v.get("phase") == Phase.SETTING.value, within=10)
        async with httpx.AsyncClient(base_url=live_server.url) as api:
            answer = await api.post("/api/account/break", json={"length": "7d"}, headers=bearer(ann_token))
        assert answer.status_code == 200, answer.text
        state = await tables.repo.load(table_id)
        seat = state.seats[3]
        assert (seat.status, seat.leave_reason) == (SeatStatus.LEAVING, "break"), "plays the hand out"
        hand = next(h for h in state.round.hands if h.position == 3)
        assert hand.set_by is None, "never set by the House Way for her"
        assert (await ann.command({"type": "use_house_way"}))["type"] == "accepted"  # she still sets it
        assert (await bob.command({"type": "use_house_way"}))["type"] == "accepted"
        settled = await ann.until_event(lambda e: e["kind"] == "round_settled", within=10)
        stood = await ann.until_event(lambda e: e["kind"] == "player_stood_up")
        assert stood["reason"] == "break"
        net = next(h["net_cents"] for h in settled["record"]["hands"] if h["position"] == 3)
        assert stood["chips_returned_cents"] == 10_000 + net
        await until_gone(tables.repo, table_id, ann_id)
        assert await tables.balance(ann_id) == 100_000 + net
        assert (await bob.command({"type": "leave"}))["type"] == "accepted"
    result = SimpleNamespace(money_ok=True, money_message="", stats=SimpleNamespace(hidden_card_leaks=0))
    await assert_money_and_ledger_intact(redis, result)  # type: ignore[arg-type]


async def test_a_block_only_lengthens_and_an_exclusion_needs_confirm(app_client: Any, redis: Redis) -> None:
    client = app_client.client
    created = await client.post("/api/session", json={"display_name": "Guest"})
    player_id, token = created.json()["player_id"], created.json()["token"]
    head = bearer(token)
    assert (await client.get("/api/account/responsible-play", headers=head)).json()["block"] is None
    for body, field in (({"length": "1h"}, "length"), ({}, "length"), ({"length": 24}, "length")):
        bad = await client.post("/api/account/break", json=body, headers=head)
        assert (bad.status_code, bad.json()["field"]) == (400, field), bad.text
    no_confirm = await client.post("/api/account/exclusion", json={"length": "6m"}, headers=head)
    assert (no_confirm.status_code, no_confirm.json()["field"]) == (400, "confirm")
    wrong = await client.post("/api/account/exclusion", json={"length": "7d", "confirm": True}, headers=head)
    assert (wrong.status_code, wrong.json()["field"]) == (400, "length")
    assert await redis.exists(keys.rg(player_id)) == 0, "nothing changed on a refusal"

    long = (await client.post("/api/account/break", json={"length": "30d"}, headers=head)).json()["block"]
    stored = await redis.hgetall(keys.rg(player_id))
    for shorter in ("24h", "7d"):
        answer = await client.post("/api/account/break", json={"length": shorter}, headers=head)
        assert (answer.status_code, answer.json()["error"]) == (409, "ALREADY_BLOCKED")
        assert answer.json()["until_ms"] == long["until_ms"]
        assert await redis.hgetall(keys.rg(player_id)) == stored
    excluded = await client.post("/api/account/exclusion", json={"length": "5y", "confirm": True},
                                 headers=head)
    assert excluded.status_code == 200, excluded.text
    block = excluded.json()["block"]
    assert block["kind"] == "exclusion"
    assert block["until_ms"] > long["until_ms"]
    back = await client.post("/api/account/break", json={"length": "30d"}, headers=head)
    assert (back.status_code, back.json()["until_ms"]) == (409, block["until_ms"]), "no break replaces it"
    assert float(await redis.zscore(keys.RG_BLOCKS, player_id)) == block["until_ms"]
    limited = await client.post("/api/account/break", json={"length": "30d"}, headers=head)
    assert limited.status_code == 429, "the 11th request in a minute: account_settings_per_minute"
