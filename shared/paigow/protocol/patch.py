"""JSON Patch (RFC 6902) between two JSON values: ``diff(old, new)`` and ``apply_patch(doc, ops)``.

The table's pushes carry the change of a viewer's view as a patch of that view's JSON, so that only what
changed crosses the wire. ``diff`` writes three of the RFC's operations, each with an RFC 6901 JSON Pointer
``path`` (``~`` written ``~0``, ``/`` written ``~1``):

- ``{"op": "replace", "path": P, "value": V}``: the value at P becomes V (``path: ""`` replaces the whole
  document);
- ``{"op": "add", "path": P, "value": V}``: a new member of an object;
- ``{"op": "remove", "path": P}``: a member of an object goes away.

Objects are compared member by member and arrays of equal length item by item; an array whose length
changed is replaced whole (the view's arrays are short: seats, cards, dice). Values of different JSON types
are never equal (``1``, ``1.0`` and ``true`` are three values), so ``apply_patch(old, diff(old, new)) ==
new`` with the same types, which the tests check on generated documents. ``apply_patch`` also takes the
RFC's ``add`` into an array (index or ``-``) and ``remove`` from one, for completeness; it never changes
its argument. The browser's ``client_web/js/patch.js`` applies the same operations (tested against this).
"""

from __future__ import annotations

import copy
from typing import Any, TypeAlias

__all__ = ["JsonValue", "PatchError", "PatchOp", "apply_patch", "diff", "escape", "unescape"]

JsonValue: TypeAlias = Any
"""A value as ``json.loads`` returns it: dict (str keys), list, str, int, float, bool or None."""
PatchOp: TypeAlias = dict[str, Any]


class PatchError(ValueError):
    """A patch that does not apply to the document; the message names the operation and the path."""


def escape(key: str) -> str:
    """One reference token of a JSON Pointer (RFC 6901)."""
    return key.replace("~", "~0").replace("/", "~1")


def unescape(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~")


def _same(a: JsonValue, b: JsonValue) -> bool:
    """Equal as JSON values: the same type (bool is not int, int is not float) and the same contents."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def diff(old: JsonValue, new: JsonValue) -> list[PatchOp]:
    """The operations that turn ``old`` into ``new`` (``[]`` when they are the same JSON value)."""
    ops: list[PatchOp] = []
    _diff(old, new, "", ops)
    return ops


def _diff(old: JsonValue, new: JsonValue, path: str, ops: list[PatchOp]) -> None:
    if old is new:
        return
    kind = type(old)
    if kind is not type(new):
        ops.append({"op": "replace", "path": path, "value": new})
    elif kind is dict:
        for key, value in old.items():
            if key not in new:
                ops.append({"op": "remove", "path": f"{path}/{escape(key)}"})
            else:
                _diff(value, new[key], f"{path}/{escape(key)}", ops)
        for key, value in new.items():
            if key not in old:
                ops.append({"op": "add", "path": f"{path}/{escape(key)}", "value": value})
    elif kind is list:
        if len(old) != len(new):
            ops.append({"op": "replace", "path": path, "value": new})
        else:
            for index, (a, b) in enumerate(zip(old, new, strict=True)):
                _diff(a, b, f"{path}/{index}", ops)
    elif old != new:
        ops.append({"op": "replace", "path": path, "value": new})


def apply_patch(doc: JsonValue, ops: list[PatchOp], *, in_place: bool = False) -> JsonValue:
    """``doc`` with ``ops`` applied in order (a new value; ``doc`` is not changed). Raises ``PatchError``.

    ``in_place``: change ``doc`` itself and take the operations' values as they are, copying nothing —
    for a caller that owns both (a view and a patch it has just parsed, as a client does with each frame);
    after a ``PatchError`` that ``doc`` is part-patched and must be dropped (ask for a snapshot)."""
    result = doc if in_place else copy.deepcopy(doc)
    for op in ops:
        result = _apply(result, op, in_place)
    return result


def _apply(doc: JsonValue, op: PatchOp, in_place: bool = False) -> JsonValue:
    if not isinstance(op, dict) or not isinstance(op.get("path"), str):
        raise PatchError(f"not a patch operation: {op!r}")
    kind, path = op.get("op"), op["path"]
    if kind not in ("add", "replace", "remove"):
        raise PatchError(f"operation {kind!r} at {path!r} is not one of add, replace, remove")
    if kind != "remove" and "value" not in op:
        raise PatchError(f"{kind} at {path!r} has no value")
    value = op.get("value") if in_place else copy.deepcopy(op.get("value"))
    if path == "":
        if kind == "remove":
            raise PatchError("remove of the whole document")
        return value
    if not path.startswith("/"):
        raise PatchError(f"path {path!r} does not start with '/'")
    *parents, last = [unescape(t) for t in path[1:].split("/")]
    target = doc
    for token in parents:
        target = _child(target, token, path)
    if isinstance(target, dict):
        if kind != "add" and last not in target:
            raise PatchError(f"{kind} at {path!r}: no member {last!r}")
        if kind == "remove":
            del target[last]
        else:
            target[last] = value
    elif isinstance(target, list):
        if kind == "add" and last == "-":
            target.append(value)
            return doc
        index = _index(last, len(target) + (1 if kind == "add" else 0), path)
        if kind == "add":
            target.insert(index, value)
        elif kind == "remove":
            del target[index]
        else:
            target[index] = value
    else:
        raise PatchError(f"{kind} at {path!r}: the parent is not an object or an array")
    return doc


def _child(value: JsonValue, token: str, path: str) -> JsonValue:
    if isinstance(value, dict):
        if token not in value:
            raise PatchError(f"path {path!r}: no member {token!r}")
        return value[token]
    if isinstance(value, list):
        return value[_index(token, len(value), path)]
    raise PatchError(f"path {path!r}: {token!r} is inside a value that is not an object or an array")


def _index(token: str, size: int, path: str) -> int:
    if not token.isascii() or not token.isdigit() or (token != "0" and token.startswith("0")):
        raise PatchError(f"path {path!r}: {token!r} is not an array index")
    index = int(token)
    if index >= size:
        raise PatchError(f"path {path!r}: index {index} is past the end of the array ({size} items)")
    return index
