"""Bounded growth whatever the addresses (issue 19, point 3): every per-address limit counts a client's
network (IPv4 /24, IPv6 /64, settings), a budget of new guests per minute holds for every address together,
and the limits on what is left: practice deals per account and per network, the public round reads per
network, answered from a cache while the table's version holds."""

from __future__ import annotations

import dataclasses

import httpx
import pytest
from redis.asyncio import Redis

from paigow_server.app import create_app
from paigow_server.process.settings import Settings, SettingsError, load_settings
from paigow_server.store import keys
from paigow_server.web.client_address import address_network
from support.harness import AppHandle, player_ids


@pytest.mark.parametrize(("address", "v4", "v6", "network"), [
    ("198.51.100.7", 24, 64, "198.51.100.0/24"),
    ("198.51.100.250", 24, 64, "198.51.100.0/24"),
    ("198.51.100.7", 32, 64, "198.51.100.7/32"),
    ("198.51.100.7", 16, 64, "198.51.0.0/16"),
    ("::ffff:198.51.100.7", 24, 64, "198.51.100.0/24"),
    ("2001:db8:1:2:aaaa:bbbb:cccc:dddd", 24, 64, "2001:db8:1:2::/64"),
    ("2001:db8:1:2::1", 24, 48, "2001:db8:1::/48"),
    ("[2001:db8:1:2::1]", 24, 64, "2001:db8:1:2::/64"),
    ("unknown", 24, 64, "unknown"),
])
def test_an_address_is_counted_in_its_network(address: str, v4: int, v6: int, network: str) -> None:
    assert address_network(address, ipv4_prefix=v4, ipv6_prefix=v6) == network


def test_the_prefix_settings_are_checked() -> None:
    assert load_settings({"limit_ipv4_prefix": "16", "limit_ipv6_prefix": "56"}, {}).limit_ipv6_prefix == 56
    with pytest.raises(SettingsError, match=r"--limit-ipv4-prefix='33': must be a whole number from 8 to 32"):
        load_settings({"limit_ipv4_prefix": "33"}, {})
    with pytest.raises(SettingsError, match=r"PAIGOW_LIMIT_IPV6_PREFIX='8': must be a whole number from 16"):
        load_settings({}, {"PAIGOW_LIMIT_IPV6_PREFIX": "8"})
    with pytest.raises(SettingsError, match="guests_per_minute=0"):
        Settings(guests_per_minute=0)


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return dataclasses.replace(settings, trusted_proxies=("127.0.0.1",), sessions_per_minute=3,
                               guests_per_minute=1_000, practice_deals_per_minute=3, round_reads_per_minute=3,
                               argon2_memory_kib=1024, argon2_time_cost=1)


async def _guest(client: httpx.AsyncClient, address: str) -> httpx.Response:
    return await client.post("/api/session", json={"display_name": "G"}, headers={"X-Forwarded-For": address})


async def test_many_addresses_of_one_network_share_its_limit(app_client: AppHandle, redis: Redis) -> None:
    client = app_client.client
    answers = [await _guest(client, f"198.51.100.{i}") for i in (1, 2, 3, 200)]
    assert [a.status_code for a in answers] == [201, 201, 201, 429]
    assert "from 198.51.100.0/24" in answers[3].json()["message"]
    assert (await _guest(client, "198.51.101.1")).status_code == 201  # the next /24 is another client
    six = [await _guest(client, f"2001:db8:0:1::{i:x}") for i in range(1, 4)]
    six.append(await _guest(client, "2001:db8:0:1:ffff:ffff:ffff:ffff"))
    assert [a.status_code for a in six] == [201, 201, 201, 429]
    assert "from 2001:db8:0:1::/64" in six[3].json()["message"]
    assert (await _guest(client, "2001:db8:0:2::1")).status_code == 201
    assert len(await player_ids(redis)) == 8


