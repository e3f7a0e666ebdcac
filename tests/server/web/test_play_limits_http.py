"""``GET`` / ``PUT /api/account/responsible-play`` (docs/http-api.md, "Limits"): the answer's shape, a
tightening at once and a loosening waiting with when, a bad name or value refused naming the field with
nothing changed, the account's rate limit; History's ``play_sessions``; the operator's read-only view."""

from __future__ import annotations

from typing import Any

import pytest
from redis.asyncio import Redis
from tests.server.web.test_account_data import bearer, guest

from paigow.table.commands import Leave, PlaceBet, Sit
from paigow.table.state import Phase
from paigow_server.realtime.realtime import Realtime
from paigow_server.realtime.tables import PlayLimitReached
from paigow_server.store import keys
from paigow_server.store.play_limits import LIMIT_NAMES, effective_after
from support.harness import AppHandle, play_house_round, wait_for_phase

PATH = "/api/account/responsible-play"


async def test_limits_are_read_and_set_by_the_rule(app_client: AppHandle, redis: Redis) -> None:
    ann, token = await guest(app_client, "Ann")
    first = (await app_client.client.get(PATH, headers=bearer(token))).json()
    assert set(first) == {"block", "limits", "pending", "reality_check_minutes", "session", "used", "room",
                          "periods", "sit_paused_until_ms"}
    assert first["limits"] == dict.fromkeys(LIMIT_NAMES)
    assert (first["pending"], first["session"], first["used"], first["reality_check_minutes"], first["room"],
            first["sit_paused_until_ms"]) == ({}, None, {}, None, None, None)
    assert set(first["periods"]) == {"day", "week", "month"}
    put = await app_client.client.put(PATH, headers=bearer(token), json={
        "limits": {"loss_day": 5_000, "session_minutes": 90}, "reality_check_minutes": 30})
    assert put.status_code == 200, put.text
    body = put.json()
    assert (body["limits"]["loss_day"], body["limits"]["session_minutes"], body["reality_check_minutes"]) == (
        5_000, 90, 30)
    assert body["used"] == {"loss_day": {"used_cents": 0, "until_ms": body["periods"]["day"]["ends_ms"]}}
    looser = (await app_client.client.put(PATH, headers=bearer(token),
                                          json={"limits": {"loss_day": 9_000}})).json()
    assert looser["limits"]["loss_day"] == 5_000
    waiting = looser["pending"]["loss_day"]
    assert waiting["value"] == 9_000
    assert waiting["effective_ms"] == effective_after("loss_day", waiting["asked_ms"])
    stored = await redis.hgetall(keys.rg(ann))
    for bad, field in (({"limits": {"loss_year": 1}}, "limits.loss_year"),
                       ({"limits": {"loss_day": -5}}, "limits.loss_day"),
                       ({"limits": {"wager_week": "100"}}, "limits.wager_week"),
                       ({"limits": {"session_minutes": 0}}, "limits.session_minutes"),
                       ({"reality_check_minutes": 3}, "reality_check_minutes"),
                       ({"limits": []}, "limits"), ({"lmits": {}}, "lmits")):
        refused = await app_client.client.put(PATH, headers=bearer(token), json=bad)
        assert (refused.status_code, refused.json()["field"]) == (400, field), refused.text
    assert await redis.hgetall(keys.rg(ann)) == stored, "nothing changed"
    assert (await app_client.client.put(PATH, headers=bearer(token), json={})).status_code == 200  # the 10th
    limited = await app_client.client.put(PATH, headers=bearer(token), json={})
    assert limited.status_code == 429, "account_settings_per_minute (10): every PUT counted, refused ones too"


