"""The reason an operator gives for voiding a round or kicking a player: required, kept in the audit log.

A reason is checked like a name people see (``names.check_name``: no control, format or separator
characters; surrounding space removed, inner runs of space made one), then must be 1 to
``MAX_REASON_LENGTH`` characters. Absent, null or only space: ``400 REASON_REQUIRED``; not text, too long or
holding a forbidden character: ``400 INVALID_FIELD`` naming what is wrong.
"""

from __future__ import annotations

from typing import Any

from paigow_server.web.api import ApiError
from paigow_server.web.names import InvalidNameError, check_name

__all__ = ["MAX_REASON_LENGTH", "reason_of"]

MAX_REASON_LENGTH = 200


def reason_of(data: dict[str, Any], action: str) -> str:
    """The body's ``reason`` for ``action`` (``"a void"``, ``"a kick"``), or an ``ApiError``."""
    raw = data.get("reason")
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        raise ApiError(400, "REASON_REQUIRED", f"{action} needs a reason (1 to {MAX_REASON_LENGTH} "
                                               "characters): it is kept in the audit log",
                       extra={"max_chars": MAX_REASON_LENGTH})
    try:
        return check_name(raw, "reason", MAX_REASON_LENGTH)
    except InvalidNameError as exc:
        raise ApiError(400, "INVALID_FIELD", str(exc)) from None
