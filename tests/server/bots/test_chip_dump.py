"""``paigow bots --chip-dump``: the planted dumper throws its hand only when its partner banks, and a seeded
run with the pair among honest bots is flagged by ``GET /api/operator/second-looks`` while no honest pair
is."""

from __future__ import annotations

import dataclasses
from typing import Any

import httpx
import pytest

from paigow.rules.cards import parse_card
from paigow.rules.house_rules import FoulPolicy, HouseRules
from paigow.rules.splits import is_foul, split_from_low
from paigow_server.bots.chip_dump import dump_action, thrown_low
from paigow_server.bots.player import Behaviour
from paigow_server.bots.run import BotsConfig, run_bots
from paigow_server.cli import main
from paigow_server.process.settings import Settings
from support.harness import LiveServer

CARDS = ["As", "Ah", "Kd", "Qc", "9s", "5h", "2c"]


def _split(low: list[str]) -> Any:
    return split_from_low([parse_card(c) for c in CARDS], [parse_card(c) for c in low])


def test_the_dumper_fouls_where_a_foul_loses_and_else_sets_a_legal_split_unlike_the_house_way() -> None:
    lose = HouseRules(foul_policy=FoulPolicy.LOSE)
    assert is_foul(_split(thrown_low(CARDS, lose)), lose)
    reject = HouseRules()
    weak = _split(thrown_low(CARDS, reject))
    assert not is_foul(weak, reject)
    assert {str(c) for c in weak.low} != {"Kd", "Qc"}, "not the House Way's split of a pair of aces"


def _view(banker: str | None, phase: str, *, chips: int = 50_000,
          coverage: int | None = None) -> dict[str, Any]:
    hands = [{"position": 2, "is_set": False, "cards": CARDS}]
    return {"phase": phase, "rules": {"max_bet_cents": 30_000, "min_bet_cents": 500, "foul_policy": "lose"},
            "round": {"banker_player_id": banker, "coverage_left_cents": coverage, "hands": hands},
            "you": {"is_banker": False, "bet_cents": 0, "chips_cents": chips, "position": 2,
                    "can": {"set_hand": True}}}


def test_the_dumper_bets_the_most_allowed_and_throws_its_hand_only_under_its_partner() -> None:
    assert dump_action(_view("p_partner", "betting"), "p_partner") == {"type": "place_bet",
                                                                       "amount_cents": 30_000}
    assert dump_action(_view("p_partner", "betting", chips=7_000), "p_partner")["amount_cents"] == 7_000
    assert dump_action(_view("p_partner", "betting", coverage=9_000), "p_partner")["amount_cents"] == 9_000
    assert dump_action(_view("p_partner", "betting", coverage=100), "p_partner") is None  # under the minimum
    thrown = dump_action(_view("p_partner", "setting"), "p_partner")
    assert thrown is not None
    assert is_foul(_split(thrown["low"]), HouseRules(foul_policy=FoulPolicy.LOSE))
    assert dump_action(_view("p_other", "betting"), "p_partner") is None
    assert dump_action(_view(None, "setting"), "p_partner") is None
    assert dump_action(_view("p_partner", "betting"), None) is None


def test_chip_dump_needs_two_players_per_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bots", "--chip-dump", "--players-per-table", "1", "--operator-token", "x"]) == 2
    assert "--chip-dump needs --players-per-table 2" in capsys.readouterr().err


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return dataclasses.replace(settings, starting_balance_cents=5_000_000)


@pytest.mark.slow
async def test_a_planted_pair_among_honest_bots_is_flagged_and_no_honest_pair_is(
        live_server: LiveServer) -> None:
    config = BotsConfig(url=live_server.url, operator_token=live_server.operator_token, tables=2,
                        players_per_table=4, spectators=0, rounds=84, seed=34, timeout_s=240,
                        buy_in_cents=2_000_000, chip_dump=True,
                        behaviour=Behaviour(bank_rate=0.5, drop_rate=0.0, bad_input_rate=0.0))
    result = await run_bots(config)
    assert result.completed_tables == 2, result.summary()
    assert result.money_ok, result.money_message
    assert result.planted is not None
    banker, dumper = result.planted
    async with httpx.AsyncClient(base_url=live_server.url) as client:
        answer = await client.get("/api/operator/second-looks", params={"window": "today"},
                                  headers={"Authorization": f"Bearer {live_server.operator_token}"})
    assert answer.status_code == 200, answer.text
    looks = answer.json()
    assert [(p["banker_id"], p["player_id"]) for p in looks["pairs"]] == [(banker, dumper)], looks
    pair = looks["pairs"][0]
    assert pair["z"] >= looks["threshold_z"]
    assert pair["flow_cents"] > 0
    assert pair["rounds"] >= 10
    assert pair["round_ids"]
    assert all(r["table_id"] == result.table_ids[0] for r in pair["round_links"])
    assert [(f["player_id"], f["banker_id"]) for f in looks["fouls"]] == [(dumper, banker)], looks
    # every bot plays from 127.0.0.1: one network, with every bot at both tables
    assert [n["network"] for n in looks["shared_networks"]] == ["127.0.0.0/24"]
    assert sorted(looks["shared_networks"][0]["tables"]) == sorted(result.table_ids)
    assert looks["shared_networks"][0]["round_ids"], "rounds they played together, from their histories"
