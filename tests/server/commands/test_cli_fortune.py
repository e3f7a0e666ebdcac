"""``paigow fortune``: the exhaustive Fortune count, its ``--json`` shape, the pay-table choice."""

from __future__ import annotations

import json

import pytest

from paigow.rules import FORTUNE_COUNTS, FORTUNE_TOTAL, FortuneHand
from support.harness import run_cli


def fortune(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = run_cli("fortune", *argv)
    return (code, *capsys.readouterr())


def test_fortune_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = fortune(capsys, "--json")
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert set(data) == {"total", "counts", "matches_published", "pay_tables", "seconds"}
    assert data["total"] == FORTUNE_TOTAL
    assert data["counts"] == {h.name.lower(): FORTUNE_COUNTS[h] for h in FortuneHand}
    assert list(data["counts"]) == [h.name.lower() for h in FortuneHand]  # the best first
    assert data["matches_published"] is True
    assert list(data["pay_tables"]) == ["fortune-8000", "fortune-5000"]
    default = data["pay_tables"]["fortune-8000"]
    assert default["house_edge"] == 0.077656
    assert round(default["envy_per_seat_cents"] / 100, 4) == 0.0463
    assert default["envy_min_bet_cents"] == 500
    assert default["pays"]["seven_card_straight_flush"] == 8000
    assert "nothing" not in default["pays"]
    assert default["envy_cents"]["four_of_a_kind"] == 500
    assert data["pay_tables"]["fortune-5000"]["house_edge"] == 0.078279
    assert 0 < data["seconds"] < 120


def test_fortune_one_pay_table_as_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = fortune(capsys, "--pay-table", "fortune-5000")
    assert code == 0
    assert "154,143,080" in out
    assert "seven-card straight flush with joker" in out
    assert "the counts match the published ones" in out
    assert "fortune-5000: house edge 7.8279%" in out
    assert "5,000 to 1" in out
    assert "fortune-8000" not in out


def test_fortune_unknown_pay_table_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = fortune(capsys, "--pay-table", "nope")
    assert code == 2
    assert "fortune-8000" in err
    assert "Traceback" not in err


def test_sim_fortune_json(capsys: pytest.CaptureFixture[str]) -> None:
    code = run_cli("sim", "--hands", "3000", "--seed", "4", "--fortune", "--json")
    out, _ = capsys.readouterr()
    assert code == 0
    fortune = json.loads(out)["fortune"]
    assert sum(fortune["counts"].values()) == 3000
    assert list(fortune["counts"]) == [h.name.lower() for h in FortuneHand]
    figures = fortune["pay_tables"]["fortune-8000"]
    assert set(figures) == {"house_edge", "house_edge_se", "exact_house_edge", "envy_per_seat_cents",
                            "envy_per_seat_cents_se", "exact_envy_per_seat_cents"}
    assert round(figures["exact_house_edge"], 6) == 0.077656
    assert abs(figures["house_edge"] - figures["exact_house_edge"]) < 4 * figures["house_edge_se"]


def test_sim_fortune_text_and_without_it(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli("sim", "--hands", "500", "--seed", "1", "--fortune") == 0
    out, _ = capsys.readouterr()
    assert "fortune-8000 house edge" in out
    assert "7.766%" in out  # the exact figure beside the sampled one
    assert "fortune-5000 Envy per other seat" in out
    assert run_cli("sim", "--hands", "500", "--seed", "1", "--json") == 0
    out, _ = capsys.readouterr()
    assert "fortune" not in json.loads(out)
