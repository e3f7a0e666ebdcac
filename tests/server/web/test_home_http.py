"""Home games over HTTP: creating a private table (accounts only, within the caps), the host's invite and a
new one that ends the old, resolving long and short codes (rate-limited), private tables out of the public
list, and the operator's listing and closing (docs/http-api.md, "Home games")."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator

import pytest
from redis.asyncio import Redis

from paigow.table.state import Phase
from paigow_server.process.settings import Settings
from support.homes import Homes, asgi_homes, auth, home_settings


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return home_settings(settings, home_tables_per_account=2, home_tables_max=3, invite_lookups_per_minute=5,
                         short_code_lookups_per_minute=8)


@pytest.fixture
async def homes(settings: Settings, redis: Redis) -> AsyncIterator[Homes]:
    async with asgi_homes(settings, redis) as h:
        yield h


OPERATOR = {"Authorization": "Bearer test-operator-token-0123456789"}


async def test_an_account_creates_a_private_table_with_an_invite(homes: Homes, settings: Settings) -> None:
    host_id, token = await homes.account("ann")
    body = await homes.table(token, rules={"min_bet_cents": 500, "max_bet_cents": 20_000,
                                           "house_way": "foxwoods", "fortune_enabled": False,
                                           "player_banking": False},
                             timers={"betting_ms": 15_000}, seating="approval", spectators="none")
    table = body["table"]
    assert body["table_id"].startswith("h_")
    assert table["private"] is True
    assert (table["host_player_id"], table["host_name"]) == (host_id, "Ann")
    assert (table["seating"], table["spectators_policy"]) == ("approval", "none")
    invite = body["invite"]
    assert len(invite["code"]) == 32
    assert len(invite["short_code"]) == 6
    assert set(invite["short_code"]) <= set("ABCDEFGHJKLMNPQRSTUVWXYZ")
    assert invite["url"] == f"/table/?id={body['table_id']}&invite={invite['code']}"
    state = await homes.ctx.tables.load(body["table_id"])
    assert state.rules.house_way == "foxwoods"
    assert state.rules.player_banking is False
    assert state.timers.betting_ms == 15_000
    assert state.home.idle_close_ms == settings.home_idle_close_minutes * 60_000
    public = (await homes.client.get("/api/tables")).json()["tables"]
    assert body["table_id"] not in [t["table_id"] for t in public]
    assert (await homes.client.get(f"/api/tables/{body['table_id']}")).status_code == 404
    mine = (await homes.client.get("/api/home/tables", headers=auth(token))).json()["tables"]
    assert [t["table_id"] for t in mine] == [body["table_id"]]
    assert mine[0]["invite"] == invite


@pytest.mark.parametrize(("body", "code", "names"), [
    ({"rules": {"commission_bps": 0}}, "UNKNOWN_FIELD", "commission_bps"),
    ({"rules": {"max_bet_cents": 100_001}}, "INVALID_FIELD", "100001"),
    ({"rules": {"min_bet_cents": 0}}, "INVALID_FIELD", "min_bet_cents"),
    ({"timers": {"reconnect_grace_ms": 1}}, "UNKNOWN_FIELD", "reconnect_grace_ms"),
    ({"seating": "closed"}, "INVALID_FIELD", "open, approval"),
    ({"spectators": "all"}, "INVALID_FIELD", "link, none"),
    ({"name": ""}, "INVALID_FIELD", "name"),
    ({"host": "p_x"}, "UNKNOWN_FIELD", "host"),
])
async def test_bad_input_names_what_was_wrong_and_creates_nothing(homes: Homes, body, code, names) -> None:
    _, token = await homes.account()
    response = await homes.create(token, **body)
    assert response.status_code == 400, response.text
    assert response.json()["error"] == code
    assert names in response.json()["message"]
    assert (await homes.client.get("/api/home/tables", headers=auth(token))).json()["tables"] == []


@pytest.mark.parametrize(("body", "field"), [
    ({"name": ""}, "name"),
    ({"name": 7}, "name"),
    ({"rules": []}, "rules"),
    ({"rules": {"min_bet_cents": 0}}, "rules.min_bet_cents"),
    ({"rules": {"min_bet_cents": "500"}}, "rules.min_bet_cents"),
    ({"rules": {"min_bet_cents": 5000, "max_bet_cents": 1000}}, "rules.max_bet_cents"),
    ({"rules": {"max_bet_cents": 100_001}}, "rules.max_bet_cents"),
    ({"rules": {"house_way": "vegas"}}, "rules.house_way"),
    ({"rules": {"fortune_enabled": 1}}, "rules.fortune_enabled"),
    ({"rules": {"player_banking": "yes"}}, "rules.player_banking"),
    ({"timers": 5}, "timers"),
    ({"timers": {"betting_ms": -1}}, "timers.betting_ms"),
    ({"timers": {"setting_ms": 3_600_001}}, "timers.setting_ms"),
    ({"seating": "closed"}, "seating"),
    ({"spectators": "all"}, "spectators"),
])
async def test_every_invalid_field_names_its_wire_name(homes: Homes, body, field) -> None:
    _, token = await homes.account()
    response = await homes.create(token, **body)
    assert response.status_code == 400, response.text
    error = response.json()
    assert error["error"] == "INVALID_FIELD"
    assert error["field"] == field
    assert error["message"].startswith(field), error["message"]


async def test_the_create_forms_bounds_are_readable_before_a_table_exists(homes: Homes,
                                                                         settings: Settings) -> None:
    _, token = await homes.account()
    listed = (await homes.client.get("/api/home/tables", headers=auth(token))).json()
    assert listed == {"tables": [], "max_bet_cap_cents": settings.home_max_bet_cents,
                      "timer_max_ms": 3_600_000, "tables_per_account": settings.home_tables_per_account,
                      "max_buy_in_cap_cents": settings.home_max_buy_in_cents}


async def test_a_guest_may_not_host(homes: Homes) -> None:
    _, token = await homes.guest()
    response = await homes.create(token)
    assert response.status_code == 403
    assert response.json()["error"] == "ACCOUNT_REQUIRED"
    assert (await homes.client.post("/api/home/tables", json={"name": "x"})).status_code == 401


async def test_the_caps_per_account_and_per_deployment(homes: Homes) -> None:
    _, ann = await homes.account()
    first = await homes.table(ann)
    await homes.table(ann)
    refused = await homes.create(ann)
    assert refused.status_code == 409
    assert refused.json()["error"] == "HOME_TABLE_LIMIT"
    assert (refused.json()["open_tables"], refused.json()["max_tables"]) == (2, 2)  # for the page's words
    _, bob = await homes.account()
    await homes.table(bob)
    full = await homes.create(bob)
    assert full.status_code == 409
    assert full.json()["error"] == "HOME_TABLES_FULL"
    assert (full.json()["open_tables"], full.json()["max_tables"]) == (3, 3)
    closed = await homes.client.post(f"/api/operator/tables/{first['table_id']}/close", headers=OPERATOR)
    assert closed.status_code == 200, closed.text
    assert (await homes.create(bob)).status_code == 201  # a closed table counts no more
    audit = (await homes.client.get("/api/operator/audit?limit=1000", headers=OPERATOR)).json()["entries"]
    created = [e for e in audit if e["action"] == "host_create_table"]
    assert [e["outcome"] for e in created] == ["ok", "ok", "HOME_TABLE_LIMIT", "ok", "HOME_TABLES_FULL", "ok"]
    assert created[0]["actor"].startswith("host:")
    assert created[0]["params"]["host_name"]


async def test_creations_at_once_never_pass_the_cap(homes: Homes) -> None:
    _, ann = await homes.account()
    answers = await asyncio.gather(*(homes.create(ann) for _ in range(5)))
    assert sorted(a.status_code for a in answers) == [201, 201, 409, 409, 409]
    mine = (await homes.client.get("/api/home/tables", headers=auth(ann))).json()["tables"]
    assert len(mine) == 2


async def test_resolving_codes_admits_and_a_new_invite_ends_the_old(homes: Homes) -> None:
    _, ann = await homes.account()
    body = await homes.table(ann)
    table_id, invite = body["table_id"], body["invite"]
    bob_id, bob = await homes.account()
    short = invite["short_code"]
    typed = f"{short[:3].lower()}-{short[3:]}"
    found = await homes.resolve(typed, bob)
    assert found.status_code == 200, found.text
    assert found.json()["table_id"] == table_id
    assert found.json()["code"] == invite["code"]
    assert found.json()["admitted"] is True
    assert await homes.ctx.homes.admitted(table_id, bob_id)
    anonymous = await homes.resolve(invite["code"])
    assert anonymous.json()["admitted"] is False
    assert (await homes.client.get(f"/api/home/tables/{table_id}", headers=auth(bob))).json()["error"] == \
        "NOT_HOST"
    renew = await homes.client.post(f"/api/home/tables/{table_id}/invite", headers=auth(bob))
    assert renew.status_code == 403
    _, cat = await homes.account()
    assert (await homes.client.get(f"/api/home/tables/{table_id}", headers=auth(cat))).status_code == 404
    renewed = await homes.client.post(f"/api/home/tables/{table_id}/invite", headers=auth(ann))
    assert renewed.status_code == 200, renewed.text
    new = renewed.json()["invite"]
    assert new["code"] != invite["code"]
    for old in (invite["code"], invite["short_code"]):
        gone = await homes.resolve(old)
        assert gone.status_code == 404
        assert gone.json()["error"] == "INVITE_NOT_FOUND"
    assert (await homes.resolve(new["short_code"], cat)).status_code == 200


@pytest.mark.parametrize("code", [7, "", "abc", "A" * 31, "KXMBQI", "K XMBQT!"])
async def test_a_malformed_code_is_invalid(homes: Homes, code) -> None:
    response = await homes.resolve(code)  # type: ignore[arg-type]
    assert response.status_code == 400
    assert response.json()["error"] == "INVALID_FIELD"


async def test_short_code_guesses_are_rate_limited_per_network_and_account(homes: Homes,
                                                                           settings: Settings) -> None:
    _, token = await homes.account()
    answers = [(await homes.resolve("ABCDEF", token)).status_code for _ in range(6)]
    assert answers[:5] == [404] * 5
    assert answers[5] == 429
    limited = await homes.resolve("ABCDEF")
    assert limited.status_code == 429
    assert limited.json()["error"] == "RATE_LIMITED"
    assert "invite look-ups" in limited.json()["message"]
    assert limited.json()["retry_after_s"] >= 1


async def test_short_code_guesses_from_many_networks_meet_the_deployments_budget(homes: Homes) -> None:
    """A guesser holding many networks, each within its own limit, is held by the deployment's budget of
    short-code look-ups; the invite link's long code still resolves, from anywhere."""
    _, ann = await homes.account()
    invite = (await homes.table(ann))["invite"]
    answers = []
    for i in range(9):
        async with homes.from_address(f"198.51.{100 + i}.7") as network:
            answers.append(await network.resolve("ABCDEF"))
    assert [a.status_code for a in answers] == [404] * 8 + [429]
    refused = answers[8].json()
    assert refused["error"] == "RATE_LIMITED"
    assert "too many short-code look-ups on this server: at most 8 a minute" in refused["message"]
    assert "the invite link, with its long code, works now" in refused["message"]
    async with homes.from_address("203.0.113.9") as elsewhere:
        assert (await elsewhere.resolve(invite["short_code"])).status_code == 429
        found = await elsewhere.resolve(invite["code"])
    assert found.status_code == 200, found.text


