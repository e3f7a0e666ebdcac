"""docs/rules.md is the rulebook the code cites: each House Way's section (§7 Trump Plaza, §7a Foxwoods,
§7b Bally's Atlantic City) must list its clauses under their numbers and the same examples as the tests,
and its settings table must say what the code does."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from paigow.rules.house_rules import HouseRules, HouseWayName
from paigow.rules.house_way import Clause, clause_enum

from .test_house_way import RULES_EXAMPLES, check
from .test_house_ways import BALLYS_EXAMPLES, FOXWOODS_EXAMPLES

RULES_DOC = Path(__file__).resolve().parents[2] / "docs" / "rules.md"
_ROW = re.compile(r"^\| ((?:\S\S ){6}\S\S) \| ([^|]+) \| ([^|]+) \| (\d+) \|$")

# Each way: its section's heading number, and the examples table the tests hold.
SECTIONS = {
    HouseWayName.TRUMP_PLAZA: ("7", RULES_EXAMPLES),
    HouseWayName.FOXWOODS: ("7a", FOXWOODS_EXAMPLES),
    HouseWayName.BALLYS_AC: ("7b", BALLYS_EXAMPLES),
}


def section(number: str) -> str:
    """The text of docs/rules.md's section ``## {number}. ...`` up to the next section."""
    text = RULES_DOC.read_text(encoding="utf-8")
    match = re.search(rf"^## {re.escape(number)}\. .*?(?=^## )", text, re.MULTILINE | re.DOTALL)
    assert match is not None, f"no section {number} in docs/rules.md"
    return match[0]


def doc_examples(way: HouseWayName) -> list[tuple[str, str, str, Clause]]:
    enum = clause_enum(way)
    rows = [_ROW.match(line) for line in section(SECTIONS[way][0]).splitlines()]
    return [(m[1], m[2].strip(), m[3].strip(), enum(int(m[4]))) for m in rows if m is not None]


ALL_DOC_EXAMPLES = [(way, *row) for way in SECTIONS for row in doc_examples(way)]


@pytest.mark.parametrize("way", list(SECTIONS))
def test_the_doc_lists_the_same_examples_as_the_tests(way: HouseWayName) -> None:
    assert doc_examples(way) == SECTIONS[way][1]


@pytest.mark.parametrize(("way", "seven", "front", "back", "clause"), ALL_DOC_EXAMPLES)
def test_each_documented_example_is_what_the_house_way_does(
        way: HouseWayName, seven: str, front: str, back: str, clause: Clause) -> None:
    check(seven, front, back, clause, HouseRules(house_way=way))


@pytest.mark.parametrize("way", list(SECTIONS))
def test_each_clause_is_named_in_its_section_under_its_number(way: HouseWayName) -> None:
    text = section(SECTIONS[way][0])
    numbered = re.findall(r"^(\d+)\. \*\*`(\w+)`\*\*", text, re.MULTILINE)
    assert [(int(n), name) for n, name in numbered] == [(c.value, c.name) for c in sorted(clause_enum(way))]


def test_each_new_section_cites_its_published_source() -> None:
    assert "https://wizardofodds.com/games/pai-gow-poker/house-way/foxwoods/" in section("7a")
    assert "https://wizardofodds.com/games/pai-gow-poker/house-way/ballys-atlantic-city" in section("7b")


def test_the_settings_table_has_every_house_rules_field_with_its_default() -> None:
    text = RULES_DOC.read_text(encoding="utf-8")
    defaults = HouseRules()
    for field in dataclasses.fields(HouseRules):
        value = getattr(defaults, field.name)
        if value is None:
            shown = "`null`"
        elif isinstance(value, bool):
            shown = f"`{str(value).lower()}`"
        else:
            shown = f'`"{value}"`' if isinstance(value, str) else f"{value:,}"
        assert f"| `{field.name}` | {shown} |" in text, field.name
    for way in HouseWayName:
        assert f'`"{way}"`' in text.split("## 9.")[1], way
