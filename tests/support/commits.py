"""``commit_now``: the core's ``Commit`` of a change a test applied itself, for ``TableRepo.commit``."""

from __future__ import annotations

import time
from collections.abc import Sequence

from paigow.table.commit import Commit, commit_of
from paigow.table.events import Event
from paigow.table.state import TableState

__all__ = ["commit_now"]


def commit_now(before: TableState, after: TableState, events: Sequence[Event], *,
               now_ms: int | None = None) -> Commit:
    """The commit of ``events`` (``before`` → ``after``), at ``now_ms`` (the wall clock by default, as the
    server's ``TableService`` stamps a commit)."""
    return commit_of(before, after, events, now_ms=time.time_ns() // 1_000_000 if now_ms is None else now_ms)
