from __future__ import annotations

import hashlib
from collections.abc import AsyncIterator

import pytest
from redis.asyncio import Redis

from paigow_server.store import keys
from paigow_server.web.sessions import DisplayNameError, check_display_name
from support.harness import AppHandle, player_ids


async def test_a_session_gives_an_unguessable_token_that_resumes_the_same_player(
        app_client: AppHandle, redis: Redis) -> None:
    created = await app_client.client.post("/api/session", json={"display_name": "  Ann   Lee "})
    assert created.status_code == 201
    body = created.json()
    assert body["display_name"] == "Ann Lee"
    assert body["balance_cents"] == 100_000
    assert len(body["token"]) >= 40
    resumed = await app_client.client.get("/api/session",
                                          headers={"Authorization": f"Bearer {body['token']}"})
    assert resumed.status_code == 200
    resumed_body = resumed.json()
    # the same expiry, or later: read back from Redis's remaining time, it may round a millisecond lower
    assert resumed_body.pop("expires_ms") >= body["expires_ms"] - 5
    assert resumed_body == {"player_id": body["player_id"], "display_name": "Ann Lee",
                            "balance_cents": 100_000, "registered": False, "username": None,
                            "language": None}
    # only the token's hash is at rest
    stored = [k async for k in redis.scan_iter(match=keys.session("*"))]
    assert stored == [keys.session(hashlib.sha256(body["token"].encode()).hexdigest())]
    assert not [k async for k in redis.scan_iter(match=f"*{body['token']}*")]


async def test_each_session_is_a_new_player_with_an_opening_ledger_entry(app_client: AppHandle) -> None:
    """Once settled (its first sit, chat, credit or keep: ``store.fresh_guests``)."""
    first = (await app_client.client.post("/api/session", json={"display_name": "Ann"})).json()
    second = (await app_client.client.post("/api/session", json={"display_name": "Ann"})).json()
    assert first["player_id"] != second["player_id"]
    assert first["token"] != second["token"]
    for guest in (first, second):
        assert await app_client.app.state.ctx.accounts.fresh.settle(guest["player_id"])
    ledger = (await app_client.client.get("/api/operator/ledger", headers=app_client.operator_headers)).json()
    openings = [e for e in ledger["entries"] if e["kind"] == "opening"]
    assert [(e["to_account"], e["amount_cents"]) for e in openings] == [
        (f"player:{first['player_id']}", 100_000), (f"player:{second['player_id']}", 100_000)]


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"display_name": ""}, 400, "INVALID_NAME"),
        ({"display_name": "x" * 25}, 400, "INVALID_NAME"),
        ({"display_name": "bad\x00name"}, 400, "INVALID_NAME"),
        ({"display_name": 42}, 400, "INVALID_NAME"),
        ({}, 400, "INVALID_NAME"),
        ({"display_name": "Ann", "balance_cents": 10**9}, 400, "UNKNOWN_FIELD"),
        ([1, 2], 400, "INVALID_FIELD"),
    ],
)
async def test_bad_session_requests_are_refused_and_create_nothing(
        app_client: AppHandle, redis: Redis, body: object, status: int, code: str) -> None:
    response = await app_client.client.post("/api/session", json=body)
    assert response.status_code == status
    assert response.json()["error"] == code
    assert await player_ids(redis) == set()


async def test_malformed_json_is_refused(app_client: AppHandle) -> None:
    response = await app_client.client.post("/api/session", content=b"{not json",
                                            headers={"content-type": "application/json"})
    assert response.status_code == 400
    assert response.json()["error"] == "MALFORMED_JSON"


@pytest.mark.parametrize(
    ("headers", "code"),
    [({}, "UNAUTHORIZED"), ({"Authorization": "Bearer nope"}, "UNKNOWN_SESSION"),
     ({"Authorization": "Basic abc"}, "UNAUTHORIZED"), ({"Authorization": "Bearer " + "x" * 5000},
                                                        "UNKNOWN_SESSION")],
)
async def test_resuming_needs_a_known_token(
        app_client: AppHandle, headers: dict[str, str], code: str) -> None:
    response = await app_client.client.get("/api/session", headers=headers)
    assert response.status_code == 401
    assert response.json()["error"] == code
    assert response.headers["www-authenticate"] == "Bearer"


def test_display_names_are_trimmed_and_checked() -> None:
    assert check_display_name(" Zoë \u00a0  K ") == "Zoë K"
    with pytest.raises(DisplayNameError, match=r"'x{25}' is 25 characters"):
        check_display_name("x" * 25)
    with pytest.raises(DisplayNameError, match="control"):
        check_display_name("a\u200bb")


async def test_an_oversized_body_is_refused_unread(app_client: AppHandle, redis: Redis) -> None:
    big = b'{"display_name": "' + b"x" * 20_000 + b'"}'
    response = await app_client.client.post("/api/session", content=big,
                                            headers={"content-type": "application/json"})
    assert response.status_code == 413
    assert response.json()["error"] == "BODY_TOO_LARGE"

    async def chunks() -> AsyncIterator[bytes]:  # no Content-Length: counted while read
        for _ in range(20):
            yield b" " * 1_000

    streamed = await app_client.client.post("/api/session", content=chunks(),
                                            headers={"content-type": "application/json"})
    assert streamed.status_code == 413
    assert await player_ids(redis) == set()
