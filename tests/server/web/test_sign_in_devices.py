"""Sign-in that slows strangers and never locks the owner out (OWASP's device cookies): a device that signed
in before carries a device token, and nobody else's failures hold it back; other attempts are counted per
account and address prefix, and per account, with waits that double, answered 429 with how long to wait."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import httpx
import pytest
from redis.asyncio import Redis

from paigow_server.app import create_app
from paigow_server.process.settings import Settings
from paigow_server.store import keys
from paigow_server.store.device_keys import DeviceKey
from paigow_server.store.sign_ins import ACCOUNT_FREE, FORGET_MS, SignInGuard, Verdict
from paigow_server.web.client_address import address_network
from paigow_server.web.device_tokens import DeviceTokens
from support.harness import AppHandle

OWNER_ADDRESS = "198.51.100.7"
PASSWORD = "correct horse"


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return dataclasses.replace(settings, argon2_memory_kib=1024, argon2_time_cost=1, sessions_per_minute=1000,
                               sign_ins_per_minute=1000, trusted_proxies=("127.0.0.1",))


@asynccontextmanager
async def device(app: AppHandle, address: str) -> AsyncIterator[httpx.AsyncClient]:
    """A browser of its own (its own cookie jar) at ``address`` (behind the trusted proxy)."""
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app.app), base_url="http://localhost",
                                 headers={"X-Forwarded-For": address}) as client:
        yield client


async def register(client: httpx.AsyncClient) -> None:
    registered = await client.post("/api/accounts", json={"username": "ann", "password": PASSWORD})
    assert registered.status_code == 201, registered.text


async def sign_in(client: httpx.AsyncClient, username: str, password: str,
                  path: str = "/api/session/sign-in") -> httpx.Response:
    return await client.post(path, json={"username": username, "password": password})


async def test_a_strangers_failures_never_lock_out_a_device_that_signed_in_before(
        app_client: AppHandle) -> None:
    """The issue's attack: wrong passwords from anywhere, then the owner with the right one."""
    async with device(app_client, OWNER_ADDRESS) as owner:
        registered = await owner.post("/api/accounts", json={"username": "ann", "password": PASSWORD})
        assert registered.status_code == 201
        cookie = registered.headers["set-cookie"]
        assert cookie.startswith("paigow_device=d1.")
        for part in ("HttpOnly", "Path=/api/session/sign-in", "SameSite=strict", "Max-Age=15552000"):
            assert part in cookie
        assert "Secure" not in cookie  # plain http here; https gets Secure
        assert "device" not in registered.json()  # never in the body

        async with device(app_client, "203.0.113.9") as stranger:  # three and more failures, one address
            answers = [(await sign_in(stranger, "ann", "not the password")).status_code]
            answers.append((await sign_in(stranger, "ann", "not the password")).status_code)
            await asyncio.sleep(1.05)
            answers.append((await sign_in(stranger, "ann", "not the password")).status_code)
            await asyncio.sleep(2.05)
            answers.append((await sign_in(stranger, "ann", "not the password")).status_code)
            answers.append((await sign_in(stranger, "ann", PASSWORD)).status_code)  # even the right one waits
        assert answers == [401, 429, 401, 401, 429]
        failures, network = 3, 0
        while failures < ACCOUNT_FREE + 3:  # then from many networks: the account's count of untrusted ones
            network += 1
            async with device(app_client, f"203.0.{network}.1") as far:
                answer = await sign_in(far, "ann", "not the password")
            if answer.status_code == 429:  # the account's wait (1 s, 2 s): this network never failed
                assert "from devices that have not signed in before" in answer.json()["message"]
                await asyncio.sleep(answer.json()["retry_after_s"] + 0.05)
            else:
                failures += 1
        async with device(app_client, "192.0.2.55") as new_device:  # the account now waits 4 s
            held = await sign_in(new_device, "ann", PASSWORD)
        assert (held.status_code, held.json()["error"]) == (429, "SIGN_IN_BACKOFF")  # a new device waits

        mine = await sign_in(owner, "ann", PASSWORD)  # the owner's device: not held back at all
        assert mine.status_code == 200, mine.text
        assert mine.json()["username"] == "ann"
        assert mine.headers["set-cookie"].startswith("paigow_device=d1.")  # a fresh device token
        token = mine.cookies["paigow_device"]
    async with device(app_client, "203.0.113.10") as moved:  # the device on the stranger's network
        answer = await moved.post("/api/session/sign-in", json={"username": "ann", "password": PASSWORD},
                                  headers={"Cookie": f"paigow_device={token}"})
        assert answer.status_code == 200


