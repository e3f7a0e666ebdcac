"""The casino variants over the operator API, as the console uses them: the table summary says what each
table deals, and a refused rule, limit or timer names its field (its path in the body) in the error's
``field`` and changes nothing."""

from __future__ import annotations

from typing import Any

import pytest
from tests.server.web.test_operator import audit, new_player, open_table, post, realtime

from paigow.table.commands import PlaceBet, Sit, UseHouseWay
from paigow.table.state import Phase
from support.harness import AppHandle, wait_for_phase

VARIANTS = {"commission_form": "ez", "queens_dragon_enabled": True, "dragon_enabled": True,
            "dragon_set_by": "buyer", "co_banking": True}


def variants_of(summary: dict[str, Any]) -> dict[str, Any]:
    return {k: summary[k] for k in VARIANTS}


async def test_the_table_summary_says_which_variants_the_table_deals(app_client: AppHandle) -> None:
    plain = await open_table(app_client, {"name": "Plain"})
    dealt = await post(app_client, "/api/operator/tables", {"name": "Casino", "rules": VARIANTS})
    assert dealt.status_code == 201, dealt.text
    assert variants_of(dealt.json()["table"]) == VARIANTS
    casino = dealt.json()["table_id"]
    listed = {t["table_id"]: t for t in (await app_client.client.get("/api/tables")).json()["tables"]}
    assert variants_of(listed[casino]) == VARIANTS
    assert variants_of(listed[plain]) == {"commission_form": "commissioned", "queens_dragon_enabled": False,
                                          "dragon_enabled": False, "dragon_set_by": None, "co_banking": False}
    assert listed[plain]["player_banking"] is True  # co-banking does something only where players may bank
    alone = await post(app_client, "/api/operator/tables",
                       {"name": "House", "rules": {"player_banking": False}})
    assert alone.status_code == 201, alone.text
    assert alone.json()["table"]["player_banking"] is False
    assert (await app_client.client.get(f"/api/tables/{casino}")).json() == listed[casino]


async def test_a_change_during_a_round_shows_in_the_summary_once_the_next_round_has_it(
        app_client: AppHandle) -> None:
    table_id = await open_table(app_client, {"name": "Later", "timers": {"betting_ms": 60_000,
                                                                         "between_rounds_ms": 50}})
    ann = await new_player(app_client, "Ann")
    rt = realtime(app_client)
    await rt.service.execute(table_id, Sit(ann, "Ann", 2, 10_000))
    await wait_for_phase(rt, table_id, Phase.BETTING)
    await rt.service.execute(table_id, PlaceBet(ann, 500))  # one player: the round is dealt at once
    await wait_for_phase(rt, table_id, Phase.SETTING)
    change = await app_client.client.put(f"/api/operator/tables/{table_id}/rules", json=VARIANTS,
                                         headers=app_client.operator_headers)
    assert change.status_code == 200, change.text
    view = (await app_client.client.get(f"/api/operator/tables/{table_id}",
                                        headers=app_client.operator_headers)).json()["view"]
    assert {k: view["admin"]["pending_rules"][k] for k in VARIANTS} == VARIANTS
    summary = (await app_client.client.get(f"/api/tables/{table_id}")).json()
    assert summary["commission_form"] == "commissioned"  # the round in play keeps its rules
    await rt.service.execute(table_id, UseHouseWay(ann))
    await wait_for_phase(rt, table_id, Phase.BETTING)
    assert variants_of((await app_client.client.get(f"/api/tables/{table_id}")).json()) == VARIANTS


@pytest.mark.parametrize(
    ("method", "path", "body", "field", "words"),
    [
        ("POST", "", {"name": "T", "rules": {"queens_dragon_enabled": True}}, "rules.queens_dragon_enabled",
         "queens_dragon_enabled: the Queen's Dragon is offered only on EZ tables (commission_form 'ez'), "
         "not 'commissioned'"),
        ("POST", "", {"name": "T", "rules": {"commission_form": "free"}}, "rules.commission_form",
         "commission_form must be one of 'commissioned', 'ez', 'nine_high', not 'free'"),
        ("POST", "", {"name": "T", "rules": "ez"}, "rules", "rules must be a JSON object"),
        ("POST", "", {"name": "T", "timers": {"betting_ms": -1}}, "timers.betting_ms", "betting_ms must be"),
        ("PUT", "/rules", {"queens_dragon_enabled": True}, "queens_dragon_enabled", "only on EZ tables"),
        ("PUT", "/rules", {"dragon_enabled": True, "dragon_max_bet_cents": 200}, "dragon_max_bet_cents",
         "dragon_max_bet_cents must be null (up to the buyer's main wager) or from min_bet_cents (500)"),
        ("PUT", "/rules", {"commission_form": "ez", "queens_dragon_min_bet_cents": 900,
                           "queens_dragon_max_bet_cents": 500}, "queens_dragon_max_bet_cents",
         "must not be below"),
        ("PUT", "/rules", {"dragon_offer_ms": 999}, "dragon_offer_ms", "dragon_offer_ms must be"),
        ("PUT", "/limits", {"min_bet_cents": 900, "max_bet_cents": 100}, "max_bet_cents",
         "must not be below"),
        ("PUT", "/timers", {"setting_ms": "soon"}, "setting_ms", "setting_ms must be"),
    ],
)
async def test_a_refused_rule_names_its_field_and_changes_nothing(
        app_client: AppHandle, method: str, path: str, body: dict[str, Any], field: str, words: str) -> None:
    table_id = await open_table(app_client, {"name": "Standing"})
    before = await realtime(app_client).store.load(table_id)
    url = "/api/operator/tables" if method == "POST" else f"/api/operator/tables/{table_id}{path}"
    response = await app_client.client.request(method, url, json=body, headers=app_client.operator_headers)
    assert response.status_code == 400, response.text
    error = response.json()
    assert (error["error"], error["field"]) == ("INVALID_FIELD", field)
    assert words in error["message"]
    assert error["message"].startswith(field.removeprefix("rules.").removeprefix("timers."))
    assert await realtime(app_client).store.load(table_id) == before
    listed = (await app_client.client.get("/api/tables")).json()["tables"]
    assert [t["table_id"] for t in listed] == [table_id]
    assert (await audit(app_client))[-1]["outcome"] == "INVALID_FIELD"
