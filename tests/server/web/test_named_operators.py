"""Named operators: the bootstrap token creates them, they sign in with their own credentials, every audit
entry names who acted, and a disabled operator is shut out (HTTP 401 OPERATOR_DISABLED, WebSocket 4401)."""

from __future__ import annotations

import dataclasses
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from paigow_server.process.settings import Settings
from support.harness import AppHandle, LiveServer


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return dataclasses.replace(settings, argon2_memory_kib=1024, argon2_time_cost=1, sign_ins_per_minute=1000)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def new_operator(http: httpx.AsyncClient, boot: dict[str, str], name: str) -> str:
    created = await http.post("/api/operator/operators", headers=boot,
                              json={"username": name, "password": f"{name} password"})
    assert created.status_code == 201, created.text
    signed_in = await http.post("/api/operator/session",
                                json={"username": name, "password": f"{name} password"})
    assert signed_in.status_code == 200, signed_in.text
    body = signed_in.json()
    assert body["username"] == name
    assert body["expires_ms"] > 0
    return str(body["token"])


async def test_named_operators_act_under_their_own_names(app_client: AppHandle) -> None:
    http, boot = app_client.client, app_client.operator_headers
    created = await http.post("/api/operator/operators", headers=boot,
                              json={"username": "Olga", "password": "olga password"})
    assert created.status_code == 201
    assert created.json().keys() == {"username", "disabled", "created_ms"}
    assert created.json()["username"] == "olga"
    assert created.json()["disabled"] is False
    olga = (await http.post("/api/operator/session", json={"username": "olga", "password": "olga password"})
            ).json()["token"]

    table = await http.post("/api/operator/tables", headers=bearer(olga), json={"name": "Olga's"})
    assert table.status_code == 201
    paused = await http.post(f"/api/operator/tables/{table.json()['table_id']}/pause", headers=boot)
    assert paused.status_code == 200
    player = (await http.post("/api/session", json={"display_name": "P"})).json()["player_id"]
    credit = await http.post(f"/api/operator/players/{player}/credit", headers=bearer(olga),
                             json={"amount_cents": 500, "reason": "welcome"})
    assert credit.status_code == 200
    refused = await http.post(f"/api/operator/players/{player}/debit", headers=bearer(olga),
                              json={"amount_cents": 500})
    assert refused.status_code == 400
    entries = (await http.get("/api/operator/audit", headers=boot)).json()["entries"]
    assert [(e["action"], e["actor"], e["outcome"]) for e in entries] == [
        ("create_operator", "bootstrap", "ok"), ("sign_in", "olga", "ok"), ("open_table", "olga", "ok"),
        ("pause_table", "bootstrap", "ok"), ("credit", "olga", "ok"), ("debit", "olga", "REASON_REQUIRED")]
    assert "password" not in str(entries[0]["params"])

    listed = (await http.get("/api/operator/operators", headers=bearer(olga))).json()["operators"]
    assert [(o["username"], o["disabled"]) for o in listed] == [("olga", False)]
    assert listed[0]["last_sign_in_ms"] is not None


async def test_only_the_bootstrap_token_creates_operators_and_names_are_unique(app_client: AppHandle) -> None:
    http, boot = app_client.client, app_client.operator_headers
    olga = await new_operator(http, boot, "olga")
    by_operator = await http.post("/api/operator/operators", headers=bearer(olga),
                                  json={"username": "mallory", "password": "mallory password"})
    assert (by_operator.status_code, by_operator.json()["error"]) == (403, "BOOTSTRAP_ONLY")
    again = await http.post("/api/operator/operators", headers=boot,
                            json={"username": "OLGA", "password": "another password"})
    assert (again.status_code, again.json()["error"]) == (409, "OPERATOR_EXISTS")
    bad = await http.post("/api/operator/operators", headers=boot,
                          json={"username": "o", "password": "x" * 8})
    assert (bad.status_code, bad.json()["error"]) == (400, "INVALID_USERNAME")
    listed = (await http.get("/api/operator/operators", headers=boot)).json()["operators"]
    names = [o["username"] for o in listed]
    assert names == ["olga"]