async def test_a_device_waits_for_its_own_failures_only(app_client: AppHandle) -> None:
    async with device(app_client, OWNER_ADDRESS) as phone, device(app_client, OWNER_ADDRESS) as laptop:
        await register(phone)
        assert (await sign_in(laptop, "ann", PASSWORD)).status_code == 200
        wrong = await sign_in(phone, "ann", "not the password")
        assert (wrong.status_code, wrong.json()["error"]) == (401, "BAD_CREDENTIALS")
        assert wrong.json()["message"] == "wrong username or password; try again in 1 s"
        assert wrong.json()["retry_after_s"] == 1  # the page words the wait from it
        waiting = await sign_in(phone, "ann", PASSWORD)
        assert (waiting.status_code, waiting.json()["error"]) == (429, "SIGN_IN_BACKOFF")
        assert waiting.headers["retry-after"] == "1"
        assert waiting.json()["retry_after_s"] == 1
        assert waiting.json()["message"] == (
            "too many failed sign-ins for 'ann' on this device: try again in 1 s")
        assert (await sign_in(laptop, "ann", PASSWORD)).status_code == 200  # the other device: at once
        await asyncio.sleep(1.05)
        assert (await sign_in(phone, "ann", PASSWORD)).status_code == 200


async def test_strangers_on_the_owners_network_never_use_up_its_sign_ins(settings: Settings,
                                                                          redis: Redis) -> None:
    """The network's ``sign_ins_per_minute`` holds back new devices only: a stranger behind the owner's NAT
    (or in its IPv6 /64) who uses up the network's sign-ins does not hold back the owner's own device, for
    players and operators alike."""
    app = create_app(dataclasses.replace(settings, sign_ins_per_minute=3), redis=redis)
    async with app.router.lifespan_context(app):
        handle = AppHandle(app, httpx.AsyncClient(), {})
        async with device(handle, "198.51.100.7") as owner, device(handle, "198.51.100.8") as stranger:
            await register(owner)
            made = await owner.post("/api/operator/operators",
                                    json={"username": "opal", "password": PASSWORD},
                                    headers={"Authorization": f"Bearer {settings.operator_token}"})
            assert made.status_code == 201, made.text
            assert (await sign_in(owner, "opal", PASSWORD, "/api/operator/session")).status_code == 200
            for name in ("bob", "carl"):  # the rest of the network's three a minute (opal's was the first)
                assert (await sign_in(stranger, name, "guess")).status_code == 401
            refused = await sign_in(stranger, "ann", PASSWORD)
            assert (refused.status_code, refused.json()["error"]) == (429, "RATE_LIMITED")
            assert "from 198.51.100.0/24" in refused.json()["message"]
            assert (await sign_in(owner, "ann", PASSWORD)).status_code == 200  # the owner's device: at once
            assert (await sign_in(owner, "opal", PASSWORD, "/api/operator/session")).status_code == 200
            async with device(handle, "198.51.100.9") as new_device:  # a new device there: the network's
                assert (await sign_in(new_device, "ann", PASSWORD)).status_code == 429
        await handle.client.aclose()


async def test_a_device_token_counts_only_for_its_own_account(app_client: AppHandle, redis: Redis) -> None:
    tokens = DeviceTokens(DeviceKey(redis))
    token = await tokens.issue("player", "ann")
    assert await tokens.device_of("player", "ann", token) is not None
    assert await tokens.device_of("player", "bob", token) is None  # another account
    assert await tokens.device_of("operator", "ann", token) is None  # an operator of that name
    forged = token[:-2] + ("AA" if not token.endswith("AA") else "BB")
    assert await tokens.device_of("player", "ann", forged) is None
    assert await tokens.device_of("player", "ann", "d1.x.1.y") is None
    assert await tokens.device_of("player", "ann", "d1." + "1" * 200) is None
    old = DeviceTokens(DeviceKey(redis), clock=lambda: 1_000)
    assert await tokens.device_of("player", "ann", await old.issue("player", "ann")) is None  # expired
    await redis.delete(keys.DEVICE_KEY)  # a new key forgets every device
    assert await tokens.device_of("player", "ann", token) is None


def address_prefix(address: str) -> str:
    """The network the default settings count ``address`` in (IPv4 /24, IPv6 /64)."""
    return address_network(address, ipv4_prefix=24, ipv6_prefix=64)


async def test_the_waits_double_per_counter_up_to_the_longest(redis: Redis) -> None:
    guard = SignInGuard(redis, "player", max_wait_ms=60_000)
    now, here = 10_000_000, address_prefix("203.0.113.9")
    waits = []
    for _ in range(8):
        assert (await guard.begin("ann", None, here, now)).verdict is Verdict.OK
        waits.append((await guard.failed("ann", None, here, now)).until_ms - now)
        refused = await guard.begin("ann", None, here, now)  # before the wait ends
        assert (refused.verdict, refused.until_ms) == (Verdict.BACKOFF, now + waits[-1])
        last, now = now, now + waits[-1]
    assert waits == [1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000]
    neighbour = address_prefix("203.0.113.200")
    assert neighbour == here == "203.0.113.0/24"  # the same network: the same count
    assert (await guard.begin("ann", None, neighbour, last + 1)).verdict is Verdict.BACKOFF
    # the account's count of untrusted failures (8, ACCOUNT_FREE + 3: 4 s) holds every other network too
    elsewhere = await guard.begin("ann", None, address_prefix("2001:db8:1:2::7"), last + 1)
    assert (elsewhere.verdict, elsewhere.until_ms) == (Verdict.BACKOFF, last + 4_000)
    assert await guard.held_until("ann", last + 1) == last + 4_000
    assert (await guard.begin("ann", "a-device", here, last + 1)).verdict is Verdict.OK  # but not a device
    assert await guard.reset("ann", now) is True  # an operator's unlock: every counter starts again
    assert (await guard.begin("ann", None, here, now + 1)).verdict is Verdict.OK
    assert (await guard.failed("ann", None, here, now + 1)).until_ms == now + 1 + 1_000  # from the start
    assert await guard.held_until("ann", now + 1) is None
    assert 0 < await redis.pttl(keys.sign_in_from("player", "ann", here)) <= FORGET_MS  # forgotten in time


