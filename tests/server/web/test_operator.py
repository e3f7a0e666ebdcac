"""The operator API: authentication, table actions through the table service, money with reasons, the
audit log, the ledger and the hand-history export."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from redis.asyncio import Redis

from paigow.table.commands import Leave, PlaceBet, Sit
from paigow.table.state import Phase
from paigow_server.realtime.realtime import Realtime
from paigow_server.store.money import SnapshotError, ledger_mismatches
from support.harness import AppHandle, play_house_round, wait_for_phase

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
    """A guest as after its first sit: settled, its starting balance issued (``store.fresh_guests``)."""
    answer = await handle.client.post("/api/session", json={"display_name": name})
    player_id = str(answer.json()["player_id"])
    await handle.app.state.ctx.accounts.fresh.settle(player_id)
    return player_id


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


async def test_a_new_table_has_the_fortune_bonus_on_like_the_starter_table_unless_the_rules_say_off(
        app_client: AppHandle) -> None:
    on = await open_table(app_client, {"name": "Plain request"})
    off = await open_table(app_client, {"name": "No bonus", "rules": {"fortune_enabled": False}})
    listed = {t["table_id"]: t for t in (await app_client.client.get("/api/tables")).json()["tables"]}
    assert (listed[on]["fortune_enabled"], listed[on]["fortune_pay_table"]) == (True, "fortune-8000")
    assert (listed[off]["fortune_enabled"], listed[off]["fortune_pay_table"]) == (False, None)
    view = (await app_client.client.get(f"/api/operator/tables/{on}",
                                        headers=app_client.operator_headers)).json()
    rules = view["view"]["rules"]
    assert (rules["fortune_enabled"], rules["min_bet_cents"], rules["max_bet_cents"]) == (True, 500, 30_000)


@pytest.mark.parametrize(
    ("body", "code", "words"),
    [
        ({"name": ""}, "INVALID_FIELD", "name must not be empty"),
        ({"name": "x" * 41}, "INVALID_FIELD", "at most 40"),
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
    kicked = await post(app_client, f"/api/operator/tables/{table_id}/kick",
                        {"player_id": ann, "reason": "abusive chat"})
    assert kicked.status_code == 200, kicked.text
    assert "player_kicked" in kicked.json()["events"]
    player = await app_client.client.get(f"/api/operator/players/{ann}", headers=app_client.operator_headers)
    assert player.json()["balance_cents"] == 100_000
    not_seated = await post(app_client, f"/api/operator/tables/{table_id}/kick",
                            {"player_id": ann, "reason": "abusive chat"})
    assert not_seated.status_code == 409
    assert not_seated.json()["error"] == "NOT_SEATED"


async def test_void_returns_every_stake(app_client: AppHandle) -> None:
    table_id = await open_table(app_client)
    ann = await new_player(app_client, "Ann")
    rt = realtime(app_client)
    no_round = await post(app_client, f"/api/operator/tables/{table_id}/void", {"reason": "dealer error"})
    assert (no_round.status_code, no_round.json()["error"]) == (409, "NO_ROUND")
    await rt.service.execute(table_id, Sit(ann, "Ann", 1, 10_000))
    await wait_for_phase(rt, table_id, Phase.BETTING)
    await rt.service.execute(table_id, PlaceBet(ann, 2_000))
    await wait_for_phase(rt, table_id, Phase.SETTING)
    voided = await post(app_client, f"/api/operator/tables/{table_id}/void", {"reason": "dealer error"})
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
        if code == "REASON_REQUIRED":  # the page words it from the code and this field
            assert response.json()["max_chars"] == 500
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


@pytest.mark.parametrize(
    ("path", "body", "words"),
    [
        ("limits", {"min_bet_cents": 500, "max_bet_cents": 10**30},
         "max_bet_cents must be from 1 to 1000000000"),
        ("limits", {"min_bet_cents": 1_000_000_001, "max_bet_cents": 2_000_000_000},
         "min_bet_cents must be from 1 to 1000000000"),
        ("limits", {"min_bet_cents": 0, "max_bet_cents": 500}, "min_bet_cents must be from 1 to 1000000000"),
        ("limits", {"min_bet_cents": 900, "max_bet_cents": 100}, "must not be below min_bet_cents"),
        ("limits", {"min_bet_cents": 500}, "max_bet_cents must be a whole number"),
        ("limits", {"min_bet_cents": True, "max_bet_cents": 500}, "min_bet_cents must be a whole number"),
        ("rules", {"max_bet_cents": 10**30}, "max_bet_cents must be from 1 to 1000000000"),
        ("rules", {"min_bet_cents": -5}, "min_bet_cents must be from 1 to 1000000000"),
    ],
)
async def test_an_amount_out_of_bounds_is_refused_naming_the_field_and_the_bound(
        app_client: AppHandle, path: str, body: dict[str, Any], words: str) -> None:
    table_id = await open_table(app_client)
    before = await realtime(app_client).store.load(table_id)
    response = await app_client.client.put(f"/api/operator/tables/{table_id}/{path}", json=body,
                                           headers=app_client.operator_headers)
    assert response.status_code == 400, response.text
    assert response.json()["error"] == "INVALID_FIELD"
    assert words in response.json()["message"]
    assert await realtime(app_client).store.load(table_id) == before
    entry = (await audit(app_client))[-1]
    assert (entry["action"], entry["outcome"]) == (f"change_{path}", "INVALID_FIELD")


async def test_a_table_cannot_open_with_limits_over_the_bound(app_client: AppHandle) -> None:
    for rules in ({"max_bet_cents": 10**30}, {"min_bet_cents": 10**10, "max_bet_cents": 10**11}):
        response = await post(app_client, "/api/operator/tables", {"name": "Big", "rules": rules})
        assert response.status_code == 400, response.text
        assert response.json()["error"] == "INVALID_FIELD"
        assert "must be from 1 to 1000000000 cents" in response.json()["message"]
    assert (await app_client.client.get("/api/tables")).json() == {"tables": []}


@pytest.mark.parametrize("direction", ["credit", "debit"])
async def test_a_credit_or_debit_is_bounded_like_every_amount(app_client: AppHandle, direction: str) -> None:
    ann = await new_player(app_client, "Ann")
    for amount in (1_000_000_001, 10**12, 10**30):
        response = await post(app_client, f"/api/operator/players/{ann}/{direction}",
                              {"amount_cents": amount, "reason": "test"})
        assert response.status_code == 400, response.text
        assert response.json()["error"] == "INVALID_FIELD"
        assert "amount_cents" in response.json()["message"]
        assert "1000000000" in response.json()["message"]
    player = await app_client.client.get(f"/api/operator/players/{ann}", headers=app_client.operator_headers)
    assert player.json()["balance_cents"] == 100_000


@pytest.mark.parametrize("query", [
    "after=99999999999999999999-0", f"after={10**30}", "after=1-18446744073709551616",
    "after=18446744073709551616", "after=1-2-3", "after=-1", "after=1-", "after=%EF%BC%91-0", "after=1.5",
    "after=" + "9" * 5000, "limit=%EF%BC%91%EF%BC%90", "limit=0", "limit=1001", "limit=-5", "limit=+5",
    "limit=" + "9" * 5000, "limit= 5"])
async def test_a_bad_paging_cursor_or_limit_is_a_400_not_a_store_failure(
        app_client: AppHandle, query: str, caplog: pytest.LogCaptureFixture) -> None:
    await new_player(app_client, "Ann")
    for stream in ("ledger", "audit"):
        caplog.clear()
        bad = await app_client.client.get(f"/api/operator/{stream}?{query}",
                                          headers=app_client.operator_headers)
        assert bad.status_code == 400, (query, bad.text)
        assert bad.json()["error"] == "INVALID_FIELD"
        assert query.split("=")[0] in bad.json()["message"]
        assert not [r for r in caplog.records if r.levelname == "ERROR" or r.exc_info]
    metrics = (await app_client.client.get("/metrics")).text
    assert "paigow_redis_errors_total{" not in metrics


async def test_the_largest_cursors_read_to_the_end(app_client: AppHandle) -> None:
    await new_player(app_client, "Ann")
    top = 2**64 - 1
    for after in (f"{top}-{top}", f"{top}", f"{top}-0", "0", "0-0"):
        page = await app_client.client.get(f"/api/operator/ledger?after={after}",
                                           headers=app_client.operator_headers)
        assert page.status_code == 200, (after, page.text)
        assert len(page.json()["entries"]) == (1 if after.startswith("0") else 0)


@pytest.mark.parametrize(("content", "code"), [
    (b'{"x": 1}', "UNKNOWN_FIELD"), (b'"x"', "INVALID_FIELD"), (b"[]", "INVALID_FIELD"),
    (b"null", "INVALID_FIELD"), (b"7", "INVALID_FIELD"), (b"{", "MALFORMED_JSON")])
async def test_a_table_action_takes_no_body_but_nothing_or_an_empty_object(
        app_client: AppHandle, content: bytes, code: str) -> None:
    table_id = await open_table(app_client)
    for action in ("pause", "resume", "close", "open", "void"):
        response = await app_client.client.post(
            f"/api/operator/tables/{table_id}/{action}", content=content,
            headers={**app_client.operator_headers, "content-type": "application/json"})
        assert response.status_code == 400, (action, response.text)
        assert response.json()["error"] == code
        assert (await audit(app_client))[-1]["outcome"] == code
    state = await realtime(app_client).store.load(table_id)
    assert state is not None
    assert (state.version, state.paused) == (0, False)
    as_json = {"content-type": "application/json"}
    for action, body, sent_as in (("pause", b"", {}), ("resume", b"{}", as_json)):
        done = await app_client.client.post(f"/api/operator/tables/{table_id}/{action}", content=body,
                                            headers={**app_client.operator_headers, **sent_as})
        assert done.status_code == 200, done.text


async def test_the_money_is_balanced_at_every_poll_while_players_sit_and_leave(
        app_client: AppHandle, redis: Redis) -> None:
    """Each poll reads one consistent snapshot: buy-ins and cash-outs racing with it never show as money
    missing or counted twice."""
    table_id = await open_table(app_client)
    assert (await post(app_client, f"/api/operator/tables/{table_id}/pause")).status_code == 200
    players = [await new_player(app_client, name) for name in ("Ann", "Bob")]
    service = realtime(app_client).service
    polls = 300
    done = asyncio.Event()

    async def sit_and_leave(player_id: str, seat: int) -> int:
        moves = 0
        while not done.is_set() and moves < 2_000:
            await service.execute(table_id, Sit(player_id, "P", seat, 50_000))
            await service.execute(table_id, Leave(player_id))
            moves += 1
        return moves

    movers = [asyncio.create_task(sit_and_leave(p, seat)) for seat, p in enumerate(players, start=1)]
    try:
        for _ in range(polls):
            money = (await app_client.client.get("/api/operator/money",
                                                 headers=app_client.operator_headers)).json()
            assert money["balanced"], money
            assert money["issued_cents"] == 200_000
            assert await ledger_mismatches(redis) == []
    finally:
        done.set()
        moved = await asyncio.gather(*movers)
    assert min(moved) > 10  # the polls really raced with buy-ins and cash-outs


async def test_the_money_endpoint_counts_holds_and_says_when_it_cannot_read_one_instant(
        app_client: AppHandle, redis: Redis, monkeypatch: pytest.MonkeyPatch) -> None:
    ann = await new_player(app_client, "Ann")
    table_id = await open_table(app_client)
    hold = await realtime(app_client).store.holds.reserve(ann, table_id, 3_000)  # its commit never comes
    assert hold is not None
    money = (await app_client.client.get("/api/operator/money", headers=app_client.operator_headers)).json()
    assert (money["holds_cents"], money["in_transit_cents"], money["balanced"]) == (3_000, 0, True)
    assert money["balances_cents"] == money["issued_cents"]  # the held 3,000 still count as Ann's

    async def always_moving(_redis: Redis) -> None:
        raise SnapshotError("money moved during each of 50 reads; try again")

    monkeypatch.setattr("paigow_server.web.operator.money_totals", always_moving)
    busy = await app_client.client.get("/api/operator/money", headers=app_client.operator_headers)
    assert (busy.status_code, busy.json()["error"]) == (503, "UNAVAILABLE")
    assert "try again" in busy.json()["message"]


async def test_the_operator_sets_each_casino_variant_and_a_bad_one_is_refused(app_client: AppHandle) -> None:
    variants = {"commission_form": "ez", "queens_dragon_enabled": True, "queens_dragon_max_bet_cents": 5_000,
                "dragon_enabled": True, "dragon_set_by": "buyer", "dragon_max_bet_cents": 2_000,
                "dragon_offer_ms": 5_000, "co_banking": True}
    table_id = await open_table(app_client, {"name": "Variants", "rules": variants})
    view = (await app_client.client.get(f"/api/operator/tables/{table_id}",
                                        headers=app_client.operator_headers)).json()
    rules = view["view"]["rules"]
    assert {k: rules[k] for k in variants} == variants
    response = await app_client.client.put(f"/api/operator/tables/{table_id}/rules",
                                           json={"commission_form": "nine_high"},
                                           headers=app_client.operator_headers)
    assert response.status_code == 400
    assert "only on EZ tables" in response.json()["message"]
    change = {"commission_form": "nine_high", "queens_dragon_enabled": False, "dragon_set_by": "house_way"}
    response = await app_client.client.put(f"/api/operator/tables/{table_id}/rules", json=change,
                                           headers=app_client.operator_headers)
    assert response.status_code == 200, response.text