async def test_new_guests_have_a_budget_for_every_address_together(settings: Settings, redis: Redis) -> None:
    app = create_app(dataclasses.replace(settings, guests_per_minute=4, sessions_per_minute=100), redis=redis)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://localhost") as client:
            answers = [await _guest(client, f"203.0.{i}.1") for i in range(5)]
            assert [a.status_code for a in answers] == [201, 201, 201, 201, 429]
            refused = answers[4]
            body = refused.json()
            assert body["error"] == "RATE_LIMITED"
            assert "on this server: at most 4 a minute from everyone together" in body["message"]
            assert int(refused.headers["Retry-After"]) == body["retry_after_s"] >= 1
            assert len(await player_ids(redis)) == 4
            registered = await client.post("/api/accounts",
                                           json={"username": "ann", "password": "Vq7-pLm2-xT9k"},
                                           headers={"X-Forwarded-For": "203.0.9.1"})
            # a registration is a new player too: the same budget (else accounts, kept for ever and each an
            # argon2 hash, would grow without bound however many addresses)
            assert (registered.status_code, registered.json()["error"]) == (429, "RATE_LIMITED")
            assert "on this server" in registered.json()["message"]
            assert len(await player_ids(redis)) == 4


async def test_practice_deals_are_limited_per_account_and_per_network(app_client: AppHandle) -> None:
    client = app_client.client
    ann = (await _guest(client, "198.51.100.1")).json()["token"]
    bob = (await _guest(client, "198.51.100.2")).json()["token"]
    carl = (await _guest(client, "203.0.113.5")).json()["token"]

    async def deal(token: str, address: str) -> httpx.Response:
        return await client.post("/api/practice/deals", json={}, headers={
            "Authorization": f"Bearer {token}", "X-Forwarded-For": address})

    assert [(await deal(ann, "198.51.100.1")).status_code for _ in range(3)] == [201, 201, 201]
    refused = await deal(ann, "192.0.2.1")  # the account's own limit, from any address
    assert (refused.status_code, refused.json()["error"]) == (429, "RATE_LIMITED")
    assert "practice deals for this account" in refused.json()["message"]
    assert int(refused.headers["Retry-After"]) >= 1
    network = await deal(bob, "198.51.100.2")  # Ann's network spent its deals
    assert network.status_code == 429
    assert "practice deals from 198.51.100.0/24" in network.json()["message"]
    assert (await deal(carl, "203.0.113.5")).status_code == 201


async def test_round_reads_are_limited_per_network_and_cached_per_version(app_client: AppHandle,
                                                                          redis: Redis) -> None:
    client = app_client.client
    table_id = (await client.post("/api/operator/tables", headers=app_client.operator_headers,
                                  json={"name": "Main"})).json()["table_id"]
    record = {"round_id": "r1", "number": 1, "hands": []}
    await redis.lpush(keys.table_rounds(table_id), '{"round_id": "r0", "number": 0, "hands": []}')
    ctx = app_client.app.state.ctx
    path = f"/api/tables/{table_id}/rounds"
    first = await client.get(path, headers={"X-Forwarded-For": "198.51.100.1"})
    assert first.status_code == 200
    assert first.json()["rounds"] == [{"round_id": "r0", "number": 0, "hands": []}]
    assert len(ctx.rounds_cache) == 1
    # Written behind the table's back (no commit, so no new version): the kept answer is still given.
    await redis.lpush(keys.table_rounds(table_id), '{"round_id": "r1", "number": 1, "hands": []}')
    second = await client.get(path, headers={"X-Forwarded-For": "198.51.100.2"})
    assert second.content == first.content
    await redis.hincrby(keys.table(table_id), "version", 1)  # a commit: the answer is read again
    third = await client.get(path, headers={"X-Forwarded-For": "198.51.100.3"})
    assert third.json()["rounds"][0] == record
    refused = await client.get(path, headers={"X-Forwarded-For": "198.51.100.4"})
    assert (refused.status_code, refused.json()["error"]) == (429, "RATE_LIMITED")
    assert "round reads from 198.51.100.0/24: at most 3 a minute" in refused.json()["message"]
    assert (await client.get(path, headers={"X-Forwarded-For": "203.0.113.1"})).status_code == 200
