"""A home game's own chips over HTTP (issue 31; docs/http-api.md, "Home games"): creating one with its chip
setting and every refusal of it, the ledger and hand-log downloads and who may read them, and the operator's
money check, which leaves the game's chips out of the casino's totals and checks each game on its own: a
player with no casino money at all buys in, plays and leaves, and no casino balance moves."""

from __future__ import annotations

import csv
import dataclasses
import io
import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
from redis.asyncio import Redis

from paigow.protocol.server import encode_view
from paigow.table import home_commands as h
from paigow.table.commands import Leave, Sit
from paigow.table.home_chip_commands import AdjustChips, Rebuy
from paigow.table.home_chips import HomeChips
from paigow.table.operator_commands import CloseTable
from paigow.table.views import SpectatorViewer, view_for
from paigow_server.process.settings import Settings
from paigow_server.store.money import ledger_mismatches
from paigow_server.web.home_exports import cell_text, dollars
from support.harness import play_house_round
from support.homes import Homes, asgi_homes, auth, home_settings

OPERATOR = {"Authorization": "Bearer test-operator-token-0123456789"}
QUICK = {"between_rounds_ms": 0}


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return home_settings(settings, home_max_buy_in_cents=500_000)


@pytest.fixture
async def homes(settings: Settings, redis: Redis) -> AsyncIterator[Homes]:
    async with asgi_homes(settings, redis) as made:
        yield made


async def test_a_new_home_game_has_its_own_chips_with_the_stated_defaults(homes: Homes) -> None:
    _, token = await homes.account("ann")
    body = await homes.table(token, chips={})
    assert body["table"]["chips"] == {
        "default_buy_in_cents": 10_000, "min_buy_in_cents": 2_000, "max_buy_in_cents": 50_000,
        "max_buy_in_cap_cents": 500_000, "rebuys": True, "auto_approve": False, "commission": "none",
        "players_bank_in_turn": False}
    state = await homes.ctx.tables.load(body["table_id"])
    assert state.home.chips == HomeChips()
    assert state.home.max_buy_in_cap_cents == 500_000
    assert state.rules.commission_bps == 0
    listed = (await homes.client.get("/api/home/tables", headers=auth(token))).json()
    assert listed["max_buy_in_cap_cents"] == 500_000
    assert listed["tables"][0]["chips"] == body["table"]["chips"]
    hosted = (await homes.client.get(f"/api/home/tables/{body['table_id']}", headers=auth(token))).json()
    assert hosted["chips"] == body["table"]["chips"]


async def test_every_chip_field_is_taken_and_sets_the_rules(homes: Homes) -> None:
    _, token = await homes.account("ann")
    chips = {"default_buy_in_cents": 20_000, "min_buy_in_cents": 5_000, "max_buy_in_cents": 400_000,
             "rebuys": False, "auto_approve": True, "players_bank_in_turn": True,
             "commission": "five_percent"}
    body = await homes.table(token, chips=chips, rules={"player_banking": False})
    assert body["table"]["chips"] == {**chips, "max_buy_in_cap_cents": 500_000}
    state = await homes.ctx.tables.load(body["table_id"])
    assert (state.rules.commission_bps, state.rules.commission_round_cents) == (500, 1)
    assert state.rules.players_bank_in_turn is True
    assert (state.rules.player_banking, state.rules.co_banking) == (True, False)
    defaults = await homes.table(token, chips={"default_buy_in_cents": 200_000}, rules={"min_bet_cents": 100})
    assert (defaults["table"]["chips"]["min_buy_in_cents"],
            defaults["table"]["chips"]["max_buy_in_cents"]) == (40_000, 500_000)  # capped by the setting


@pytest.mark.parametrize(("chips", "field", "says"), [
    (5, "chips", "object"),
    ({"default_buy_in_cents": 0}, "chips.default_buy_in_cents", "from 1"),
    ({"default_buy_in_cents": "100"}, "chips.default_buy_in_cents", "'100'"),
    ({"default_buy_in_cents": True}, "chips.default_buy_in_cents", "True"),
    ({"default_buy_in_cents": 600_000}, "chips.default_buy_in_cents", "500000"),
    ({"default_buy_in_cents": 300}, "chips.default_buy_in_cents", "min_bet_cents (500)"),
    ({"min_buy_in_cents": 20_000}, "chips.min_buy_in_cents", "default_buy_in_cents (10000)"),
    ({"min_buy_in_cents": 400}, "chips.min_buy_in_cents", "min_bet_cents (500)"),
    ({"max_buy_in_cents": 5_000}, "chips.max_buy_in_cents", "default_buy_in_cents (10000)"),
    ({"max_buy_in_cents": 500_001}, "chips.max_buy_in_cents", "500000"),
    ({"rebuys": "yes"}, "chips.rebuys", "true or false"),
    ({"auto_approve": 1}, "chips.auto_approve", "true or false"),
    ({"players_bank_in_turn": None}, "chips.players_bank_in_turn", "true or false"),
    ({"commission": "ten_percent"}, "chips.commission", "none, five_percent"),
    ({"commission": ["none"]}, "chips.commission", "none, five_percent"),
])
async def test_a_bad_chip_setting_names_its_field_and_creates_nothing(homes: Homes, chips: object, field: str,
                                                                      says: str) -> None:
    _, token = await homes.account()
    response = await homes.create(token, chips=chips)
    assert response.status_code == 400, response.text
    error = response.json()
    assert (error["error"], error["field"]) == ("INVALID_FIELD", field)
    assert error["message"].startswith(field)
    assert says in error["message"]
    assert (await homes.client.get("/api/home/tables", headers=auth(token))).json()["tables"] == []


