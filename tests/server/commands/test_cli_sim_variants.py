"""``paigow sim --dragon`` and ``paigow sim --bank K``: the JSON keys beside the plain run's, seeded runs
reproducible over any number of workers, the text reports, and bad flags refused with status 2."""

from __future__ import annotations

import json
from typing import Any

import pytest

from support.harness import run_cli_captured

RUN_KEYS = {"hands", "house_way", "commission", "clauses", "published", "seed", "workers", "seconds"}
"""The keys of a plain run's report that are about the run, not about one wager."""

BANK_SIDE_KEYS = {"edge", "edge_se", "edge_rounded", "edge_rounded_se"}


def sim_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    code, out, err = run_cli_captured(capsys, "sim", "--json", *argv)
    assert (code, err) == (0, "")
    data: dict[str, Any] = json.loads(out)
    return data


def without_time(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k not in ("seconds", "dragon")}


@pytest.mark.parametrize("form", ["commissioned", "ez", "nine-high"])
def test_dragon_json_is_the_plain_report_and_the_dragons_under_the_same_keys(
        capsys: pytest.CaptureFixture[str], form: str) -> None:
    args = ("--hands", "1500", "--seed", "5", "--commission", form)
    plain = sim_json(capsys, *args)
    data = sim_json(capsys, *args, "--dragon")
    assert without_time(data) == without_time(plain)  # the same deals: the player's figures unchanged
    dragon = data["dragon"]
    assert set(dragon) == (set(plain) - RUN_KEYS) | {"clauses", "house_edge_minus_player",
                                                       "house_edge_minus_player_se", "correlation"}
    assert sum(dragon["counts"].values()) == 1500
    assert sum(dragon["clauses"].values()) == 1500  # the Dragon's hands alone
    assert dragon["counts"] != plain["counts"]
    assert dragon["house_edge_minus_player"] == pytest.approx(dragon["house_edge"] - plain["house_edge"])
    assert 0 < dragon["house_edge_minus_player_se"] < 0.05
    assert 0 < dragon["correlation"] < 1
    if form != "commissioned":
        assert dragon["barred"] == plain["barred"]  # the dealer's bar pushes both wagers
        assert dragon["house_edge"] == pytest.approx(dragon["loss"] - dragon["win"])


def test_bank_json(capsys: pytest.CaptureFixture[str]) -> None:
    data = sim_json(capsys, "--hands", "2000", "--seed", "3", "--bank", "3")
    assert set(data) == {"hands", "house_way", "commission", "wagers", "bet_cents", "bank", "co_bank",
                         "banker_edge", "banker_edge_se", "balances", "seed", "workers", "seconds"}
    assert (data["hands"], data["wagers"], data["bet_cents"], data["commission"]) == (2000, 3, 500,
                                                                                        "commissioned")
    assert set(data["bank"]) == BANK_SIDE_KEYS
    assert set(data["co_bank"]) == BANK_SIDE_KEYS | {"at_table"}
    assert data["co_bank"]["at_table"] is True
    assert list(data["balances"]) == ["-3", "-2", "-1", "0", "1", "2", "3"]
    assert sum(data["balances"].values()) == 2000
    assert data["co_bank"]["edge"] == pytest.approx(data["bank"]["edge"] / 2)
    assert data["co_bank"]["edge_se"] == pytest.approx(data["bank"]["edge_se"] / 2)
    assert data["bank"]["edge_rounded"] == pytest.approx(data["bank"]["edge"])  # $5: whole quarters
    assert data["co_bank"]["edge_rounded"] < data["co_bank"]["edge"]  # the half's 12.5 cents charged 25
    six = sim_json(capsys, "--hands", "300", "--seed", "3", "--bank", "6", "--bet-cents", "700")
    assert (six["wagers"], six["bet_cents"], six["co_bank"]["at_table"]) == (6, 700, False)


def test_a_bank_against_one_wager_is_the_plain_runs_dealer(capsys: pytest.CaptureFixture[str]) -> None:
    plain = sim_json(capsys, "--hands", "1000", "--seed", "8")
    bank = sim_json(capsys, "--hands", "1000", "--seed", "8", "--bank", "1")
    counts = plain["counts"]
    assert bank["balances"] == {"-1": counts["win"], "0": counts["push"], "1": counts["loss"]}
    assert bank["banker_edge"] == pytest.approx(plain["banker_edge"])


@pytest.mark.parametrize("variant", [["--dragon"], ["--dragon", "--commission", "ez"], ["--bank", "4"]])
def test_a_seeded_run_is_reproducible_over_any_workers(capsys: pytest.CaptureFixture[str],
                                                         variant: list[str]) -> None:
    args = ("--hands", "900", "--seed", "11", "--chunk", "300", *variant)
    one = sim_json(capsys, *args)
    again = sim_json(capsys, *args)
    two = sim_json(capsys, *args, "--workers", "2")
    assert two["workers"] == 2
    for key in ("dragon", "counts", "balances", "bank", "co_bank"):
        assert one.get(key) == again.get(key) == two.get(key)
    other = sim_json(capsys, "--hands", "900", "--seed", "12", "--chunk", "300", *variant)
    assert (one.get("dragon"), one.get("balances")) != (other.get("dragon"), other.get("balances"))


@pytest.mark.parametrize(("argv", "shown"), [
    (["--dragon"], ["player wins", "Dragon hand (House Way, same dealer)", "Dragon wins",
                    "Dragon's edge less the player's", "correlation with the player wager"]),
    (["--dragon", "--commission", "nine-high"], ["Dragon wins pushed by the bar"]),
    (["--bank", "2"], ["a player bank against 2 wagers of $5.00", "banking alone, commission exact",
                       "co-banked (half), $5.00 wagers, 25¢ rounding", "banking alone, no commission"]),
    (["--bank", "6", "--bet-cents", "700"], ["6 wagers of $7.00", "off the table"]),
])
def test_the_text_reports(capsys: pytest.CaptureFixture[str], argv: list[str], shown: list[str]) -> None:
    code, out, err = run_cli_captured(capsys, "sim", "--hands", "400", "--seed", "1", *argv)
    assert (code, err) == (0, "")
    assert "400 hands, seed 1" in out
    for text in shown:
        assert text in out
    if "--bank" in argv:
        assert "clauses" not in out


@pytest.mark.parametrize(("argv", "message"), [
    (["--bank", "0"], "argument --bank: '0' must be from 1 to 6"),
    (["--bank", "7"], "argument --bank: '7' must be from 1 to 6"),
    (["--bank", "two"], "argument --bank: 'two' is not a whole number"),
    (["--bank", "2", "--dragon"], "not allowed with argument"),
    (["--dragon", "--fortune"], "not allowed with argument"),
    (["--bank", "2", "--commission", "ez"], "a player bank is commissioned on every table"),
    (["--bank", "2", "--commission", "nine-high"], "--commission nine-high does not apply to it"),
])
def test_bad_variant_flags_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    code, out, err = run_cli_captured(capsys, "sim", "--hands", "10", *argv)
    assert code == 2
    assert out == ""
    assert message in err
    assert "Traceback" not in err
