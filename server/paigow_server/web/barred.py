"""A ``BARRED`` refusal, in the same words wherever it is answered (docs/protocol.md, docs/http-api.md): at a
private table's hello, at a barred player's ``sit`` (or any command that leads to a seat), at the close of a
removed player's connection, and at ``POST /api/invites/resolve``.

Each says who barred the player (``by``: ``"host"``, a private table's host's ``host_remove``, or
``"operator"``, an operator's kick with a bar; from the bar's ``actor``: ``store.bars.Bar.by``) and when
the bar ends (``until_ms``), beside a message that says both: "the host removed you from table 'X' until
<UTC>" or "the table's operator barred you from table 'X' until <UTC>".
"""

from __future__ import annotations

import time

from paigow.protocol.codes import ErrorCode
from paigow.table.state import KickedBy
from paigow_server.errors import ApiError
from paigow_server.store.bars import Bar

__all__ = ["barred_error", "barred_message", "utc_text"]


def utc_text(ms: int) -> str:
    """A moment (ms since the epoch) as the server's messages say it: ``2026-12-02 13:52:58 UTC``."""
    return time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(ms / 1000))


def barred_message(by: KickedBy, table: str, until_ms: int | None) -> str:
    """Who barred the player from ``table`` (its id or name, quoted), and until when (when known)."""
    who = "the host removed you" if by is KickedBy.HOST else "the table's operator barred you"
    until = "" if until_ms is None else f" until {utc_text(until_ms)}"
    return f"{who} from table {table!r}{until}"


def barred_error(bar: Bar, table: str) -> ApiError:
    """The HTTP answer to a barred player: ``403 BARRED`` with ``until_ms`` and ``by`` in the body."""
    return ApiError(403, ErrorCode.BARRED, barred_message(bar.by, table, bar.until_ms),
                    extra={"until_ms": bar.until_ms, "by": bar.by.value})
