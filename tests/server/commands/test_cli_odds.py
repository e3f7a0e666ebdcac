"""``paigow odds``: the exact counts of the commission-free forms and the Queen's Dragon, ``--json``'s
shape and the text report."""

from __future__ import annotations

import json

import pytest

from support.harness import run_cli


def test_odds_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli("odds", "--json") == 0
    out, err = capsys.readouterr()
    assert err == ""
    data = json.loads(out)
    assert set(data) == {"total", "queens_dragon", "nine_high_low", "queen_high_by_class", "probabilities",
                         "published", "seconds"}
    assert data["total"] == 154_143_080
    assert data["queens_dragon"] == {"hands": 2_719_500, "pays": 50, "house_edge": 0.100222}
    assert data["nine_high_low"] == {"trump_plaza": 3_853_596, "foxwoods": 3_853_596, "ballys_ac": 3_855_516}
    assert data["queen_high_by_class"] == 2_719_500
    assert data["probabilities"]["queen_high_pai_gow"] == 0.017643
    assert data["probabilities"]["nine_high_low"]["ballys_ac"] == 0.025013
    assert data["published"]["tiger_9_probability_trump_plaza"] == 0.025007
    assert 0 < data["seconds"] < 120


def test_odds_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli("odds") == 0
    out = capsys.readouterr().out
    assert "154,143,080" in out
    assert "2,719,500 (1.7643%; by class 2,719,500; published 2,719,500)" in out
    assert "Queen's Dragon at 50 to 1: house edge 10.0222%" in out
    assert "Bally's Atlantic City" in out
    assert "3,855,516" in out
