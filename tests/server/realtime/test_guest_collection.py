"""Abandoned guests are collected: seated chips back through the table, the balance to the bank through
the ledger (``guest_expired``), the keys deleted; registered, recent and connected players stay. The money
still adds up and every cent has its ledger entry."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from redis.asyncio import Redis

from paigow.ledger.accounts import derived_balances
from paigow.table.commands import Sit
from paigow_server.process.settings import Settings
from paigow_server.realtime.guest_collector import GuestCollector
from paigow_server.realtime.realtime import Realtime
from paigow_server.store import keys
from paigow_server.store.ledger import Ledger
from paigow_server.store.money import ledger_mismatches, money_totals
from paigow_server.store.session_tokens import hash_token
from support.harness import AppHandle, play_house_round

DAY_MS = 86_400_000


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return dataclasses.replace(settings, guest_retention_days=7, argon2_memory_kib=1024, argon2_time_cost=1)


def realtime(handle: AppHandle) -> Realtime:
    rt = handle.app.state.realtime
    assert isinstance(rt, Realtime)
    return rt


def collector(handle: AppHandle) -> GuestCollector:
    found = realtime(handle).guest_collector
    assert found is not None
    return found


async def guest(handle: AppHandle, name: str) -> dict[str, Any]:
    return dict((await handle.client.post("/api/session", json={"display_name": name})).json())


async def unseen_for(redis: Redis, player_id: str, days: float) -> None:
    """As if the guest was last seen ``days`` ago."""
    when = int(await redis.zscore(keys.GUESTS_SEEN, player_id) or 0) - int(days * DAY_MS)
    await redis.zadd(keys.GUESTS_SEEN, {player_id: when})


async def test_unseen_guests_are_collected_and_the_money_still_adds_up(app_client: AppHandle,
                                                                        redis: Redis) -> None:
    http, ops = app_client.client, app_client.operator_headers
    rt = realtime(app_client)
    opened = await http.post("/api/operator/tables", headers=ops,
                             json={"name": "Main", "timers": {"between_rounds_ms": 50}})
    table_id = opened.json()["table_id"]
    seated, idle, recent = await guest(app_client, "Sat"), await guest(app_client, "Idle"), await guest(
        app_client, "Recent")
    kept = (await http.post("/api/accounts", json={"username": "kept", "password": "kept password"})).json()
    await rt.service.execute(table_id, Sit(seated["player_id"], "Sat", 1, 20_000))
    await rt.service.execute(table_id, Sit(kept["player_id"], "Kept", 2, 10_000))
    await play_house_round(rt, table_id, {seated["player_id"]: 1_000, kept["player_id"]: 500})
    await http.post(f"/api/operator/players/{idle['player_id']}/credit", headers=ops,
                    json={"amount_cents": 777, "reason": "bonus"})
    state = await rt.store.load(table_id)
    assert state is not None
    chips = next(s.chips_cents for s in state.seats if s is not None and s.player_id == seated["player_id"])
    balances = {p["player_id"]: int(await redis.hget(keys.player(p["player_id"]), "balance") or 0)
                for p in (seated, idle)}
    issued_before = (await money_totals(redis)).issued_cents
    for player in (seated, idle):
        await unseen_for(redis, player["player_id"], 8)
    await unseen_for(redis, recent["player_id"], 6)

    collected = await collector(app_client).collect_once()

    assert sorted(collected) == sorted([seated["player_id"], idle["player_id"]])
    state = await rt.store.load(table_id)
    assert state is not None
    assert state.seat_of(seated["player_id"]) is None
    assert state.seat_of(kept["player_id"]) is not None
    totals = await money_totals(redis)
    assert totals.balanced
    returned = balances[seated["player_id"]] + chips + balances[idle["player_id"]]
    assert totals.issued_cents == issued_before - returned
    assert await ledger_mismatches(redis) == []
    entries = await Ledger(redis).entries()
    expired = {e["player_id"]: e["amount_cents"] for e in entries if e["kind"] == "guest_expired"}
    assert expired == {seated["player_id"]: balances[seated["player_id"]] + chips,
                       idle["player_id"]: balances[idle["player_id"]]}
    cash_out = [e for e in entries if e["kind"] == "cash_out" and e["player_id"] == seated["player_id"]]
    assert [e["amount_cents"] for e in cash_out] == [chips]
    derived = derived_balances(entries)
    for player_id in collected:
        assert derived.get(f"player:{player_id}", 0) == 0
        assert derived.get(f"seat:{table_id}:{player_id}", 0) == 0
        # Nothing of the guest is left but the second looks' anti-fraud figures, which expire by themselves
        # (docs/floor.md, "Privacy").
        left = [k async for k in redis.scan_iter(match=f"*{player_id}*")]
        assert [k for k in left if not k.startswith(keys.GLOBAL + "floor:")] == []
        assert all([await redis.pttl(k) > 0 for k in left])
        assert not await redis.sismember(keys.PLAYERS, player_id)
    for player in (seated, idle):
        gone = await http.get("/api/session", headers={"Authorization": f"Bearer {player['token']}"})
        assert (gone.status_code, gone.json()["error"]) == (401, "UNKNOWN_SESSION")
    for player in (recent, kept):
        assert await redis.exists(keys.player(player["player_id"]))
    audit = (await http.get("/api/operator/audit", headers=ops)).json()["entries"]
    assert sorted((e["player_id"], e["actor"]) for e in audit if e["action"] == "collect_guest") == sorted(
        (p, "system") for p in collected)
    assert await collector(app_client).collect_once() == []  # nothing twice


async def test_a_guest_with_an_open_connection_or_seen_again_is_not_collected(
        app_client: AppHandle, redis: Redis) -> None:
    rt = realtime(app_client)
    connected, returned = await guest(app_client, "On"), await guest(app_client, "Back")
    for player in (connected, returned):
        await unseen_for(redis, player["player_id"], 30)
    assert rt.player_connections.acquire(connected["player_id"])  # as an open table connection does
    try:
        # the returning guest uses their token: seen now (the first use refreshes the token)
        await redis.pexpire(keys.session(hash_token(returned["token"])), 1_000)
        back = await app_client.client.get("/api/session",
                                           headers={"Authorization": f"Bearer {returned['token']}"})
        assert back.status_code == 200
        assert await collector(app_client).collect_once() == []
    finally:
        rt.player_connections.release(connected["player_id"])
    assert await redis.exists(keys.player(connected["player_id"]), keys.player(returned["player_id"])) == 2
    assert (await money_totals(redis)).balanced


