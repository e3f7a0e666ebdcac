"""Fresh guests (``store.fresh_guests``, issue 19 point 3): a new guest costs Redis a small hash, its token
and its sessions set, all short-lived, and nothing in the ledger, the players set or the guest index, until it
first sits, chats, is credited or is kept; then it is an ordinary guest whose starting balance is issued
with its opening ledger entry, and the money adds up at every step."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import time
from typing import Any

import pytest
import websockets
from redis.asyncio import Redis

from paigow.ledger.accounts import BANK, EntryKind, LedgerEntry, player_account
from paigow.protocol.version import PROTOCOL_VERSION
from paigow.table.commands import Sit
from paigow_server.process.settings import Settings
from paigow_server.store import keys
from paigow_server.store.accounts import InsufficientBalanceError
from paigow_server.store.guests import ExpireOutcome, Guests
from paigow_server.store.holds import Holds
from paigow_server.store.money import ledger_mismatches, money_totals
from support.harness import AppHandle

FRESH_MINUTES = 0.03
"""1.8 s: long enough for a test to use the guest, short enough to watch one lapse."""


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return dataclasses.replace(settings, fresh_guest_minutes=FRESH_MINUTES, argon2_memory_kib=1024,
                               argon2_time_cost=1)


async def _guest(handle: AppHandle, name: str = "Ann") -> dict[str, Any]:
    answer = await handle.client.post("/api/session", json={"display_name": name})
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


def _bearer(guest: dict[str, Any]) -> dict[str, str]:
    return {"Authorization": f"Bearer {guest['token']}"}


async def _owned(redis: Redis, player_id: str) -> list[str]:
    owned = [keys.player(player_id), keys.player_sessions(player_id)]
    owned += [keys.session(str(h)) for h in await redis.smembers(keys.player_sessions(player_id))]
    return owned


async def _openings(redis: Redis, player_id: str) -> int:
    return sum(1 for _, fields in await redis.xrange(keys.LEDGER)
               if '"opening"' in fields["e"] and player_id in fields["e"])


async def _check_money(redis: Redis) -> int:
    totals = await money_totals(redis)
    assert totals.balanced, totals
    assert await ledger_mismatches(redis) == []
    return totals.issued_cents


async def test_a_new_guest_is_small_short_lived_and_issues_nothing(app_client: AppHandle,
                                                                    redis: Redis) -> None:
    started = time.time_ns() // 1_000_000
    guest = await _guest(app_client)
    player_id = guest["player_id"]
    assert guest["balance_cents"] == 100_000
    assert guest["expires_ms"] <= time.time_ns() // 1_000_000 + FRESH_MINUTES * 60_000  # its token lapses too
    assert guest["expires_ms"] >= started
    owned = await _owned(redis, player_id)
    assert len(owned) == 3  # the hash, the sessions set, one session
    for key in owned:
        assert 0 < await redis.pttl(key) <= FRESH_MINUTES * 60_000, key
    assert not await redis.sismember(keys.PLAYERS, player_id)
    assert await redis.zscore(keys.GUESTS_SEEN, player_id) is None
    assert await _openings(redis, player_id) == 0
    assert await _check_money(redis) == 0
    resumed = await app_client.client.get("/api/session", headers=_bearer(guest))
    assert (resumed.status_code, resumed.json()["balance_cents"]) == (200, 100_000)  # a guest like any other


async def test_an_unused_fresh_guest_lapses_whole(app_client: AppHandle, redis: Redis) -> None:
    guest = await _guest(app_client)
    owned = await _owned(redis, guest["player_id"])
    await asyncio.sleep(FRESH_MINUTES * 60 + 0.5)
    assert [k for k in owned if await redis.exists(k)] == []
    lapsed = await app_client.client.get("/api/session", headers=_bearer(guest))
    assert (lapsed.status_code, lapsed.json()["error"]) == (401, "UNKNOWN_SESSION")
    assert await _check_money(redis) == 0


async def test_using_a_fresh_guest_keeps_it_alive(app_client: AppHandle, redis: Redis) -> None:
    guest = await _guest(app_client)
    for _ in range(4):  # 2.4 s in all, more than its 1.8 s, used every 0.6 s
        await asyncio.sleep(0.6)
        assert (await app_client.client.get("/api/session", headers=_bearer(guest))).status_code == 200
    assert not await redis.sismember(keys.PLAYERS, guest["player_id"])  # still fresh


async def test_sitting_settles_the_guest_and_the_money_adds_up(app_client: AppHandle, redis: Redis) -> None:
    guest = await _guest(app_client)
    player_id = guest["player_id"]
    opened = await app_client.client.post("/api/operator/tables", headers=app_client.operator_headers,
                                          json={"name": "Main"})
    table_id = opened.json()["table_id"]
    await app_client.app.state.realtime.service.execute(table_id, Sit(player_id, "Ann", 1, 20_000))
    assert await redis.sismember(keys.PLAYERS, player_id)
    assert await redis.zscore(keys.GUESTS_SEEN, player_id) is not None
    assert await redis.pttl(keys.player(player_id)) == -1  # kept like any guest now
    assert await redis.hget(keys.player(player_id), "fresh") is None
    assert await _openings(redis, player_id) == 1
    assert await _check_money(redis) == 100_000
    assert int(await redis.hget(keys.player(player_id), "balance") or 0) == 80_000


async def test_a_credit_or_keeping_the_account_settles_it(app_client: AppHandle, redis: Redis) -> None:
    credited, kept = await _guest(app_client, "Cred"), await _guest(app_client, "Kept")
    answer = await app_client.client.post(f"/api/operator/players/{credited['player_id']}/credit",
                                          headers=app_client.operator_headers,
                                          json={"amount_cents": 777, "reason": "welcome"})
    assert answer.status_code == 200, answer.text
    assert await _check_money(redis) == 100_777
    answer = await app_client.client.post("/api/accounts/keep", headers=_bearer(kept),
                                          json={"username": "keeper", "password": "Vq7-pLm2-xT9k"})
    assert answer.status_code == 200, answer.text
    resumed = await app_client.client.get("/api/session", headers=_bearer(kept))
    assert answer.json()["expires_ms"] > kept["expires_ms"] + 86_400_000  # the kept token's own life
    assert abs(answer.json()["expires_ms"] - resumed.json()["expires_ms"]) < 60_000
    assert await _check_money(redis) == 200_777
    for player_id in (credited["player_id"], kept["player_id"]):
        assert await redis.pttl(keys.player(player_id)) == -1
        assert await _openings(redis, player_id) == 1
    assert await redis.zscore(keys.GUESTS_SEEN, kept["player_id"]) is None  # registered: never collected


async def test_a_chat_line_settles_the_guest(tables: Any) -> None:
    table_id = await tables.table()
    player_id, token = await tables.player("Ann")
    assert not await tables.redis.sismember(keys.PLAYERS, player_id)
    async with websockets.connect(tables.url(table_id)) as ws:
        await ws.send(json.dumps({"type": "hello", "protocol": PROTOCOL_VERSION, "token": token}))
        await ws.recv()
        await ws.send(json.dumps({"type": "chat", "id": "c1", "text": "hi"}))
        while (frame := json.loads(await asyncio.wait_for(ws.recv(), 5))).get("id") != "c1":
            pass
        assert frame["type"] == "accepted"
    assert await tables.redis.sismember(keys.PLAYERS, player_id)
    assert await _check_money(tables.redis) == 100_000


async def test_the_collector_never_takes_a_fresh_guest(app_client: AppHandle, redis: Redis) -> None:
    guest = await _guest(app_client)
    await redis.zadd(keys.GUESTS_SEEN, {guest["player_id"]: 0})  # as if it were indexed and long unseen
    outcome = await Guests(redis).expire(guest["player_id"], 100_000, cutoff_ms=1, now_ms=2)
    assert outcome is ExpireOutcome.FRESH
    assert await redis.zscore(keys.GUESTS_SEEN, guest["player_id"]) is None
    assert await _check_money(redis) == 0


async def test_the_operator_finds_a_fresh_guest(app_client: AppHandle) -> None:
    guest = await _guest(app_client, "Bo Pickering")
    found = await app_client.client.get("/api/operator/players", params={"q": "bo pick"},
                                        headers=app_client.operator_headers)
    assert [p["player_id"] for p in found.json()["players"]] == [guest["player_id"]]
    assert found.json()["players"][0]["balance_cents"] == 100_000


async def _still_fresh(redis: Redis, player_id: str) -> None:
    assert await redis.hget(keys.player(player_id), "fresh") == "1"
    assert not await redis.sismember(keys.PLAYERS, player_id)
    assert await redis.zscore(keys.GUESTS_SEEN, player_id) is None
    assert await _openings(redis, player_id) == 0
    assert await _check_money(redis) == 0  # nothing issued


async def test_a_refused_debit_or_keep_issues_nothing(app_client: AppHandle, redis: Redis) -> None:
    """Issue 29 point 1: a refused request changes no money, a fresh guest's issuance included."""
    guest = await _guest(app_client)
    player_id = guest["player_id"]
    answer = await app_client.client.post(f"/api/operator/players/{player_id}/debit",
                                          headers=app_client.operator_headers,
                                          json={"amount_cents": 100_000_000, "reason": "x"})
    assert (answer.status_code, answer.json()["error"]) == (409, "INSUFFICIENT_BALANCE")
    await _still_fresh(redis, player_id)
    taken = await _guest(app_client, "Other")
    kept = await app_client.client.post("/api/accounts/keep", headers=_bearer(taken),
                                        json={"username": "keeper", "password": "Vq7-pLm2-xT9k"})
    assert kept.status_code == 200, kept.text
    credentials = app_client.app.state.ctx.sessions.credentials
    assert await credentials.keep(player_id, "keeper", "x") == "USERNAME_TAKEN"  # the script's own check
    assert await redis.hget(keys.player(player_id), "fresh") == "1"
    assert not await redis.sismember(keys.PLAYERS, player_id)
    assert await _openings(redis, player_id) == 0
    assert await _check_money(redis) == 100_000  # the kept one's only


