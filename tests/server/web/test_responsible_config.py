"""The help notice and ``GET /api/responsible-play/config`` (docs/responsible-play.md): empty until an
operator sets one (``PUT /api/operator/settings {"help_notice"}``, audited, bounded, plain text), read by
every process, answered without a session, cheap (one Redis read per process per few seconds)."""

from __future__ import annotations

import dataclasses

import httpx
from redis.asyncio import Redis

from paigow_server.app import create_app
from paigow_server.process.settings import Settings
from paigow_server.store import keys
from paigow_server.store.help_notice import CACHE_S, HelpNotice
from support.harness import AppHandle

NOTICE = ("If you or someone you know has a gambling problem and wants help, call 1-800-GAMBLER.\n"
          "<b>Not markup</b>: shown as written.")


async def _config(client: httpx.AsyncClient) -> dict[str, object]:
    response = await client.get("/api/responsible-play/config")
    assert response.status_code == 200, response.text
    assert response.headers["cache-control"] == f"public, max-age={int(CACHE_S)}"
    body: dict[str, object] = response.json()
    return body


async def test_the_notice_is_empty_until_an_operator_sets_it_and_every_process_reads_it(
        app_client: AppHandle, settings: Settings, redis: Redis) -> None:
    http, boot = app_client.client, app_client.operator_headers
    assert await _config(http) == {"enabled": True, "help_notice": "", "no_live_aid": True,
                                    "reality_check_minutes": 60, "limits_timezone": "UTC"}
    put = await http.put("/api/operator/settings", json={"help_notice": NOTICE}, headers=boot)
    assert put.status_code == 200, put.text
    assert put.json()["help_notice"] == NOTICE
    assert (await http.get("/api/operator/settings", headers=boot)).json()["help_notice"] == NOTICE
    assert (await _config(http))["help_notice"] == NOTICE  # at once in the process that wrote it
    entry = (await http.get("/api/operator/audit?limit=1", headers=boot)).json()["entries"][0]
    assert (entry["action"], entry["outcome"], entry["params"]) == ("change_settings", "ok",
                                                                    {"help_notice": NOTICE})
    other = create_app(settings, redis=redis)  # another process on the same Redis
    async with other.router.lifespan_context(other):
        transport = httpx.ASGITransport(app=other)
        async with httpx.AsyncClient(transport=transport, base_url="http://localhost") as client:
            assert (await _config(client))["help_notice"] == NOTICE

    cleared = await http.put("/api/operator/settings", json={"help_notice": None}, headers=boot)
    assert cleared.json()["help_notice"] == ""  # the serve setting's again
    assert not await redis.hexists(keys.SETTINGS, "help_notice")


async def test_a_notice_too_long_or_not_plain_text_is_refused_naming_the_field(app_client: AppHandle) -> None:
    http, boot = app_client.client, app_client.operator_headers
    await http.put("/api/operator/settings", json={"help_notice": "Call 1-800-GAMBLER."}, headers=boot)
    for value, says in (("x" * 1_001, "must be at most 1,000 characters, not 1,001"),
                        ("a\x07b", "must be plain text"), (42, "must be a text")):
        response = await http.put("/api/operator/settings", json={"help_notice": value, "top_up_hours": 0},
                                  headers=boot)
        assert response.status_code == 400, response.text
        assert response.json()["error"] == "INVALID_FIELD"
        assert response.json()["message"].startswith("help_notice: ")
        assert response.json()["field"] == "help_notice"
        assert says in response.json()["message"]
    settings = (await http.get("/api/operator/settings", headers=boot)).json()
    assert settings["help_notice"] == "Call 1-800-GAMBLER."  # nothing changed, the hours neither
    assert settings["top_up_hours"] != 0
    entries = (await http.get("/api/operator/audit?limit=100", headers=boot)).json()["entries"]
    assert [e["outcome"] for e in entries] == ["ok", "INVALID_FIELD", "INVALID_FIELD", "INVALID_FIELD"]
    assert entries[1]["params"]["help_notice"] == "x" * 1_000 + "…"  # the refused text kept cut at the bound
    assert (await http.get("/api/responsible-play/config")).json()["help_notice"] == "Call 1-800-GAMBLER."


async def test_with_the_set_off_no_notice_and_live_hands_are_answered(settings: Settings,
                                                                      redis: Redis) -> None:
    off = dataclasses.replace(settings, responsible_play=False, help_notice="Call 1-800-GAMBLER.")
    app = create_app(off, redis=redis)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://localhost") as client:
            assert await _config(client) == {"enabled": False, "help_notice": "", "no_live_aid": False,
                                                "reality_check_minutes": 60, "limits_timezone": "UTC"}


async def test_the_serve_setting_is_the_notice_until_an_operators_and_a_process_reads_it_once_a_while(
        redis: Redis) -> None:
    now = [0.0]
    reads = HelpNotice(redis, default="From the settings.", clock=lambda: now[0])
    writes = HelpNotice(redis, default="From the settings.")
    assert await reads.current() == "From the settings."
    await writes.set("The operator's.")
    assert await reads.current() == "From the settings."  # read less than CACHE_S ago
    now[0] += CACHE_S
    assert await reads.current() == "The operator's."
    await writes.set("")
    now[0] += CACHE_S
    assert await reads.current() == ""  # an operator may set none
