"""A player's own data (docs/http-api.md, "Your data"): ``GET /api/account/data`` answers everything the
store holds about the token's player, each section exact against Redis read here independently, nothing of
another player's but the public round records, never a token; limited per account, a refused request
reading nothing."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import time
from datetime import UTC, datetime
from typing import Any

import pytest
from redis.asyncio import Redis

from paigow.protocol.chat import ChatRole
from paigow.table.commands import Leave, Sit
from paigow_server.process.settings import Settings
from paigow_server.realtime.realtime import Realtime
from paigow_server.store import keys
from paigow_server.store.account_data import AccountData
from paigow_server.store.session_tokens import hash_token
from paigow_server.web.account_data_routes import AT_ONCE, WAITING_MAX
from paigow_server.web.context import AppContext
from support.harness import AppHandle, play_house_round

PER_HOUR = 3


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return dataclasses.replace(settings, data_downloads_per_hour=PER_HOUR, argon2_memory_kib=1024,
                               argon2_time_cost=1, sessions_per_minute=1000)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def guest(handle: AppHandle, name: str) -> tuple[str, str]:
    made = (await handle.client.post("/api/session", json={"display_name": name})).json()
    return str(made["player_id"]), str(made["token"])


async def open_table(handle: AppHandle, name: str) -> str:
    opened = await handle.client.post("/api/operator/tables", headers=handle.operator_headers,
                                      json={"name": name, "timers": {"between_rounds_ms": 50}})
    assert opened.status_code == 201, opened.text
    return str(opened.json()["table_id"])


async def download(handle: AppHandle, token: str) -> dict[str, Any]:
    answer = await handle.client.get("/api/account/data", headers=bearer(token))
    assert answer.status_code == 200, answer.text
    today = datetime.now(UTC).strftime("%Y-%m-%d")
    assert answer.headers["content-disposition"] == f'attachment; filename="paigow-data-{today}.json"'
    assert token not in answer.text
    assert hash_token(token) not in answer.text
    body: dict[str, Any] = answer.json()
    return body


async def stream(redis: Redis, key: str) -> list[dict[str, Any]]:
    """Every entry of a stream, read here in one go (the test's streams are small)."""
    return [{"id": entry_id, **json.loads(fields["e"])} for entry_id, fields in await redis.xrange(key)]


def names_in_ledger(entry: dict[str, Any]) -> set[str]:
    """The player ids a ledger entry names: its ``player_id``, the ids of ``player:``/``seat:`` accounts."""
    named = {entry.get("player_id")}
    for account in (entry["from_account"], entry["to_account"]):
        kind, *rest = account.split(":")
        if kind in ("player", "seat"):
            named.add(rest[-1])
    return {p for p in named if p}


async def a_player_with_every_kind_of_record(app: AppHandle) -> dict[str, Any]:
    """Ann: rounds at two tables (one with Bob), a chat line (and Bob's beside it), an analysed hand, an
    operator's debit, a free top-up and a practice deal."""
    rt = app.app.state.realtime
    ctx = app.app.state.ctx
    assert isinstance(rt, Realtime)
    assert isinstance(ctx, AppContext)
    first, second = await open_table(app, "First"), await open_table(app, "Second")
    ann, ann_token = await guest(app, "Ann")
    bob, bob_token = await guest(app, "Bob")
    limited = await app.client.put("/api/account/responsible-play", headers=bearer(ann_token),
                                   json={"limits": {"loss_week": 500_000}})
    assert limited.status_code == 200, limited.text
    await rt.service.execute(first, Sit(ann, "Ann", 1, 20_000))
    await rt.service.execute(first, Sit(bob, "Bob", 2, 20_000))
    await rt.service.execute(second, Sit(ann, "Ann", 3, 20_000))
    await play_house_round(rt, first, {ann: 1_000, bob: 500})
    await rt.service.execute(first, Leave(bob))
    await play_house_round(rt, second, {ann: 2_000})
    await play_house_round(rt, first, {ann: 1_500})
    for table_id in (first, second):
        await rt.service.execute(table_id, Leave(ann))
    await ctx.chat.post(first, ts_ms=int(time.time() * 1000), player_id=ann, name="Ann", role=ChatRole.PLAYER,
                        text="good luck all", emote=None)
    await ctx.chat.post(first, ts_ms=int(time.time() * 1000), player_id=bob, name="Bob", role=ChatRole.PLAYER,
                        text="bob's own words", emote=None)
    hands = (await app.client.get("/api/players/me/history", headers=bearer(ann_token))).json()["hands"]
    analysed = hands[0]
    path = f"/api/tables/{analysed['table_id']}/rounds/{analysed['round_id']}/analysis"
    analysis = await app.client.get(path, headers=bearer(ann_token))
    assert analysis.status_code == 200, analysis.text
    ops = app.operator_headers
    balance = (await app.client.get(f"/api/operator/players/{ann}", headers=ops)).json()["balance_cents"]
    debit = await app.client.post(f"/api/operator/players/{ann}/debit", headers=ops,
                                  json={"amount_cents": balance - 100, "reason": "testing the download"})
    assert debit.status_code == 200, debit.text
    top_up = await app.client.post("/api/top-up", headers=bearer(ann_token))
    assert top_up.status_code == 200, top_up.text
    deal = await app.client.post("/api/practice/deals", headers=bearer(ann_token), json={})
    assert deal.status_code in (200, 201), deal.text
    return {"ann": ann, "ann_token": ann_token, "bob": bob, "bob_token": bob_token, "tables": [first, second],
            "analysed": analysed["round_id"], "deal_id": deal.json()["deal_id"]}


async def test_every_section_holds_exactly_the_player_s_records(app_client: AppHandle, redis: Redis) -> None:
    world = await a_player_with_every_kind_of_record(app_client)
    ann, bob = world["ann"], world["bob"]
    data = await download(app_client, world["ann_token"])
    assert data["format"] == 1
    assert abs(data["generated_ms"] - time.time() * 1000) < 60_000

    stored = await redis.hgetall(keys.player(ann))
    account = data["account"]
    assert (account["player_id"], account["display_name"], account["balance_cents"]) == (
        ann, "Ann", int(stored["balance"]))
    assert (account["registered"], account["username"], account["created_ms"]) == (
        False, None, int(stored["created_ms"]))
    assert account["last_top_up_ms"] == int(stored["top_up_ms"])
    assert "pw" not in json.dumps(account)
    limits = data["limits"]
    assert limits["state"]["limits"]["loss_week"] == 500_000
    [session] = limits["play_sessions"]
    assert (session["tables"], session["ended_by"], session["wagered_cents"]) == (
        world["tables"], "left", 1_000 + 2_000 + 1_500)
    played = [v for k, v in limits["totals"].items() if k.startswith("wager:")]
    assert played == [4_500] * 3
    assert data["sessions"]["count"] == 1 == len(data["sessions"]["sessions"])
    assert set(data["sessions"]["sessions"][0]) == {"lapses_ms"}

    ledger = await stream(redis, keys.LEDGER)
    anns = [e for e in ledger if ann in names_in_ledger(e)]
    assert len(anns) >= 7  # opening, 2 buy-ins, 2 cash-outs, the debit, the top-up; stakes unless pushes
    assert data["ledger"] == anns
    assert {e["kind"] for e in data["ledger"]} >= {"opening", "buy_in", "cash_out", "debit", "top_up"}
    assert not any(bob in names_in_ledger(e) and ann not in names_in_ledger(e) for e in data["ledger"])

    hands = data["hands"]
    assert hands["recent"] == [json.loads(t) for t in await redis.lrange(keys.history(ann), 0, -1)]
    assert len(hands["recent"]) == 3
    assert list(hands["analyses"]) == [world["analysed"]]
    rounds = [e for e in await stream(redis, keys.ROUNDS) if e["status"] == "settled"
              and any(h["player_id"] == ann for h in e["round"]["hands"])]
    assert not any(ann in json.dumps(e) for e in await stream(redis, keys.ROUNDS) if e["status"] != "settled")
    assert [r["round"]["round_id"] for r in rounds] == [h["round_id"] for h in reversed(hands["recent"])]
    assert hands["rounds"] == rounds
    assert {r["table_id"] for r in hands["rounds"]} == set(world["tables"])

    assert [(m["table_id"], m["text"]) for m in data["chat"]["messages"]] == [(world["tables"][0],
                                                                              "good luck all")]
    assert data["chat"]["muted_at"] == []

    audit = [e for e in await stream(redis, keys.AUDIT)
             if e["player_id"] == ann or e["actor"] in (f"player:{ann}", f"host:{ann}")]
    assert {e["action"] for e in audit} >= {"debit", "top_up"}
    assert data["audit"] == audit

    assert data["practice"]["deal_id"] == world["deal_id"]
    assert data["practice"]["dealer"] is None  # not answered yet: the dealer's cards are its answer
    assert len(data["practice"]["cards"]) == 7
    assert data["waitlists"] == {"joined": [], "last_sit": {"table_id": world["tables"][1],
                                                            "at_ms": data["waitlists"]["last_sit"]["at_ms"]}}
    assert data["home_tables"] == {"hosted": [], "admitted_to": []}
    assert data["bars"] == []
    assert data["sign_ins"] is None  # a guest has no username to count sign-ins by

    outside_rounds = json.dumps({k: v for k, v in data.items() if k != "hands"})
    assert bob not in outside_rounds
    assert "bob's own words" not in json.dumps(data)

    bobs = await download(app_client, world["bob_token"])
    assert [m["text"] for m in bobs["chat"]["messages"]] == ["bob's own words"]
    assert [len(bobs["hands"]["recent"]), len(bobs["hands"]["rounds"])] == [1, 1]
    assert ann not in json.dumps({k: v for k, v in bobs.items() if k != "hands"})


async def test_a_host_s_sign_ins_home_tables_bar_and_mute_without_invite_codes(app_client: AppHandle,
                                                                                redis: Redis) -> None:
    http, ops = app_client.client, app_client.operator_headers
    made = await http.post("/api/accounts", json={"username": "hostann", "password": "correct horse"})
    assert made.status_code == 201, made.text
    ann, token = made.json()["player_id"], made.json()["token"]
    http.cookies.clear()  # another device: its failure is counted on the account
    wrong = await http.post("/api/session/sign-in", json={"username": "hostann", "password": "wrong horse"})
    assert wrong.status_code == 401
    home = await http.post("/api/home/tables", json={"name": "Friday"}, headers=bearer(token))
    assert home.status_code == 201, home.text
    home_id = home.json()["table_id"]
    codes = await redis.hmget(keys.table_home(home_id), "code", "short")
    assert all(codes)
    public = await open_table(app_client, "Main")
    rt = app_client.app.state.realtime
    assert isinstance(rt, Realtime)
    await rt.service.execute(public, Sit(ann, "Ann", 1, 10_000))
    kicked = await http.post(f"/api/operator/tables/{public}/kick", headers=ops,
                             json={"player_id": ann, "reason": "testing the download", "bar_minutes": 30})
    assert kicked.status_code == 200, kicked.text
    muted = await http.post(f"/api/operator/tables/{public}/chat/mute", headers=ops, json={"player_id": ann})
    assert muted.status_code == 200, muted.text

    data = await download(app_client, token)
    assert (data["account"]["username"], data["account"]["registered"]) == ("hostann", True)
    assert "pw" not in data["account"]
    assert "argon2" not in json.dumps(data)
    assert data["sign_ins"]["failures"] == 1
    assert data["sessions"]["count"] == 1
    [hosted] = data["home_tables"]["hosted"]
    assert hosted == {"table_id": home_id, "open": True,
                      "created_ms": int(await redis.hget(keys.table_home(home_id), "created_ms"))}
    assert data["home_tables"]["admitted_to"] == [home_id]
    text = json.dumps(data)
    assert not any(code in text for code in codes)  # an invite admits whoever holds it
    [bar] = data["bars"]
    assert (bar["table_id"], bar["player_id"], bar["reason"]) == (public, ann, "testing the download")
    assert bar["until_ms"] == kicked.json()["barred_until_ms"]
    assert data["chat"]["muted_at"] == [public]
    actions = {(e["action"], e["actor"] == f"host:{ann}") for e in data["audit"]}
    assert {("host_create_table", True), ("kick", False), ("chat_mute", False)} <= actions
    assert data["audit"] == [e for e in await stream(redis, keys.AUDIT)
                             if e["player_id"] == ann or e["actor"] in (f"player:{ann}", f"host:{ann}")]


async def test_past_the_waiting_places_a_download_is_busy_and_not_counted(
        app_client: AppHandle, monkeypatch: pytest.MonkeyPatch) -> None:
    """``AT_ONCE`` downloads run and ``WAITING_MAX`` wait in a process; one more is ``503 BUSY`` at once,
    without counting against its account's hourly allowance."""
    release, running = asyncio.Event(), asyncio.Event()
    started: list[str] = []
    collect = AccountData.collect

    async def slow(self: AccountData, player_id: str, now_ms: int) -> dict[str, Any] | None:
        started.append(player_id)
        if len(started) == AT_ONCE:
            running.set()
        await release.wait()
        return await collect(self, player_id, now_ms)

    monkeypatch.setattr(AccountData, "collect", slow)
    tokens = [(await guest(app_client, f"P{i}"))[1] for i in range(AT_ONCE + WAITING_MAX + 1)]
    asked = [asyncio.create_task(app_client.client.get("/api/account/data", headers=bearer(token)))
             for token in tokens[:-1]]
    await running.wait()
    await asyncio.sleep(0.3)  # the others reach their turn's queue (a few Redis calls each, in this process)
    busy = await app_client.client.get("/api/account/data", headers=bearer(tokens[-1]))
    assert (busy.status_code, busy.json()["error"], busy.headers["retry-after"]) == (503, "BUSY", "5")
    assert len(started) == AT_ONCE  # the others wait their turn
    release.set()
    assert [answer.status_code for answer in await asyncio.gather(*asked)] == [200] * len(asked)
    for _ in range(PER_HOUR):  # the busy answer took nothing of the account's allowance
        await download(app_client, tokens[-1])


async def test_no_token_no_data(app_client: AppHandle) -> None:
    assert (await app_client.client.get("/api/account/data")).status_code == 401
    unknown = await app_client.client.get("/api/account/data", headers=bearer("not-a-token"))
    assert (unknown.status_code, unknown.json()["error"]) == (401, "UNKNOWN_SESSION")


async def test_past_the_hourly_limit_a_request_is_refused_and_reads_nothing(app_client: AppHandle,
                                                                           redis: Redis) -> None:
    _, token = await guest(app_client, "Ann")
    for _ in range(PER_HOUR):
        await download(app_client, token)
    await redis.config_resetstat()
    refused = await app_client.client.get("/api/account/data", headers=bearer(token))
    assert refused.status_code == 429
    body = refused.json()
    assert body["error"] == "RATE_LIMITED"
    assert "at most 3 an hour" in body["message"]
    assert 1_000 <= body["retry_after_s"] <= 3_600
    assert int(refused.headers["retry-after"]) >= 1_000
    stats = await redis.info("commandstats")
    assert not {"cmdstat_xrange", "cmdstat_smembers", "cmdstat_zrange"} & set(stats), stats
    other_id, other = await guest(app_client, "Bob")  # another account has its own allowance
    assert (await download(app_client, other))["account"]["player_id"] == other_id
