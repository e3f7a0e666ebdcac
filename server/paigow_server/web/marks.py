"""The cap on combining marks: text others see may stack at most ``MAX_MARKS`` combining marks (Unicode
categories Mn and Me) on one character.

A mark draws over or under the character before it, so a run of hundreds ("Zalgo" text) paints over the
lines around it. Written languages stack few: Vietnamese two, pointed Hebrew with cantillation three or four;
so four on one character is allowed and a fifth is refused, with the position it starts at. Spacing marks
(Mc, as in Devanagari) take their own room and are not counted. Marks are counted in the composed form
(NFC: ``e`` + U+0301 is one character, ``é``). ``excess_mark`` is the one count, used by the table chat
(``check_marks``, four at most) and by display names (``web.names.check_combining_marks``, three).
"""

from __future__ import annotations

import unicodedata

from paigow_server.errors import ServerError

__all__ = ["MAX_MARKS", "TooManyMarksError", "check_marks", "excess_mark"]

MAX_MARKS = 4
_MARKS = frozenset({"Mn", "Me"})


class TooManyMarksError(ServerError, ValueError):
    """More than ``MAX_MARKS`` combining marks on one character; the message says where."""

    code = "INVALID_FIELD"
    http_status = 400


def excess_mark(text: str, max_marks: int) -> int | None:
    """The position, in ``text`` composed (NFC), of the first combining mark past ``max_marks`` on one
    character, or None when there is none."""
    run = 0
    for position, char in enumerate(unicodedata.normalize("NFC", text)):
        if unicodedata.category(char) not in _MARKS:
            run = 0
            continue
        run += 1
        if run > max_marks:
            return position
    return None


def check_marks(text: str, field: str, max_marks: int = MAX_MARKS) -> str:
    """``text`` unchanged, or ``TooManyMarksError`` naming ``field`` and the position of the long run."""
    position = excess_mark(text, max_marks)
    if position is not None:
        raise TooManyMarksError(f"{field} has more than {max_marks} combining marks on one character "
                                f"(from position {position - max_marks}): at most {max_marks}")
    return text
