"""The public API: the table list (seats, limits, phase, spectators) and a player's last hands."""

from __future__ import annotations

import json
from typing import Any

from redis.asyncio import Redis

from paigow.fair import new_commitment, roll_dice, seed_from_hex
from paigow.table.commands import Leave, Sit
from paigow_server.realtime.realtime import Realtime
from paigow_server.store import keys
from support.harness import AppHandle, play_house_round


def realtime(handle: AppHandle) -> Realtime:
    rt = handle.app.state.realtime
    assert isinstance(rt, Realtime)
    return rt


async def session(handle: AppHandle, name: str) -> dict[str, Any]:
    response = await handle.client.post("/api/session", json={"display_name": name})
    return dict(response.json())


async def open_table(handle: AppHandle, name: str, **rules: int) -> str:
    response = await handle.client.post("/api/operator/tables", headers=handle.operator_headers,
                                        json={"name": name, "rules": rules,
                                              "timers": {"between_rounds_ms": 50}})
    return str(response.json()["table_id"])


async def test_tables_are_listed_with_seats_limits_phase_and_spectators(app_client: AppHandle) -> None:
    assert (await app_client.client.get("/api/tables")).json() == {"tables": []}
    main = await open_table(app_client, "Main")
    high = await open_table(app_client, "High", min_bet_cents=10_000, max_bet_cents=100_000)
    ann = await session(app_client, "Ann")
    await realtime(app_client).service.execute(main, Sit(ann["player_id"], "Ann", 2, 10_000))
    tables = (await app_client.client.get("/api/tables")).json()["tables"]
    assert [t["table_id"] for t in tables] == [main, high]
    assert tables[0]["seats_taken"] == 1
    assert tables[0]["seats"] == 6
    assert tables[0]["spectators"] == 0
    assert tables[1]["seats_taken"] == 0
    assert (tables[1]["min_bet_cents"], tables[1]["max_bet_cents"]) == (10_000, 100_000)
    assert tables[1]["phase"] == "idle"
    one = (await app_client.client.get(f"/api/tables/{high}")).json()
    assert one == tables[1]
    missing = await app_client.client.get("/api/tables/t404")
    assert missing.status_code == 404
    assert missing.json()["error"] == "TABLE_NOT_FOUND"


async def test_my_history_has_my_last_hands_with_everything_to_recall_them(app_client: AppHandle) -> None:
    table_id = await open_table(app_client, "Main")
    ann, bob = await session(app_client, "Ann"), await session(app_client, "Bob")
    rt = realtime(app_client)
    await rt.service.execute(table_id, Sit(ann["player_id"], "Ann", 1, 20_000))
    await rt.service.execute(table_id, Sit(bob["player_id"], "Bob", 2, 20_000))
    await play_house_round(rt, table_id, {ann["player_id"]: 1_000, bob["player_id"]: 500})
    await rt.service.execute(table_id, Leave(bob["player_id"]))
    after = await play_house_round(rt, table_id, {ann["player_id"]: 2_000})

    response = await app_client.client.get("/api/players/me/history",
                                           headers={"Authorization": f"Bearer {ann['token']}"})
    assert response.status_code == 200
    body = response.json()
    assert body["player_id"] == ann["player_id"]
    hands = body["hands"]
    assert [h["wager_cents"] for h in hands] == [2_000, 1_000]  # newest first
    latest = hands[0]
    rounds = (await app_client.client.get(f"/api/tables/{table_id}/rounds")).json()["rounds"]
    assert latest["round_id"] == rounds[0]["round_id"]
    assert latest["round"] == rounds[0]
    assert latest["balance_before_cents"] + latest["net_cents"] == latest["balance_after_cents"]
    assert after.seats[1] is not None
    assert latest["balance_after_cents"] == after.seats[1].chips_cents
    assert hands[1]["balance_after_cents"] == latest["balance_before_cents"]
    assert len(latest["hand"]["dealt"]) == 7
    assert sorted(latest["hand"]["high"] + latest["hand"]["low"]) == sorted(latest["hand"]["dealt"])
    assert latest["banker_hand"]["player_id"] is None
    assert len(latest["banker_hand"]["dealt"]) == 7
    assert len(latest["dice"]) == 3
    assert latest["commitment"] == new_commitment(seed_from_hex(latest["server_seed"]))
    assert tuple(latest["dice"]) == roll_dice(seed_from_hex(latest["server_seed"]), latest["round_id"])
    assert latest["outcome"] in ("win", "loss", "push")
    assert latest["commission_cents"] >= 0

    bobs = (await app_client.client.get("/api/players/me/history",
                                        headers={"Authorization": f"Bearer {bob['token']}"})).json()["hands"]
    assert len(bobs) == 1
    assert (await app_client.client.get("/api/players/me/history")).status_code == 401


