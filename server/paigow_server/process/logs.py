"""Logs carrying the table id and round of the work in progress: by default one plain line a person reads
(``2026-12-01 23:00:50 info started a private Redis redis_url=redis://127.0.0.1:39813/0``), or, as a
setting for deployments (``--log-format json``), one JSON object per line.

``bind(table_id=..., round_id=...)`` sets them for the current task (a context variable), so every log
line written while a command is handled names its table without threading it through each call.
"""

from __future__ import annotations

import contextlib
import contextvars
import json
import logging
import sys
import time
from collections.abc import Iterator
from typing import Any

__all__ = ["JsonFormatter", "PlainFormatter", "bind", "configure_logging", "log_context"]

_context: contextvars.ContextVar[dict[str, Any] | None] = contextvars.ContextVar("paigow_log_context",
                                                                                  default=None)
_STANDARD = frozenset(logging.LogRecord("", 0, "", 0, "", (), None).__dict__) | {
    "message", "asctime", "color_message"}  # uvicorn adds a coloured copy of its message


def log_context() -> dict[str, Any]:
    return dict(_context.get() or {})


@contextlib.contextmanager
def bind(**fields: Any) -> Iterator[None]:
    """Add ``fields`` (e.g. table_id, round_id, player_id) to every log line written inside the block."""
    token = _context.set({**(_context.get() or {}), **fields})
    try:
        yield
    finally:
        _context.reset(token)


def _extra(record: logging.LogRecord) -> dict[str, Any]:
    """The ``extra={...}`` fields of a log call."""
    return {k: v for k, v in record.__dict__.items() if k not in _STANDARD and not k.startswith("_")}


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        line.update(_context.get() or {})
        line.update(_extra(record))
        if record.exc_info:
            line["exc"] = self.formatException(record.exc_info)
        return json.dumps(line, default=str, separators=(",", ":"))


class PlainFormatter(logging.Formatter):
    """``2026-12-01 23:00:50 info started a private Redis redis_url=... data_dir=paigow-data``: the time
    (local), the level, the message, then the bound and extra fields as ``key=value`` (a traceback, when
    there is one, on the lines below)."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(_level)s %(message)s", datefmt="%Y-%m-%d %H:%M:%S")

    def format(self, record: logging.LogRecord) -> str:
        record._level = record.levelname.lower()
        extra = {**(_context.get() or {}), **_extra(record)}
        head, _, rest = super().format(record).partition("\n")
        line = head + "".join(f" {k}={v}" for k, v in extra.items())
        return f"{line}\n{rest}" if rest else line


def configure_logging(level: str = "info", fmt: str = "plain") -> None:
    """Route the ``paigow`` loggers (and uvicorn's) to stderr in the chosen format (``plain``, ``json``)."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter() if fmt == "json" else PlainFormatter())
    for name in ("paigow", "paigow_server", "uvicorn", "uvicorn.error"):
        logger = logging.getLogger(name)
        logger.handlers[:] = [handler]
        logger.setLevel(level.upper())
        logger.propagate = False
    logging.getLogger("uvicorn.access").setLevel(logging.WARNING)
