"""Every field's description in the JSON Schema is its own: outside clients read the schema's words, so a
description copied from another concept (issue 29: the Queen's Dragon's amounts said "A Fortune bonus bet")
misleads them."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from typing import Any

from paigow.protocol.schema import protocol_schema

NESTED = ("anyOf", "oneOf", "allOf", "items", "prefixItems", "additionalProperties")


def _field_words(node: Any, path: str, in_field: bool = False) -> Iterator[tuple[str, str]]:
    """(``Model.field``, description) for every description a field carries, its value type's too (an
    optional field's ``anyOf``, an array's ``items``); a model's own docstring is not a field's."""
    if not isinstance(node, dict):
        return
    if in_field and isinstance(node.get("description"), str):
        yield path, node["description"]
    for key, value in node.items():
        if key == "properties":
            for name, sub in value.items():
                yield from _field_words(sub, f"{path}.{name}", True)
        elif key in NESTED:
            for sub in value if isinstance(value, list) else [value]:
                yield from _field_words(sub, path, in_field)


def _fields() -> list[tuple[str, str]]:
    return [pair for name, model in protocol_schema()["$defs"].items() for pair in _field_words(model, name)]


def _concept(path: str) -> str | None:
    """The side bet or variant a field is about, from its message's and its own name."""
    words = path.lower()
    if "queens_dragon" in words or "queensdragon" in words:
        return "queens_dragon"
    if "dragon" in words:
        return "dragon"
    if "bonus" in words or "fortune" in words:
        return "fortune"
    return None


FOREIGN = {"queens_dragon": ("Fortune", "Dragon hand"), "dragon": ("Fortune", "Queen's Dragon"),
           "fortune": ("Dragon",)}
"""Words of the other concepts that a field of each must not use."""


def test_a_field_of_one_side_bet_or_variant_never_names_another() -> None:
    fields = _fields()
    concepts = {_concept(path) for path, _ in fields}
    assert {"queens_dragon", "dragon", "fortune"} <= concepts  # the check reads real fields
    wrong = [(path, text) for path, text in fields if (concept := _concept(path)) is not None
             for word in FOREIGN[concept] if word in text]
    assert wrong == []


def test_a_description_is_shared_only_by_fields_of_the_same_name() -> None:
    """Fields of one name (every ``id``, every ``player_id``) mean one thing and may share their words;
    fields of different names may not (a bet and a buy-in are not both just "Integer cents")."""
    names: dict[str, set[str]] = defaultdict(set)
    for path, text in _fields():
        names[text].add(path.rsplit(".", 1)[1])
    assert {text: sorted(found) for text, found in names.items() if len(found) > 1} == {}


def test_the_queens_dragon_amounts_say_what_they_are() -> None:
    words = dict(_fields())
    for path in ("PlaceQueensDragon.amount_cents", "PlaceBet.queens_dragon_cents"):
        assert "Queen's Dragon" in words[path], path
