"""The security headers (web/headers.py): a strict Content Security Policy and frame, sniffing and referrer
protection on every page and file of the browser client, and ``Cache-Control: no-store`` (with the rest)
on every API answer, those that carry a token or a balance first of all."""

from __future__ import annotations

import dataclasses

import httpx
import pytest
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from paigow_server.process.settings import Settings
from paigow_server.web.headers import API_POLICY, SecurityHeaders
from support.harness import AppHandle

PAGES = ["/", "/table/", "/operator/", "/practice/", "/verify/"]
FILES = ["/css/base.css", "/js/api.js", "/js/table_app.js", "/protocol.schema.json"]
COMMON = {"x-content-type-options": "nosniff", "x-frame-options": "DENY", "referrer-policy": "same-origin"}


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return dataclasses.replace(settings, argon2_memory_kib=1024, sessions_per_minute=1000,
                               sign_ins_per_minute=1000)


def directives(policy: str) -> dict[str, list[str]]:
    parsed: dict[str, list[str]] = {}
    for part in policy.split(";"):
        name, *values = part.split()
        assert name not in parsed, f"{name} twice in {policy!r}"
        parsed[name] = values
    return parsed


def assert_common(response: httpx.Response) -> None:
    for name, value in COMMON.items():
        assert response.headers.get(name) == value, f"{response.url.path}: {name}"


@pytest.mark.parametrize("path", PAGES + FILES)
async def test_every_page_and_file_has_a_strict_policy(app_client: AppHandle, path: str) -> None:
    response = await app_client.client.get(path)
    assert response.status_code == 200
    assert_common(response)
    assert len(response.headers.get_list("content-security-policy")) == 1
    policy = directives(response.headers["content-security-policy"])
    assert policy["default-src"] == ["'self'"]
    assert policy["script-src"] == ["'self'"]
    assert policy["style-src"] == ["'self'"]
    assert policy["img-src"] == ["'self'", "data:"]
    assert policy["connect-src"] == ["'self'", "ws://localhost", "wss://localhost"]  # the Host asked by
    assert policy["object-src"] == ["'none'"]
    assert policy["base-uri"] == ["'none'"]
    assert policy["form-action"] == ["'self'"]
    assert policy["frame-ancestors"] == ["'none'"]
    text = response.headers["content-security-policy"]
    assert "unsafe" not in text
    assert "*" not in text
    assert "http:" not in text


async def test_the_sockets_allowed_are_those_of_the_host_with_its_port(app_client: AppHandle) -> None:
    response = await app_client.client.get("/table/", headers={"Host": "127.0.0.1:8123"})
    assert directives(response.headers["content-security-policy"])["connect-src"] == [
        "'self'", "ws://127.0.0.1:8123", "wss://127.0.0.1:8123"]


async def test_the_pages_hold_no_inline_script_or_style(app_client: AppHandle) -> None:
    """What the policy would block, checked at the source: no <style>, no style="...", no inline script or
    event handler in any page (the browser suite fails on any violation it reports besides)."""
    for path in PAGES:
        html = (await app_client.client.get(path)).text.lower()
        for blocked in ("<style", "style=", " onclick=", " onload=", " onsubmit=", "javascript:"):
            assert blocked not in html, (path, blocked)
        assert html.count("<script") == html.count('<script type="module" src="/js/'), path


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def test_answers_with_a_token_or_a_balance_are_never_stored(app_client: AppHandle) -> None:
    client, operator = app_client.client, app_client.operator_headers
    guest = await client.post("/api/session", json={"display_name": "Ann"})
    token = guest.json()["token"]
    account = await client.post("/api/accounts", json={"username": "bob", "password": "bob password 1"})
    created = await client.post("/api/operator/operators", headers=operator,
                                json={"username": "olga", "password": "olga password 1"})
    assert created.status_code == 201, created.text
    answers = {
        "new guest": guest,
        "new account": account,
        "sign-in": await client.post("/api/session/sign-in",
                                     json={"username": "bob", "password": "bob password 1"}),
        "resume": await client.get("/api/session", headers=bearer(token)),
        "history": await client.get("/api/players/me/history", headers=bearer(token)),
        "operator sign-in": await client.post("/api/operator/session",
                                              json={"username": "olga", "password": "olga password 1"}),
        "operator player": await client.get(f"/api/operator/players/{guest.json()['player_id']}",
                                            headers=operator),
        "operator players": await client.get("/api/operator/players", headers=operator),
        "operator money": await client.get("/api/operator/money", headers=operator),
        "operator ledger": await client.get("/api/operator/ledger", headers=operator),
        "refused": await client.get("/api/session", headers=bearer("not-a-token")),
        "unknown path": await client.get("/api/nothing-here"),
        "public": await client.get("/api/tables"),
    }
    for what, response in answers.items():
        assert response.status_code < 500, (what, response.text)
        assert response.headers.get("cache-control") == "no-store", what
        assert_common(response)
        assert response.headers["content-security-policy"] == API_POLICY, what
    assert answers["new guest"].status_code == 201
    assert "token" in answers["new guest"].json()
    assert answers["operator sign-in"].status_code == 200
    assert "token" in answers["operator sign-in"].json()


async def test_a_header_the_endpoint_set_is_kept() -> None:
    async def cached(request: Request) -> Response:
        return JSONResponse({"rounds": []}, headers={"Cache-Control": "public, max-age=5"})

    app = Starlette(routes=[Route("/api/cached", cached)],
                    middleware=[Middleware(SecurityHeaders, allowed_hosts=("localhost",))])
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://localhost") as client:
        response = await client.get("/api/cached")
    assert response.headers.get_list("cache-control") == ["public, max-age=5"]
    assert_common(response)


async def test_a_refused_host_is_answered_with_the_headers_and_no_socket_of_its_own(
        app_client: AppHandle) -> None:
    response = await app_client.client.get("/", headers={"Host": "evil.example"})
    assert response.status_code == 400
    assert_common(response)
    assert directives(response.headers["content-security-policy"])["connect-src"] == ["'self'"]