async def test_an_unknown_chip_field_is_refused(homes: Homes) -> None:
    _, token = await homes.account()
    response = await homes.create(token, chips={"cap_cents": 1})
    assert (response.status_code, response.json()["error"]) == (400, "UNKNOWN_FIELD")


async def _played_game(homes: Homes) -> dict[str, Any]:
    """Ann hosts a game with automatic buy-ins; Maya (no casino money left) and Theo (named like a formula)
    join by the invite, everyone buys in, they play two rounds, Theo rebuys, Ann corrects a stack."""
    ann, ann_token = await homes.account("ann")
    maya, maya_token = await homes.account("maya")
    theo, theo_token = await homes.account("theo")
    debit = await homes.client.post(f"/api/operator/players/{maya}/debit", headers=OPERATOR,
                                    json={"amount_cents": 100_000, "reason": "spent it all"})
    assert debit.json()["balance_cents"] == 0, debit.text
    body = await homes.table(ann_token, timers=QUICK)
    table_id = body["table_id"]
    for token in (maya_token, theo_token):
        assert (await homes.resolve(body["invite"]["code"], token)).status_code == 200
    service = homes.rt.service
    await service.execute(table_id, Sit(ann, "Ann", 1, 10_000))
    await service.execute(table_id, Sit(maya, "Maya", 2, 20_000))
    await service.execute(table_id, Sit(theo, "=Theo", 3, 10_000))
    for _ in range(2):
        await play_house_round(homes.rt, table_id, {ann: 500, maya: 1_000, theo: 500})
    await service.execute(table_id, Rebuy(theo, 5_000))
    await service.execute(table_id, h.HostAct(ann, AdjustChips(maya, 250, "-a chip fell")))
    return {"table_id": table_id, "ann": ann_token, "maya": maya_token, "maya_id": maya, "ann_id": ann,
            "theo": theo_token}


def _rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


async def test_the_ledger_downloads_as_json_and_csv_for_the_games_players(homes: Homes) -> None:
    game = await _played_game(homes)
    path = f"/api/home/tables/{game['table_id']}/ledger"
    answer = await homes.client.get(path, headers=auth(game["maya"]))
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-disposition"] == 'attachment; filename="Friday-game-ledger.json"'
    ledger = answer.json()
    assert (ledger["table_id"], ledger["name"], ledger["closed"], ledger["host_name"]) == (
        game["table_id"], "Friday game", False, "Ann")
    chips = ledger["chips"]
    assert [(x["kind"], x["amount_cents"]) for x in chips["lines"]] == [
        ("buy_in", 10_000), ("buy_in", 20_000), ("buy_in", 10_000), ("rebuy", 5_000), ("add", 250)]
    assert chips["issued_cents"] == 45_250
    assert chips["balanced"] is True
    assert chips["settle_up"] is None
    answer = await homes.client.get(f"{path}?format=csv", headers=auth(game["ann"]))
    assert answer.headers["content-type"].startswith("text/csv")
    assert answer.headers["content-disposition"] == 'attachment; filename="Friday-game-ledger.csv"'
    rows = _rows(answer.text)
    lines = [r for r in rows if r["record"] == "line"]
    assert [(r["kind"], r["amount"], r["amount_cents"]) for r in lines][-1] == ("add", "2.50", "250")
    assert lines[2]["name"] == "'=Theo"  # a formula is never a cell's start
    assert lines[-1]["reason"] == "'-a chip fell"
    players = {r["player_id"]: r for r in rows if r["record"] == "player"}
    assert players[game["maya_id"]]["buy_ins"] == "200.00"
    assert sum(int(r["net_cents"]) for r in rows if r["record"] in ("player", "house", "commission")) == 0

    await homes.rt.service.execute(game["table_id"], h.HostAct(game["ann_id"], CloseTable()))
    closed = (await homes.client.get(path, headers=auth(game["maya"]))).json()
    state = await homes.ctx.tables.load(game["table_id"])
    assert closed["chips"] == json.loads(encode_view(view_for(state, SpectatorViewer())))["home"]["chips"]
    assert closed["closed"] is True
    assert closed["chips"]["stacks_cents"] == 0
    payments = closed["chips"]["settle_up"]
    assert payments is not None
    rows = _rows((await homes.client.get(f"{path}?format=csv", headers=auth(game["maya"]))).text)
    assert len([r for r in rows if r["record"] == "payment"]) == len(payments)


