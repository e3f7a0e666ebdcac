"""``paigow analyze``: the ``--json`` shape, the table, ``--exact``, the House Way and rules options, errors
without tracebacks."""

from __future__ import annotations

import json
from typing import Any

import pytest

from paigow.rules.cards import parse_cards
from paigow.rules.house_rules import HouseRules, HouseWayName
from paigow.rules.house_way import house_way
from paigow.rules.splits import legal_splits
from support.harness import run_cli

CARDS = "As Kd Qh JK 9c 5d 2s"
ENTRY_KEYS = ["low", "high", "win", "push", "loss", "ev", "ev_se"]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = run_cli(*argv)
    return code, *capsys.readouterr()


def analysis(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    code, out, err = run(capsys, "analyze", "--json", *argv)
    assert code == 0, err
    data: dict[str, Any] = json.loads(out)
    return data


def test_json_shape(capsys: pytest.CaptureFixture[str]) -> None:
    data = analysis(capsys, CARDS, "--samples", "20000", "--seed", "7")
    assert list(data)[:5] == ["cards", "splits", "best", "house_way", "samples"]
    assert data["cards"] == CARDS.split()
    assert data["samples"] == 20_000
    assert data["exact"] is False
    assert data["seed"] == 7
    assert data["rules"] == {"house_way": "trump_plaza", "wheel": "second", "commission_bps": 500}
    assert data["seconds"] > 0
    legal = legal_splits(parse_cards(CARDS))
    assert len(data["splits"]) == len(legal)
    for entry, split in zip(data["splits"], legal, strict=True):
        assert list(entry) == ENTRY_KEYS
        assert entry["low"] == [str(c) for c in split.low]
        assert entry["high"] == [str(c) for c in split.high]
        assert entry["win"] + entry["push"] + entry["loss"] == pytest.approx(1.0)
        assert entry["ev"] == pytest.approx(0.95 * entry["win"] - entry["loss"])
        assert 0 < entry["ev_se"] <= 0.975 / (20_000 - 1) ** 0.5
    assert data["best"] in data["splits"]
    assert data["best"]["ev"] == max(e["ev"] for e in data["splits"])
    way = house_way(parse_cards(CARDS))
    assert sorted(data["house_way"]["low"]) == sorted(str(c) for c in way.low)
    assert data["house_way"] in data["splits"]


def test_a_seed_repeats_the_run(capsys: pytest.CaptureFixture[str]) -> None:
    first = analysis(capsys, CARDS, "--samples", "3000", "--seed", "11")
    again = analysis(capsys, CARDS, "--samples", "3000", "--seed", "11")
    other = analysis(capsys, CARDS, "--samples", "3000", "--seed", "12")
    assert first["splits"] == again["splits"]
    assert first["splits"] != other["splits"]
    drawn = analysis(capsys, CARDS, "--samples", "3000")
    assert isinstance(drawn["seed"], int)  # drawn from secrets, and printed so the run can be repeated


def test_the_default_keeps_every_standard_error_within_0_003(capsys: pytest.CaptureFixture[str]) -> None:
    data = analysis(capsys, "Ts 9d 8h 7c 5d 4s 2h")
    assert 30_000 <= data["samples"] <= 110_000
    assert max(e["ev_se"] for e in data["splits"]) <= 0.003


def test_exact(capsys: pytest.CaptureFixture[str]) -> None:
    data = analysis(capsys, "Qs Qd Qh Qc Kd 7s 2h", "--exact", "--house-way", "ballys_ac")
    assert data["exact"] is True
    assert data["samples"] == 53_524_680
    assert data["seed"] is None
    assert data["rules"]["house_way"] == "ballys_ac"
    assert all(e["ev_se"] == 0 for e in data["splits"])
    code, out, _ = run(capsys, "analyze", "Qs Qd Qh Qc Kd 7s 2h", "--exact")
    assert code == 0
    assert "all 53,524,680 dealer hands, exact" in out.splitlines()[0]
    assert out.splitlines()[0].endswith(" s")  # how long it took


def test_the_table_names_the_best_and_the_house_way(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "analyze", CARDS, "--samples", "5000", "--seed", "3")
    assert code == 0
    assert err == ""
    lines = out.splitlines()
    assert "Trump Plaza House Way" in lines[0]
    assert "5,000 dealer hands (Monte Carlo, seed 3)" in lines[0]
    assert lines[1].split() == ["high", "hand", "low", "hand", "win", "push", "loss", "EV", "±", "s.e."]
    rows = lines[2:2 + len(legal_splits(parse_cards(CARDS)))]
    evs = [float(r.split()[10]) for r in rows]
    assert evs == sorted(evs, reverse=True)
    assert "best" in rows[0]
    assert any(line.startswith("best split:") and "pair of aces" in line for line in lines)
    assert any(line.startswith("House Way split:") for line in lines)


@pytest.mark.parametrize("way", list(HouseWayName))
def test_the_house_way_option(capsys: pytest.CaptureFixture[str], way: HouseWayName) -> None:
    cards = "Kc Kd Qh Js Td 9c 3h"
    data = analysis(capsys, cards, "--samples", "2000", "--seed", "1", "--house-way", str(way))
    assert data["rules"]["house_way"] == str(way)
    expected = house_way(parse_cards(cards), HouseRules(house_way=way))
    assert sorted(data["house_way"]["low"]) == sorted(str(c) for c in expected.low)


def test_the_rules_option(capsys: pytest.CaptureFixture[str]) -> None:
    data = analysis(capsys, CARDS, "--samples", "2000", "--seed", "1", "--rules",
                    '{"wheel": "low", "house_way": "foxwoods", "commission_bps": 0}')
    assert data["rules"] == {"house_way": "foxwoods", "wheel": "low", "commission_bps": 0}
    for e in data["splits"]:
        assert e["ev"] == pytest.approx(e["win"] - e["loss"])


@pytest.mark.parametrize(("argv", "message"), [
    (["As Kd Qh JK 9c 5d"], "a pai gow hand has 7 cards, not 6"),
    (["As Kd Qh JK 9c 5d 5d"], "duplicate card 5d"),
    (["As Kd Qh JK 9c 5d 1s"], "bad card '1s'"),
    ([CARDS, "--samples", "1"], "'1' must be from 2 to 100,000,000"),
    ([CARDS, "--samples", "many"], "'many' is not a whole number"),
    ([CARDS, "--samples", "10", "--exact"], "not allowed with argument"),
    ([CARDS, "--seed", "x"], "seed 'x' is not a whole number"),
    ([CARDS, "--house-way", "caesars"], "'caesars' is not a House Way"),
    ([CARDS, "--rules", "{"], "--rules is not JSON"),
    ([CARDS, "--rules", "[1]"], "--rules must be a JSON object"),
    ([CARDS, "--rules", '{"wheels": "low"}'], "unknown field 'wheels'"),
    ([CARDS, "--rules", '{"wheel": "high"}'], "wheel must be 'second' or 'low', not 'high'"),
    ([CARDS, "--rules", '{"house_way": "foxwoods"}', "--house-way", "ballys_ac"], "disagree"),
])
def test_bad_input_exits_2_with_the_reason(capsys: pytest.CaptureFixture[str], argv: list[str],
                                           message: str) -> None:
    code, out, err = run(capsys, "analyze", *argv)
    assert code == 2
    assert out == ""
    assert message in err
    assert "Traceback" not in err