async def test_a_closed_tables_codes_stop_working_and_the_operator_lists_private_tables(homes: Homes) -> None:
    _, ann = await homes.account()
    body = await homes.table(ann)
    table_id = body["table_id"]
    listed = (await homes.client.get("/api/operator/home-tables", headers=OPERATOR)).json()["tables"]
    assert [t["table_id"] for t in listed] == [table_id]
    assert listed[0]["invite"]["code"] == body["invite"]["code"]
    assert listed[0]["created_by"] == body["table"]["host_player_id"]
    assert (await homes.client.get("/api/operator/home-tables", headers=auth(ann))).status_code == 401
    closed = await homes.client.post(f"/api/operator/tables/{table_id}/close", headers=OPERATOR)
    assert closed.status_code == 200
    state = await homes.ctx.tables.load(table_id)
    assert state.phase == Phase.CLOSED
    assert (await homes.resolve(body["invite"]["code"])).status_code == 404
    assert (await homes.client.get("/api/operator/home-tables", headers=OPERATOR)).json()["tables"] == []
    everything = (await homes.client.get("/api/operator/home-tables?closed=1", headers=OPERATOR)).json()
    assert [t["closed"] for t in everything["tables"]] == [True]
    assert everything["tables"][0]["invite"] is None
    again = await homes.client.post(f"/api/home/tables/{table_id}/invite", headers=auth(ann))
    assert again.status_code == 409


