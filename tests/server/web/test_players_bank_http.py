"""Players bank in turn is a home game's setting (docs/rules.md §6a): the table summary says it, and the
operator can give it to no public table, neither when opening one nor by a rules change (each refusal
names the field and changes nothing)."""

from __future__ import annotations

from tests.server.web.test_operator import open_table, post

from support.harness import AppHandle


async def test_a_public_table_never_has_the_players_bank_in_turn(app_client: AppHandle) -> None:
    table_id = await open_table(app_client, {"name": "Plain"})
    summary = (await app_client.client.get(f"/api/tables/{table_id}")).json()
    assert summary["players_bank_in_turn"] is False
    refused = await post(app_client, "/api/operator/tables",
                         {"name": "Friends", "rules": {"players_bank_in_turn": True}})
    assert refused.status_code == 400, refused.text
    assert refused.json()["error"] == "INVALID_FIELD"
    assert refused.json()["field"] == "rules.players_bank_in_turn"
    assert refused.json()["message"].startswith("rules.players_bank_in_turn: ")
    tables = (await app_client.client.get("/api/tables")).json()["tables"]
    assert [t["table_id"] for t in tables] == [table_id]  # nothing opened
    change = await app_client.client.put(f"/api/operator/tables/{table_id}/rules",
                                         json={"players_bank_in_turn": True},
                                         headers=app_client.operator_headers)
    assert change.status_code == 409, change.text
    assert change.json()["error"] == "NOT_PRIVATE"
    assert "players_bank_in_turn" in change.json()["message"]
    conflict = await app_client.client.put(f"/api/operator/tables/{table_id}/rules",
                                           json={"players_bank_in_turn": True, "co_banking": True},
                                           headers=app_client.operator_headers)
    assert conflict.status_code == 400, conflict.text
    assert conflict.json()["field"] == "players_bank_in_turn"
    view = (await app_client.client.get(f"/api/operator/tables/{table_id}",
                                        headers=app_client.operator_headers)).json()["view"]
    assert view["rules"]["players_bank_in_turn"] is False
    assert view["admin"]["pending_rules"] is None