async def test_the_hand_log_lists_every_round_with_its_hands_and_nets(homes: Homes) -> None:
    game = await _played_game(homes)
    path = f"/api/home/tables/{game['table_id']}/hands"
    log = (await homes.client.get(path, headers=auth(game["maya"]))).json()
    assert log["complete"] is True
    assert [r["number"] for r in log["rounds"]] == sorted(r["number"] for r in log["rounds"])
    assert len(log["rounds"]) == 2
    first = log["rounds"][0]
    assert first["banker_name"] == "House"
    assert first["settled_ms"] is not None
    assert {hand["name"] for hand in first["hands"]} == {"House", "Ann", "Maya", "=Theo"}
    assert all(len(hand["dealt"]) == 7 and len(hand["high"]) == 5 for hand in first["hands"])
    assert sum(n["net_cents"] for n in first["nets"]) + first["house_net_cents"] == 0
    answer = await homes.client.get(f"{path}?format=csv", headers=auth(game["ann"]))
    assert answer.headers["content-disposition"] == 'attachment; filename="Friday-game-hands.csv"'
    rows = _rows(answer.text)
    assert len(rows) == sum(len(r["hands"]) for r in log["rounds"])
    assert {r["name"] for r in rows} == {"House", "Ann", "Maya", "'=Theo"}
    assert all(r["net"] == dollars(int(r["net_cents"])) for r in rows)


@pytest.mark.parametrize("what", ["ledger", "hands"])
async def test_only_the_games_players_may_download_and_everyone_else_gets_the_unknown_ids_answer(
        homes: Homes, what: str) -> None:
    game = await _played_game(homes)
    _, stranger = await homes.account("stranger")
    unknown = await homes.client.get(f"/api/home/tables/h_nope/{what}", headers=auth(stranger))
    assert unknown.status_code == 404
    hidden = await homes.client.get(f"/api/home/tables/{game['table_id']}/{what}", headers=auth(stranger))
    assert (hidden.status_code, hidden.json()) == (404, {"error": "TABLE_NOT_FOUND",
                                                         "message": f"no table {game['table_id']!r}"})
    assert unknown.json()["message"] == "no table 'h_nope'"
    public = await homes.client.get(f"/api/home/tables/t1/{what}", headers=auth(stranger))
    assert public.status_code == 404
    assert (await homes.client.get(f"/api/home/tables/{game['table_id']}/{what}")).status_code == 401
    bad = await homes.client.get(f"/api/home/tables/{game['table_id']}/{what}?format=xml",
                                 headers=auth(game["maya"]))
    assert (bad.status_code, bad.json()["field"]) == (400, "format")


async def test_the_downloads_count_against_round_reads(settings: Settings, redis: Redis) -> None:
    async with asgi_homes(dataclasses.replace(settings, round_reads_per_minute=3), redis) as homes:
        _, token = await homes.account("ann")
        table_id = (await homes.table(token))["table_id"]
        answers = [(await homes.client.get(f"/api/home/tables/{table_id}/ledger", headers=auth(token)))
                   for _ in range(4)]
        assert [a.status_code for a in answers] == [200, 200, 200, 429]
        assert "retry_after_s" in answers[-1].json()


async def test_the_money_check_shows_each_game_balanced_and_no_casino_money_moves(homes: Homes,
                                                                                  redis: Redis) -> None:
    game = await _played_game(homes)
    money = (await homes.client.get("/api/operator/money", headers=OPERATOR)).json()
    assert money["balanced"] is True
    assert money["chips_at_tables_cents"] == 0  # the game's chips are the game's
    (figures,) = money["home_games"]
    assert figures == {"table_id": game["table_id"], "name": "Friday game", "issued_cents": 45_250,
                       "stacks_cents": figures["stacks_cents"], "cashed_out_cents": 0,
                       "house_cents": figures["house_cents"], "commission_cents": 0, "balanced": True}
    assert figures["stacks_cents"] + figures["house_cents"] == 45_250
    await homes.rt.service.execute(game["table_id"], Leave(game["maya_id"]))
    await homes.rt.service.execute(game["table_id"], h.HostAct(game["ann_id"], CloseTable()))
    money = (await homes.client.get("/api/operator/money", headers=OPERATOR)).json()
    assert money["balanced"] is True
    (figures,) = money["home_games"]
    assert (figures["stacks_cents"], figures["balanced"]) == (0, True)
    assert await ledger_mismatches(redis) == []
    balances = [(await homes.client.get("/api/session", headers=auth(game[who]))).json()["balance_cents"]
                for who in ("maya", "ann", "theo")]
    assert balances == [0, 100_000, 100_000]  # Maya played with no casino money; nobody's balance moved


def test_csv_cells_never_start_a_formula() -> None:
    assert [cell_text(t) for t in ("=1+2", "+1", "-1", "@SUM", "\tx", "Ann", None)] == [
        "'=1+2", "'+1", "'-1", "'@SUM", "'\tx", "Ann", ""]
    assert [dollars(c) for c in (0, 5, -1250, 100_000)] == ["0.00", "0.05", "-12.50", "1000.00"]