async def test_history_and_the_operator_see_the_session(app_client: AppHandle, redis: Redis) -> None:
    rt = app_client.app.state.realtime
    assert isinstance(rt, Realtime)
    opened = await app_client.client.post("/api/operator/tables", headers=app_client.operator_headers,
                                          json={"name": "T", "timers": {"between_rounds_ms": 50}})
    table_id = str(opened.json()["table_id"])
    ann, token = await guest(app_client, "Ann")
    await app_client.client.put(PATH, headers=bearer(token), json={"limits": {"wager_month": 100_000}})
    await rt.service.execute(table_id, Sit(ann, "Ann", 1, 20_000))
    await play_house_round(rt, table_id, {ann: 1_000})
    mine: dict[str, Any] = (await app_client.client.get(PATH, headers=bearer(token))).json()
    assert mine["session"]["wagered_cents"] == 1_000
    assert mine["used"]["wager_month"]["used_cents"] == 1_000
    assert mine["room"] == {"room_cents": 99_000, "limit": "wager_month",
                            "until_ms": mine["periods"]["month"]["ends_ms"]}
    seat = next(s for s in (await rt.store.load(table_id)).seats if s is not None)  # type: ignore[union-attr]
    assert mine["session"]["net_cents"] == seat.chips_cents - 20_000
    seen = (await app_client.client.get(f"/api/operator/players/{ann}/responsible-play",
                                        headers=app_client.operator_headers)).json()
    assert (seen["session"], seen["limits_hit"], seen["limits"]["wager_month"]) == (
        mine["session"], 0, 100_000)
    await rt.service.execute(table_id, Leave(ann))
    history = (await app_client.client.get("/api/players/me/history", headers=bearer(token))).json()
    [session] = history["play_sessions"]
    assert (session["tables"], session["ended_by"], session["wagered_cents"], session["net_cents"]) == (
        [table_id], "left", 1_000, mine["session"]["net_cents"])
    assert (await app_client.client.get(PATH, headers=bearer(token))).json()["session"] is None


async def test_the_room_counts_money_at_risk_and_the_tightest_limit_wins(app_client: AppHandle) -> None:
    rt = app_client.app.state.realtime
    assert isinstance(rt, Realtime)
    opened = await app_client.client.post("/api/operator/tables", headers=app_client.operator_headers,
                                          json={"name": "T", "timers": {}})
    table_id = str(opened.json()["table_id"])
    bo, token = await guest(app_client, "Bo")
    await app_client.client.put(PATH, headers=bearer(token), json={"limits": {"wager_week": 5_000,
                                                                             "loss_day": 1_700}})
    await rt.service.execute(table_id, Sit(bo, "Bo", 1, 20_000))
    await wait_for_phase(rt, table_id, Phase.BETTING)
    await rt.service.execute(table_id, PlaceBet(bo, 500))
    mine = (await app_client.client.get(PATH, headers=bearer(token))).json()
    assert mine["room"] == {"room_cents": 1_200, "limit": "loss_day",
                            "until_ms": mine["periods"]["day"]["ends_ms"]}, "the bet at risk counts"


async def test_the_pause_after_a_time_limit_is_said_until_it_ends(app_client: AppHandle,
                                                                  redis: Redis) -> None:
    """``sit_paused_until_ms``: when a session time limit stood the player up, the moment sitting is allowed
    again, the same one a refused sit names; null once it has passed."""
    rt = app_client.app.state.realtime
    assert isinstance(rt, Realtime)
    guard = app_client.app.state.ctx.play_limits
    opened = await app_client.client.post("/api/operator/tables", headers=app_client.operator_headers,
                                          json={"name": "T", "timers": {}})
    table_id = str(opened.json()["table_id"])
    cy, token = await guest(app_client, "Cy")
    await app_client.client.put(PATH, headers=bearer(token), json={"limits": {"session_minutes": 1}})
    await rt.service.execute(table_id, Sit(cy, "Cy", 1, 20_000))
    assert (await app_client.client.get(PATH, headers=bearer(token))).json()["sit_paused_until_ms"] is None
    await redis.hset(keys.rg(cy), "sess_start_ms", guard.now_ms() - 2 * 60_000)  # the session is 2 min old
    await guard.refresh(cy)
    assert await guard.step() == 1  # stood up
    hit = int(await redis.hget(keys.rg(cy), "time_hit_ms"))
    paused = (await app_client.client.get(PATH, headers=bearer(token))).json()["sit_paused_until_ms"]
    assert paused == hit + guard.risk.pause_ms
    with pytest.raises(PlayLimitReached) as refused:
        await rt.service.execute(table_id, Sit(cy, "Cy", 2, 20_000))
    assert (refused.value.code, refused.value.fields) == ("TIME_LIMIT_REACHED", {"until_ms": paused})
    await redis.hset(keys.rg(cy), "time_hit_ms", guard.now_ms() - guard.risk.pause_ms - 1)  # pause over
    assert (await app_client.client.get(PATH, headers=bearer(token))).json()["sit_paused_until_ms"] is None
    await rt.service.execute(table_id, Sit(cy, "Cy", 2, 20_000))
