from __future__ import annotations

from pathlib import Path

import pytest

from paigow_server.process.settings import Settings, SettingsError, load_settings


def test_defaults_generate_an_operator_token_and_mark_it_generated() -> None:
    settings = load_settings({}, {})
    assert settings.redis_url is None
    assert settings.port == 8000
    assert settings.host == "127.0.0.1"
    assert settings.operator_token_generated
    assert len(settings.operator_token) >= 16
    assert load_settings({}, {}).operator_token != settings.operator_token


def test_environment_values_are_parsed() -> None:
    settings = load_settings({}, {
        "PAIGOW_PORT": "9001", "PAIGOW_REDIS_URL": "redis://10.0.0.5:6380/2", "PAIGOW_DATA_DIR": "/tmp/pg",
        "PAIGOW_OPERATOR_TOKEN": "x" * 20, "PAIGOW_ALLOWED_ORIGINS": "https://a.example, http://b.example:8080/",
        "PAIGOW_STARTING_BALANCE_CENTS": "250_000", "PAIGOW_LOG_LEVEL": "DEBUG",
    })
    assert settings.port == 9001
    assert settings.redis_url == "redis://10.0.0.5:6380/2"
    assert settings.data_dir == Path("/tmp/pg")
    assert settings.operator_token == "x" * 20
    assert not settings.operator_token_generated
    assert settings.allowed_origins == ("https://a.example", "http://b.example:8080")
    assert settings.starting_balance_cents == 250_000
    assert settings.log_level == "debug"


def test_command_line_wins_over_environment() -> None:
    env = {"PAIGOW_PORT": "9001", "PAIGOW_HOST": "0.0.0.0"}
    settings = load_settings({"port": "7000", "host": None}, env)
    assert settings.port == 7000
    assert settings.host == "0.0.0.0"


@pytest.mark.parametrize(
    ("cli", "env", "message"),
    [
        ({"port": "eighty"}, {}, "--port='eighty': must be a whole number"),
        ({}, {"PAIGOW_PORT": "70000"}, "PAIGOW_PORT='70000': must be a whole number from 1 to 65535"),
        ({}, {"PAIGOW_REDIS_URL": "http://x"}, "PAIGOW_REDIS_URL='http://x': must start with"),
        ({"operator_token": "short"}, {}, "--operator-token='short': must be at least 16 characters"),
        ({}, {"PAIGOW_ALLOWED_ORIGINS": "example.com"}, "each origin must look like"),
        ({}, {"PAIGOW_LOG_FORMAT": "xml"}, "must be one of plain, json"),
        ({}, {"PAIGOW_GRACE_SECONDS": "0"}, "PAIGOW_GRACE_SECONDS='0'"),
        ({}, {"PAIGOW_PROT": "1"}, "unknown environment variable PAIGOW_PROT"),
    ],
)
def test_bad_values_are_refused_with_the_source_and_the_rule(
        cli: dict[str, str | None], env: dict[str, str], message: str) -> None:
    with pytest.raises(SettingsError) as info:
        load_settings(cli, env)
    assert message in str(info.value)


def test_direct_construction_is_checked_too() -> None:
    with pytest.raises(SettingsError, match="starting_balance_cents=-1"):
        Settings(starting_balance_cents=-1)
    assert Settings(host="::1", port=8080).base_url == "http://[::1]:8080"


def test_the_home_games_buy_in_bound_is_a_setting() -> None:
    assert Settings().home_max_buy_in_cents == 1_000_000
    assert load_settings({}, {"PAIGOW_HOME_MAX_BUY_IN_CENTS": "250000"}).home_max_buy_in_cents == 250_000
    with pytest.raises(SettingsError, match="BUY_IN_CENTS='0': must be a whole number from 1"):
        load_settings({}, {"PAIGOW_HOME_MAX_BUY_IN_CENTS": "0"})
    with pytest.raises(SettingsError, match="home_max_buy_in_cents"):
        Settings(home_max_buy_in_cents=1_000_000_001)
