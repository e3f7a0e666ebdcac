"""docs/protocol.md's "Errors" lists every code an ``error`` message can carry, each with its meaning: the
``ErrorCode`` table every ``ErrorCode`` and the ``RejectCode`` table every ``RejectCode`` (outside clients
switch on these codes, written only from the docs and the schema)."""

from __future__ import annotations

import re
from pathlib import Path

from paigow.protocol.codes import ErrorCode
from paigow.table.rejections import RejectCode

PROTOCOL = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def _code_tables() -> dict[str, dict[str, str]]:
    """The tables of the "Errors" section by their first header (``ErrorCode``, ``RejectCode``): each code
    of a row's first cell (one row may name several) with the row's meaning."""
    text = PROTOCOL.read_text(encoding="utf-8")
    start = text.index("\n## Errors\n")
    section = text[start:text.index("\n## ", start + 1)]
    tables: dict[str, dict[str, str]] = {}
    rows: dict[str, str] | None = None
    for line in section.splitlines():
        header = re.fullmatch(r"\| `(\w+)` \| meaning \|", line)
        if header:
            rows = tables.setdefault(header.group(1), {})
        elif rows is not None and line.startswith("| `"):
            first, meaning = line[2:].split(" | ", 1)
            for code in re.findall(r"`([A-Z_]+)`", first):
                assert code not in rows, f"{code} twice in the table"
                rows[code] = meaning.removesuffix(" |").strip()
        elif not line.startswith("|"):
            rows = None
    return tables


def test_every_code_an_error_can_carry_is_in_its_table_with_a_meaning() -> None:
    tables = _code_tables()
    assert set(tables) == {"ErrorCode", "RejectCode"}
    assert set(tables["ErrorCode"]) == {code.value for code in ErrorCode}
    assert set(tables["RejectCode"]) == {code.value for code in RejectCode}
    assert [code for rows in tables.values() for code, meaning in rows.items() if not meaning] == []


def test_each_variant_refusal_has_its_own_code_and_says_what_is_refused() -> None:
    """Issue 29: ``BONUS_OFF`` had three other meanings (co-banking, the Queen's Dragon at a table without
    it, and in a player-banked round)."""
    rejects = _code_tables()["RejectCode"]
    assert "Fortune bonus" in rejects["BONUS_OFF"]
    assert "co-banking" in rejects["CO_BANKING_OFF"]
    assert "does not offer the Queen's Dragon" in rejects["QUEENS_DRAGON_OFF"]
    assert "a player banks" in rejects["QUEENS_DRAGON_HOUSE_BANK_ONLY"]
    assert all("Fortune" not in rejects[code] for code in
               ("CO_BANKING_OFF", "QUEENS_DRAGON_OFF", "QUEENS_DRAGON_HOUSE_BANK_ONLY"))
