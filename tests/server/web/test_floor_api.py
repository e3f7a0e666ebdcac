"""``GET /api/operator/floor`` (docs/http-api.md, "Floor"): an operator's read of the floor buckets the
settling commits wrote: totals, series and tables of a window, the "now" figures, CSV; every bad parameter
refused naming it, an unknown table not found, anyone but an operator turned away."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

import pytest
from redis.asyncio import Redis

from paigow.rules.house_rules import HouseRules
from paigow.table import new_table
from paigow.table.commands import Sit
from paigow.table.state import Timers
from paigow_server.realtime.realtime import Realtime
from paigow_server.store.accounts import Accounts
from paigow_server.store.tables import TableRepo
from paigow_server.web.floor_view import SERIES_FIELDS, table_pieces, window_of
from support.harness import AppHandle, play_house_round

TIMERS = Timers(bank_offer_ms=10_000, betting_ms=30_000, setting_ms=30_000, between_rounds_ms=20,
                reconnect_grace_ms=30_000)
URL = "/api/operator/floor"
HTTP_API = Path(__file__).parents[3] / "docs" / "http-api.md"


async def _rounds(app_client: AppHandle, redis: Redis, count: int) -> tuple[str, list[dict[str, Any]]]:
    """A table where Ann and Bob play ``count`` house-banked rounds: (its id, their records)."""
    repo = TableRepo(redis)
    table_id = await repo.next_id()
    rules = HouseRules(fortune_enabled=True)
    assert await repo.create(new_table(table_id, "Main", rules, TIMERS))
    rt = app_client.app.state.realtime
    assert isinstance(rt, Realtime)
    accounts = Accounts(redis, starting_balance_cents=100_000)
    players = [(await accounts.create(name)).player_id for name in ("Ann", "Bob")]
    for seat, player_id in enumerate(players, start=1):
        await rt.service.execute(table_id, Sit(player_id, f"P{seat}", seat, 50_000))
    for _ in range(count):
        await play_house_round(rt, table_id, {players[0]: 1_000, players[1]: 2_500})
    response = await app_client.client.get(f"/api/tables/{table_id}/rounds", params={"limit": "100"})
    return table_id, response.json()["rounds"]


def _metric(text: str, figure: str) -> float:
    """``paigow_floor_cents_total{figure=...}`` in a /metrics text (0 when not counted yet)."""
    head = f'paigow_floor_cents_total{{figure="{figure}"}} '
    return sum(float(line.removeprefix(head)) for line in text.splitlines() if line.startswith(head))


async def _get(app_client: AppHandle, **params: str) -> Any:
    return await app_client.client.get(URL, params=params, headers=app_client.operator_headers)


async def test_the_floor_adds_up_the_rounds_the_table_settled(app_client: AppHandle, redis: Redis) -> None:
    table_id, records = await _rounds(app_client, redis, 3)
    assert len(records) == 3
    win = sum(r["house_net_cents"] for r in records)
    commission = sum(h["commission_cents"] for r in records for h in r["hands"])
    for params in ({"window": "hour"}, {"window": "today"}, {"window": "7d"}, {"window": "30d"},
                   {"window": "hour", "table": table_id}):
        response = await _get(app_client, **params)
        assert response.status_code == 200, response.text
        body = response.json()
        totals = body["totals"]
        assert totals["rounds"] == 3
        assert totals["handle_cents"] == 3 * 3_500
        assert totals["win_cents"] == win
        assert totals["commission_cents"] == commission
        assert totals["band_low_cents"] <= totals["theo_win_cents"] <= totals["band_high_cents"]
        assert 0 < totals["theo_win_cents"] < 3 * 3_500 * 0.03 + 100  # about 2.7% and 7.8% of the Fortune
        assert totals["seats_per_round"] == 2
        assert sum(p["rounds"] for p in body["series"]) == 3
        assert body["series"][-1]["cum_win_cents"] == win
        assert body["timezone"] == "UTC"
        assert body["table"] == params.get("table")
        assert body["now"]["tables_open"] == 1
        assert body["now"]["seats_occupied"] == 2
        assert body["now"]["seats_total"] == 6
    hour = (await _get(app_client, window="hour")).json()
    assert hour["bucket_ms"] == 60_000
    assert len(hour["series"]) in (60, 61)
    assert hour["tables"] == [{"table_id": table_id, "name": "Main", "rounds": 3, "handle_cents": 10_500,
                               "win_cents": win, "hold_pct": round(100 * win / 10_500, 4),
                               "theo_win_cents": hour["totals"]["theo_win_cents"]}]
    assert (await _get(app_client, window="30d")).json()["bucket_ms"] == 86_400_000
    assert (await _get(app_client, window="7d")).json()["bucket_ms"] == 3_600_000
    response = await _get(app_client, window="hour", format="csv")
    assert response.status_code == 200
    assert response.headers["content-type"] == "text/csv; charset=utf-8"
    assert response.headers["content-disposition"].startswith("attachment;")
    rows = list(csv.reader(io.StringIO(response.text)))
    assert tuple(rows[0]) == SERIES_FIELDS
    assert len(rows) == len(hour["series"]) + 1
    assert sum(int(row[1]) for row in rows[1:]) == 3
    metrics = (await app_client.client.get("/metrics")).text
    assert 'paigow_floor_rounds_total{kind="settled"} 3.0' in metrics
    assert 'paigow_floor_cents_total{figure="handle"} 10500.0' in metrics
    assert _metric(metrics, "won") - _metric(metrics, "lost") == win


@pytest.mark.parametrize(("params", "field"), [
    ({"window": "week"}, "window"), ({"window": "hour", "from": "1"}, "window"), ({"from": "1"}, "to"),
    ({"to": "5"}, "from"), ({"from": "10", "to": "5"}, "to"), ({"from": "abc", "to": "5"}, "from"),
    ({"from": "0", "to": str(401 * 86_400_000)}, "to"), ({"format": "xml"}, "format"),
    ({"from": "-5", "to": "5"}, "from")])
async def test_a_bad_parameter_is_refused_naming_it(app_client: AppHandle, params: dict[str, str],
                                                    field: str) -> None:
    response = await _get(app_client, **params)
    assert response.status_code == 400, response.text
    assert response.json()["error"] == "INVALID_FIELD"
    assert response.json()["field"] == field


async def test_an_unknown_parameter_or_table_is_refused(app_client: AppHandle) -> None:
    response = await _get(app_client, windw="hour")
    assert response.status_code == 400
    assert response.json()["error"] == "UNKNOWN_FIELD"
    response = await _get(app_client, table="t404")
    assert response.status_code == 404
    assert response.json()["error"] == "TABLE_NOT_FOUND"


async def test_only_an_operator_may_read_the_floor(app_client: AppHandle) -> None:
    assert (await app_client.client.get(URL)).status_code == 401
    wrong = await app_client.client.get(URL, headers={"Authorization": "Bearer not-a-token-at-all"})
    assert wrong.status_code == 401
    assert wrong.json()["error"] == "BAD_OPERATOR_TOKEN"


async def test_a_from_to_window_reads_whole_buckets(app_client: AppHandle) -> None:
    day = 86_400_000
    start = 1_700_000_000_123
    response = await _get(app_client, **{"from": str(start), "to": str(start + 30 * day)})
    body = response.json()
    assert body["bucket_ms"] == day
    assert body["from_ms"] == start // day * day
    assert len(body["series"]) == 31
    assert body["totals"]["rounds"] == 0
    assert body["totals"]["hold_pct"] is None


async def test_the_http_api_doc_names_every_field_of_the_answer(app_client: AppHandle) -> None:
    text = HTTP_API.read_text(encoding="utf-8")
    section = text[text.index("### Floor (operator)"):]
    section = section[:section.index("\n### ", 10)]
    body = (await _get(app_client, window="hour")).json()
    names = {*body, *body["totals"], *body["now"], *body["series"][0], *SERIES_FIELDS,
             "table_id", "name", "rounds", "handle_cents", "win_cents", "hold_pct", "theo_win_cents"}
    assert not [name for name in sorted(names) if f'"{name}"' not in section]


@pytest.mark.parametrize("params", [{"window": "hour"}, {"window": "today"}, {"window": "7d"},
                                    {"window": "30d"}, {"from": "1765000000000", "to": "1765100000000"}])
def test_the_tables_of_a_window_are_read_from_the_fewest_buckets_that_cover_it(
        params: dict[str, str]) -> None:
    now = 1_765_432_109_876
    window = window_of(params, now)
    pieces = table_pieces(window)
    at = window.from_ms
    for resolution, start in pieces:
        assert start == at
        assert start % resolution.size_ms == 0
        at += resolution.size_ms
    assert at == window.starts[-1] + window.resolution.size_ms
    assert len(pieces) <= {"m": 141, "h": 70, "d": 401}[window.resolution.name]
