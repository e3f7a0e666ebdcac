"""JSON Patch of the view: ``apply_patch(old, diff(old, new)) == new`` with the same JSON types, on
generated documents and on the edge cases of RFC 6901 pointers and RFC 6902 operations."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paigow.protocol.patch import PatchError, apply_patch, diff, escape, unescape

KEYS = st.sampled_from(["a", "b", "seats", "you", "~", "/", "a/b", "~1", "", "é", "0"])
SCALARS = (st.none() | st.booleans() | st.integers(-(2**53), 2**53)
           | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=5))
JSON = st.recursive(SCALARS,
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(KEYS, inner, max_size=4),
                    max_leaves=20)


def _typed(value: Any) -> Any:
    """The value with each leaf's type beside it, so that 1 == 1.0 == True cannot hide a wrong type."""
    if isinstance(value, dict):
        return {k: _typed(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_typed(v) for v in value]
    return (type(value).__name__, value)


@settings(max_examples=500, deadline=None)
@given(JSON, JSON)
def test_the_patch_turns_the_old_document_into_the_new_one(old: Any, new: Any) -> None:
    before = json.dumps(old)
    ops = diff(old, new)
    patched = apply_patch(old, ops)
    assert _typed(patched) == _typed(new)
    assert json.dumps(old) == before, "neither diff nor apply_patch changes its argument"
    assert json.loads(json.dumps(ops)) == ops, "a patch is plain JSON"


@settings(max_examples=300, deadline=None)
@given(JSON, JSON)
def test_in_place_the_patch_of_a_freshly_parsed_frame_gives_the_same_document(old: Any, new: Any) -> None:
    """As a client applies each frame: the view and the patch both just parsed, nothing copied."""
    ops_text = json.dumps(diff(old, new))
    doc = json.loads(json.dumps(old))
    patched = apply_patch(doc, json.loads(ops_text), in_place=True)
    assert _typed(patched) == _typed(new)
    if isinstance(old, dict) and isinstance(new, dict):
        assert patched is doc, "an object is patched where it is (only a root replace makes a new one)"


@settings(max_examples=200, deadline=None)
@given(JSON)
def test_a_document_has_no_patch_to_itself(doc: Any) -> None:
    assert diff(doc, json.loads(json.dumps(doc))) == []


@pytest.mark.parametrize(("old", "new", "ops"), [
    ({"a": 1}, {"a": 2}, [{"op": "replace", "path": "/a", "value": 2}]),
    ({"a": 1}, {"a": 1.0}, [{"op": "replace", "path": "/a", "value": 1.0}]),
    ({"a": 1}, {"a": True}, [{"op": "replace", "path": "/a", "value": True}]),
    ({"a": 1}, {}, [{"op": "remove", "path": "/a"}]),
    ({}, {"a/b": 1}, [{"op": "add", "path": "/a~1b", "value": 1}]),
    ({"~": {"x": [1, 2]}}, {"~": {"x": [1, 3]}}, [{"op": "replace", "path": "/~0/x/1", "value": 3}]),
    ({"x": [1, 2]}, {"x": [1, 2, 3]}, [{"op": "replace", "path": "/x", "value": [1, 2, 3]}]),
    ([1], {"a": 1}, [{"op": "replace", "path": "", "value": {"a": 1}}]),
    ({"seats": [None, {"chips": 5}]}, {"seats": [None, {"chips": 7}]},
     [{"op": "replace", "path": "/seats/1/chips", "value": 7}]),
])
def test_examples(old: Any, new: Any, ops: list[dict[str, Any]]) -> None:
    assert diff(old, new) == ops
    assert apply_patch(old, ops) == new


def test_pointer_tokens_round_trip() -> None:
    for key in ["", "a", "~", "/", "~1", "a~/b", "~0~1"]:
        assert unescape(escape(key)) == key


def test_the_array_operations_of_the_rfc_apply() -> None:
    assert apply_patch([1, 2], [{"op": "add", "path": "/-", "value": 3}]) == [1, 2, 3]
    assert apply_patch([1, 2], [{"op": "add", "path": "/0", "value": 0}]) == [0, 1, 2]
    assert apply_patch([1, 2], [{"op": "add", "path": "/2", "value": 3}]) == [1, 2, 3]
    assert apply_patch([1, 2], [{"op": "remove", "path": "/0"}]) == [2]


@pytest.mark.parametrize(("doc", "op", "message"), [
    ({"a": 1}, {"op": "move", "path": "/a", "from": "/b"}, "not one of add, replace, remove"),
    ({"a": 1}, {"op": "replace", "path": "/b", "value": 1}, "no member 'b'"),
    ({"a": 1}, {"op": "remove", "path": "/b"}, "no member 'b'"),
    ({"a": 1}, {"op": "replace", "path": "a", "value": 1}, "does not start with '/'"),
    ({"a": 1}, {"op": "replace", "path": "/a"}, "has no value"),
    ({"a": [1]}, {"op": "replace", "path": "/a/1", "value": 2}, "past the end"),
    ({"a": [1]}, {"op": "replace", "path": "/a/01", "value": 2}, "not an array index"),
    ({"a": [1]}, {"op": "replace", "path": "/a/x", "value": 2}, "not an array index"),
    ({"a": 1}, {"op": "replace", "path": "/a/b", "value": 2}, "not an object or an array"),
    ({"a": 1}, {"op": "remove", "path": ""}, "whole document"),
    ({"a": 1}, "replace", "not a patch operation"),
])
def test_a_patch_that_does_not_apply_is_refused_with_its_path(doc: Any, op: Any, message: str) -> None:
    with pytest.raises(PatchError, match=message):
        apply_patch(doc, [op])
