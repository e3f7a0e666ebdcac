"""New passwords that are easy to guess are refused with the reason (``web/password_strength.py``):
common ones, repeats and sequences (zxcvbn's score below 2), the username or the display name itself."""

from __future__ import annotations

import dataclasses

import pytest
from redis.asyncio import Redis

from paigow_server.process.settings import Settings
from paigow_server.store import keys
from support.harness import AppHandle


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return dataclasses.replace(settings, argon2_memory_kib=1024, argon2_time_cost=1, sessions_per_minute=1000)


@pytest.mark.parametrize(("password", "why"), [
    ("password", "the password is too easy to guess: This is a top-10 common password."),
    ("12345678", "the password is too easy to guess: This is a top-10 common password."),
    ("aaaaaaaa", 'the password is too easy to guess: Repeats like "aaa" are easy to guess.'),
    ("qwertyuiop", "the password is too easy to guess: This is a top-100 common password."),
    ("iloveyou1", "the password is too easy to guess: This is a very common password."),
    ("annabelle99", "the password must not be the username"),
    ("AnnaBelle 99", "the password must not be the username"),  # case and space do not make it another
    ("Lady Anna B", "the password must not be the display name"),
])
async def test_a_guessable_password_is_refused_saying_why(app_client: AppHandle, redis: Redis, password: str,
                                                         why: str) -> None:
    body = {"username": "annabelle99", "password": password, "display_name": "Lady Anna B"}
    response = await app_client.client.post("/api/accounts", json=body)
    assert (response.status_code, response.json()["error"]) == (400, "INVALID_PASSWORD")
    assert response.json()["message"].startswith(why)
    assert repr(password) not in response.json()["message"]  # never quoted
    assert await redis.scard(keys.PLAYERS) == 0
    assert "set-cookie" not in response.headers


async def test_keeping_a_guest_and_creating_an_operator_check_the_password_too(app_client: AppHandle,
                                                                              redis: Redis) -> None:
    guest = (await app_client.client.post("/api/session", json={"display_name": "Bartholomew"})).json()
    bearer = {"Authorization": f"Bearer {guest['token']}"}
    for password, why in [("Bartholomew", "must not be the display name"), ("bart1234", "too easy to guess")]:
        kept = await app_client.client.post("/api/accounts/keep", headers=bearer,
                                            json={"username": "bart", "password": password})
        assert (kept.status_code, kept.json()["error"]) == (400, "INVALID_PASSWORD")
        assert why in kept.json()["message"]
    assert await redis.hget(keys.player(guest["player_id"]), "registered") is None
    operator = await app_client.client.post("/api/operator/operators", headers=app_client.operator_headers,
                                            json={"username": "olga", "password": "letmein1"})
    assert (operator.status_code, operator.json()["error"]) == (400, "INVALID_PASSWORD")
    assert "too easy to guess" in operator.json()["message"]
    assert await redis.scard(keys.OPERATORS) == 0


async def test_a_strong_enough_password_is_accepted_and_an_old_weak_one_still_signs_in(
        app_client: AppHandle) -> None:
    created = await app_client.client.post("/api/accounts",
                                           json={"username": "ann", "password": "ann password"})
    assert created.status_code == 201  # zxcvbn's score 2: enough against throttled guessing
    sign_in = await app_client.client.post("/api/session/sign-in",
                                           json={"username": "nobody", "password": "password"})
    assert (sign_in.status_code, sign_in.json()["error"]) == (401, "BAD_CREDENTIALS")  # not INVALID_PASSWORD
