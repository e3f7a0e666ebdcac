"""docs/rules.md is the rulebook the code cites: its House Way examples and its settings table must say what
the code does."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from paigow.rules.house_rules import HouseRules
from paigow.rules.house_way import HouseWayClause

from .test_house_way import RULES_EXAMPLES, check

RULES_DOC = Path(__file__).resolve().parents[2] / "docs" / "rules.md"
_ROW = re.compile(r"^\| ((?:\S\S ){6}\S\S) \| ([^|]+) \| ([^|]+) \| (\d) \|$")


def doc_examples() -> list[tuple[str, str, str, HouseWayClause]]:
    rows = [_ROW.match(line) for line in RULES_DOC.read_text(encoding="utf-8").splitlines()]
    return [(m[1], m[2].strip(), m[3].strip(), HouseWayClause(int(m[4]))) for m in rows if m is not None]


def test_the_doc_lists_the_same_examples_as_the_tests() -> None:
    assert doc_examples() == RULES_EXAMPLES


@pytest.mark.parametrize(("seven", "front", "back", "clause"), doc_examples())
def test_each_documented_example_is_what_the_house_way_does(
        seven: str, front: str, back: str, clause: HouseWayClause) -> None:
    check(seven, front, back, clause)


def test_each_clause_is_named_in_the_doc_under_its_number() -> None:
    text = RULES_DOC.read_text(encoding="utf-8")
    for clause in HouseWayClause:
        assert re.search(rf"^{clause.value}\. \*\*`{clause.name}`\*\*", text, re.MULTILINE), clause


def test_the_settings_table_has_every_house_rules_field_with_its_default() -> None:
    text = RULES_DOC.read_text(encoding="utf-8")
    defaults = HouseRules()
    for field in dataclasses.fields(HouseRules):
        value = getattr(defaults, field.name)
        shown = f'`"{value}"`' if isinstance(value, str) else f"{value:,}"
        assert f"| `{field.name}` | {shown} |" in text, field.name
