from __future__ import annotations

import json
import logging

import pytest

from paigow_server.process.logs import JsonFormatter, bind, configure_logging, log_context


def _record(message: str, **extra: object) -> logging.LogRecord:
    record = logging.LogRecord("paigow_server.tables", logging.INFO, __file__, 1, message, (), None)
    record.__dict__.update(extra)
    return record


def test_json_lines_carry_the_bound_table_and_round_and_extras() -> None:
    formatter = JsonFormatter()
    with bind(table_id="t7", round_id="t7-r3"):
        assert log_context() == {"table_id": "t7", "round_id": "t7-r3"}
        with bind(player_id="p_1"):
            line = json.loads(formatter.format(_record("bet placed", amount_cents=500)))
        outer = json.loads(formatter.format(_record("dealt")))
    assert line["msg"] == "bet placed"
    assert line["level"] == "info"
    assert line["logger"] == "paigow_server.tables"
    assert (line["table_id"], line["round_id"], line["player_id"]) == ("t7", "t7-r3", "p_1")
    assert line["amount_cents"] == 500
    assert line["ts"].endswith("Z")
    assert "player_id" not in outer
    assert log_context() == {}
    assert "table_id" not in json.loads(formatter.format(_record("idle")))


def test_exceptions_are_logged_with_their_traceback() -> None:
    try:
        raise ValueError("bad seat 9")
    except ValueError:
        import sys

        record = logging.LogRecord("paigow", logging.ERROR, __file__, 1, "failed", (), sys.exc_info())
    line = json.loads(JsonFormatter().format(record))
    assert "ValueError: bad seat 9" in line["exc"]


def test_configure_logging_writes_json_to_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    configure_logging("info", "json")
    with bind(table_id="t1"):
        logging.getLogger("paigow_server.app").info("ready", extra={"port": 8000})
    logging.getLogger("paigow_server.app").debug("hidden")
    lines = [json.loads(line) for line in capsys.readouterr().err.splitlines()]
    assert [(x["msg"], x["table_id"], x["port"]) for x in lines] == [("ready", "t1", 8000)]
    for name in ("paigow", "paigow_server", "uvicorn", "uvicorn.error"):
        logging.getLogger(name).handlers.clear()
        logging.getLogger(name).propagate = True