async def test_a_refused_buy_in_issues_nothing(app_client: AppHandle, redis: Redis) -> None:
    answer = await app_client.client.put("/api/operator/settings", headers=app_client.operator_headers,
                                         json={"starting_balance_cents": 5_000})
    assert answer.status_code == 200, answer.text
    guest = await _guest(app_client)
    player_id = guest["player_id"]
    opened = await app_client.client.post("/api/operator/tables", headers=app_client.operator_headers,
                                          json={"name": "Main"})
    table_id = opened.json()["table_id"]
    service = app_client.app.state.realtime.service
    with pytest.raises(InsufficientBalanceError):  # a buy-in beyond the balance, on one Redis
        await service.execute(table_id, Sit(player_id, "Ann", 1, 20_000))
    await _still_fresh(redis, player_id)
    assert await Holds(redis).reserve(player_id, table_id, 5_001) is None  # a Cluster's hold
    await _still_fresh(redis, player_id)
    assert await Holds(redis).reserve(player_id, table_id, 5_000) is not None
    assert await _openings(redis, player_id) == 1  # the hold that is taken settles it
    assert await redis.hget(keys.player(player_id), "fresh") is None


async def test_a_refused_chat_line_issues_nothing(tables: Any) -> None:
    table_id = await tables.table()
    player_id, token = await tables.player("Ann")
    async with websockets.connect(tables.url(table_id)) as ws:
        await ws.send(json.dumps({"type": "hello", "protocol": PROTOCOL_VERSION, "token": token}))
        await ws.recv()
        await ws.send(json.dumps({"type": "chat", "id": "c1", "text": "hi", "emote": "wave"}))
        while (frame := json.loads(await asyncio.wait_for(ws.recv(), 5))).get("id") != "c1":
            pass
        assert (frame["type"], frame["code"]) == ("error", "INVALID_VALUE")
    await _still_fresh(tables.redis, player_id)


async def test_the_opening_entry_is_the_one_the_core_writes(app_client: AppHandle, redis: Redis) -> None:
    guest = await _guest(app_client)
    player_id = guest["player_id"]
    assert await app_client.app.state.ctx.accounts.fresh.settle(player_id)
    assert not await app_client.app.state.ctx.accounts.fresh.settle(player_id)  # once
    [(_, fields)] = [(i, f) for i, f in await redis.xrange(keys.LEDGER) if player_id in f["e"]]
    written = json.loads(fields["e"])
    expected = LedgerEntry(EntryKind.OPENING, BANK, player_account(player_id), 100_000, written["ts_ms"],
                           player_id=player_id).to_json()
    assert fields["e"] == expected
    assert abs(written["ts_ms"] - time.time_ns() // 1_000_000) < 5_000
    assert await _check_money(redis) == 100_000
