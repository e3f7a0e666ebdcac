"""``paigow verify``: recompute a round from its revealed seed; exit 0 verified, 1 mismatch, 2 bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import TypeAdapter

from paigow import fair
from paigow.table.records import RoundRecord
from paigow_server.cli import main

SEED = "5e" * 32


def test_seed_and_round_print_the_deal_and_check_the_commitment(capsys: pytest.CaptureFixture[str]) -> None:
    commitment = fair.new_commitment(bytes.fromhex(SEED))
    d = fair.deal(bytes.fromhex(SEED), "main-7", 0)
    args = ["verify", "--seed", SEED, "--round", "main-7", "--commitment", commitment,
            "--dice", ",".join(map(str, d.dice)), "--first", str(d.first_position)]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert commitment in out
    assert "VERIFIED" in out
    assert " ".join(str(x) for x in d.hands[3]) in out
    assert " ".join(str(x) for x in d.discards) in out
    assert main(["verify", "--seed", SEED, "--round", "main-7", "--commitment", "ab" * 32]) == 1
    assert "MISMATCH: commitment" in capsys.readouterr().out


def _record(driver) -> RoundRecord:
    d = driver()
    d.sit(3)
    d.play_round()
    return d.last_record


def test_a_round_record_from_the_table_verifies(driver, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    record = _record(driver)
    path = tmp_path / "round.json"
    path.write_bytes(TypeAdapter(RoundRecord).dump_json(record))
    assert main(["verify", "--record", str(path)]) == 0
    assert "VERIFIED" in capsys.readouterr().out
    # A round_settled event holding the record works too.
    path.write_text(json.dumps({"kind": "round_settled", "record": json.loads(path.read_text())}))
    assert main(["verify", "--record", str(path)]) == 0


def test_a_tampered_record_does_not_verify(driver, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(TypeAdapter(RoundRecord).dump_json(_record(driver)))
    data["hands"][1]["dealt"] = data["hands"][2]["dealt"]
    path = tmp_path / "round.json"
    path.write_text(json.dumps(data))
    assert main(["verify", "--record", str(path)]) == 1
    assert "MISMATCH: position" in capsys.readouterr().out


def test_bad_input_exits_2_without_a_traceback(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    cases = [
        ["verify"],
        ["verify", "--seed", "zz", "--round", "r"],
        ["verify", "--seed", SEED, "--round", "r", "--banker", "9"],
        ["verify", "--seed", SEED, "--round", "r", "--dice", "a,b"],
        ["verify", "--record", str(bad)],
        ["verify", "--record", str(tmp_path / "missing.json")],
    ]
    for args in cases:
        assert main(args) == 2, args
        err = capsys.readouterr().err
        assert err.startswith("paigow verify: ")
        assert "Traceback" not in err
    bad.write_text(json.dumps({"server_seed": SEED, "round_id": "r", "hands": "x"}))
    assert main(["verify", "--record", str(bad)]) == 2
