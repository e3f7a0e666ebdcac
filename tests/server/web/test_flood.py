"""A flood of session requests (bounded: at most 2,000 from loopback, at most 10 s) against a real
server: past the per-address limit every request is refused with 429, no player is created for a
refused one, Redis memory stays bounded, and a seated player keeps playing rounds meanwhile with answers
in normal time."""

from __future__ import annotations

import asyncio
import dataclasses
import time
from typing import Any

import httpx
import pytest
from redis.asyncio import Redis

from paigow_server.process.settings import Settings
from paigow_server.store import keys
from paigow_server.store.money import ledger_mismatches, money_totals
from support.harness import LiveServer, player_ids

FLOOD_REQUESTS = 2_000
FLOOD_CONCURRENCY = 16
FLOOD_SECONDS = 10.0
"""The flood stops after this long even if not every request was sent (the machine may be slow)."""
LIMIT = 10


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return dataclasses.replace(settings, sessions_per_minute=LIMIT)


async def flood(url: str) -> tuple[list[int], float]:
    """Each request's status; a request whose connection the server dropped (a flooded server may close
    a keep-alive connection under a client) counts as 0, and the worker goes on with a new connection."""
    statuses: list[int] = []
    remaining = iter(range(FLOOD_REQUESTS))
    started = time.perf_counter()

    async def worker(http: httpx.AsyncClient) -> None:
        for i in remaining:
            if time.perf_counter() - started > FLOOD_SECONDS:
                return
            try:
                response = await http.post("/api/session", json={"display_name": f"F{i}"})
            except httpx.TransportError:
                statuses.append(0)
                continue
            statuses.append(response.status_code)
            if response.status_code == 429:
                assert response.json()["error"] == "RATE_LIMITED"
                assert int(response.headers["retry-after"]) >= 1

    limits = httpx.Limits(max_connections=FLOOD_CONCURRENCY)
    async with httpx.AsyncClient(base_url=url, limits=limits, timeout=10) as http:
        await asyncio.wait_for(asyncio.gather(*(worker(http) for _ in range(FLOOD_CONCURRENCY))), 60)
    return statuses, time.perf_counter() - started


async def play_rounds(client: Any, rounds: int, latencies: list[float]) -> None:
    """Bet and set by the House Way each round; ``latencies``: each command's answer time (s)."""
    done: set[tuple[str, int]] = set()
    while sum(1 for e in client.events if e["kind"] == "round_settled") < rounds:
        view = client.view
        you, rnd = view["you"], view["round"]
        action = None
        if you is not None and rnd is not None:
            number = rnd["number"]
            mine = [h for h in rnd["hands"] if h["player_id"] == client.player_id]
            if view["phase"] == "bank_offer" and you["offered_bank"] and ("bank", number) not in done:
                action, key = {"type": "decline_bank"}, ("bank", number)
            elif view["phase"] == "betting" and you["bet_cents"] == 0 and ("bet", number) not in done:
                action, key = {"type": "place_bet", "amount_cents": 500}, ("bet", number)
            elif (view["phase"] == "setting" and mine and not mine[0]["is_set"]
                  and ("set", number) not in done):
                action, key = {"type": "use_house_way"}, ("set", number)
        if action is None:
            await client.recv(10)
            continue
        done.add(key)
        sent = time.perf_counter()
        answer = await client.command(action)
        latencies.append(time.perf_counter() - sent)
        assert answer["type"] == "accepted", answer


async def test_a_session_flood_is_refused_past_the_limit_while_a_seated_player_plays(
        tables: Any, connect: Any, live_server: LiveServer, redis: Redis) -> None:
    table_id = await tables.table()
    player_id, token = await tables.player("Seated")
    async with connect(table_id, player_id=player_id) as client:
        await client.hello(token)
        sat = await client.command({"type": "sit", "seat": 1, "buy_in_cents": 20_000})
        assert sat["type"] == "accepted"
        await redis.memory_purge()
        before = await redis.info("memory")
        keys_before = {k async for k in redis.scan_iter()}
        players_before = len(await player_ids(redis))

        latencies: list[float] = []
        playing = asyncio.create_task(play_rounds(client, 2, latencies))
        statuses, elapsed = await flood(live_server.url)
        await asyncio.wait_for(playing, 30)

    accepted = statuses.count(201)
    refused = statuses.count(429)
    dropped = statuses.count(0)
    assert accepted + refused + dropped == len(statuses) >= 500
    assert dropped < len(statuses) // 10, f"{dropped} of {len(statuses)} requests lost their connection"
    # the burst, plus one more for every 60/LIMIT seconds the flood lasted
    assert LIMIT - 1 <= accepted <= LIMIT + int(elapsed / (60 / LIMIT)) + 1  # the seated one spent one
    assert len(await player_ids(redis)) - players_before == accepted
    # each accepted guest: player hash, session, sessions set; plus one rate-limit key for the address
    after = await redis.info("memory")
    # what the flood left: the accepted guests (hash, session, sessions set) and one rate-limit key; the
    # round played meanwhile wrote its table, history and export keys, and the seated player's buy-in and
    # the settlement went through a hold and the table's outbox (``keys.HOLDS``, ``keys.OUTBOX_APPLIED``)
    # and into the seated player's play accounting (``keys.rg``, its period totals); the account closer's
    # turn is taken every 2 s whoever is closing (``G:closing:turn``); the round's floor figures and second
    # looks (``G:floor:...``, docs/floor.md)
    new = {k async for k in redis.scan_iter()} - keys_before
    round_keys = ("paigow:table:", keys.history(""), keys.ROUNDS, keys.HOUSE_NET, keys.HOLDS,
                  keys.OUTBOX_APPLIED, keys.rg(player_id), keys.CLOSING + ":turn", keys.GLOBAL + "floor:")
    flood_keys = {k for k in new if not k.startswith(round_keys)}
    assert len(flood_keys) <= 3 * accepted + 1, sorted(flood_keys)  # + the index of fresh guests
    rate_keys = [k async for k in redis.scan_iter(match=keys.rate_limit("*", "*"))]
    # one for the whole flood's network, and the deployment's budget of new guests (unless it is full again)
    network_key = keys.rate_limit("sessions", "127.0.0.0/24")
    assert network_key in rate_keys
    assert set(rate_keys) <= {network_key, keys.rate_limit("guests", "everyone")}
    flood_bytes = sum([int(await redis.memory_usage(k) or 0) for k in flood_keys])
    assert flood_bytes < 1_024 * (accepted + 1), flood_bytes
    assert len(latencies) >= 4
    assert max(latencies) < 1.0, latencies
    totals = await money_totals(redis)
    assert totals.balanced
    assert await ledger_mismatches(redis) == []
    print(f"flood: {len(statuses)} requests in {elapsed:.1f} s ({dropped} dropped), {accepted} accepted "
          f"({accepted / elapsed:.2f}/s), {refused} refused ({refused / elapsed:.0f}/s); Redis used_memory "
          f"{before['used_memory']} -> {after['used_memory']} bytes, dataset {before['used_memory_dataset']} "
          f"-> {after['used_memory_dataset']}, flood keys {flood_bytes} bytes; player commands answered "
          f"in at most {max(latencies) * 1000:.0f} ms")
