"""The operator API: authentication, table actions through the table service, money with reasons, the
audit log, the ledger and the hand-history export."""

from __future__ import annotations

from typing import Any

import pytest

from paigow.table.commands import Leave, PlaceBet, Sit
from paigow.table.state import Phase
from paigow_server.realtime import Realtime
from paigow_server.testing import AppHandle, play_house_round, wait_for_phase

OPEN = {"name": "Main", "rules": {"min_bet_cents": 500, "max_bet_cents": 50_000},
        "timers": {"betting_ms": 60_000, "setting_ms": 60_000, "between_rounds_ms": 50}}


def realtime(handle: AppHandle) -> Realtime:
    rt = handle.app.state.realtime
    assert isinstance(rt, Realtime)
    return rt


async def post(handle: AppHandle, path: str, body: dict[str, Any] | None = None) -> Any:
    return await handle.client.post(path, json=body or {}, headers=handle.operator_headers)


async def open_table(handle: AppHandle, body: dict[str, Any] = OPEN) -> str:
    response = await post(handle, "/api/operator/tables", body)
    assert response.status_code == 201, response.text
    return str(response.json()["table_id"])


async def new_player(handle: AppHandle, name: str) -> str:
    return str((await handle.client.post("/api/session", json={"display_name": name})).json()["player_id"])


async def audit(handle: AppHandle) -> list[dict[str, Any]]:
    response = await handle.client.get("/api/operator/audit", headers=handle.operator_headers)
    return list(response.json()["entries"])


@pytest.mark.parametrize("headers", [{}, {"Authorization": "Bearer wrong-token-0123456789"},
                                     {"Authorization": "Basic dGVzdA=="}])
async def test_the_operator_api_refuses_without_the_token(
        app_client: AppHandle, headers: dict[str, str]) -> None:
    for method, path in [("POST", "/api/operator/tables"), ("GET", "/api/operator/audit"),
                         ("GET", "/api/operator/ledger"), ("POST", "/api/operator/players/p_x/credit"),
                         ("GET", "/api/operator/history/export"), ("POST", "/api/operator/tables/t1/pause")]:
        response = await app_client.client.request(method, path, json=OPEN, headers=headers)
        assert response.status_code == 401, (method, path)
        assert response.json()["error"] in ("UNAUTHORIZED", "BAD_OPERATOR_TOKEN")
    assert (await app_client.client.get("/api/tables")).json() == {"tables": []}
    assert await audit(app_client) == []


async def test_open_a_table_with_rules_and_timers(app_client: AppHandle) -> None:
    table_id = await open_table(app_client)
    listed = (await app_client.client.get("/api/tables")).json()["tables"]
    assert [(t["table_id"], t["name"], t["min_bet_cents"], t["max_bet_cents"], t["phase"], t["seats_taken"])
            for t in listed] == [(table_id, "Main", 500, 50_000, "idle", 0)]
    view = (await app_client.client.get(f"/api/operator/tables/{table_id}",
                                        headers=app_client.operator_headers)).json()
    assert view["version"] == 0
    entry = (await audit(app_client))[-1]
    assert entry["action"] == "open_table"
    assert entry["outcome"] == "ok"
    assert entry["params"]["name"] == "Main"


