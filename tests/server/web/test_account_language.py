"""The account's language (docs/http-api.md, "The account's language"): ``PUT /api/account/language`` keeps
it on the player's record, the session JSON's ``language`` says it on every device, and anything else is
refused without a change."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from redis.asyncio import Redis

from paigow_server.process.settings import Settings
from paigow_server.store import keys
from paigow_server.web.language_routes import offered_languages
from support.harness import AppHandle

ANN = {"username": "ann", "password": "correct horse"}


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return dataclasses.replace(settings, argon2_memory_kib=1024, argon2_time_cost=1, sessions_per_minute=1000,
                               sign_ins_per_minute=1000)


def bearer(token: object) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def put_language(app: AppHandle, token: object, body: object) -> Any:
    return await app.client.put("/api/account/language", json=body, headers=bearer(token))


async def session(app: AppHandle, token: object) -> dict[str, Any]:
    response = await app.client.get("/api/session", headers=bearer(token))
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def test_the_offered_languages_are_the_client_s_list() -> None:
    assert offered_languages() == {"en", "zh-Hans", "zh-Hant", "vi", "es", "ko"}


async def test_a_guest_s_language_is_set_and_read_back_and_kept_on_its_record(
        app_client: AppHandle, redis: Redis) -> None:
    guest = (await app_client.client.post("/api/session", json={"display_name": "Ann"})).json()
    assert guest["language"] is None  # never chosen
    answer = await put_language(app_client, guest["token"], {"language": "vi"})
    assert answer.status_code == 200, answer.text
    assert answer.json()["language"] == "vi"
    assert (await session(app_client, guest["token"]))["language"] == "vi"
    assert await redis.hget(keys.player(guest["player_id"]), "lang") == "vi"


async def test_an_account_s_language_follows_it_to_a_new_sign_in_on_another_device(
        app_client: AppHandle) -> None:
    created = await app_client.client.post("/api/accounts", json=ANN)
    assert created.status_code == 201, created.text
    assert created.json()["language"] is None
    chosen = await put_language(app_client, created.json()["token"], {"language": "zh-Hant"})
    assert chosen.status_code == 200
    app_client.client.cookies.clear()  # another device: no device token
    signed_in = await app_client.client.post("/api/session/sign-in", json=ANN)
    assert signed_in.status_code == 200, signed_in.text
    assert signed_in.json()["language"] == "zh-Hant"
    assert (await session(app_client, signed_in.json()["token"]))["language"] == "zh-Hant"


async def test_a_kept_guest_keeps_its_language(app_client: AppHandle) -> None:
    guest = (await app_client.client.post("/api/session", json={"display_name": "Ann"})).json()
    assert (await put_language(app_client, guest["token"], {"language": "ko"})).status_code == 200
    kept = await app_client.client.post("/api/accounts/keep", json=ANN, headers=bearer(guest["token"]))
    assert kept.status_code == 200, kept.text
    assert kept.json()["language"] == "ko"


@pytest.mark.parametrize(("body", "code"), [
    ({"language": "fr"}, "INVALID_LANGUAGE"),
    ({"language": "EN"}, "INVALID_LANGUAGE"),
    ({"language": "en-XA"}, "INVALID_LANGUAGE"),  # the tests' pseudo-locale is never an account's
    ({"language": None}, "INVALID_LANGUAGE"),
    ({"language": 7}, "INVALID_LANGUAGE"),
    ({"language": "x" * 5000}, "INVALID_LANGUAGE"),
    ({}, "INVALID_LANGUAGE"),
    ({"language": "es", "theme": "dark"}, "UNKNOWN_FIELD"),
    (["es"], "INVALID_FIELD"),
])
async def test_a_refused_value_changes_nothing(app_client: AppHandle, redis: Redis, body: object,
                                               code: str) -> None:
    guest = (await app_client.client.post("/api/session", json={"display_name": "Ann"})).json()
    assert (await put_language(app_client, guest["token"], {"language": "es"})).status_code == 200
    refused = await put_language(app_client, guest["token"], body)
    assert refused.status_code == 400
    assert refused.json()["error"] == code
    assert refused.json().get("field") == {"INVALID_LANGUAGE": "language", "UNKNOWN_FIELD": "theme"}.get(code)
    if code == "INVALID_LANGUAGE":
        assert len(refused.json()["message"]) <= 300
    assert (await session(app_client, guest["token"]))["language"] == "es"
    assert await redis.hget(keys.player(guest["player_id"]), "lang") == "es"


@pytest.mark.parametrize("headers", [{}, bearer("nope"), {"Authorization": "Basic abc"}])
async def test_without_a_valid_token_it_is_401(app_client: AppHandle, redis: Redis,
                                               headers: dict[str, str]) -> None:
    answer = await app_client.client.put("/api/account/language", json={"language": "vi"}, headers=headers)
    assert answer.status_code == 401
    assert answer.json()["error"] in {"UNAUTHORIZED", "UNKNOWN_SESSION"}
    assert not [k async for k in redis.scan_iter(match=keys.player("*"))]


async def test_changes_are_limited_per_account(app_client: AppHandle, settings: Settings) -> None:
    guest = (await app_client.client.post("/api/session", json={"display_name": "Ann"})).json()
    other = (await app_client.client.post("/api/session", json={"display_name": "Bo"})).json()
    for _ in range(settings.account_settings_per_minute):
        assert (await put_language(app_client, guest["token"], {"language": "es"})).status_code == 200
    refused = await put_language(app_client, guest["token"], {"language": "vi"})
    assert refused.status_code == 429
    assert refused.json()["error"] == "RATE_LIMITED"
    assert refused.json()["retry_after_s"] >= 1
    assert (await session(app_client, guest["token"]))["language"] == "es"
    assert (await put_language(app_client, other["token"], {"language": "vi"})).status_code == 200  # its own
