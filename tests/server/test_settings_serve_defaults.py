"""A new server opens its starter tables once, on an empty Redis, and audits them."""

from __future__ import annotations

import dataclasses

import pytest
from redis.asyncio import Redis

from paigow_server.app import create_app
from paigow_server.process.settings import Settings, SettingsError, load_settings
from paigow_server.web.context import AppContext
from paigow_server.web.operator import open_starter_tables
from support.harness import AppHandle


async def test_starter_tables_are_opened_once_and_audited(settings: Settings, redis: Redis) -> None:
    starting = dataclasses.replace(settings, starter_tables=2)
    app = create_app(starting, redis=redis)
    async with app.router.lifespan_context(app):
        ctx: AppContext = app.state.ctx
        states = [s for s in await ctx.tables.load_many(await ctx.tables.list_ids()) if s is not None]
        assert sorted((s.name, s.phase) for s in states) == [("Table 1", "idle"), ("Table 2", "idle")]
        assert all(s.rules.fortune_enabled for s in states)  # the Fortune bonus is on
        audit = (await ctx.audit.page()).entries
        assert [e["action"] for e in audit] == ["open_table", "open_table"]
        assert await open_starter_tables(ctx) == []  # a second start (or process) opens none
    again = create_app(starting, redis=redis)
    async with again.router.lifespan_context(again):
        assert len(await again.state.ctx.tables.list_ids()) == 2


async def test_no_starter_tables_when_the_operator_already_opened_one(app_client: AppHandle,
                                                                      settings: Settings) -> None:
    opened = await app_client.client.post("/api/operator/tables", json={"name": "Main"},
                                          headers=app_client.operator_headers)
    assert opened.status_code == 201
    ctx: AppContext = app_client.app.state.ctx
    ctx_settings = dataclasses.replace(settings, starter_tables=3)
    assert await open_starter_tables(dataclasses.replace(ctx, settings=ctx_settings)) == []
    assert await ctx.tables.list_ids() == [opened.json()["table_id"]]


def test_starter_tables_setting_is_checked() -> None:
    assert load_settings({"starter_tables": "4"}, {}).starter_tables == 4
    assert load_settings({}, {}).starter_tables == 0  # the Settings default; `paigow serve` asks for 1
    with pytest.raises(SettingsError, match=r"STARTER_TABLES='99': must be a whole number from 0 to 50"):
        load_settings({}, {"PAIGOW_STARTER_TABLES": "99"})


def test_ws_compression_setting_reads_true_and_false() -> None:
    assert load_settings({}, {}).ws_compression is False
    assert load_settings({"ws_compression": "true"}, {}).ws_compression is True
    assert load_settings({}, {"PAIGOW_WS_COMPRESSION": "off"}).ws_compression is False
    with pytest.raises(SettingsError, match=r"--ws-compression='maybe': must be true or false"):
        load_settings({"ws_compression": "maybe"}, {})


def test_the_responsible_play_settings_and_their_checks() -> None:
    default = load_settings({}, {})
    assert (default.responsible_play, default.no_live_aid, default.help_notice) == (True, None, "")
    assert default.refuses_live_aid is True  # the regulated set is on by default
    off = load_settings({"responsible_play": "false"}, {})
    assert off.refuses_live_aid is False
    assert load_settings({"responsible_play": "false"}, {"PAIGOW_NO_LIVE_AID": "on"}).refuses_live_aid is True
    assert load_settings({"no_live_aid": "false"}, {}).refuses_live_aid is False
    assert load_settings({"no_live_aid": "auto"}, {}).no_live_aid is None
    notice = "If you or someone you know has a gambling problem, call 1-800-GAMBLER.\nWe can help."
    assert load_settings({"help_notice": notice}, {}).help_notice == notice
    with pytest.raises(SettingsError, match=r"--no-live-aid='maybe': must be true, false or auto"):
        load_settings({"no_live_aid": "maybe"}, {})
    with pytest.raises(SettingsError, match=r"PAIGOW_HELP_NOTICE='x+': must be at most 1,000 characters, "
                                            r"not 1,001"):
        load_settings({}, {"PAIGOW_HELP_NOTICE": "x" * 1_001})
    with pytest.raises(SettingsError, match=r"help_notice='a\\x00b': must be plain text"):
        Settings(help_notice="a\x00b")


def test_limits_settings_defaults_and_ranges() -> None:
    default = load_settings({}, {})
    assert (default.limits_timezone, default.session_limit_pause_minutes, default.reality_check_minutes) \
        == ("UTC", 60, 60)
    given = load_settings({"limits_timezone": "Europe/London", "reality_check_minutes": "0"}, {})
    assert (given.limits_timezone, given.reality_check_minutes) == ("Europe/London", 0)
    for bad in ({"limits_timezone": "Mars/Olympus"}, {"reality_check_minutes": "3"},
                {"reality_check_minutes": "1441"}):
        with pytest.raises(SettingsError):
            load_settings(bad, {})
