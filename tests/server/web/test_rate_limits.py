"""Per-address limits: the client address behind trusted proxies only, and the 429 answers."""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path

import httpx
import pytest
from redis.asyncio import Redis

from paigow_server.process.settings import Settings, SettingsError, load_settings
from paigow_server.store import keys
from paigow_server.store.rate_counters import RateCounters
from paigow_server.web.client_address import TrustedProxies
from paigow_server.web.rate_limits import Limit, RateLimits
from support.harness import AppHandle, ServerProcess, player_ids

PROXIES = TrustedProxies(["10.0.0.0/8", "192.168.1.7", "fd00::/8"])


@pytest.mark.parametrize(
    ("peer", "forwarded", "client"),
    [
        ("203.0.113.5", [], "203.0.113.5"),  # no proxy
        ("203.0.113.5", ["198.51.100.1"], "203.0.113.5"),  # not from a trusted proxy: header ignored
        ("10.1.2.3", ["198.51.100.1"], "198.51.100.1"),
        ("10.1.2.3", ["6.6.6.6, 198.51.100.1"], "198.51.100.1"),  # the client's own entries are ignored
        ("10.1.2.3", ["198.51.100.1, 10.9.9.9"], "198.51.100.1"),  # two trusted hops
        ("10.1.2.3", ["6.6.6.6", "198.51.100.1, 192.168.1.7"], "198.51.100.1"),  # several headers
        ("10.1.2.3", [], "10.1.2.3"),  # a proxy's own request
        ("10.1.2.3", ["10.4.4.4"], "10.4.4.4"),  # all trusted: the leftmost
        ("10.1.2.3", ["6.6.6.6, garbage"], "10.1.2.3"),  # malformed where the client should be
        ("fd00::1", ["2001:db8::7"], "2001:db8::7"),
        ("::ffff:10.1.2.3", ["198.51.100.1"], "198.51.100.1"),  # IPv4-mapped peer
        (None, [], "unknown"),
    ],
)
def test_the_client_address_comes_from_trusted_proxies_only(peer: str | None, forwarded: list[str],
                                                            client: str) -> None:
    assert PROXIES.client(peer, forwarded) == client


def test_with_no_trusted_proxies_the_header_is_never_read() -> None:
    assert TrustedProxies([]).client("10.1.2.3", ["198.51.100.1"]) == "10.1.2.3"


def test_the_trusted_proxies_setting_is_checked() -> None:
    assert load_settings({"trusted_proxies": "10.0.0.0/8, 127.0.0.1"}, {}).trusted_proxies == (
        "10.0.0.0/8", "127.0.0.1")
    with pytest.raises(SettingsError, match=r"PAIGOW_TRUSTED_PROXIES='10\.0\.0\.300'"):
        load_settings({}, {"PAIGOW_TRUSTED_PROXIES": "10.0.0.300"})


async def test_the_limit_is_a_steady_rate_with_bursts(redis: Redis) -> None:
    limits = RateLimits(RateCounters(redis), PROXIES, {Limit.SESSIONS: 6, Limit.SIGN_INS: 6})
    waits = [await limits.wait_ms(Limit.SESSIONS, "198.51.100.1", now_ms=1_000_000) for _ in range(8)]
    assert waits[:6] == [0] * 6
    assert waits[6:] == [10_000, 10_000]  # one more every 10 s
    assert await limits.wait_ms(Limit.SESSIONS, "198.51.100.2", now_ms=1_000_000) == 0  # per address
    assert await limits.wait_ms(Limit.SIGN_INS, "198.51.100.1", now_ms=1_000_000) == 0  # per limit
    assert await limits.wait_ms(Limit.SESSIONS, "198.51.100.1", now_ms=1_010_000) == 0
    key = keys.rate_limit("sessions", "198.51.100.1")
    assert 0 < await redis.pttl(key) <= 60_000  # the state expires


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return dataclasses.replace(settings, sessions_per_minute=3, sign_ins_per_minute=2,
                               trusted_proxies=("127.0.0.1",), argon2_memory_kib=1024, argon2_time_cost=1)


async def test_session_creation_past_the_limit_is_429_with_retry_after(app_client: AppHandle,
                                                                       redis: Redis) -> None:
    client = app_client.client
    statuses = []
    for i in range(3):
        statuses.append((await client.post("/api/session", json={"display_name": f"G{i}"})).status_code)
    statuses.append((await client.post("/api/accounts", json={"username": "ann", "password": "p" * 8}))
                    .status_code)
    assert statuses == [201, 201, 201, 429]  # guests and registrations share the limit
    refused = await client.post("/api/session", json={"display_name": "G4"})
    assert refused.status_code == 429
    assert refused.headers["content-type"] == "application/json"
    body = refused.json()
    assert body["error"] == "RATE_LIMITED"
    assert int(refused.headers["retry-after"]) == body["retry_after_s"]
    assert 1 <= body["retry_after_s"] <= 20
    assert len(await player_ids(redis)) == 3
    # behind the trusted proxy (the ASGI test client's address is 127.0.0.1), each client has its own
    other = await client.post("/api/session", json={"display_name": "Far"},
                              headers={"X-Forwarded-For": "198.51.100.9"})
    assert other.status_code == 201
    spoofed = [await client.post("/api/session", json={"display_name": "S"},
                                 headers={"X-Forwarded-For": "198.51.100.9"}) for _ in range(3)]
    assert [r.status_code for r in spoofed] == [201, 201, 429]


async def test_sign_ins_are_limited_per_address(app_client: AppHandle) -> None:
    client = app_client.client
    answers = [await client.post("/api/session/sign-in", json={"username": f"user{i}", "password": "x" * 8})
               for i in range(3)]
    assert [r.status_code for r in answers] == [401, 401, 429]
    assert answers[2].json()["error"] == "RATE_LIMITED"
    operator = await client.post("/api/operator/session", json={"username": "op1", "password": "x" * 8})
    assert (operator.status_code, operator.json()["error"]) == (429, "RATE_LIMITED")


async def test_paigow_serve_believes_x_forwarded_for_only_from_trusted_proxies(tmp_path: Path, redis_url: str,
                                                                               redis: Redis) -> None:
    """Through the real server (uvicorn in front): a loopback peer that is not in ``trusted_proxies`` cannot
    get a fresh budget by writing any ``X-Forwarded-For``; once it is trusted, each forwarded client has
    its own."""
    spoofs = ["198.51.100.7", "198.51.100.8, 10.1.2.3", "203.0.113.9"]
    for trusted, refused in (("10.0.0.0/8", True), ("127.0.0.1", False)):
        process = ServerProcess(data_dir=tmp_path / trusted.replace("/", "_"), redis_url=redis_url,
                                operator_token="operator-token-proxies-0123",
                                env={"PAIGOW_SESSIONS_PER_MINUTE": "2", "PAIGOW_TRUSTED_PROXIES": trusted})
        await asyncio.to_thread(process.start)
        try:
            async with httpx.AsyncClient(base_url=process.url) as http:
                for _ in range(2):
                    assert (await http.post("/api/session", json={"display_name": "Ann"})).status_code == 201
                assert (await http.post("/api/session", json={"display_name": "Ann"})).status_code == 429
                for spoof in spoofs:
                    answer = await http.post("/api/session", json={"display_name": "Eve"},
                                             headers={"X-Forwarded-For": spoof})
                    assert answer.status_code == (429 if refused else 201), (trusted, spoof, answer.text)
        finally:
            process.terminate()
            await redis.flushdb()  # the next run starts with fresh budgets
