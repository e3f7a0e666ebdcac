"""docs/http-api.md names every kind of ledger entry the server writes (``GET /api/operator/ledger``), and
no other: outside clients are written from that list."""

from __future__ import annotations

import re
from pathlib import Path

from paigow.ledger.accounts import EntryKind

HTTP_API = Path(__file__).parents[3] / "docs" / "http-api.md"
KINDS_START = "Ledger entries: `id`, `ts_ms`, `kind` ("


def _top_level_names(text: str) -> list[str]:
    """The backquoted names of a parenthesised list that starts ``text`` (its opening parenthesis), at its
    own level only: what each item's own parentheses say (an account, a ``reason``) is not an item."""
    depth, names = 0, []
    for match in re.finditer(r"[()]|`([^`]*)`", text):
        if match.group(0) == "(":
            depth += 1
        elif match.group(0) == ")":
            depth -= 1
            if depth == 0:
                return names
        elif depth == 1:
            names.append(match.group(1))
    raise AssertionError("the list of ledger kinds is not closed")


def test_the_list_reads_only_its_own_level() -> None:
    assert _top_level_names("(`a` (`x` (`y`)), `b` (`z`)), `c`") == ["a", "b"]


def test_the_http_api_doc_names_every_ledger_kind() -> None:
    text = HTTP_API.read_text(encoding="utf-8")
    start = text.index(KINDS_START) + len(KINDS_START) - 1
    documented = _top_level_names(text[start:])
    assert len(documented) == len(set(documented)), documented
    assert set(documented) == {kind.value for kind in EntryKind}
