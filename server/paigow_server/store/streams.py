"""Reading append-only Redis streams (ledger, audit log, rounds) page by page.

Each entry holds one JSON document in its field ``e``; a page comes back as those documents, each with
its stream id added as ``"id"``, and the id to pass as ``after`` for the next page (None at the end).
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any, cast

from redis.asyncio import Redis

from paigow_server.errors import ServerError

__all__ = ["MAX_PAGE", "Page", "PageError", "check_cursor", "iterate", "read_page"]

FIELD = "e"
MAX_PAGE = 1000


class PageError(ServerError, ValueError):
    """A bad ``after`` cursor or ``limit``; the message quotes it."""

    code = "INVALID_FIELD"
    http_status = 400


@dataclass(frozen=True, slots=True)
class Page:
    entries: list[dict[str, Any]]
    next_after: str | None
    """Pass as ``after`` to read on; None when this page reached the end."""


_CURSOR = re.compile(r"([0-9]{1,20})(?:-([0-9]{1,20}))?")
_MAX_PART = 2**64 - 1
_LAST_ID = f"{_MAX_PART}-{_MAX_PART}"


def check_cursor(after: str | None) -> str | None:
    """``after`` as a stream id to read after (``<ms>-<seq>`` or a bare ``<ms>``, each part a whole number
    that fits in 64 bits, ASCII digits only), None for the start; raises ``PageError`` before any Redis
    call, so a bad cursor is the caller's mistake, never a data-store failure."""
    if after is None or after == "":
        return None
    match = _CURSOR.fullmatch(after)
    if match is None or any(int(part) > _MAX_PART for part in match.groups() if part is not None):
        raise PageError(f"after={after[:60]!r} is not a stream id like 1717171717171-0 "
                        f"(<ms>-<seq> or <ms>, each a whole number from 0 to {_MAX_PART})")
    return after


async def read_page(redis: Redis, key: str, *, after: str | None = None, limit: int = 100,
                    until: str = "+") -> Page:
    """Up to ``limit`` entries after ``after`` and no later than ``until`` (a stream id; ``+``: the end)."""
    if not 1 <= limit <= MAX_PAGE:
        raise PageError(f"limit={limit} must be from 1 to {MAX_PAGE}")
    cursor = check_cursor(after)
    if cursor == _LAST_ID:  # the largest id there is: nothing comes after it (Redis refuses the interval)
        return Page([], None)
    start = "-" if cursor is None else f"({cursor}"
    rows = cast(list[tuple[str | bytes, dict[Any, Any]]],
                await redis.xrange(key, min=start, max=until, count=limit + 1))
    entries = [{"id": _text(entry_id), **json.loads(fields[FIELD])} for entry_id, fields in rows[:limit]]
    next_after = entries[-1]["id"] if len(rows) > limit else None
    return Page(entries, next_after)


async def iterate(redis: Redis, key: str, *, batch: int = MAX_PAGE,
                  until: str = "+") -> AsyncIterator[dict[str, Any]]:
    """Every entry (up to the id ``until``), oldest first."""
    after: str | None = None
    while True:
        page = await read_page(redis, key, after=after, limit=batch, until=until)
        for entry in page.entries:
            yield entry
        if page.next_after is None:
            return
        after = page.next_after


def _text(value: str | bytes) -> str:
    return value.decode() if isinstance(value, bytes) else value
