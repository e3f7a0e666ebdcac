"""Kicking with a bar: the kicked player's ``sit`` is refused with ``BARRED`` (and when the bar ends) by
every server process, the bar ends by itself (a Redis TTL) or when an operator lifts it, the console lists
the bars running, and the audit log records the reason, the bar and who did it."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx
import pytest
import websockets
from redis.asyncio import Redis

from paigow_server.store import keys
from paigow_server.store.bars import Bar, Bars

SIT = {"type": "sit", "seat": 3, "buy_in_cents": 10_000}


def now_ms() -> int:
    return time.time_ns() // 1_000_000


class Operator:
    """The operator API of the live server."""

    def __init__(self, url: str, token: str) -> None:
        self.client = httpx.AsyncClient(base_url=url, headers={"Authorization": f"Bearer {token}"})

    async def kick(self, table_id: str, body: dict[str, Any]) -> httpx.Response:
        return await self.client.post(f"/api/operator/tables/{table_id}/kick", json=body)

    async def bars(self, **params: str) -> list[dict[str, Any]]:
        response = await self.client.get("/api/operator/bars", params=params)
        assert response.status_code == 200, response.text
        return list(response.json()["bars"])

    async def last_audit(self) -> dict[str, Any]:
        entries = (await self.client.get("/api/operator/audit?limit=1000")).json()["entries"]
        return dict(entries[-1])


@pytest.fixture
async def operator(live_server: Any) -> Any:
    op = Operator(live_server.url, live_server.operator_token)
    yield op
    await op.client.aclose()


async def seated(tables: Any, connect: Any, table_id: str, name: str) -> tuple[str, str]:
    """A new player who sits at seat 3 and leaves the connection (away): (player_id, token)."""
    player_id, token = await tables.player(name)
    async with connect(table_id, player_id=player_id) as client:
        await client.hello(token)
        assert (await client.command(SIT))["type"] == "accepted"
    return player_id, token


async def test_a_kicked_and_barred_player_cannot_sit_on_any_server_until_the_bar_is_lifted(
        tables: Any, connect: Any, other_ws_url: str, frame_checker: Any, operator: Any,
        redis: Redis) -> None:
    table_id = await tables.table()
    other_table = await tables.table()
    ann_id, token = await seated(tables, connect, table_id, "Ann")
    before = now_ms()
    kicked = await operator.kick(table_id, {"player_id": ann_id, "reason": "abusive chat", "bar_minutes": 30})
    assert kicked.status_code == 200, kicked.text
    until = kicked.json()["barred_until_ms"]
    assert before + 30 * 60_000 <= until <= now_ms() + 30 * 60_000
    assert "player_kicked" in kicked.json()["events"]
    ttl = await redis.pttl(keys.bar(table_id, ann_id))
    assert 0 < ttl <= 30 * 60_000  # Redis ends it by itself

    entry = await operator.last_audit()
    assert (entry["action"], entry["outcome"], entry["actor"]) == ("kick", "ok", "bootstrap")
    assert (entry["player_id"], entry["player_name"], entry["table_id"]) == (ann_id, "Ann", table_id)
    assert entry["params"] == {"player_id": ann_id, "reason": "abusive chat", "bar_minutes": 30}
    assert "barred from the table until" in entry["detail"]

    # The other server process refuses her sit: the bar is in Redis. She may still watch, and play elsewhere.
    async with websockets.connect(f"{other_ws_url}/ws/tables/{table_id}") as ws:
        ann = frame_checker(ann_id)
        ann.ws = ws
        told = await ann.hello(token)  # told of the bar first (a page offers her no seat)
        assert (told["type"], told["code"], told["until_ms"]) == ("error", "BARRED", until)
        assert (await ann.recv())["type"] == "snapshot"
        refused = await ann.command(SIT)
        assert (refused["type"], refused["code"], refused["until_ms"]) == ("error", "BARRED", until)
        assert refused["by"] == "operator"
        assert refused["message"].startswith(f"the table's operator barred you from table {table_id!r} "
                                             "until ")
        assert ann.view is not None
        assert ann.view["seats"][3] is None
    async with connect(other_table, player_id=ann_id) as elsewhere:
        await elsewhere.hello(token)
        assert (await elsewhere.command(SIT))["type"] == "accepted"

    [listed] = await operator.bars()
    assert listed == {"table_id": table_id, "table_name": f"Table {table_id}", "player_id": ann_id,
                      "player_name": "Ann", "until_ms": until, "created_ms": listed["created_ms"],
                      "actor": "bootstrap", "reason": "abusive chat"}
    assert await operator.bars(table_id=other_table) == []

    lifted = await operator.client.delete(f"/api/operator/tables/{table_id}/bars/{ann_id}")
    assert lifted.status_code == 200, lifted.text
    assert lifted.json()["lifted"]["until_ms"] == until
    entry = await operator.last_audit()
    assert (entry["action"], entry["outcome"], entry["player_id"]) == ("lift_bar", "ok", ann_id)
    assert await operator.bars() == []
    again = await operator.client.delete(f"/api/operator/tables/{table_id}/bars/{ann_id}")
    assert (again.status_code, again.json()["error"]) == (404, "BAR_NOT_FOUND")
    assert (await operator.last_audit())["outcome"] == "BAR_NOT_FOUND"
    async with websockets.connect(f"{other_ws_url}/ws/tables/{table_id}") as ws:
        ann = frame_checker(ann_id)
        ann.ws = ws
        assert (await ann.hello(token))["type"] == "snapshot"  # no bar to tell of
        assert (await ann.command(SIT))["type"] == "accepted"


async def test_a_barred_players_hello_is_told_of_the_bar_before_the_snapshot(
        tables: Any, connect: Any, operator: Any) -> None:
    """At a public table a barred player may watch: the hello is answered, with the bar (``BARRED``, ``id``
    null, who and until when) before the snapshot, so that a page that loads never offers them a seat. A
    hello that watches (``spectate``) is not told; once the bar is lifted, neither is the player's."""
    table_id = await tables.table()
    fay_id, token = await seated(tables, connect, table_id, "Fay")
    kicked = await operator.kick(table_id, {"player_id": fay_id, "reason": "abusive chat", "bar_minutes": 30})
    until = kicked.json()["barred_until_ms"]
    async with connect(table_id, player_id=fay_id) as fay:
        told = await fay.hello(token)
        assert told == {"type": "error", "id": None, "code": "BARRED", "until_ms": until, "by": "operator",
                        "message": told["message"], "amount_cents": None, "limit_cents": None,
                        "retry_after_s": None, "max_chars": None}
        assert told["message"].startswith(f"the table's operator barred you from table {table_id!r} until ")
        assert told["message"].endswith(": you may watch, or play at another table")
        snapshot = await fay.recv()
        assert (snapshot["type"], snapshot["role"], snapshot["player_id"]) == ("snapshot", "player", fay_id)
        assert (await fay.command(SIT))["code"] == "BARRED"  # the connection stays open
    async with connect(table_id, player_id=fay_id) as watching:
        assert (await watching.hello(token, spectate=True))["type"] == "snapshot"
    lifted = await operator.client.delete(f"/api/operator/tables/{table_id}/bars/{fay_id}")
    assert lifted.status_code == 200, lifted.text
    async with connect(table_id, player_id=fay_id) as fay:
        assert (await fay.hello(token))["type"] == "snapshot"


