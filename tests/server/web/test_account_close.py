"""Closing an account against the real app on real Redis: closed mid-round, the dealt hand plays out and the
chips come back at the round's end, then the balance goes to the bank (ledger ``account_closed``), the money
check balanced and the ledger only grown; the tokens are dead and the socket closed; the personal fields,
history, sessions and chat lines gone; the username taken until ``closed_username_days`` have passed (an
injected clock), then registrable; a refusal changes nothing; a closed block refuses play with
``ACCOUNT_CLOSED``."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import httpx
import pytest
from redis.asyncio import Redis
from websockets.exceptions import ConnectionClosed

from paigow.table.state import Phase, SeatStatus, Timers
from paigow_server.store import keys
from paigow_server.store.account_closure import CLOSED_NAME, AccountClosure, FinishOutcome
from paigow_server.store.accounts import Accounts, UsernameTakenError
from paigow_server.store.money import ledger_mismatches, money_totals
from paigow_server.store.tables import TableRepo

SIT = {"type": "sit", "seat": 3, "buy_in_cents": 10_000}
PASSWORD = "violet-harbour-lantern-1987"
DAY_MS = 86_400_000
PERSONAL = ("username", "pw", "registered", "lang", "last_seen_ms", "top_up_ms")


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def money_ok(redis: Redis) -> None:
    assert (await money_totals(redis)).balanced
    assert await ledger_mismatches(redis) == []


async def ledger(redis: Redis) -> list[tuple[str, str]]:
    return [(entry_id, fields["e"]) for entry_id, fields in await redis.xrange(keys.LEDGER)]


async def until_closed(redis: Redis, player_id: str, within: float = 20.0) -> None:
    give_up = time.monotonic() + within
    while not await redis.sismember(keys.CLOSED_PLAYERS, player_id):
        assert time.monotonic() < give_up, f"{player_id}'s closing never finished"
        await asyncio.sleep(0.1)


async def until_gone(repo: TableRepo, table_id: str, player_id: str, within: float = 15.0) -> None:
    give_up = time.monotonic() + within
    while (state := await repo.load(table_id)) is not None and state.seat_of(player_id) is not None:
        assert time.monotonic() < give_up, f"{player_id} still seated at {table_id}"
        await asyncio.sleep(0.05)


async def test_closing_mid_round_plays_the_hand_out_then_erases_the_account_and_keeps_the_money_straight(
        tables: Any, connect: Any, live_server: Any, redis: Redis) -> None:
    table_id = await tables.table(timers=Timers(bank_offer_ms=2_000, betting_ms=400, setting_ms=6_000,
                                                between_rounds_ms=60_000, reconnect_grace_ms=400))
    api = httpx.AsyncClient(base_url=live_server.url)
    try:
        made = await api.post("/api/accounts", json={"username": "ann_closing", "password": PASSWORD})
        assert made.status_code == 201, made.text
        ann_id, token = made.json()["player_id"], made.json()["token"]
        bob_id, bob_token = await tables.player("Bob")
        async with connect(table_id, player_id=ann_id) as ann, connect(table_id, player_id=bob_id) as bob:
            await ann.hello(token)
            await bob.hello(bob_token)
            assert (await ann.command({"type": "chat", "text": "hello all"}))["type"] == "accepted"
            assert (await bob.command({"type": "chat", "text": "hi Ann"}))["type"] == "accepted"
            assert (await ann.command(SIT))["type"] == "accepted"
            assert (await bob.command({**SIT, "seat": 4}))["type"] == "accepted"
            for client in (ann, bob):
                await client.until_view(lambda v: v.get("phase") == Phase.BETTING.value, within=10)
                assert (await client.command({"type": "place_bet", "amount_cents": 1_000}))["type"] == \
                    "accepted"
            await ann.until_view(lambda v: v.get("phase") == Phase.SETTING.value, within=10)
            await money_ok(redis)
            before = await ledger(redis)
            player_before = await redis.hgetall(keys.player(ann_id))
            rg_before = await redis.hgetall(keys.rg(ann_id))  # her session's figures: no block

            for body, status, field in (({"confirm": "CLOSE"}, 400, "password"),
                                        ({"confirm": "close", "password": PASSWORD}, 400, "confirm"),
                                        ({"password": PASSWORD}, 400, "confirm")):
                refused = await api.post("/api/account/close", json=body, headers=bearer(token))
                assert (refused.status_code, refused.json()["field"]) == (status, field), refused.text
            wrong_password = {"confirm": "CLOSE", "password": "nope-nope-1"}
            wrong = await api.post("/api/account/close", json=wrong_password, headers=bearer(token))
            assert (wrong.status_code, wrong.json()["error"]) == (401, "BAD_CREDENTIALS")
            assert "block" not in rg_before
            assert await redis.hgetall(keys.rg(ann_id)) == rg_before, "nothing changed on a refusal"
            assert await redis.hgetall(keys.player(ann_id)) == player_before
            assert (await api.get("/api/session", headers=bearer(token))).status_code == 200

            closed = await api.post("/api/account/close", json={"confirm": "CLOSE", "password": PASSWORD},
                                    headers=bearer(token))
            assert (closed.status_code, closed.json()["error"]) == (429, "SIGN_IN_BACKOFF"), "as a sign-in"
            assert await redis.hgetall(keys.rg(ann_id)) == rg_before
            await asyncio.sleep(closed.json()["retry_after_s"])
            closed = await api.post("/api/account/close", json={"confirm": "CLOSE", "password": PASSWORD},
                                    headers=bearer(token))
            assert closed.status_code == 204, closed.text
            assert (await api.get("/api/session", headers=bearer(token))).status_code == 401
            early = await api.post("/api/session/sign-in",
                                   json={"username": "ann_closing", "password": PASSWORD})
            assert early.status_code == 401, "no new token while the closing finishes"
            assert (await api.get("/api/account/data", headers=bearer(token))).status_code == 401
            with pytest.raises(ConnectionClosed) as gone:
                await ann.drain(quiet=10)
            assert gone.value.rcvd is not None
            assert gone.value.rcvd.code == 4401
            state = await tables.repo.load(table_id)
            seat = state.seats[3]
            assert (seat.status, seat.leave_reason) == (SeatStatus.LEAVING, "account_closed"), "plays it out"
            assert (await bob.command({"type": "use_house_way"}))["type"] == "accepted"
            settled = await bob.until_event(lambda e: e["kind"] == "round_settled", within=15)
            stood = await bob.until_event(lambda e: e["kind"] == "player_stood_up")
            assert (stood["player_id"], stood["reason"]) == (ann_id, "account_closed")
            net = next(h["net_cents"] for h in settled["record"]["hands"] if h["position"] == 3)
            await until_gone(tables.repo, table_id, ann_id)
            await until_closed(redis, ann_id)
            lines = await redis.lrange(keys.table_chat_messages(table_id), 0, -1)
            chat = [json.loads(line) for line in lines]
            assert [c["text"] for c in chat] == ["hi Ann"], "her chat line is gone, Bob's stays"
            assert (await bob.command({"type": "leave"}))["type"] == "accepted"

        await money_ok(redis)
        after = await ledger(redis)
        assert after[:len(before)] == before, "the ledger only grew; every earlier entry unchanged"
        closing = [json.loads(text) for _, text in after[len(before):] if "account_closed" in text]
        assert [(e["from_account"], e["to_account"], e["amount_cents"]) for e in closing] == [
            (f"player:{ann_id}", "bank", 100_000 + net)]
        stored = await redis.hgetall(keys.player(ann_id))
        assert not set(PERSONAL) & set(stored), stored
        assert (stored["name"], stored["balance"]) == (CLOSED_NAME, "0")
        for key in (keys.player_sessions(ann_id), keys.history(ann_id), keys.history_analyses(ann_id),
                    keys.waitlists(ann_id), keys.practice_deal(ann_id), keys.rg_totals(ann_id),
                    keys.rg_sessions(ann_id)):
            assert await redis.exists(key) == 0, key
        assert json.loads(await redis.hget(keys.rg(ann_id), "block"))["kind"] == "closed", "the block stays"
        audit = [json.loads(f["e"]) for _, f in await redis.xrange(keys.AUDIT)]
        assert [(e["actor"], e["player_id"]) for e in audit if e["action"] == "account_closed"] == [
            (f"player:{ann_id}", ann_id)]

        rounds = (await api.get(f"/api/tables/{table_id}/rounds")).json()["rounds"]
        assert ann_id in {h["player_id"] for h in rounds[0]["hands"]}, "a recorded round keeps the player id"
        assert "ann_closing" not in json.dumps(rounds), "and no name of hers"
        posing = await api.post("/api/session", json={"display_name": "closed ACCOUNT"})
        assert (posing.status_code, posing.json()["error"]) == (400, "INVALID_NAME"), "nobody poses as one"
        sign_in = await api.post("/api/session/sign-in",
                                 json={"username": "ann_closing", "password": PASSWORD})
        assert (sign_in.status_code, sign_in.json()["error"]) == (401, "BAD_CREDENTIALS")
        again = await api.post("/api/accounts", json={"username": "ann_closing", "password": PASSWORD})
        assert (again.status_code, again.json()["error"]) == (409, "USERNAME_TAKEN")
    finally:
        await api.aclose()


async def test_a_closed_block_refuses_play_with_account_closed(tables: Any, connect: Any,
                                                               redis: Redis) -> None:
    """The guard at the edge (a connection opened before the closing, racing its revocation)."""
    table_id = await tables.table()
    cat_id, cat_token = await tables.player("Cat")
    async with connect(table_id, player_id=cat_id) as cat:
        await cat.hello(cat_token)
        assert await AccountClosure(redis).begin(cat_id, int(time.time() * 1000)) is not None
        answer = await cat.command(SIT)
        assert (answer["type"], answer["code"]) == ("error", "ACCOUNT_CLOSED"), answer
        assert (await cat.command({"type": "chat", "text": "still watching"}))["type"] == "accepted"


async def test_a_guest_closes_without_a_password_and_a_refusal_changes_nothing(app_client: Any,
                                                                                redis: Redis) -> None:
    client = app_client.client
    created = await client.post("/api/session", json={"display_name": "Guest"})
    player_id, token = created.json()["player_id"], created.json()["token"]
    head = bearer(token)
    await client.post("/api/top-up", headers=head)  # settles a fresh guest, if it is one
    bad = await client.post("/api/account/close", json={"confirm": "CLOSE", "password": "x"}, headers=head)
    assert (bad.status_code, bad.json()["field"]) == (400, "password")
    extra = await client.post("/api/account/close", json={"confirm": "CLOSE", "why": 1}, headers=head)
    assert extra.status_code == 400
    assert await redis.exists(keys.rg(player_id)) == 0
    closed = await client.post("/api/account/close", json={"confirm": "CLOSE"}, headers=head)
    assert closed.status_code == 204, closed.text
    assert (await client.get("/api/session", headers=head)).status_code == 401
    assert await app_client.app.state.ctx.play_blocks.closer.finish_due() == [player_id]
    await money_ok(redis)
    assert await redis.sismember(keys.CLOSED_PLAYERS, player_id)


async def test_the_username_stays_taken_until_closed_username_days_have_passed(redis: Redis) -> None:
    now = [1_800_000_000_000]
    accounts = Accounts(redis, starting_balance_cents=50_000, clock=lambda: now[0])
    player = await accounts.create("Dee", username="dee_closes", pw_hash="h")
    closure = AccountClosure(redis)
    assert await closure.begin(player.player_id, now[0]) is not None
    await money_ok(redis)
    assert await closure.finish(player.player_id, now[0], 30 * DAY_MS) is FinishOutcome.OK
    assert await closure.finish(player.player_id, now[0], 30 * DAY_MS) is FinishOutcome.DONE, "idempotent"
    await money_ok(redis)
    now[0] += 30 * DAY_MS - 1
    with pytest.raises(UsernameTakenError):
        await accounts.create("Someone", username="dee_closes", pw_hash="h")
    now[0] += 1
    fresh = await accounts.create("Someone", username="dee_closes", pw_hash="h")
    assert fresh.player_id != player.player_id
    assert await redis.get(keys.username("dee_closes")) == fresh.player_id
    await money_ok(redis)
