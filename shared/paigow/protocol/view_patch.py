"""``view_patch(old, new)``: the JSON Patch from one view of a table to the next, read off the views
themselves.

A view (``paigow.table.views.TableView``) is made of frozen dataclasses, tuples, strings, ints, bools, enums
and None, and its JSON is pydantic's (``pydantic_core.to_jsonable_python``: a dataclass is an object of its
fields in order, a tuple an array, an enum its value). ``view_patch`` walks two views side by side and
writes the operations of ``paigow.protocol.patch.diff`` of their JSON, without making that JSON: a part that
is the same object in both (the rules, the timers and everything else a command carried over from one state
to the next) is skipped at once, and only a value that changed is turned into JSON. So
``apply_patch(to_jsonable_python(old), view_patch(old, new)) == to_jsonable_python(new)`` (the tests check
it, with the JSON types, over played rounds for every kind of viewer).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from enum import Enum
from operator import attrgetter
from typing import Any, TypeAlias

from pydantic_core import to_jsonable_python

from paigow.protocol.patch import PatchOp, escape

__all__ = ["Memo", "jsonable_view", "view_patch"]


def jsonable_view(value: Any) -> Any:
    """A view, or any part of one, as JSON data (dicts, lists, str, int, bool, None)."""
    return to_jsonable_python(value)


_Layout = tuple[tuple[str, ...], Callable[[Any], tuple[Any, ...]]]
_LAYOUTS: dict[type, _Layout] = {}
_SCALARS = frozenset({str, int, bool, float, type(None)})


def _layout(cls: type) -> _Layout:
    """A dataclass's field names, and one ``attrgetter`` of all their values (in field order)."""
    layout = _LAYOUTS.get(cls)
    if layout is None:
        names = tuple(f.name for f in fields(cls))
        get = attrgetter(*names) if len(names) > 1 else (lambda obj: tuple(getattr(obj, n) for n in names))
        layout = _LAYOUTS[cls] = names, get
    return layout


def _unchanged(a: Any, b: Any) -> bool:
    """The same part, or equal plain values of one type: nothing to walk (checked before a call)."""
    return a is b or (type(a) is type(b) and type(a) in _SCALARS and a == b)


def view_patch(old: Any, new: Any, memo: Memo | None = None, path: str = "") -> list[PatchOp]:
    """The operations that turn the JSON of ``old`` into the JSON of ``new`` (``[]``: the same JSON), at
    ``path`` (a JSON Pointer: where the two parts are in a larger document; the root by default).

    ``memo``: one dict shared by the patches of several viewers of the same two states. Their views share
    most parts (the seats, the round's public fields, the hidden hands), so the operations of a pair of
    parts met again at the same path are taken from it instead of being worked out again."""
    ops: list[PatchOp] = []
    _walk(old, new, path, ops, {} if memo is None else memo)
    return ops


Memo: TypeAlias = dict[tuple[int, int, str], tuple[Any, Any, list[PatchOp]]]
"""(id of the old part, id of the new part, path) -> (the two parts, kept alive so that no other object
takes their ids, and the operations between them)."""


def _walk(old: Any, new: Any, path: str, ops: list[PatchOp], memo: Memo) -> None:
    if old is new:
        return
    kind = type(old)
    if kind is type(new):
        if kind is tuple or kind is list:
            if len(old) == len(new):
                found = memo.get((id(old), id(new), path))
                if found is None:
                    found = memo[(id(old), id(new), path)] = (old, new, [])
                    for index, (a, b) in enumerate(zip(old, new, strict=True)):
                        if a is not b and not _unchanged(a, b):
                            _walk(a, b, f"{path}/{index}", found[2], memo)
                ops.extend(found[2])
                return
        elif kind is dict:
            _walk_dict(old, new, path, ops, memo)
            return
        elif hasattr(kind, "__dataclass_fields__"):
            found = memo.get((id(old), id(new), path))
            if found is None:
                found = memo[(id(old), id(new), path)] = (old, new, [])
                names, get = _layout(kind)
                for name, a, b in zip(names, get(old), get(new), strict=True):
                    if a is not b and not _unchanged(a, b):
                        _walk(a, b, f"{path}/{name}", found[2], memo)
            ops.extend(found[2])
            return
        elif old == new:
            return
    elif _scalar_json(old) == _scalar_json(new) and _same_json_type(old, new):
        return
    ops.append({"op": "replace", "path": path, "value": to_jsonable_python(new)})


def _walk_dict(old: dict[Any, Any], new: dict[Any, Any], path: str, ops: list[PatchOp], memo: Memo) -> None:
    for key, value in old.items():
        member = f"{path}/{escape(str(key))}"
        if key in new:
            _walk(value, new[key], member, ops, memo)
        else:
            ops.append({"op": "remove", "path": member})
    for key, value in new.items():
        if key not in old:
            ops.append({"op": "add", "path": f"{path}/{escape(str(key))}",
                        "value": to_jsonable_python(value)})


def _scalar_json(value: Any) -> Any:
    return value.value if isinstance(value, Enum) else value


def _same_json_type(a: Any, b: Any) -> bool:
    """An enum member and a plain value of the same JSON type and value write the same JSON."""
    a, b = _scalar_json(a), _scalar_json(b)
    return type(a) is type(b) or (isinstance(a, str) and isinstance(b, str))