async def test_a_bar_ends_by_itself(tables: Any, connect: Any, operator: Any, redis: Redis) -> None:
    table_id = await tables.table()
    bo_id, token = await tables.player("Bo")
    start = now_ms()
    await Bars(redis).put(Bar(table_id, bo_id, start + 400, start, "ops", "cool off"))
    async with connect(table_id, player_id=bo_id) as bo:
        await bo.hello(token)
        assert (await bo.command(SIT))["code"] == "BARRED"
        for _ in range(200):  # Redis expires the key; nobody lifts it
            if await redis.exists(keys.bar(table_id, bo_id)) == 0:
                break
            await asyncio.sleep(0.05)
        assert (await bo.command(SIT))["type"] == "accepted"
    assert await operator.bars() == []
    assert await redis.zcard(keys.BARS) == 0  # the index is pruned as it is read


async def test_a_kick_without_a_bar_bars_nobody(tables: Any, connect: Any, operator: Any) -> None:
    table_id = await tables.table()
    cy_id, token = await seated(tables, connect, table_id, "Cy")
    kicked = await operator.kick(table_id, {"player_id": cy_id, "reason": "asked to leave",
                                            "bar_minutes": None})
    assert (kicked.status_code, kicked.json()["barred_until_ms"]) == (200, None)
    assert "barred" not in (await operator.last_audit())["detail"]
    async with connect(table_id, player_id=cy_id) as cy:
        await cy.hello(token)
        assert (await cy.command(SIT))["type"] == "accepted"
    assert await operator.bars() == []


