"""Free top-ups (issue 30, "Chips when you run out"): a player below every open table's minimum takes their
balance back to the starting balance, at most once per ``top_up_hours`` and ``top_ups_per_address_per_day``
per address network; a ledger entry of its own kind (``top_up``), counted in the money check, audited; a
refusal names why (and when the next is allowed) and changes nothing; an operator turns it off."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import time
from typing import Any

import pytest
from redis.asyncio import Redis

from paigow.ledger.accounts import BANK, EntryKind, player_account
from paigow.table.commands import Sit
from paigow_server.process.settings import Settings, SettingsError, load_settings
from paigow_server.realtime.realtime import Realtime
from paigow_server.store import keys
from paigow_server.store.money import ledger_mismatches, money_totals
from paigow_server.store.top_ups import HOUR_MS, TopUpReason, TopUps, TopUpTaken
from paigow_server.web.context import AppContext
from support.harness import AppHandle

NETWORK = "127.0.0.0/24"
"""The ASGI client's address network (httpx's ASGITransport: 127.0.0.1)."""


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return dataclasses.replace(settings, top_up_hours=24, top_ups_per_address_per_day=3)


def ctx_of(handle: AppHandle) -> AppContext:
    ctx = handle.app.state.ctx
    assert isinstance(ctx, AppContext)
    return ctx


async def open_table(handle: AppHandle, name: str = "Main", **limits: int) -> str:
    body: dict[str, Any] = {"name": name}
    if limits:
        body["rules"] = limits
    opened = await handle.client.post("/api/operator/tables", headers=handle.operator_headers, json=body)
    assert opened.status_code == 201, opened.text
    return str(opened.json()["table_id"])


async def guest(handle: AppHandle, name: str = "Ann") -> tuple[str, dict[str, str]]:
    made = (await handle.client.post("/api/session", json={"display_name": name})).json()
    return str(made["player_id"]), {"Authorization": f"Bearer {made['token']}"}


async def balance_to(handle: AppHandle, player_id: str, cents: int) -> None:
    """Make the player's balance ``cents`` (an operator's debit, or credit)."""
    ops = handle.operator_headers
    balance = int((await handle.client.get(f"/api/operator/players/{player_id}", headers=ops)).json()[
        "balance_cents"])
    way = "debit" if balance > cents else "credit"
    moved = await handle.client.post(f"/api/operator/players/{player_id}/{way}", headers=ops,
                                     json={"amount_cents": abs(balance - cents), "reason": "as needed"})
    assert moved.status_code == 200, moved.text


async def books(redis: Redis, player_id: str) -> tuple[Any, ...]:
    """Everything a top-up writes: the balance and its stamp, the issued total, the top-ups' total, the
    ledger, the audit log and the network's counter (not when the session was last used: every request
    with the token slides that)."""
    player = {k: v for k, v in (await redis.hgetall(keys.player(player_id))).items() if k != "last_seen_ms"}
    return (player, await redis.get(keys.MONEY_ISSUED),
            await redis.get(keys.TOP_UPS_TOTAL), await redis.xlen(keys.LEDGER), await redis.xlen(keys.AUDIT),
            await redis.get(keys.rate_limit("top-ups", NETWORK)))


async def last_entry(redis: Redis, stream: str) -> dict[str, Any]:
    [(_, fields)] = await redis.xrevrange(stream, count=1)
    return dict(json.loads(fields["e"]))


async def test_a_player_out_of_chips_tops_up_to_the_starting_balance_and_the_books_balance(
        app_client: AppHandle, redis: Redis) -> None:
    http = app_client.client
    await open_table(app_client, "Cheap", min_bet_cents=500, max_bet_cents=10_000)
    await open_table(app_client, "Dear", min_bet_cents=2_000, max_bet_cents=50_000)
    player_id, me = await guest(app_client)
    await balance_to(app_client, player_id, 300)
    status = (await http.get("/api/top-up", headers=me)).json()
    assert status == {"available": True, "reason": None, "message": None, "enabled": True, "hours": 24.0,
                      "to_cents": 100_000, "balance_cents": 300, "lowest_min_bet_cents": 500,
                      "below_minimum": True, "last_ms": None, "next_ms": None, "at_table": None,
                      "table_name": None}

    before = int(time.time() * 1000)
    taken = await http.post("/api/top-up", headers=me)
    assert taken.status_code == 200, taken.text
    body = taken.json()
    assert (body["amount_cents"], body["balance_cents"]) == (99_700, 100_000)
    assert body["top_up"]["reason"] == "not_needed"  # back above every minimum
    assert before <= body["top_up"]["last_ms"] <= int(time.time() * 1000)
    session = (await http.get("/api/session", headers=me)).json()
    assert session["balance_cents"] == 100_000

    entry = await last_entry(redis, keys.LEDGER)
    assert (entry["kind"], entry["from_account"], entry["to_account"], entry["amount_cents"],
            entry["player_id"]) == (EntryKind.TOP_UP, BANK, player_account(player_id), 99_700, player_id)
    audit = await last_entry(redis, keys.AUDIT)
    assert (audit["action"], audit["outcome"], audit["actor"], audit["player_id"]) == (
        "top_up", "ok", f"player:{player_id}", player_id)
    assert audit["params"] == {"amount_cents": 99_700, "balance_before_cents": 300, "network": NETWORK}
    ledger = (await http.get("/api/operator/ledger?limit=1000", headers=app_client.operator_headers)).json()
    assert [e["kind"] for e in ledger["entries"]].count("top_up") == 1

    money = (await http.get("/api/operator/money", headers=app_client.operator_headers)).json()
    assert money["balanced"] is True
    assert money["top_ups_cents"] == 99_700
    assert money["issued_cents"] == 100_000 + 99_700 - 99_700  # opening + top-up - the operator's debit
    assert await ledger_mismatches(redis) == []


async def test_every_refusal_names_why_and_changes_nothing(app_client: AppHandle, redis: Redis) -> None:
    http, ops = app_client.client, app_client.operator_headers
    player_id, me = await guest(app_client)

    async def refused(status: int, code: str, words: str) -> dict[str, Any]:
        kept = await books(redis, player_id)
        answer = await http.post("/api/top-up", headers=me)
        assert (answer.status_code, answer.json()["error"]) == (status, code), answer.text
        assert words in answer.json()["message"], answer.json()["message"]
        assert await books(redis, player_id) == kept
        assert answer.json()["top_up"]["available"] is False
        return dict(answer.json())

    await balance_to(app_client, player_id, 300)
    await refused(409, "TOP_UP_NOT_NEEDED", "no table is open")
    table_id = await open_table(app_client, min_bet_cents=200, max_bet_cents=10_000)
    await refused(409, "TOP_UP_NOT_NEEDED",
                  "your balance, $3.00, is not below the lowest table minimum, $2.00")
    closed = await open_table(app_client, "Closed", min_bet_cents=100, max_bet_cents=10_000)
    await http.post(f"/api/operator/tables/{closed}/close", headers=ops)  # its minimum no longer counts
    await refused(409, "TOP_UP_NOT_NEEDED", "lowest table minimum, $2.00")

    off = await http.put("/api/operator/settings", headers=ops, json={"top_up_hours": 0})
    assert off.json() == {"starting_balance_cents": 100_000, "top_up_hours": 0.0, "help_notice": ""}
    await balance_to(app_client, player_id, 100)
    body = await refused(409, "TOP_UPS_OFF", "free top-ups are off on this server")
    assert (body["top_up"]["reason"], body["top_up"]["below_minimum"], body["top_up"]["enabled"]) == (
        "off", True, False)
    assert (await http.get("/api/top-up", headers=me)).json()["reason"] == "off"
    await http.put("/api/operator/settings", headers=ops, json={"top_up_hours": 12})
    assert (await http.get("/api/operator/settings", headers=ops)).json()["top_up_hours"] == 12.0

    # Seated (chips at a table, however few): stand up first. No dodging with chips in play.
    await balance_to(app_client, player_id, 500)
    rt = app_client.app.state.realtime
    assert isinstance(rt, Realtime)
    await rt.service.execute(table_id, Sit(player_id, "Ann", 1, 400))
    body = await refused(409, "TOP_UP_AT_TABLE", "you are seated at Main: stand up there first")
    assert body["top_up"]["reason"] == "at_table"
    assert (body["top_up"]["at_table"], body["top_up"]["table_name"]) == ("seated", "Main")

    assert (await http.post("/api/top-up", headers={"Authorization": "Bearer nope"})).status_code == 401
    assert (await http.post("/api/top-up")).status_code == 401
    extra = await http.post("/api/top-up", headers=me, json={"amount_cents": 5})
    assert (extra.status_code, extra.json()["error"]) == (400, "UNKNOWN_FIELD")
    audit = [json.loads(f["e"])["action"] for _, f in await redis.xrange(keys.AUDIT)]
    assert "top_up" not in audit


async def test_once_per_top_up_hours_and_the_refusal_says_when_the_next_is(app_client: AppHandle,
                                                                            redis: Redis) -> None:
    http = app_client.client
    await open_table(app_client)
    player_id, me = await guest(app_client)
    await balance_to(app_client, player_id, 0)
    first = (await http.post("/api/top-up", headers=me)).json()
    await balance_to(app_client, player_id, 50)
    kept = await books(redis, player_id)
    again = await http.post("/api/top-up", headers=me)
    assert (again.status_code, again.json()["error"]) == (429, "TOP_UP_TOO_SOON")
    next_ms = first["top_up"]["last_ms"] + 24 * HOUR_MS
    assert again.json()["next_ms"] == next_ms == again.json()["top_up"]["next_ms"]
    assert "one free top-up every 24 hours: your next is allowed from " in again.json()["message"]
    assert time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(next_ms / 1000)) in again.json()["message"]
    assert 86_000 < int(again.headers["Retry-After"]) <= 86_400
    assert await books(redis, player_id) == kept
    status = (await http.get("/api/top-up", headers=me)).json()
    assert (status["reason"], status["next_ms"], status["below_minimum"]) == ("too_soon", next_ms, True)

    # A day later (the store told the time) it is allowed again.
    top_ups: TopUps = ctx_of(app_client).top_ups
    early = await top_ups.take(player_id, NETWORK, now_ms=next_ms - 1)
    assert early is not None
    assert not isinstance(early, TopUpTaken)
    assert early.reason is TopUpReason.TOO_SOON
    later = await top_ups.take(player_id, NETWORK, now_ms=next_ms)
    assert isinstance(later, TopUpTaken)
    assert later.amount_cents == 99_950
    assert (await money_totals(redis)).balanced


async def test_top_ups_are_limited_per_address_network(app_client: AppHandle, redis: Redis) -> None:
    """Three a day from one network (this test's setting), every account of it together: many guests
    refilling. Another network is not held back."""
    http = app_client.client
    await open_table(app_client)
    for n in range(3):
        player_id, me = await guest(app_client, f"G{n}")
        await balance_to(app_client, player_id, 0)
        assert (await http.post("/api/top-up", headers=me)).status_code == 200
    player_id, me = await guest(app_client, "G3")
    await balance_to(app_client, player_id, 0)
    assert (await http.get("/api/top-up", headers=me)).json()["reason"] == "network_limit"
    kept = await books(redis, player_id)
    limited = await http.post("/api/top-up", headers=me)
    assert (limited.status_code, limited.json()["error"]) == (429, "RATE_LIMITED"), limited.text
    assert f"too many top-ups from {NETWORK}: at most 3 a day" in limited.json()["message"]
    wait_ms = limited.json()["next_ms"] - int(time.time() * 1000)
    assert 7 * HOUR_MS < wait_ms <= 8 * HOUR_MS  # a day's allowance is three, one back every 8 hours
    assert await books(redis, player_id) == kept
    elsewhere = await ctx_of(app_client).top_ups.take(player_id, "198.51.100.0/24")
    assert isinstance(elsewhere, TopUpTaken)
    assert (await money_totals(redis)).top_ups_cents == 4 * 100_000


async def test_two_top_ups_at_once_give_one(app_client: AppHandle, redis: Redis) -> None:
    await open_table(app_client)
    player_id, me = await guest(app_client)
    await balance_to(app_client, player_id, 0)
    answers = await asyncio.gather(*(app_client.client.post("/api/top-up", headers=me) for _ in range(4)))
    assert sum(a.status_code == 200 for a in answers) == 1
    assert {a.json()["error"] for a in answers if a.status_code != 200} <= {"TOP_UP_NOT_NEEDED",
                                                                           "TOP_UP_TOO_SOON"}
    totals = await money_totals(redis)
    assert (totals.balanced, totals.top_ups_cents) == (True, 100_000)
    assert await ledger_mismatches(redis) == []


async def test_the_operator_settings_check_the_hours(app_client: AppHandle) -> None:
    http, ops = app_client.client, app_client.operator_headers
    assert (await http.get("/api/operator/settings", headers=ops)).json() == {
        "starting_balance_cents": 100_000, "top_up_hours": 24.0, "help_notice": ""}
    for bad in (-1, 8_761, "24", True, None):
        refused = await http.put("/api/operator/settings", headers=ops, json={"top_up_hours": bad})
        assert (refused.status_code, refused.json()["error"]) == (400, "INVALID_FIELD"), bad
    both = await http.put("/api/operator/settings", headers=ops,
                          json={"top_up_hours": 0.5, "starting_balance_cents": -1})
    assert both.status_code == 400
    assert (await http.get("/api/operator/settings", headers=ops)).json()["top_up_hours"] == 24.0
    empty = await http.put("/api/operator/settings", headers=ops, json={})
    assert (empty.status_code, empty.json()["error"]) == (400, "INVALID_FIELD")
    assert (await http.put("/api/operator/settings", headers=ops, json={"top_up_hours": 0.5})).json() == {
        "starting_balance_cents": 100_000, "top_up_hours": 0.5, "help_notice": ""}


def test_the_serve_settings_of_top_ups() -> None:
    defaults = load_settings({}, {})
    assert (defaults.top_up_hours, defaults.top_ups_per_address_per_day) == (24.0, 20)
    assert load_settings({"top_up_hours": "0"}, {}).top_up_hours == 0
    assert load_settings({}, {"PAIGOW_TOP_UP_HOURS": "1.5"}).top_up_hours == 1.5
    assert load_settings({}, {"PAIGOW_TOP_UPS_PER_ADDRESS_PER_DAY": "5"}).top_ups_per_address_per_day == 5
    with pytest.raises(SettingsError, match=r"TOP_UP_HOURS='-1': must be a number from 0 \(off\) to 8760"):
        load_settings({}, {"PAIGOW_TOP_UP_HOURS": "-1"})
    with pytest.raises(SettingsError, match=r"--top-ups-per-address-per-day='0': must be a whole number"):
        load_settings({"top_ups_per_address_per_day": "0"}, {})


async def test_a_fresh_guest_is_settled_by_its_top_up_and_the_books_balance(app_client: AppHandle,
                                                                            redis: Redis) -> None:
    """A guest made while the starting balance was below every minimum is still fresh (nothing issued)
    when it asks: the top-up's script issues its opening balance first, then the top-up."""
    http, ops = app_client.client, app_client.operator_headers
    await open_table(app_client)
    await http.put("/api/operator/settings", headers=ops, json={"starting_balance_cents": 300})
    player_id, me = await guest(app_client)
    assert await redis.hget(keys.player(player_id), "fresh") == "1"
    await http.put("/api/operator/settings", headers=ops, json={"starting_balance_cents": 100_000})
    taken = await http.post("/api/top-up", headers=me)
    assert taken.status_code == 200, taken.text
    assert (taken.json()["amount_cents"], taken.json()["balance_cents"]) == (99_700, 100_000)
    assert await redis.hget(keys.player(player_id), "fresh") is None
    kinds = [json.loads(f["e"])["kind"] for _, f in await redis.xrange(keys.LEDGER)]
    assert kinds == ["opening", "top_up"]
    totals = await money_totals(redis)
    assert (totals.balanced, totals.issued_cents, totals.top_ups_cents) == (True, 100_000, 99_700)
    assert await ledger_mismatches(redis) == []
