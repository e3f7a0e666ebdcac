"""Registered accounts through the real app and Redis: register, sign in elsewhere, sign out (everywhere),
keep a guest account, backoff and lock, sliding expiry."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest
from redis.asyncio import Redis

from paigow_server.process.settings import Settings
from paigow_server.store import keys
from paigow_server.store.money import ledger_mismatches, money_totals
from support.harness import AppHandle

CHEAP_ARGON2 = {"argon2_memory_kib": 1024, "argon2_time_cost": 1}
"""The tests' hashes: argon2id still, but cheap (the real parameters are timed in benchmarks)."""


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return dataclasses.replace(settings, **CHEAP_ARGON2, sessions_per_minute=1000, sign_ins_per_minute=1000)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def register(app: AppHandle, username: str = "ann", password: str = "correct horse",
                   **extra: str) -> dict[str, object]:
    response = await app.client.post("/api/accounts", json={"username": username, "password": password,
                                                            **extra})
    assert response.status_code == 201, response.text
    body: dict[str, object] = response.json()
    return body


async def sign_in(app: AppHandle, username: str, password: str) -> tuple[int, dict[str, object], str | None]:
    response = await app.client.post("/api/session/sign-in",
                                     json={"username": username, "password": password})
    return response.status_code, response.json(), response.headers.get("retry-after")


async def test_register_sign_in_on_another_device_and_sign_out(app_client: AppHandle, redis: Redis) -> None:
    body = await register(app_client, "Ann.Lee", display_name="Ann")
    assert body["registered"] is True
    assert body["username"] == "ann.lee"  # case-folded
    assert body["display_name"] == "Ann"
    assert body["balance_cents"] == 100_000
    stored = await redis.hgetall(keys.player(str(body["player_id"])))
    assert stored["pw"].startswith("$argon2id$")
    assert "correct horse" not in str(stored)
    assert not await redis.zscore(keys.GUESTS_SEEN, str(body["player_id"]))  # never collected

    status, second, _ = await sign_in(app_client, "ANN.LEE", "correct horse")
    assert status == 200
    assert second["player_id"] == body["player_id"]
    assert second["token"] != body["token"]
    first_device = await app_client.client.get("/api/session", headers=bearer(str(body["token"])))
    assert first_device.status_code == 200

    signed_out = await app_client.client.delete("/api/session", headers=bearer(str(second["token"])))
    assert signed_out.status_code == 204
    gone = await app_client.client.get("/api/session", headers=bearer(str(second["token"])))
    assert (gone.status_code, gone.json()["error"]) == (401, "UNKNOWN_SESSION")
    still = await app_client.client.get("/api/session", headers=bearer(str(body["token"])))
    assert still.status_code == 200  # the other device stays signed in


async def test_sign_out_everywhere_revokes_every_token(app_client: AppHandle) -> None:
    first = await register(app_client)
    tokens = [str(first["token"])] + [str((await sign_in(app_client, "ann", "correct horse"))[1]["token"])
                                      for _ in range(2)]
    response = await app_client.client.delete("/api/sessions", headers=bearer(tokens[1]))
    assert response.status_code == 204
    for token in tokens:
        answer = await app_client.client.get("/api/session", headers=bearer(token))
        assert (answer.status_code, answer.json()["error"]) == (401, "UNKNOWN_SESSION")
    assert (await sign_in(app_client, "ann", "correct horse"))[0] == 200  # the account itself remains


async def test_registration_refusals_change_nothing(app_client: AppHandle, redis: Redis) -> None:
    await register(app_client)
    before = await redis.dbsize()
    for body, status, code in [
        ({"username": "ANN", "password": "another pass"}, 409, "USERNAME_TAKEN"),
        ({"username": "an", "password": "correct horse"}, 400, "INVALID_USERNAME"),
        ({"username": "ann lee", "password": "correct horse"}, 400, "INVALID_USERNAME"),
        ({"username": "bob", "password": "short"}, 400, "INVALID_PASSWORD"),
        ({"username": "bob", "password": " " * 12}, 400, "INVALID_PASSWORD"),
        ({"username": "bob", "password": "x" * 129}, 400, "INVALID_PASSWORD"),
        ({"username": "bob", "password": 12345678}, 400, "INVALID_PASSWORD"),
        ({"username": "bob", "password": "correct horse", "display_name": ""}, 400, "INVALID_NAME"),
        ({"username": "bob", "password": "correct horse", "balance_cents": 5}, 400, "UNKNOWN_FIELD"),
    ]:
        response = await app_client.client.post("/api/accounts", json=body)
        assert (response.status_code, response.json()["error"]) == (status, code), body
        if code == "INVALID_PASSWORD":
            assert str(body["password"]) not in response.json()["message"]
    assert await redis.dbsize() == before
    assert await redis.scard(keys.PLAYERS) == 1


