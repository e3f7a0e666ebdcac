"""What a table's commit answers (``CommitResult``), on every topology, and the deadline it records."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from paigow.table.machine import next_deadline
from paigow.table.state import TableState
from paigow_server.errors import ServerError

__all__ = ["CommitNotConfirmed", "CommitResult", "deadline_arg", "result_of"]


class CommitNotConfirmed(ServerError, RuntimeError):
    """A command's commit was written, but no replica holds it yet (``committed_version``)."""


class CommitResult(StrEnum):
    OK = "OK"
    CONFLICT = "CONFLICT"
    """The table is not at ``before.version`` any more (or no longer exists): decide again."""
    INSUFFICIENT_BALANCE = "INSUFFICIENT_BALANCE"
    """A buy-in is more than the player's balance: nothing was written."""
    FENCED = "FENCED"
    """The fencing token given is not the table's current one: another process drives the table."""
    DUPLICATE = "DUPLICATE"
    """A commit of this request id was written already: the command ran once, nothing was written now."""
    LIMITS = "LIMITS"
    """The deployment's limits generation is not the one the commit was checked at (a player got a first
    limit since this process read that they had none): nothing was written; check again (``play_risk``)."""
    UNCONFIRMED = "UNCONFIRMED"
    """Replicas are required (``Durability``) and too few acknowledged the commit in time, or the
    connection broke after it was sent: it may be lost in a failover, or may stand. Nothing was
    published; the caller must not report the command as done (``durability.py``)."""


def result_of(reply: Any) -> CommitResult:
    """A commit script's answer (a hold voided meanwhile is a conflict: decide again)."""
    text = reply.decode() if isinstance(reply, bytes) else str(reply)
    return CommitResult.CONFLICT if text == "HOLD_VOID" else CommitResult(text)


def deadline_arg(state: TableState) -> int | str:
    """The state's next deadline as a commit script's argument ('' = none)."""
    at = next_deadline(state)
    return "" if at is None else at
