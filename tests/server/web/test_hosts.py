"""The ``Host`` allow-list (setting ``allowed_hosts``, web/hosts.py): a request or WebSocket upgrade for a
name the server was not told it has is refused with 400, so a page reached by DNS rebinding (its own name
as ``Host`` and ``Origin``) gets nothing; and the WebSocket's own-origin rule counts only allowed names."""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Any

import pytest

from paigow_server.process.settings import Settings, SettingsError, load_settings
from support.harness import AppHandle, LiveServer


@pytest.fixture
def settings(settings: Settings, request: pytest.FixtureRequest) -> Settings:
    """The suite's settings, with what a test's ``indirect`` parameter changes."""
    return dataclasses.replace(settings, **getattr(request, "param", {}))


def test_the_default_answers_to_the_loopback_names_and_a_named_bind_address() -> None:
    assert Settings().trusted_hosts == ("localhost", "127.0.0.1", "[::1]")
    assert Settings(host="0.0.0.0").trusted_hosts == ("localhost", "127.0.0.1", "[::1]")
    assert Settings(host="::").trusted_hosts == ("localhost", "127.0.0.1", "[::1]")
    assert Settings(host="10.1.2.3").trusted_hosts == ("localhost", "127.0.0.1", "[::1]", "10.1.2.3")
    assert Settings(host="::1").trusted_hosts == ("localhost", "127.0.0.1", "[::1]")
    assert Settings(host="fd00::5").trusted_hosts[-1] == "[fd00::5]"


def test_allowed_hosts_are_read_from_the_environment_and_replace_the_default() -> None:
    listed = "Paigow.Example.com, *.tables.example, ::1, 10.0.0.5"
    settings = load_settings({}, {"PAIGOW_ALLOWED_HOSTS": listed})
    assert settings.trusted_hosts == ("paigow.example.com", "*.tables.example", "[::1]", "10.0.0.5")
    assert load_settings({"allowed_hosts": "*"}, {}).trusted_hosts == ("*",)


@pytest.mark.parametrize("text", ["paigow.example.com:443", "https://paigow.example.com", "a b",
                                  "*example.com", "ex*.com", "[not-an-address]", ",", "a..example",
                                  "example.com/"])
def test_a_bad_entry_is_refused_naming_it(text: str) -> None:
    with pytest.raises(SettingsError) as info:
        load_settings({}, {"PAIGOW_ALLOWED_HOSTS": text})
    assert str(info.value).startswith(f"PAIGOW_ALLOWED_HOSTS={text!r}: ")


async def test_a_request_for_another_host_is_refused_with_400(app_client: AppHandle) -> None:
    client = app_client.client
    for path in ("/", "/table/", "/js/api.js", "/api/tables", "/api/session"):
        refused = await client.get(path, headers={"Host": "evil.example"})
        assert refused.status_code == 400, path
        assert refused.text == "Invalid host header"
    posted = await client.post("/api/session", json={"display_name": "Ann"}, headers={"Host": "evil.example"})
    assert posted.status_code == 400
    for host in ("localhost", "localhost:8000", "127.0.0.1:8000", "[::1]:8000", "LOCALHOST"):
        assert (await client.get("/api/tables", headers={"Host": host})).status_code == 200, host


async def test_the_probes_answer_whatever_the_host(app_client: AppHandle) -> None:
    """Orchestrators and Prometheus ask them by the pod's address."""
    for path in ("/healthz", "/readyz", "/metrics"):
        assert (await app_client.client.get(path, headers={"Host": "10.244.1.7:8000"})).status_code == 200


async def upgrade(live: LiveServer, table_id: str, *, host: str, origin: str | None) -> int:
    """The status of a raw WebSocket upgrade sent with exactly this ``Host`` (and ``Origin``)."""
    port = int(live.url.rsplit(":", 1)[1])
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    lines = [f"GET /ws/tables/{table_id} HTTP/1.1", f"Host: {host}", "Upgrade: websocket",
             "Connection: Upgrade", "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
             "Sec-WebSocket-Version: 13"]
    if origin is not None:
        lines.append(f"Origin: {origin}")
    writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
    await writer.drain()
    status = int((await asyncio.wait_for(reader.readline(), 10)).split()[1])
    writer.close()
    await writer.wait_closed()
    return status


async def test_a_websocket_for_another_host_is_refused(tables: Any, live_server: LiveServer) -> None:
    table_id = await tables.table()
    own = live_server.url.removeprefix("http://")
    assert await upgrade(live_server, table_id, host=own, origin=live_server.url) == 101
    assert await upgrade(live_server, table_id, host=own, origin=None) == 101
    assert await upgrade(live_server, table_id, host="evil.example", origin=None) == 400
    # DNS rebinding: evil.example resolves to this server; the page's own name is Host and Origin
    port = own.rsplit(":", 1)[1]
    assert await upgrade(live_server, table_id, host=f"evil.example:{port}",
                         origin=f"http://evil.example:{port}") == 400


@pytest.mark.parametrize("settings", [{"allowed_hosts": ("*",)}], indirect=True)
async def test_with_any_host_allowed_a_rebinding_page_still_gets_no_socket(tables: Any,
                                                                           live_server: LiveServer) -> None:
    """``"*"`` answers any ``Host`` but vouches for none: the page's origin must be in ``allowed_origins``."""
    table_id = await tables.table()
    assert await upgrade(live_server, table_id, host="evil.example", origin="http://evil.example") == 403
    assert await upgrade(live_server, table_id, host="evil.example", origin=None) == 101


@pytest.mark.parametrize("settings", [{"allowed_hosts": ("play.example", "*.tables.example")}], indirect=True)
async def test_the_servers_own_origin_under_an_allowed_name_opens_a_socket(tables: Any,
                                                                           live_server: LiveServer) -> None:
    table_id = await tables.table()
    assert await upgrade(live_server, table_id, host="play.example", origin="http://play.example") == 101
    assert await upgrade(live_server, table_id, host="eu.tables.example:8080",
                         origin="http://eu.tables.example:8080") == 101
    assert await upgrade(live_server, table_id, host="play.example", origin="http://play.example:8080") == 403
    own = live_server.url.removeprefix("http://")
    # 127.0.0.1 is not in the list now
    assert await upgrade(live_server, table_id, host=own, origin=live_server.url) == 400
