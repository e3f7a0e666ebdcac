"""JSON bodies only (web/json_only.py): a body sent as anything but ``application/json`` is ``415
UNSUPPORTED_MEDIA_TYPE`` before any endpoint sees it (the cross-site ``text/plain`` POST a page on another
site can send without asking); a request with no body still reaches the endpoints that take none."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator

import pytest
from redis.asyncio import Redis

from paigow_server.process.settings import Settings
from support.harness import AppHandle

FOREIGN = {"Origin": "https://evil.example"}


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return dataclasses.replace(settings, argon2_memory_kib=1024)  # sessions: 10 a minute, sign-ins: 10


def assert_refused(status: int, body: dict[str, str], sent: str) -> None:
    assert status == 415
    assert body["error"] == "UNSUPPORTED_MEDIA_TYPE"
    assert "application/json" in body["message"]
    assert sent in body["message"]


async def test_a_cross_site_text_plain_new_guest_is_refused_before_anything_is_counted(
        app_client: AppHandle, redis: Redis, settings: Settings) -> None:
    client = app_client.client
    before = await redis.dbsize()
    for _ in range(settings.sessions_per_minute + 2):  # past the per-address limit, were they counted
        response = await client.post("/api/session", content=b'{"display_name": "Ann"}',
                                     headers={**FOREIGN, "Content-Type": "text/plain;charset=UTF-8"})
        assert_refused(response.status_code, response.json(), "text/plain")
        assert response.headers["accept"] == "application/json"
    assert await redis.dbsize() == before, "nothing was written"
    created = await client.post("/api/session", json={"display_name": "Ann"})
    assert created.status_code == 201, "the refusals took nothing from the address's limit"


async def test_a_cross_site_text_plain_sign_in_is_refused_and_counts_no_failure(
        app_client: AppHandle) -> None:
    client = app_client.client
    plain = {**FOREIGN, "Content-Type": "text/plain"}
    assert (await client.post("/api/accounts", json={"username": "ann", "password": "ann password 1"})
            ).status_code == 201
    for _ in range(4):  # three failures in a row would lock the account
        response = await client.post("/api/session/sign-in", headers=plain,
                                     content=b'{"username": "ann", "password": "wrong guess"}')
        assert_refused(response.status_code, response.json(), "text/plain")
        operator = await client.post("/api/operator/session", headers=plain,
                                     content=b'{"username": "ann", "password": "wrong guess"}')
        assert operator.status_code == 415
    signed_in = await client.post("/api/session/sign-in",
                                  json={"username": "ann", "password": "ann password 1"})
    assert signed_in.status_code == 200, signed_in.text


@pytest.mark.parametrize("content_type", [
    "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "text/plain", "application/xml",
    "application/json-patch+json", "application/jsonx", "",
])
async def test_every_other_content_type_is_refused(app_client: AppHandle, content_type: str) -> None:
    response = await app_client.client.post("/api/session", content=b'{"display_name": "Ann"}',
                                            headers={"Content-Type": content_type})
    assert_refused(response.status_code, response.json(), repr(content_type))


async def test_an_empty_form_post_is_refused_too(app_client: AppHandle) -> None:
    """A page's ``<form method=post>`` with no fields sends no body, but says it is a form."""
    response = await app_client.client.post("/api/session", content=b"",
                                            headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert response.status_code == 415


async def test_a_body_without_a_content_type_is_refused(app_client: AppHandle) -> None:
    async def chunks() -> AsyncIterator[bytes]:
        yield b'{"display_name": "Ann"}'

    declared = await app_client.client.post("/api/session", content=b'{"display_name": "Ann"}')
    assert "content-type" not in declared.request.headers
    assert declared.status_code == 415
    chunked = await app_client.client.post("/api/session", content=chunks())
    assert "content-type" not in chunked.request.headers
    assert chunked.status_code == 415
    assert "has no Content-Type" in chunked.json()["message"]


@pytest.mark.parametrize("content_type", ["application/json", "application/json; charset=utf-8",
                                          "Application/JSON;charset=UTF-8"])
async def test_json_in_any_spelling_is_served(app_client: AppHandle, content_type: str) -> None:
    response = await app_client.client.post("/api/session", content=b'{"display_name": "Ann"}',
                                            headers={"Content-Type": content_type})
    assert response.status_code == 201, response.text


async def test_requests_without_a_body_still_work(app_client: AppHandle) -> None:
    client, operator = app_client.client, app_client.operator_headers
    token = (await client.post("/api/session", json={"display_name": "Ann"})).json()["token"]
    deal = await client.post("/api/practice/deals", headers={"Authorization": f"Bearer {token}"})
    assert deal.request.headers.get("content-length") == "0"
    assert "content-type" not in deal.request.headers
    assert deal.status_code == 201, deal.text
    table = await client.post("/api/operator/tables", headers=operator, json={"name": "Jade"})
    paused = await client.post(f"/api/operator/tables/{table.json()['table_id']}/pause", headers=operator)
    assert paused.status_code == 200, paused.text
    signed_out = await client.delete("/api/session", headers={"Authorization": f"Bearer {token}"})
    assert signed_out.status_code == 204


async def test_reads_are_not_checked(app_client: AppHandle) -> None:
    response = await app_client.client.get("/api/tables", headers={"Content-Type": "text/plain"})
    assert response.status_code == 200
