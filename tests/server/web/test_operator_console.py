"""What the operator console reads and sends: a void needs a reason (audited with the operator's name),
audit and ledger entries carry the player's display name beside the id, and players are found by name,
username or id for a credit or a debit."""

from __future__ import annotations

from typing import Any

import pytest

from paigow.table.commands import PlaceBet, Sit
from paigow.table.state import Phase
from support.harness import AppHandle, wait_for_phase


async def post(handle: AppHandle, path: str, body: dict[str, Any]) -> Any:
    return await handle.client.post(path, json=body, headers=handle.operator_headers)


async def audit(handle: AppHandle) -> list[dict[str, Any]]:
    return list((await handle.client.get("/api/operator/audit", headers=handle.operator_headers)
                 ).json()["entries"])


async def new_player(handle: AppHandle, name: str) -> str:
    return str((await handle.client.post("/api/session", json={"display_name": name})).json()["player_id"])


async def open_table(handle: AppHandle) -> str:
    opened = await post(handle, "/api/operator/tables", {"name": "Jade", "timers": {"betting_ms": 60_000,
                                                                                    "setting_ms": 60_000}})
    assert opened.status_code == 201, opened.text
    return str(opened.json()["table_id"])


async def test_a_void_needs_a_reason_which_the_audit_log_keeps(app_client: AppHandle) -> None:
    table_id = await open_table(app_client)
    ann = await new_player(app_client, "Ann")
    rt = app_client.app.state.realtime
    await rt.service.execute(table_id, Sit(ann, "Ann", 1, 10_000))
    await wait_for_phase(rt, table_id, Phase.BETTING)
    await rt.service.execute(table_id, PlaceBet(ann, 2_000))
    await wait_for_phase(rt, table_id, Phase.SETTING)
    for body, code, words in (({}, "REASON_REQUIRED", "a void needs a reason"),
                              ({"reason": " "}, "REASON_REQUIRED", "a void needs a reason"),
                              ({"reason": "y" * 201}, "INVALID_FIELD", "at most 200"),
                              ({"reason": "ok", "why": 1}, "UNKNOWN_FIELD", "unknown field 'why'")):
        refused = await post(app_client, f"/api/operator/tables/{table_id}/void", body)
        assert (refused.status_code, refused.json()["error"]) == (400, code)
        assert words in refused.json()["message"]
        assert (await audit(app_client))[-1]["outcome"] == code
        state = await rt.store.load(table_id)
        assert state is not None
        assert state.phase is Phase.SETTING  # nothing changed
    voided = await post(app_client, f"/api/operator/tables/{table_id}/void",
                        {"reason": "  misdeal   at seat 1 "})
    assert voided.status_code == 200, voided.text
    assert "round_voided" in voided.json()["events"]
    entry = (await audit(app_client))[-1]
    assert (entry["action"], entry["outcome"], entry["actor"]) == ("void_table", "ok", "bootstrap")
    assert entry["params"] == {"reason": "  misdeal   at seat 1 "}  # as asked; the check folds the spaces


async def test_audit_and_ledger_entries_name_the_player(app_client: AppHandle) -> None:
    ann = await new_player(app_client, "Ann Lee")
    await open_table(app_client)
    assert (await post(app_client, f"/api/operator/players/{ann}/credit",
                       {"amount_cents": 700, "reason": "welcome"})).status_code == 200
    assert (await post(app_client, "/api/operator/players/p_gone/credit",
                       {"amount_cents": 700, "reason": "welcome"})).status_code == 404
    entries = await audit(app_client)
    assert [(e["action"], e["player_id"], e["player_name"]) for e in entries] == [
        ("open_table", None, None), ("credit", ann, "Ann Lee"), ("credit", "p_gone", None)]
    ledger = (await app_client.client.get("/api/operator/ledger",
                                          headers=app_client.operator_headers)).json()["entries"]
    assert [(e["kind"], e["player_id"], e["player_name"]) for e in ledger] == [
        ("opening", ann, "Ann Lee"), ("credit", ann, "Ann Lee")]


async def test_players_are_found_by_name_username_or_id(app_client: AppHandle) -> None:
    ann = await new_player(app_client, "Ann")
    await new_player(app_client, "Joanna")
    registered = await app_client.client.post("/api/accounts", json={"username": "bob.k", "password":
                                                                     "correct horse", "display_name": "Bob"})
    assert registered.status_code == 201, registered.text
    bob = registered.json()["player_id"]

    async def find(query: str, limit: int | None = None) -> dict[str, Any]:
        params = {"q": query} if limit is None else {"q": query, "limit": str(limit)}
        response = await app_client.client.get("/api/operator/players", params=params,
                                               headers=app_client.operator_headers)
        assert response.status_code == 200, response.text
        return dict(response.json())

    found = await find("AN")
    assert [p["display_name"] for p in found["players"]] == ["Ann", "Joanna"]
    assert found["total"] == 2
    assert found["players"][0] == {"player_id": ann, "display_name": "Ann", "username": None,
                                   "registered": False, "balance_cents": 100_000}
    assert [p["player_id"] for p in (await find("BOB.K"))["players"]] == [bob]
    assert [p["display_name"] for p in (await find(ann[-6:]))["players"]] == ["Ann"]
    assert (await find("zed")) == {"players": [], "total": 0}
    everyone = await find("", limit=2)
    assert ([p["display_name"] for p in everyone["players"]], everyone["total"]) == (["Ann", "Bob"], 3)


@pytest.mark.parametrize(("query", "words"), [
    ({"q": "x" * 65}, "q is 65 characters; at most 64"), ({"limit": "0"}, "limit='0'"),
    ({"limit": "101"}, "limit='101'"), ({"limit": "٣"}, "ASCII digits"), ({"limit": "-1"}, "limit='-1'")])
async def test_a_bad_player_search_is_refused(
        app_client: AppHandle, query: dict[str, str], words: str) -> None:
    response = await app_client.client.get("/api/operator/players", params=query,
                                           headers=app_client.operator_headers)
    assert (response.status_code, response.json()["error"]) == (400, "INVALID_FIELD")
    assert words in response.json()["message"]
    unauthorized = await app_client.client.get("/api/operator/players")
    assert unauthorized.status_code == 401
