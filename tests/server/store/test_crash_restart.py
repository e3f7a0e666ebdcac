"""SIGKILL the server at any moment, start it again on the same Redis: nothing is lost or doubled.

A real ``paigow serve`` subprocess on the session's private Redis, driven over HTTP and WebSockets. The
setting deadline passes while the server is dead; the restarted server's timers find it and the House
Way sets the hands, so the settlement itself runs in a server that may be killed mid-way.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from typing import Any

import httpx
import pytest
from redis.asyncio import Redis

from paigow_server.store import keys
from paigow_server.store.money import ledger_mismatches, money_totals
from paigow_server.store.tables import TableRepo
from support.harness import ServerProcess, WsClient

pytestmark = pytest.mark.failover

SETTING_MS = 1_200
TIMERS = {"betting_ms": 60_000, "setting_ms": SETTING_MS, "between_rounds_ms": 100, "bank_offer_ms": 300}


async def _session(http: httpx.AsyncClient, name: str) -> dict[str, Any]:
    response = await http.post("/api/session", json={"display_name": name})
    assert response.status_code == 201
    return dict(response.json())


async def _open_table(http: httpx.AsyncClient, token: str) -> str:
    response = await http.post("/api/operator/tables", json={"name": "Crash", "timers": TIMERS},
                               headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 201, response.text
    return str(response.json()["table_id"])


async def _phase(http: httpx.AsyncClient, table_id: str) -> str:
    return str((await http.get(f"/api/tables/{table_id}")).json()["phase"])


async def _wait_phase(http: httpx.AsyncClient, table_id: str, phase: str, timeout_s: float = 15) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if await _phase(http, table_id) == phase:
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"table {table_id} stayed in {await _phase(http, table_id)}, never {phase}")


async def _bet_until_dealt(server: ServerProcess, table_id: str, players: list[dict[str, Any]],
                           amounts: list[int]) -> list[WsClient]:
    """Connect the players (reconnecting them if they were away), decline a bank offer if one comes, bet,
    and wait for the deal. The connections stay open: the kill cuts them, as a crash would."""
    clients = [await WsClient.connect(server.ws_url, table_id, p["token"]) for p in players]
    async with httpx.AsyncClient(base_url=server.url) as http:
        deadline = time.monotonic() + 15
        while (phase := await _phase(http, table_id)) != "betting":
            assert time.monotonic() < deadline, f"stuck in {phase}"
            if phase == "bank_offer":
                for client in clients:
                    await client.command("decline_bank")
            await asyncio.sleep(0.02)
        for client, amount in zip(clients, amounts, strict=True):
            answer = await client.command("place_bet", amount_cents=amount)
            assert answer["type"] == "accepted", answer
        await _wait_phase(http, table_id, "setting")
    return clients


async def _setting_deadline_stamped(redis: Redis, table_id: str) -> None:
    """The deal leaves the setting deadline pending; the server's next Tick stamps its time."""
    repo = TableRepo(redis)
    for _ in range(500):
        state = await repo.load(table_id)
        assert state is not None
        if state.deadline is not None and state.deadline.at_ms is not None:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the setting deadline was never stamped")


async def _close_all(clients: list[WsClient]) -> None:
    for client in clients:
        await client.close()
    clients.clear()


async def _assert_money_intact(redis: Redis, issued: int) -> None:
    totals = await money_totals(redis)
    assert totals.balanced, totals
    assert totals.issued_cents == issued
    assert await ledger_mismatches(redis) == []


async def _settled_round_ids(redis: Redis) -> list[str]:
    rows = await redis.xrange(keys.ROUNDS)
    return [json.loads(fields["e"])["round"]["round_id"] for _, fields in rows
            if json.loads(fields["e"])["status"] == "settled"]


async def test_sigkill_in_the_setting_phase_then_restart_settles_the_round_once(
        server_process: ServerProcess, redis: Redis) -> None:
    clients: list[WsClient] = []
    server_process.start()
    async with httpx.AsyncClient(base_url=server_process.url) as http:
        ann, bob = await _session(http, "Ann"), await _session(http, "Bob")
        table_id = await _open_table(http, str(server_process.operator_token))
        for player, seat in ((ann, 1), (bob, 2)):
            client = await WsClient.connect(server_process.ws_url, table_id, player["token"])
            assert (await client.command("sit", seat=seat, buy_in_cents=20_000))["type"] == "accepted"
            clients.append(client)
    clients += await _bet_until_dealt(server_process, table_id, [ann, bob], [1_000, 2_500])
    await _setting_deadline_stamped(redis, table_id)
    state_before = await redis.hget(keys.table(table_id), "state")

    server_process.kill()
    await _close_all(clients)
    assert await redis.hget(keys.table(table_id), "state") == state_before  # dead: nothing moves
    await asyncio.sleep(SETTING_MS / 1000 + 0.3)  # the setting deadline passes while nobody runs
    assert await _settled_round_ids(redis) == []

    server_process.start()
    deadline = time.monotonic() + 20
    while not await _settled_round_ids(redis):
        assert time.monotonic() < deadline, "the restarted server never settled the round"
        await asyncio.sleep(0.05)
    async with httpx.AsyncClient(base_url=server_process.url) as http:
        await _wait_phase(http, table_id, "betting")  # the timers run on: the next round opened
    assert len(await _settled_round_ids(redis)) == 1
    for player in (ann, bob):
        history = await redis.lrange(keys.history(player["player_id"]), 0, -1)
        assert len(history) == 1
        assert json.loads(history[0])["hand"]["set_by"] == "timeout"
    await _assert_money_intact(redis, issued=200_000)


async def test_repeated_sigkills_at_random_moments_lose_and_double_nothing(
        server_process: ServerProcess, redis: Redis) -> None:
    rng = random.Random(20261129)
    clients: list[WsClient] = []
    server_process.start()
    async with httpx.AsyncClient(base_url=server_process.url) as http:
        players = [await _session(http, name) for name in ("Ann", "Bob", "Cy")]
        table_id = await _open_table(http, str(server_process.operator_token))
        for seat, player in enumerate(players, start=1):
            client = await WsClient.connect(server_process.ws_url, table_id, player["token"])
            assert (await client.command("sit", seat=seat, buy_in_cents=30_000))["type"] == "accepted"
            clients.append(client)
    rounds = 2
    for _ in range(rounds):
        clients += await _bet_until_dealt(server_process, table_id, players, [500, 1_000, 1_500])
        # kill at a random moment around the setting deadline, when the timers settle the round
        await asyncio.sleep(rng.uniform(SETTING_MS / 1000 - 0.2, SETTING_MS / 1000 + 0.1))
        server_process.kill()
        await _close_all(clients)
        await _assert_money_intact(redis, issued=300_000)
        server_process.start()
        async with httpx.AsyncClient(base_url=server_process.url) as http:
            await _wait_phase(http, table_id, "betting", timeout_s=20)
    settled = await _settled_round_ids(redis)
    assert len(settled) == rounds
    assert len(set(settled)) == rounds
    for player in players:
        assert await redis.llen(keys.history(player["player_id"])) == rounds
    await _assert_money_intact(redis, issued=300_000)
