"""The one check of a name people type and others see: a player's display name, a table's name, and a
table chat's text.

A name is text without control, format, surrogate, private-use or unassigned characters and without line
or paragraph separators (Unicode categories Cc, Cf, Cs, Co, Cn, Zl, Zp: ``"\\n"``, ``"\\t"``, ``"\\x85"``,
U+200B, U+2028, ...), checked on the text as sent, before anything is changed; then its surrounding space
is removed and each inner run of space becomes one space; what is left is 1 to ``max_length`` characters.
"""

from __future__ import annotations

import unicodedata

from paigow_server.errors import ServerError
from paigow_server.web.marks import excess_mark

__all__ = [
    "FORBIDDEN_CATEGORIES",
    "MAX_COMBINING_RUN",
    "InvalidNameError",
    "NameTooLongError",
    "check_combining_marks",
    "check_name",
]

FORBIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
MAX_COMBINING_RUN = 3
"""Combining marks in a row after one character (NFC), at most: enough for any script's accents, vowel
signs and tone marks (Vietnamese, Thai, Hebrew with points, Devanagari), not for marks stacked into a
tower that covers the lines around it ("Zalgo" text)."""
_MAX_QUOTE = 60


class InvalidNameError(ServerError, ValueError):
    """A name that is not text, is empty, too long or holds a forbidden character; the message quotes it."""

    code = "INVALID_FIELD"
    http_status = 400


class NameTooLongError(InvalidNameError):
    """A name over its length limit (a chat text: ``CHAT_TOO_LONG``)."""


def check_name(raw: object, field: str, max_length: int) -> str:
    """``raw`` as a name (see the module), or ``InvalidNameError`` naming ``field`` and what is wrong."""
    if not isinstance(raw, str):
        raise InvalidNameError(f"{field} must be text, not {_quote(raw)}")
    for position, char in enumerate(raw):
        category = unicodedata.category(char)
        if category in FORBIDDEN_CATEGORIES:
            raise InvalidNameError(
                f"{field} {_quote(raw)} has the character U+{ord(char):04X} (category {category}) at "
                f"position {position}: control, format, separator and unassigned characters are not allowed")
    name = " ".join(raw.split())
    if not name:
        raise InvalidNameError(f"{field} must not be empty")
    if len(name) > max_length:
        raise NameTooLongError(f"{field} {_quote(name)} is {len(name)} characters; at most {max_length}")
    return name


def check_combining_marks(text: str, field: str, *, max_run: int = MAX_COMBINING_RUN) -> str:
    """``text`` unchanged, or ``InvalidNameError`` when more than ``max_run`` combining marks follow one
    character (``web.marks.excess_mark``: Mn and Me, counted composed)."""
    position = excess_mark(text, max_run)
    if position is not None:
        raise InvalidNameError(f"{field} {_quote(text)} stacks more than {max_run} combining marks on "
                               f"one character (at position {position})")
    return text


def _quote(value: object) -> str:
    text = repr(value)
    return text if len(text) <= _MAX_QUOTE else text[: _MAX_QUOTE - 3] + "..."