@pytest.mark.parametrize(
    ("body", "code", "words"),
    [
        ({"name": ""}, "INVALID_FIELD", "name must be non-empty"),
        ({"name": "x" * 41}, "INVALID_FIELD", "longer than 40"),
        ({"name": "T", "rules": {"commission_bps": 20_000}}, "INVALID_FIELD", "commission_bps must be"),
        ({"name": "T", "rules": {"min_bet_cents": 900, "max_bet_cents": 100}}, "INVALID_FIELD", "max_bet"),
        ({"name": "T", "rules": {"wheel": "sideways"}}, "INVALID_FIELD", "wheel must be"),
        ({"name": "T", "rules": {"house_way": "caesars"}}, "INVALID_FIELD",
         "house_way must be one of 'trump_plaza', 'foxwoods', 'ballys_ac', not 'caesars'"),
        ({"name": "T", "rules": {"colour": "red"}}, "UNKNOWN_FIELD", "unknown field 'colour'"),
        ({"name": "T", "timers": {"betting_ms": -1}}, "INVALID_FIELD", "betting_ms"),
        ({"name": "T", "timers": "fast"}, "INVALID_FIELD", "timers must be a JSON object"),
        ({"name": "T", "seats": 9}, "UNKNOWN_FIELD", "unknown field 'seats'"),
    ],
)
async def test_bad_table_settings_are_refused_audited_and_create_nothing(
        app_client: AppHandle, body: dict[str, Any], code: str, words: str) -> None:
    response = await post(app_client, "/api/operator/tables", body)
    assert response.status_code == 400
    assert response.json()["error"] == code
    assert words in response.json()["message"]
    assert (await app_client.client.get("/api/tables")).json() == {"tables": []}
    entry = (await audit(app_client))[-1]
    assert (entry["action"], entry["outcome"]) == ("open_table", code)


async def test_pause_resume_close_and_reopen_go_through_the_table(app_client: AppHandle) -> None:
    table_id = await open_table(app_client)
    paused = await post(app_client, f"/api/operator/tables/{table_id}/pause")
    assert paused.status_code == 200
    assert paused.json()["version"] == 1
    assert paused.json()["events"] == ["table_paused"]
    again = await post(app_client, f"/api/operator/tables/{table_id}/pause")
    assert again.status_code == 409
    assert again.json()["error"] == "ALREADY_DONE"
    assert (await post(app_client, f"/api/operator/tables/{table_id}/resume")).json()["version"] == 2
    assert (await post(app_client, f"/api/operator/tables/{table_id}/close")).status_code == 200
    summary = (await app_client.client.get(f"/api/tables/{table_id}")).json()
    assert summary["phase"] == "closed"
    assert (await post(app_client, f"/api/operator/tables/{table_id}/open")).status_code == 200
    missing = await post(app_client, "/api/operator/tables/t999/pause")
    assert missing.status_code == 404
    assert missing.json()["error"] == "TABLE_NOT_FOUND"
    unknown = await post(app_client, f"/api/operator/tables/{table_id}/explode")
    assert unknown.status_code == 404
    assert [(e["action"], e["outcome"]) for e in await audit(app_client)] == [
        ("open_table", "ok"), ("pause_table", "ok"), ("pause_table", "ALREADY_DONE"),
        ("resume_table", "ok"), ("close_table", "ok"), ("reopen_table", "ok"),
        ("pause_table", "TABLE_NOT_FOUND")]


async def test_limits_rules_and_timers_change(app_client: AppHandle) -> None:
    table_id = await open_table(app_client)
    headers = app_client.operator_headers
    limits = await app_client.client.put(f"/api/operator/tables/{table_id}/limits",
                                         json={"min_bet_cents": 1_000, "max_bet_cents": 20_000},
                                         headers=headers)
    assert limits.status_code == 200, limits.text
    rules = await app_client.client.put(f"/api/operator/tables/{table_id}/rules",
                                        json={"commission_bps": 400, "foul_policy": "lose"}, headers=headers)
    assert rules.status_code == 200, rules.text
    timers = await app_client.client.put(f"/api/operator/tables/{table_id}/timers",
                                         json={"setting_ms": 30_000}, headers=headers)
    assert timers.status_code == 200, timers.text
    state = await realtime(app_client).store.load(table_id)
    assert state is not None
    assert (state.rules.min_bet_cents, state.rules.max_bet_cents) == (1_000, 20_000)
    assert (state.rules.commission_bps, str(state.rules.foul_policy)) == (400, "lose")
    assert state.timers.setting_ms == 30_000
    assert state.timers.betting_ms == 60_000  # untouched fields keep their values
    bad = await app_client.client.put(f"/api/operator/tables/{table_id}/limits",
                                      json={"min_bet_cents": "lots", "max_bet_cents": 1}, headers=headers)
    assert bad.status_code == 400
    assert bad.json()["error"] == "INVALID_FIELD"


