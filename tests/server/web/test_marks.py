"""The cap on combining marks (``web.marks``): at most four on one character, counted per character in the
composed form (``a`` + U+0301 is ``á``, one character)."""

from __future__ import annotations

import pytest

from paigow_server.web.marks import MAX_MARKS, TooManyMarksError, check_marks


@pytest.mark.parametrize("text", ["plain", "Vie\u0302\u0323t", "a\u0301\u0302\u0303\u0304b\u0301",
                                  "\u0301" * 4, "a" + "\u0301" * 5,
                                  "\u0928\u092e\u0938\u094d\u0924\u0947", "\u05e9\u05c1\u05b8\u0591\u05dc"])
def test_few_marks_on_each_character_are_allowed(text: str) -> None:
    assert check_marks(text, "chat.text") == text


@pytest.mark.parametrize(("text", "start"), [("a" + "\u0336" * 5, 1), ("a" + "\u0301" * 6, 1),
                                             ("ab" + "\u20dd" * 5, 2), ("x" + "\u0301" * 199, 1),
                                             ("\u0301" * 5, 0)])
def test_a_fifth_mark_on_one_character_is_refused(text: str, start: int) -> None:
    with pytest.raises(TooManyMarksError, match=f"chat.text has more than {MAX_MARKS} combining marks on one "
                                                f"character \\(from position {start}\\)"):
        check_marks(text, "chat.text")