async def test_a_disabled_operator_is_shut_out_until_enabled(app_client: AppHandle) -> None:
    http, boot = app_client.client, app_client.operator_headers
    olga = await new_operator(http, boot, "olga")
    pat = await new_operator(http, boot, "pat")
    self_disable = await http.post("/api/operator/operators/pat/disable", headers=bearer(pat))
    assert (self_disable.status_code, self_disable.json()["error"]) == (409, "CANNOT_DISABLE_SELF")
    disabled = await http.post("/api/operator/operators/olga/disable", headers=bearer(pat))
    assert disabled.status_code == 200
    assert disabled.json()["disabled"] is True
    shut = await http.get("/api/operator/money", headers=bearer(olga))
    assert (shut.status_code, shut.json()["error"]) == (401, "OPERATOR_DISABLED")
    sign_in = await http.post("/api/operator/session", json={"username": "olga", "password": "olga password"})
    assert (sign_in.status_code, sign_in.json()["error"]) == (401, "OPERATOR_DISABLED")
    unknown = await http.post("/api/operator/operators/nobody/disable", headers=boot)
    assert (unknown.status_code, unknown.json()["error"]) == (404, "OPERATOR_NOT_FOUND")

    assert (await http.post("/api/operator/operators/olga/enable", headers=boot)).json()["disabled"] is False
    old = await http.get("/api/operator/money", headers=bearer(olga))
    assert old.status_code == 401  # disabling revoked the old sessions for good
    fresh = await http.post("/api/operator/session", json={"username": "olga", "password": "olga password"})
    assert fresh.status_code == 200
    assert (await http.get("/api/operator/money", headers=bearer(fresh.json()["token"]))).status_code == 200
    actions = [(e["action"], e["actor"]) for e in
               (await http.get("/api/operator/audit", headers=boot)).json()["entries"]
               if e["action"].endswith("_operator") and e["action"] != "create_operator"]
    assert actions == [("disable_operator", "pat"), ("disable_operator", "pat"),
                       ("disable_operator", "bootstrap"), ("enable_operator", "bootstrap")]


async def test_operator_sign_in_backs_off_and_signs_out(app_client: AppHandle) -> None:
    http, boot = app_client.client, app_client.operator_headers
    olga = await new_operator(http, boot, "olga")
    wrong = await http.post("/api/operator/session", json={"username": "olga", "password": "wrong password"})
    assert (wrong.status_code, wrong.json()["error"]) == (401, "BAD_CREDENTIALS")
    waiting = await http.post("/api/operator/session", json={"username": "olga", "password": "olga password"})
    assert (waiting.status_code, waiting.json()["error"]) == (429, "SIGN_IN_BACKOFF")
    assert waiting.headers["retry-after"] == "1"
    assert (await http.delete("/api/operator/session", headers=bearer(olga))).status_code == 204
    after = await http.get("/api/operator/money", headers=bearer(olga))
    assert (after.status_code, after.json()["error"]) == (401, "BAD_OPERATOR_TOKEN")
    bootstrap_out = await http.delete("/api/operator/session", headers=boot)
    assert bootstrap_out.status_code == 400


async def test_the_websocket_hello_takes_operator_sessions_and_disabling_closes_them(
        tables: Any, connect: Any, live_server: LiveServer) -> None:
    table_id = await tables.table()
    boot = bearer(live_server.operator_token)
    async with httpx.AsyncClient(base_url=live_server.url) as http:
        olga = await new_operator(http, boot, "olga")
        async with connect(table_id) as client:
            snapshot = await client.hello_as_operator(olga)
            assert snapshot["type"] == "snapshot"
            assert snapshot["role"] == "operator"
            assert (await http.post("/api/operator/operators/olga/disable", headers=boot)).status_code == 200
            error = await client.until(lambda f: f["type"] == "error", 2.0)
            assert error["code"] == "UNAUTHORIZED"
            with pytest.raises(ConnectionClosed) as info:  # noqa: PT012 - read until the close
                while True:
                    await client.recv(2.0)
            assert info.value.rcvd is not None
            assert info.value.rcvd.code == 4401
        async with connect(table_id) as client:
            await client.send({"type": "hello", "protocol": 2, "operator_token": olga})
            refused = await client.recv()
            assert refused["code"] == "UNAUTHORIZED"
            assert "disabled" in refused["message"]


async def test_unlock_disable_and_enable_take_no_fields_like_every_operator_action(
        app_client: AppHandle) -> None:
    """docs/http-api.md: unknown fields are refused (400 UNKNOWN_FIELD), JSON that is not an object is
    400 INVALID_FIELD; a refused request changes nothing."""
    http, boot = app_client.client, app_client.operator_headers
    await new_operator(http, boot, "olga")
    player = (await http.post("/api/session", json={"display_name": "Ann"})).json()["player_id"]
    for path in (f"/api/operator/players/{player}/unlock", "/api/operator/operators/olga/disable",
                 "/api/operator/operators/olga/enable"):
        extra = await http.post(path, headers=boot, json={"x": 1})
        assert (extra.status_code, extra.json()["error"]) == (400, "UNKNOWN_FIELD"), (path, extra.text)
        text = await http.post(path, headers=boot, json="x")
        assert (text.status_code, text.json()["error"]) == (400, "INVALID_FIELD"), (path, text.text)
    listed = (await http.get("/api/operator/operators", headers=boot)).json()["operators"]
    assert [o["disabled"] for o in listed] == [False]
    assert (await http.post("/api/operator/operators/olga/disable", headers=boot, json={})).status_code == 200
    assert (await http.post("/api/operator/operators/olga/enable", headers=boot)).status_code == 200
    unlocked = await http.post(f"/api/operator/players/{player}/unlock", headers=boot, json={})
    assert unlocked.status_code == 200