async def test_a_refused_kick_leaves_the_bars_as_they_were(
        tables: Any, operator: Any, redis: Redis) -> None:
    table_id = await tables.table()
    dee_id, _ = await tables.player("Dee")
    not_seated = await operator.kick(table_id, {"player_id": dee_id, "reason": "spam", "bar_minutes": 60})
    assert (not_seated.status_code, not_seated.json()["error"]) == (409, "NOT_SEATED")
    assert await operator.bars() == []
    assert await redis.exists(keys.bar(table_id, dee_id)) == 0
    start = now_ms()
    earlier = Bar(table_id, dee_id, start + 600_000, start, "ops", "first warning")
    await Bars(redis).put(earlier)
    assert (await operator.kick(table_id, {"player_id": dee_id, "reason": "spam", "bar_minutes": 5})
            ).status_code == 409
    assert await Bars(redis).get(table_id, dee_id) == earlier


@pytest.mark.parametrize(("change", "code", "words"), [
    ({"bar_minutes": 0}, "INVALID_FIELD",
     "bar_minutes=0: must be a whole number of minutes from 1 to 10,080"),
    ({"bar_minutes": 10_081}, "INVALID_FIELD", "bar_minutes=10081"),
    ({"bar_minutes": "30"}, "INVALID_FIELD", "bar_minutes='30'"),
    ({"bar_minutes": 1.5}, "INVALID_FIELD", "bar_minutes=1.5"),
    ({"bar_minutes": True}, "INVALID_FIELD", "bar_minutes=True"),
    ({"reason": None}, "REASON_REQUIRED", "a kick needs a reason"),
    ({"reason": "   "}, "REASON_REQUIRED", "a kick needs a reason"),
    ({"reason": "x" * 201}, "INVALID_FIELD", "at most 200"),
    ({"reason": "two\nlines"}, "INVALID_FIELD", "U+000A"),
    ({"reason": 7}, "INVALID_FIELD", "reason must be text, not 7"),
    ({"until": 5}, "UNKNOWN_FIELD", "unknown field 'until'"),
])
async def test_a_bad_kick_is_refused_audited_and_changes_nothing(
        tables: Any, connect: Any, operator: Any, change: dict[str, Any], code: str, words: str) -> None:
    table_id = await tables.table()
    eve_id, _ = await seated(tables, connect, table_id, "Eve")
    body = {"player_id": eve_id, "reason": "abuse", "bar_minutes": 30, **change}
    refused = await operator.kick(table_id, body)
    assert (refused.status_code, refused.json()["error"]) == (400, code)
    assert words in refused.json()["message"]
    if code == "REASON_REQUIRED":  # the page words it from the code and this field
        assert refused.json()["max_chars"] == 200
    entry = await operator.last_audit()
    assert (entry["action"], entry["outcome"], entry["player_id"]) == ("kick", code, eve_id)
    view = (await operator.client.get(f"/api/operator/tables/{table_id}")).json()["view"]
    assert view["seats"][3]["player_id"] == eve_id
    assert await operator.bars() == []