async def test_a_history_entry_stored_before_its_total_is_answered_with_it(app_client: AppHandle,
                                                                           redis: Redis) -> None:
    """``total_net_cents`` (issue 29): what the round moved the chips by; an entry an older server stored
    without it is answered with it all the same, from its parts."""
    table_id = await open_table(app_client, "Main")
    ann = await session(app_client, "Ann")
    rt = realtime(app_client)
    await rt.service.execute(table_id, Sit(ann["player_id"], "Ann", 1, 20_000))
    await play_house_round(rt, table_id, {ann["player_id"]: 1_000})
    headers = {"Authorization": f"Bearer {ann['token']}"}
    new = (await app_client.client.get("/api/players/me/history", headers=headers)).json()["hands"][0]
    assert new["total_net_cents"] == new["balance_after_cents"] - new["balance_before_cents"]
    stored = json.loads(await redis.lindex(keys.history(ann["player_id"]), 0))
    assert stored["total_net_cents"] == new["total_net_cents"]
    older = {k: v for k, v in stored.items()
             if k not in ("total_net_cents", "queens_dragon_cents", "queens_dragon_win_cents", "dragon")}
    await redis.lset(keys.history(ann["player_id"]), 0, json.dumps(older))
    old = (await app_client.client.get("/api/players/me/history", headers=headers)).json()["hands"][0]
    assert old["total_net_cents"] == new["total_net_cents"] == old["net_cents"] + old["bonus_net_cents"]


async def test_an_unknown_api_path_or_method_gets_the_json_error_body(app_client: AppHandle) -> None:
    for method, path in [("GET", "/api/nope"), ("POST", "/api/nope"), ("GET", "/api"), ("GET", "/api/"),
                         ("DELETE", "/api/tables/t1/seats")]:
        response = await app_client.client.request(method, path)
        assert response.status_code == 404, (method, path, response.text)
        assert response.json()["error"] == "NOT_FOUND"
        assert response.json()["message"]
    for method, path, allow in [("PUT", "/api/session", "DELETE, GET, HEAD, POST"),
                                ("DELETE", "/api/tables", "GET, HEAD"),
                                ("GET", "/api/operator/tables", "POST"),
                                ("POST", "/api/operator/money", "GET, HEAD")]:
        response = await app_client.client.request(method, path, headers=app_client.operator_headers)
        assert response.status_code == 405, (method, path, response.text)
        assert response.json()["error"] == "METHOD_NOT_ALLOWED"
        assert method in response.json()["message"]
        assert response.headers["allow"] == allow
    page = await app_client.client.get("/no-such-page")  # the static client keeps its normal 404
    assert page.status_code == 404
    assert not page.headers["content-type"].startswith("application/json")


async def test_a_body_with_a_key_twice_is_malformed_json_naming_it(app_client: AppHandle) -> None:
    response = await app_client.client.post("/api/session",
                                            content=b'{"display_name": "A", "display_name": "B"}',
                                            headers={"content-type": "application/json"})
    assert response.status_code == 400
    assert response.json()["error"] == "MALFORMED_JSON"
    assert '"display_name"' in response.json()["message"]
    nested = await app_client.client.post(
        "/api/operator/tables", headers={**app_client.operator_headers, "content-type": "application/json"},
        content=b'{"name": "T", "rules": {"min_bet_cents": 500, "min_bet_cents": 100}}')
    assert nested.status_code == 400
    assert nested.json()["error"] == "MALFORMED_JSON"
    assert '"min_bet_cents"' in nested.json()["message"]
    assert (await app_client.client.get("/api/tables")).json() == {"tables": []}


async def test_a_body_with_a_lone_surrogate_escape_is_malformed_json_and_never_reaches_the_logs(
        app_client: AppHandle) -> None:
    """``"\\ud800"`` is JSON that decodes to no Unicode text: kept, it would make every later page of the
    audit log or the ledger (and the error answer quoting it) impossible to encode, a 500 for good."""
    http, boot = app_client.client, {**app_client.operator_headers, "content-type": "application/json"}
    player = (await http.post("/api/session", json={"display_name": "Ann"})).json()["player_id"]
    for path, body in [("/api/operator/tables", b'{"name": "a\\ud800b"}'),
                       (f"/api/operator/players/{player}/credit",
                        b'{"amount_cents": 5, "reason": "x\\udc00"}'),
                       ("/api/operator/tables/t1/kick", b'{"player_id": "p\\ud800"}'),
                       ("/api/session", b'{"display_name": "A", "x\\ud800": 1}')]:
        response = await http.post(path, content=body, headers=boot)
        refused = (response.status_code, response.json()["error"])
        assert refused == (400, "MALFORMED_JSON"), (path, response.text)
        assert "surrogate" in response.json()["message"]
    paired = await http.post("/api/session", json={"display_name": "A\U0001f600"})  # a pair is a character
    assert paired.status_code == 201, paired.text
    for stream in ("audit", "ledger"):
        page = await http.get(f"/api/operator/{stream}?limit=1000", headers=boot)
        assert page.status_code == 200, page.text
    balance = (await http.get(f"/api/operator/players/{player}", headers=boot)).json()["balance_cents"]
    starting = (await http.get("/api/operator/settings", headers=boot)).json()["starting_balance_cents"]
    assert balance == starting  # the credit was refused


async def test_an_entry_stored_with_a_lone_surrogate_before_the_check_keeps_its_page_readable(
        app_client: AppHandle, redis: Redis) -> None:
    """An audit or ledger entry written by an older server (before bodies were checked for lone surrogates)
    is still served: its page is written with ASCII escapes instead of failing to encode (a 500 for good)."""
    boot = app_client.operator_headers
    await redis.xadd(keys.AUDIT, {"e": '{"action":"credit","ts_ms":1,"outcome":"ok","actor":"bootstrap",'
                                       '"params":{"reason":"x\\udc00"}}'})
    page = await app_client.client.get("/api/operator/audit?limit=1000", headers=boot)
    assert page.status_code == 200, page.text
    assert "\\udc00" in page.text
    assert any(e.get("params", {}).get("reason") == "x\udc00" for e in json.loads(page.text)["entries"])
