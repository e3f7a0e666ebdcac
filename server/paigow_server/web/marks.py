"""The cap on combining marks: text others see may stack at most ``MAX_MARKS`` combining marks (Unicode
categories Mn and Me) on one character.

A mark draws over or under the character before it, so a run of hundreds ("Zalgo" text) paints over the
lines around it. Written languages stack few: Vietnamese two, pointed Hebrew with cantillation three or four;
so four on one character is allowed and a fifth is refused, with the position it starts at. Spacing marks
(Mc, as in Devanagari) take their own room and are not counted. Used by the table chat (``web.chat``); the
same one function is meant for display names (``web.names``).
"""

from __future__ import annotations

import unicodedata

__all__ = ["MAX_MARKS", "TooManyMarksError", "check_marks"]

MAX_MARKS = 4
_MARKS = frozenset({"Mn", "Me"})


class TooManyMarksError(ValueError):
    """More than ``MAX_MARKS`` combining marks on one character; the message says where."""


def check_marks(text: str, field: str, max_marks: int = MAX_MARKS) -> str:
    """``text`` unchanged, or ``TooManyMarksError`` naming ``field`` and the position of the long run."""
    run = 0
    for position, char in enumerate(text):
        if unicodedata.category(char) not in _MARKS:
            run = 0
            continue
        run += 1
        if run > max_marks:
            start = position - max_marks
            raise TooManyMarksError(f"{field} has more than {max_marks} combining marks on one character "
                                    f"(from position {start}): at most {max_marks}")
    return text
