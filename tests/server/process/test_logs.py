from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterator

import pytest

from paigow_server.process.logs import JsonFormatter, PlainFormatter, bind, configure_logging, log_context
from paigow_server.process.settings import Settings, load_settings


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


@pytest.fixture
def unconfigured() -> Iterator[None]:
    yield
    for name in ("paigow", "paigow_server", "uvicorn", "uvicorn.error"):
        logging.getLogger(name).handlers.clear()
        logging.getLogger(name).propagate = True


@pytest.mark.usefixtures("unconfigured")
def test_configure_logging_writes_json_to_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    configure_logging("info", "json")
    with bind(table_id="t1"):
        logging.getLogger("paigow_server.app").info("ready", extra={"port": 8000})
    logging.getLogger("paigow_server.app").debug("hidden")
    lines = [json.loads(line) for line in capsys.readouterr().err.splitlines()]
    assert [(x["msg"], x["table_id"], x["port"]) for x in lines] == [("ready", "t1", 8000)]


@pytest.mark.usefixtures("unconfigured")
def test_by_default_the_terminal_gets_plain_lines_a_person_reads(capsys: pytest.CaptureFixture[str]) -> None:
    configure_logging("info")
    with bind(table_id="t1"):
        logging.getLogger("uvicorn.error").info("Started server process [42]")
        logging.getLogger("paigow_server.app").warning("slow commit", extra={"ms": 250})
    lines = capsys.readouterr().err.splitlines()
    stamp = r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d"
    assert len(lines) == 2
    assert re.fullmatch(f"{stamp} info Started server process \\[42\\] table_id=t1", lines[0]), lines
    assert re.fullmatch(f"{stamp} warning slow commit table_id=t1 ms=250", lines[1]), lines


def test_a_plain_line_keeps_its_traceback_below_it() -> None:
    try:
        raise ValueError("bad seat 9")
    except ValueError:
        import sys

        record = logging.LogRecord("paigow", logging.ERROR, __file__, 1, "failed", (), sys.exc_info())
    record.__dict__["table_id"] = "t3"
    first, *rest = PlainFormatter().format(record).splitlines()
    assert first.endswith(" error failed table_id=t3")
    assert rest[0] == "Traceback (most recent call last):"
    assert rest[-1] == "ValueError: bad seat 9"


def test_the_log_format_is_plain_unless_a_deployment_sets_json() -> None:
    assert Settings().log_format == "plain"
    assert load_settings({}, {}).log_format == "plain"
    assert load_settings({}, {"PAIGOW_LOG_FORMAT": "JSON"}).log_format == "json"
    assert load_settings({"log_format": "json"}, {}).log_format == "json"
    assert load_settings({}, {"PAIGOW_LOG_FORMAT": "text"}).log_format == "plain"  # the earlier name