async def test_a_private_tables_rounds_and_chat_are_for_its_admitted_players(homes: Homes) -> None:
    _, ann = await homes.account()
    table_id = (await homes.table(ann))["table_id"]
    assert (await homes.client.get(f"/api/tables/{table_id}/rounds")).status_code == 404
    assert (await homes.client.get(f"/api/tables/{table_id}/chat")).status_code == 404
    _, stranger = await homes.account()
    strangers = await homes.client.get(f"/api/tables/{table_id}/rounds", headers=auth(stranger))
    assert strangers.status_code == 404
    mine = await homes.client.get(f"/api/tables/{table_id}/rounds", headers=auth(ann))
    assert mine.status_code == 200
    assert mine.json()["rounds"] == []
    assert (await homes.client.get(f"/api/tables/{table_id}/chat", headers=auth(ann))).status_code == 200


async def test_settings_are_read_from_the_environment(settings: Settings) -> None:
    from paigow_server.process.settings import load_settings
    loaded = load_settings({}, {"PAIGOW_HOME_TABLES_PER_ACCOUNT": "5", "PAIGOW_SEAT_OFFER_SECONDS": "45",
                                "PAIGOW_INVITE_LOOKUPS_PER_MINUTE": "7",
                                "PAIGOW_SHORT_CODE_LOOKUPS_PER_MINUTE": "60"})
    assert (loaded.home_tables_per_account, loaded.seat_offer_seconds, loaded.invite_lookups_per_minute,
            loaded.short_code_lookups_per_minute) == (5, 45, 7, 60)
    assert dataclasses.replace(settings).home_idle_close_minutes == 30