async def test_a_guest_keeps_the_account_by_choosing_a_password(app_client: AppHandle, redis: Redis) -> None:
    guest = (await app_client.client.post("/api/session", json={"display_name": "Gus"})).json()
    assert (guest["registered"], guest["username"]) == (False, None)
    token = guest["token"]
    kept = await app_client.client.post("/api/accounts/keep", headers=bearer(token),
                                        json={"username": "gus", "password": "gus password"})
    assert kept.status_code == 200, kept.text
    body = kept.json()
    assert (body["player_id"], body["balance_cents"], body["registered"], body["username"]) == (
        guest["player_id"], guest["balance_cents"], True, "gus")
    assert "token" not in body
    assert (await app_client.client.get("/api/session", headers=bearer(token))).status_code == 200
    assert await redis.zscore(keys.GUESTS_SEEN, guest["player_id"]) is None
    status, signed_in, _ = await sign_in(app_client, "gus", "gus password")
    assert (status, signed_in["player_id"]) == (200, guest["player_id"])

    again = await app_client.client.post("/api/accounts/keep", headers=bearer(token),
                                         json={"username": "gus2", "password": "gus password"})
    assert (again.status_code, again.json()["error"]) == (409, "ALREADY_REGISTERED")
    other = (await app_client.client.post("/api/session", json={"display_name": "Other"})).json()
    taken = await app_client.client.post("/api/accounts/keep", headers=bearer(other["token"]),
                                         json={"username": "GUS", "password": "other password"})
    assert (taken.status_code, taken.json()["error"]) == (409, "USERNAME_TAKEN")
    assert await redis.hget(keys.player(other["player_id"]), "registered") is None
    anonymous = await app_client.client.post("/api/accounts/keep",
                                             json={"username": "x12", "password": "p" * 8})
    assert (anonymous.status_code, anonymous.json()["error"]) == (401, "UNAUTHORIZED")


async def test_failed_sign_ins_back_off_never_lock_and_the_operator_unlocks(
        app_client: AppHandle, redis: Redis) -> None:
    player_id = str((await register(app_client))["player_id"])
    app_client.client.cookies.clear()  # a device that never signed in: the account's untrusted counters
    status, body, _ = await sign_in(app_client, "ann", "wrong password")
    assert (status, body["error"]) == (401, "BAD_CREDENTIALS")
    status, body, retry = await sign_in(app_client, "ann", "correct horse")  # even the right one waits
    assert (status, body["error"], retry, body["retry_after_s"]) == (429, "SIGN_IN_BACKOFF", "1", 1)
    await asyncio.sleep(1.05)
    status, body, _ = await sign_in(app_client, "ann", "wrong again")
    assert (status, body["error"]) == (401, "BAD_CREDENTIALS")
    status, body, retry = await sign_in(app_client, "ann", "wrong again")
    assert (status, body["error"], retry) == (429, "SIGN_IN_BACKOFF", "2")
    await asyncio.sleep(2.05)
    status, body, _ = await sign_in(app_client, "ann", "third wrong")
    assert (status, body["error"]) == (401, "BAD_CREDENTIALS")  # no lock: the wait doubles, to 4 s
    status, body, retry = await sign_in(app_client, "ann", "correct horse")
    assert (status, body["error"], retry) == (429, "SIGN_IN_BACKOFF", "4")
    assert str(body["message"]).endswith("try again in 4 s")
    seen = (await app_client.client.get(f"/api/operator/players/{player_id}",
                                        headers=app_client.operator_headers)).json()
    assert seen["locked_until_ms"] is None  # this network waits, not every untrusted device of the account

    unlocked = await app_client.client.post(f"/api/operator/players/{player_id}/unlock",
                                            headers=app_client.operator_headers)
    assert unlocked.status_code == 200
    assert unlocked.json() == {"player_id": player_id, "locked": False, "was_locked": True}
    status, body, _ = await sign_in(app_client, "ann", "correct horse")  # the 4 s wait is gone
    assert status == 200
    audit = (await app_client.client.get("/api/operator/audit", headers=app_client.operator_headers)).json()
    assert [(e["action"], e["actor"], e["player_id"]) for e in audit["entries"]
            if e["action"] == "unlock_player"] == [("unlock_player", "bootstrap", player_id)]


async def test_unknown_usernames_answer_like_wrong_passwords(app_client: AppHandle) -> None:
    await register(app_client)
    unknown = await sign_in(app_client, "nobody", "whatever pass")
    wrong = await sign_in(app_client, "ann", "whatever pass")
    assert (unknown[0], unknown[1]["error"]) == (wrong[0], wrong[1]["error"]) == (401, "BAD_CREDENTIALS")
    assert "wrong username or password" in str(unknown[1]["message"])


async def test_a_success_resets_the_failure_count(app_client: AppHandle) -> None:
    await register(app_client)  # and sign in again on this device (its device token)
    for _ in range(2):
        assert (await sign_in(app_client, "ann", "wrong password"))[0] == 401
        await asyncio.sleep(2.05)
        assert (await sign_in(app_client, "ann", "correct horse"))[0] == 200
    assert (await sign_in(app_client, "ann", "wrong password"))[0] == 401  # the count started again


async def test_registration_takes_the_operator_starting_balance_and_money_balances(
        app_client: AppHandle, redis: Redis) -> None:
    ops = app_client.operator_headers
    assert (await app_client.client.get("/api/operator/settings", headers=ops)).json() == {
        "starting_balance_cents": 100_000, "top_up_hours": 24.0, "help_notice": ""}
    for bad in (-1, 1_000_000_001, "500", 5.5):
        refused = await app_client.client.put("/api/operator/settings", headers=ops,
                                              json={"starting_balance_cents": bad})
        assert (refused.status_code, refused.json()["error"]) == (400, "INVALID_FIELD")
    changed = await app_client.client.put("/api/operator/settings", headers=ops,
                                          json={"starting_balance_cents": 2_500})
    assert changed.json() == {"starting_balance_cents": 2_500, "top_up_hours": 24.0, "help_notice": ""}
    assert (await register(app_client))["balance_cents"] == 2_500
    guest = (await app_client.client.post("/api/session", json={"display_name": "G"})).json()
    assert guest["balance_cents"] == 2_500
    fresh = await money_totals(redis)  # a fresh guest's balance is issued when it is settled
    assert (fresh.balanced, fresh.issued_cents) == (True, 2_500)
    assert await app_client.app.state.ctx.accounts.fresh.settle(guest["player_id"])
    totals = await money_totals(redis)
    assert totals.balanced
    assert totals.issued_cents == 5_000
    assert await ledger_mismatches(redis) == []