async def test_unknown_and_known_usernames_answer_alike(app_client: AppHandle) -> None:
    async with device(app_client, OWNER_ADDRESS) as owner:
        await register(owner)

    async def attempts(username: str, network: str) -> list[tuple[int, str, str, str | None]]:
        seen = []
        async with device(app_client, f"{network}.1") as stranger:
            for pause in (0, 0, 1.05, 0):
                await asyncio.sleep(pause)
                answer = await sign_in(stranger, username, "not the password")
                seen.append((answer.status_code, answer.json()["error"],
                             answer.json()["message"].replace(repr(username), "NAME"),
                             answer.headers.get("retry-after")))
                assert "set-cookie" not in answer.headers
        return seen

    known, unknown = await asyncio.gather(attempts("ann", "203.0.113"), attempts("nobody", "192.0.2"))
    assert known == unknown
    assert [status for status, *_ in known] == [401, 429, 401, 429]


async def test_a_device_token_is_secure_over_https(app_client: AppHandle) -> None:
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app_client.app),
                                 base_url="https://localhost") as client:
        registered = await client.post("/api/accounts", json={"username": "ann", "password": PASSWORD})
        assert "; Secure" in registered.headers["set-cookie"]


async def test_operators_back_off_alike_and_another_operator_or_the_bootstrap_token_unlocks(
        app_client: AppHandle) -> None:
    boot, session = app_client.operator_headers, "/api/operator/session"
    for name in ("olga", "pat"):
        created = await app_client.client.post("/api/operator/operators", headers=boot,
                                               json={"username": name, "password": f"{name} password"})
        assert created.status_code == 201
    async with device(app_client, OWNER_ADDRESS) as olga_desk, device(app_client, "192.0.2.8") as pat_desk:
        first = await sign_in(olga_desk, "olga", "olga password", session)
        assert first.headers["set-cookie"].startswith("paigow_operator_device=d1.")
        assert "Path=/api/operator/session" in first.headers["set-cookie"]
        pat_token = (await sign_in(pat_desk, "pat", "pat password", session)).json()["token"]
        pat = {"Authorization": f"Bearer {pat_token}"}

        for network in range(ACCOUNT_FREE):  # from as many networks: then olga's untrusted devices wait
            async with device(app_client, f"203.0.{network}.1") as far:
                assert (await sign_in(far, "olga", "not the password", session)).status_code == 401
        async with device(app_client, "203.0.113.9") as stranger:
            assert (await sign_in(stranger, "olga", "not the password", session)).status_code == 401
        async with device(app_client, "192.0.2.200") as new_desk:
            held = await sign_in(new_desk, "olga", "olga password", session)
            assert (held.status_code, held.json()["error"]) == (429, "SIGN_IN_BACKOFF")
        assert (await sign_in(olga_desk, "olga", "olga password", session)).status_code == 200  # her desk

        unlocked = await app_client.client.post("/api/operator/operators/olga/unlock", headers=pat)
        assert unlocked.json() == {"username": "olga", "locked": False, "was_locked": True}
        async with device(app_client, "192.0.2.200") as new_desk:
            assert (await sign_in(new_desk, "olga", "olga password", session)).status_code == 200
        async with device(app_client, "203.0.113.9") as stranger:  # the stranger's network starts again too
            assert (await sign_in(stranger, "olga", "not the password", session)).status_code == 401
        again = await app_client.client.post("/api/operator/operators/olga/unlock", headers=boot)
        assert again.json()["was_locked"] is True
        nobody = await app_client.client.post("/api/operator/operators/nobody/unlock", headers=pat)
        assert (nobody.status_code, nobody.json()["error"]) == (404, "OPERATOR_NOT_FOUND")
        player = await app_client.client.post("/api/session", json={"display_name": "Eve"})
        refused = await app_client.client.post("/api/operator/operators/olga/unlock",
                                               headers={"Authorization": f"Bearer {player.json()['token']}"})
        assert (refused.status_code, refused.json()["error"]) == (401, "BAD_OPERATOR_TOKEN")
    audit = (await app_client.client.get("/api/operator/audit", headers=boot)).json()["entries"]
    assert [(e["action"], e["actor"], e["outcome"], e["params"]) for e in audit
            if e["action"] == "unlock_operator"] == [
        ("unlock_operator", "pat", "ok", {"username": "olga"}),
        ("unlock_operator", "bootstrap", "ok", {"username": "olga"}),
        ("unlock_operator", "pat", "OPERATOR_NOT_FOUND", {"username": "nobody"})]
