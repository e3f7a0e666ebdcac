"""``paigow split`` and ``paigow sim``: output, ``--json`` shapes, exit codes, errors without tracebacks."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from support.harness import run_cli_captured as run_cli


def test_split_prints_both_hands_named(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys, "split", "As Ks Qs Js Ts 2c 3d")
    assert code == 0
    assert err == ""
    high, low = out.splitlines()[:2]
    assert "As Ks Qs Js Ts" in high
    assert "royal flush" in high
    assert "3d 2c" in low
    assert "three-two" in low


def test_split_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "split", "--json", "6c", "6d", "3h", "3s", "Kc", "9d", "2h")
    assert code == 0
    data = json.loads(out)
    assert set(data) >= {"high", "low", "high_name", "low_name"}
    assert sorted(data["low"]) == ["9d", "Kc"]
    assert sorted(data["high"]) == sorted(["6c", "6d", "3h", "3s", "2h"])
    assert data["high_name"] == "two pair, sixes and threes"
    assert data["low_name"] == "king-nine"
    assert data["clause"] == 7


@pytest.mark.parametrize(("way", "low", "clause", "name", "title"), [
    ("trump_plaza", ["3h", "Kh"], 4, "straight_or_flush",
     "Trump Plaza House Way, clause 4: straight or flush"),
    ("foxwoods", ["Ac", "Qs"], 8, "ace_front_exception",
     "Foxwoods House Way, clause 8: ace front exception"),
    ("ballys_ac", ["3h", "Kh"], 7, "straight_or_flush",
     "Bally's Atlantic City House Way, clause 7: straight or flush"),
])
def test_split_names_the_house_way_and_its_clause(
    capsys: pytest.CaptureFixture[str], way: str, low: list[str], clause: int, name: str, title: str
) -> None:
    cards = "Ac Kd Kh Qs Jc Td 3h"
    code, out, _ = run_cli(capsys, "split", "--json", cards, "--house-way", way)
    assert code == 0
    data = json.loads(out)
    assert (data["house_way"], data["clause"], data["clause_name"]) == (way, clause, name)
    assert sorted(data["low"]) == low
    code, out, _ = run_cli(capsys, "split", cards, "--house-way", way)
    assert code == 0
    assert out.splitlines()[2] == f"({title})"


def test_split_defaults_to_trump_plaza_and_refuses_an_unknown_way(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run_cli(capsys, "split", "--json", "Ac Kd Kh Qs Jc Td 3h")
    assert json.loads(out)["house_way"] == "trump_plaza"
    code, out, err = run_cli(capsys, "split", "Ac Kd Kh Qs Jc Td 3h", "--house-way", "caesars")
    assert code == 2
    assert "'caesars' is not a House Way (choose from trump_plaza, foxwoods, ballys_ac)" in err
    assert "Traceback" not in err


def test_split_accepts_the_joker_and_ten(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "split", "--json", "joker Qd Jh 10s 9c 3d 2h")
    assert code == 0
    data = json.loads(out)
    assert data["high_name"] == "straight, king high"
    assert "JK" in data["high"]


@pytest.mark.parametrize(("cards", "message"), [
    ("As Ks Qs Js Ts 2c 3x", "3x"),
    ("As Ks Qs Js Ts 2c", "seven cards, not 6"),
    ("As Ks Qs Js Ts 2c 3d 4d", "seven cards, not 8"),
    ("As As Qs Js Ts 2c 3d", "duplicate card As"),
])
def test_split_bad_input_exits_2_with_the_reason(
    capsys: pytest.CaptureFixture[str], cards: str, message: str
) -> None:
    code, out, err = run_cli(capsys, "split", cards)
    assert code == 2
    assert out == ""
    assert message in err
    assert "Traceback" not in err


def test_split_bad_input_from_the_console_script() -> None:
    proc = subprocess.run([sys.executable, "-m", "paigow_server.cli", "split", "As Ks Qs Js Ts 2c Zz"],
                          capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 2
    assert "'Zz'" in proc.stderr
    assert "Traceback" not in proc.stderr


SIM_KEYS = {"hands", "win", "push", "loss", "win_se", "push_se", "loss_se", "house_edge", "house_edge_se",
            "house_edge_rounded", "house_edge_rounded_se", "bet_cents", "banker_edge", "counts", "clauses",
            "published", "seed", "workers"}


def test_sim_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys, "sim", "--hands", "2000", "--seed", "3", "--json")
    assert code == 0
    assert err == ""  # no progress bar with --json
    data = json.loads(out)
    assert set(data) >= SIM_KEYS
    assert data["hands"] == 2000
    assert data["seed"] == 3
    assert data["bet_cents"] == 500
    assert sum(data["counts"].values()) == 2000
    assert data["win"] + data["push"] + data["loss"] == pytest.approx(1.0)
    assert sum(data["clauses"].values()) == 4000
    assert 0 < data["win_se"] < 0.02
    assert data["house_edge_rounded"] == pytest.approx(data["house_edge"])  # $5: 25 cents exactly


def test_sim_is_reproducible_and_independent_of_workers(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("sim", "--hands", "1200", "--seed", "9", "--chunk", "300", "--json")
    _, one, _ = run_cli(capsys, *args)
    code, two, _ = run_cli(capsys, *args, "--workers", "2")
    assert code == 0
    assert json.loads(one)["counts"] == json.loads(two)["counts"]
    assert json.loads(one)["clauses"] == json.loads(two)["clauses"]


@pytest.mark.parametrize(("way", "clauses"), [("foxwoods", 11), ("ballys_ac", 11), ("trump_plaza", 9)])
def test_sim_sets_both_hands_by_the_chosen_house_way(
    capsys: pytest.CaptureFixture[str], way: str, clauses: int
) -> None:
    args = ("sim", "--hands", "1500", "--seed", "4", "--house-way", way, "--json", "--chunk", "500")
    code, out, _ = run_cli(capsys, *args)
    assert code == 0
    data = json.loads(out)
    assert data["house_way"] == way
    assert len(data["clauses"]) == clauses
    assert sum(data["clauses"].values()) == 3000
    _, two, _ = run_cli(capsys, *args, "--workers", "2")  # the rules reach the worker processes
    assert json.loads(two)["counts"] == data["counts"]


def test_sim_ways_differ_and_the_report_says_which(capsys: pytest.CaptureFixture[str]) -> None:
    _, trump, _ = run_cli(capsys, "sim", "--hands", "3000", "--seed", "8", "--json")
    _, fox, _ = run_cli(capsys, "sim", "--hands", "3000", "--seed", "8", "--json", "--house-way", "foxwoods")
    assert json.loads(trump)["counts"] != json.loads(fox)["counts"]
    code, out, _ = run_cli(capsys, "sim", "--hands", "300", "--seed", "1", "--house-way", "foxwoods")
    assert code == 0
    assert "both hands by the Foxwoods House Way; the published figures are Trump Plaza's" in out
    assert "Foxwoods House Way clauses" in out
    assert "ace front exception" in out


@pytest.mark.parametrize(("argv", "shown"), [
    (["--bet-cents", "700"], ["published", "$7.00 bet", "two pair"]),
    (["--commission", "ez"], ["commission: EZ Pai Gow", "house edge (no commission)",
                              "dealer hand barred (pushes)", "1.764% exact"]),
])
def test_sim_text_report(capsys: pytest.CaptureFixture[str], argv: list[str], shown: list[str]) -> None:
    code, out, _ = run_cli(capsys, "sim", "--hands", "500", "--seed", "1", *argv)
    assert code == 0
    assert "500 hands, seed 1" in out
    for text in shown:
        assert text in out


@pytest.mark.parametrize("argv", [["--hands", "0"], ["--hands", "ten"], ["--workers", "0"], ["--seed", "x"],
                                  ["--commission", "free"]])
def test_sim_bad_arguments_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    code, _, err = run_cli(capsys, "sim", *argv)
    assert code == 2
    assert "Traceback" not in err
    if argv[0] == "--commission":
        assert "'free' is not a commission form: commissioned, ez or nine-high" in err


def run_on_a_terminal(*argv: str) -> tuple[int, str]:
    """Run the console script with a pseudo-terminal as its standard streams; return (status, output)."""
    import os

    primary, secondary = os.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "paigow_server.cli", *argv],
                            stdin=secondary, stdout=secondary, stderr=secondary)
    os.close(secondary)
    chunks = []
    while True:
        try:
            data = os.read(primary, 65536)
        except OSError:  # the terminal closes when the process exits
            break
        if not data:
            break
        chunks.append(data)
    os.close(primary)
    return proc.wait(timeout=60), b"".join(chunks).decode(errors="replace")


def test_sim_shows_a_progress_bar_on_a_terminal_only_without_json() -> None:
    code, out = run_on_a_terminal("sim", "--hands", "1000", "--seed", "2", "--chunk", "250")
    assert code == 0
    assert "dealing" in out  # the rich progress bar
    assert "1,000 hands, seed 2" in out
    code, out = run_on_a_terminal("sim", "--hands", "1000", "--seed", "2", "--json")
    assert code == 0
    assert "dealing" not in out
    assert json.loads(out)["hands"] == 1000


@pytest.mark.parametrize(("flag", "form", "exact"), [("ez", "ez", 2_719_500 / 154_143_080),
                                                      ("nine-high", "nine_high", 3_853_596 / 154_143_080),
                                                      ("nine_high", "nine_high", 3_853_596 / 154_143_080)])
def test_sim_commission_free(capsys: pytest.CaptureFixture[str], flag: str, form: str, exact: float) -> None:
    code, out, err = run_cli(capsys, "sim", "--hands", "2000", "--seed", "3", "--commission", flag, "--json")
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert set(data) >= SIM_KEYS | {"commission", "barred", "barred_se", "barred_exact", "barred_wins",
                                    "barred_wins_se"}
    assert data["commission"] == form
    assert data["barred_exact"] == pytest.approx(exact)
    assert 0 < data["barred_wins"] < data["barred"] <= data["push"]
    assert data["house_edge"] == pytest.approx(data["loss"] - data["win"])  # no commission
    assert data["published"]["win"] == {"ez": 0.274597, "nine_high": 0.273726}[form]
    _, plain, _ = run_cli(capsys, "sim", "--hands", "2000", "--seed", "3", "--json")
    assert "barred" not in json.loads(plain)
    assert json.loads(plain)["commission"] == "commissioned"
    assert json.loads(plain)["counts"]["loss"] >= data["counts"]["loss"]  # the same deals, some pushed
