"""``GET /api/operator/second-looks``: the operator's token like every operator GET, clear 400s that read
nothing, the rows with names and the rounds behind them; and the shared networks, noted when a player's
table connection has a command accepted (only the network prefix is kept)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from redis.asyncio import Redis

from paigow_server.store import keys
from paigow_server.store.networks import NetworkSightings
from paigow_server.store.tables import TableRepo
from support.harness import AppHandle
from support.pair_rounds import banked_table, play_banked_round

PATH = "/api/operator/second-looks"
DOC = Path(__file__).resolve().parents[3] / "docs" / "http-api.md"


async def test_second_looks_needs_the_operators_token(app_client: AppHandle) -> None:
    bare = await app_client.client.get(PATH)
    assert (bare.status_code, bare.json()["error"]) == (401, "UNAUTHORIZED")
    wrong = await app_client.client.get(PATH, headers={"Authorization": "Bearer not-the-operator-token"})
    assert (wrong.status_code, wrong.json()["error"]) == (401, "BAD_OPERATOR_TOKEN")


@pytest.mark.parametrize(("query", "code", "field"), [
    ({"window": "year"}, "INVALID_FIELD", "window"),
    ({"window": ""}, "INVALID_FIELD", "window"),
    ({"limit": "0"}, "INVALID_FIELD", "limit"),
    ({"limit": "101"}, "INVALID_FIELD", "limit"),
    ({"limit": "ten"}, "INVALID_FIELD", "limit"),
    ({"limit": "-1"}, "INVALID_FIELD", "limit"),
    ({"table": "t1"}, "UNKNOWN_FIELD", "table"),
])
async def test_a_bad_parameter_is_a_400_naming_it(app_client: AppHandle, query: dict[str, str], code: str,
                                                  field: str) -> None:
    answer = await app_client.client.get(PATH, params=query, headers=app_client.operator_headers)
    assert answer.status_code == 400, answer.text
    assert (answer.json()["error"], answer.json()["field"]) == (code, field)
    assert field in answer.json()["message"]


async def test_an_empty_floor_has_nothing_to_look_at(app_client: AppHandle) -> None:
    answer = await app_client.client.get(PATH, headers=app_client.operator_headers)
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert (body["pairs"], body["fouls"], body["shared_networks"]) == ([], [], [])
    assert (body["window"], body["threshold_z"], body["method"]) == ("7d", 4.0, "docs/floor.md#second-looks")
    assert body["from_ms"] < body["to_ms"]


async def test_the_rows_name_the_accounts_and_link_the_rounds_behind_them(app_client: AppHandle,
                                                                          redis: Redis) -> None:
    table, (bank, dump, fair) = await banked_table(TableRepo(redis), redis, "t_look",
                                                   ("Bea Banker", "Dan Dumper", "Fay"))
    records = [await play_banked_round(table, bank, {dump: 10_000, fair: 500}, fouling=frozenset({dump}))
               for _ in range(20)]
    answer = await app_client.client.get(PATH, params={"window": "today", "limit": "5"},
                                         headers=app_client.operator_headers)
    assert answer.status_code == 200, answer.text
    body = answer.json()
    [pair] = body["pairs"]
    assert (pair["banker_id"], pair["banker_name"], pair["player_id"], pair["player_name"]) == (
        bank, "Bea Banker", dump, "Dan Dumper")
    assert pair["rounds"] == pair["hands"] == 20
    assert pair["flow_cents"] == -sum(h.net_cents for r in records for h in r.hands if h.player_id == dump)
    assert pair["z"] >= 4.0
    assert pair["expected_sd_cents"] > 0
    assert pair["round_ids"] == [r.round_id for r in reversed(records)]
    assert {link["table_id"] for link in pair["round_links"]} == {"t_look"}
    [foul] = body["fouls"]
    assert (foul["player_id"], foul["banker_id"], foul["hands"]) == (dump, bank, 20)
    assert foul["fouls"] >= 17
    assert foul["base_rate"] is None  # no hands under another banker
    section = DOC.read_text().split("### Second looks (operator)", 1)[1].split("\n### ", 1)[0]
    for row in (body, pair, foul, pair["round_links"][0]):
        assert [k for k in row if f'"{k}"' not in section] == [], "docs/http-api.md names every field"
    rounds = await app_client.client.get("/api/tables/t_look/rounds", params={"limit": "100"})
    assert set(pair["round_ids"]) <= {r["round_id"] for r in rounds.json()["rounds"]}, "each opens there"


async def test_two_accounts_of_one_network_at_one_table_are_listed_and_no_address_is_kept(
        app_client: AppHandle, redis: Redis) -> None:
    sightings = NetworkSightings(redis)
    now = time.time_ns() // 1_000_000
    assert await sightings.seen("198.51.100.0/24", "t1", "p_ann", now) == 0
    assert await sightings.seen("198.51.100.0/24", "t2", "p_bob", now) == 0  # another table: nothing shared
    assert await sightings.seen("203.0.113.0/24", "t1", "p_cat", now) == 0  # another network
    assert await sightings.seen("unknown", "t1", "p_dan", now) == 0
    body = (await app_client.client.get(PATH, headers=app_client.operator_headers)).json()
    assert body["shared_networks"] == []
    assert await sightings.seen("198.51.100.0/24", "t1", "p_bob", now + 1) == 1
    body = (await app_client.client.get(PATH, headers=app_client.operator_headers)).json()
    [shared] = body["shared_networks"]
    assert shared["network"] == "198.51.100.0/24"
    assert [p["player_id"] for p in shared["players"]] == ["p_ann", "p_bob"]
    assert shared["tables"] == ["t1"]
    stored = [k for k in await redis.keys("*floor:net*")]
    assert sorted(stored) == sorted([keys.FLOOR_NETWORKS, keys.floor_network("198.51.100.0/24"),
                                     keys.floor_network("203.0.113.0/24")])
    assert 0 < await redis.pttl(keys.floor_network("198.51.100.0/24")) <= 30 * 86_400_000


async def test_a_players_accepted_command_notes_their_network_at_the_table(tables: Any, connect: Any,
                                                                           redis: Redis) -> None:
    table_id = await tables.table()
    seated = []
    for seat, name in enumerate(("Ann", "Bob"), start=1):
        player_id, token = await tables.player(name)
        async with connect(table_id, player_id=player_id) as client:
            await client.hello(token)
            assert (await client.command({"type": "sit", "seat": seat, "buy_in_cents": 10_000}))["type"] \
                == "accepted"
            seated.append(player_id)
    members = await redis.zrange(keys.floor_network("127.0.0.0/24"), 0, -1)
    assert sorted(members) == sorted(f"{table_id} {p}" for p in seated)
    assert await redis.zscore(keys.FLOOR_NETWORKS, "127.0.0.0/24") is not None