async def test_the_house_way_is_a_table_setting(app_client: AppHandle) -> None:
    headers = app_client.operator_headers
    opened = await post(app_client, "/api/operator/tables",
                        {"name": "Fox", "rules": {"house_way": "foxwoods"}})
    assert opened.status_code == 201, opened.text
    table_id = opened.json()["table_id"]
    state = await realtime(app_client).store.load(table_id)
    assert state is not None
    assert str(state.rules.house_way) == "foxwoods"
    changed = await app_client.client.put(f"/api/operator/tables/{table_id}/rules",
                                          json={"house_way": "ballys_ac"}, headers=headers)
    assert changed.status_code == 200, changed.text
    state = await realtime(app_client).store.load(table_id)
    assert state is not None
    assert (str(state.rules.house_way), state.rules.min_bet_cents) == ("ballys_ac", 500)
    view = (await app_client.client.get(f"/api/operator/tables/{table_id}", headers=headers)).json()
    assert view["view"]["rules"]["house_way"] == "ballys_ac"


async def test_kick_returns_the_chips_to_the_balance(app_client: AppHandle) -> None:
    table_id = await open_table(app_client)
    ann = await new_player(app_client, "Ann")
    await realtime(app_client).service.execute(table_id, Sit(ann, "Ann", 3, 25_000))
    balance = await app_client.client.get(f"/api/operator/players/{ann}", headers=app_client.operator_headers)
    assert balance.json()["balance_cents"] == 75_000
    kicked = await post(app_client, f"/api/operator/tables/{table_id}/kick", {"player_id": ann})
    assert kicked.status_code == 200, kicked.text
    assert "player_kicked" in kicked.json()["events"]
    player = await app_client.client.get(f"/api/operator/players/{ann}", headers=app_client.operator_headers)
    assert player.json()["balance_cents"] == 100_000
    not_seated = await post(app_client, f"/api/operator/tables/{table_id}/kick", {"player_id": ann})
    assert not_seated.status_code == 409
    assert not_seated.json()["error"] == "NOT_SEATED"


async def test_void_returns_every_stake(app_client: AppHandle) -> None:
    table_id = await open_table(app_client)
    ann = await new_player(app_client, "Ann")
    rt = realtime(app_client)
    no_round = await post(app_client, f"/api/operator/tables/{table_id}/void")
    assert (no_round.status_code, no_round.json()["error"]) == (409, "NO_ROUND")
    await rt.service.execute(table_id, Sit(ann, "Ann", 1, 10_000))
    await wait_for_phase(rt, table_id, Phase.BETTING)
    await rt.service.execute(table_id, PlaceBet(ann, 2_000))
    await wait_for_phase(rt, table_id, Phase.SETTING)
    voided = await post(app_client, f"/api/operator/tables/{table_id}/void")
    assert voided.status_code == 200
    assert "round_voided" in voided.json()["events"]
    state = await rt.store.load(table_id)
    assert state is not None
    assert state.seats[1] is not None
    assert state.seats[1].chips_cents == 10_000
    exported = (await app_client.client.get("/api/operator/history/export",
                                            headers=app_client.operator_headers)).json()
    assert [r["status"] for r in exported["rounds"]] == ["voided"]


async def test_credit_and_debit_need_a_reason_and_are_ledgered_and_audited(app_client: AppHandle) -> None:
    ann = await new_player(app_client, "Ann")
    credit = await post(app_client, f"/api/operator/players/{ann}/credit",
                        {"amount_cents": 2_500, "reason": "welcome bonus"})
    assert credit.json() == {"player_id": ann, "balance_cents": 102_500}
    debit = await post(app_client, f"/api/operator/players/{ann}/debit",
                       {"amount_cents": 500, "reason": "correction"})
    assert debit.json()["balance_cents"] == 102_000
    for body, status, code in [
        ({"amount_cents": 100}, 400, "REASON_REQUIRED"),
        ({"amount_cents": 100, "reason": "   "}, 400, "REASON_REQUIRED"),
        ({"amount_cents": 0, "reason": "zero"}, 400, "INVALID_FIELD"),
        ({"amount_cents": 1.5, "reason": "fraction"}, 400, "INVALID_FIELD"),
        ({"amount_cents": 10**7, "reason": "too much"}, 409, "INSUFFICIENT_BALANCE"),
    ]:
        response = await post(app_client, f"/api/operator/players/{ann}/debit", body)
        assert (response.status_code, response.json()["error"]) == (status, code), body
    missing = await post(app_client, "/api/operator/players/p_nobody/credit",
                         {"amount_cents": 1, "reason": "x"})
    assert missing.status_code == 404
    player = await app_client.client.get(f"/api/operator/players/{ann}", headers=app_client.operator_headers)
    assert player.json()["balance_cents"] == 102_000

    ledger = (await app_client.client.get("/api/operator/ledger", headers=app_client.operator_headers)).json()
    assert [(e["kind"], e["amount_cents"], e["reason"]) for e in ledger["entries"][1:]] == [
        ("credit", 2_500, "welcome bonus"), ("debit", 500, "correction")]
    assert [(e["action"], e["outcome"]) for e in await audit(app_client)] == [
        ("credit", "ok"), ("debit", "ok"), ("debit", "REASON_REQUIRED"), ("debit", "REASON_REQUIRED"),
        ("debit", "INVALID_FIELD"), ("debit", "INVALID_FIELD"), ("debit", "INSUFFICIENT_BALANCE"),
        ("credit", "UNKNOWN_PLAYER")]
    money = (await app_client.client.get("/api/operator/money", headers=app_client.operator_headers)).json()
    assert money["balanced"]
    assert money["issued_cents"] == 102_000


async def test_ledger_and_audit_are_paged(app_client: AppHandle) -> None:
    for name in ("A", "B", "C"):
        await new_player(app_client, name)
    headers = app_client.operator_headers
    first = (await app_client.client.get("/api/operator/ledger?limit=2", headers=headers)).json()
    assert len(first["entries"]) == 2
    rest = (await app_client.client.get(f"/api/operator/ledger?limit=2&after={first['next_after']}",
                                        headers=headers)).json()
    assert len(rest["entries"]) == 1
    assert rest["next_after"] is None
    for query in ("limit=0", "limit=x", "after=nonsense", "limit=5000"):
        bad = await app_client.client.get(f"/api/operator/ledger?{query}", headers=headers)
        assert bad.status_code == 400, query


async def test_history_export_has_every_settled_round(app_client: AppHandle) -> None:
    table_id = await open_table(app_client)
    ann, bob = await new_player(app_client, "Ann"), await new_player(app_client, "Bob")
    rt = realtime(app_client)
    await rt.service.execute(table_id, Sit(ann, "Ann", 1, 20_000))
    await rt.service.execute(table_id, Sit(bob, "Bob", 4, 20_000))
    await play_house_round(rt, table_id, {ann: 1_000, bob: 2_000})
    await rt.service.execute(table_id, Leave(bob))
    await play_house_round(rt, table_id, {ann: 1_500})
    export = await app_client.client.get("/api/operator/history/export", headers=app_client.operator_headers)
    assert export.headers["content-disposition"].startswith("attachment")
    rounds = export.json()["rounds"]
    assert [r["status"] for r in rounds] == ["settled", "settled"]
    assert {h["player_id"] for h in rounds[0]["round"]["hands"]} == {ann, bob, None}
    only_bob = await app_client.client.get(f"/api/operator/history/export?player_id={bob}",
                                           headers=app_client.operator_headers)
    assert len(only_bob.json()["rounds"]) == 1
    assert (await audit(app_client))[-1]["action"] == "export_history"
    money = (await app_client.client.get("/api/operator/money", headers=app_client.operator_headers)).json()
    assert money["balanced"], money
