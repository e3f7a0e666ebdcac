"""``replace`` for the table's frozen dataclasses, a few times faster than ``dataclasses.replace``.

It rebuilds the value through its constructor (positional arguments in field order), so any
``__post_init__`` still runs; unknown field names raise ``TypeError`` like ``dataclasses.replace``. For
dataclasses whose fields are all ``init`` fields (no ``field(init=False)``, no ``InitVar``), as the
table's are.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from operator import attrgetter
from typing import Any, TypeVar

__all__ = ["replace"]

T = TypeVar("T")
_Layout = tuple[Callable[[Any], tuple[Any, ...]], dict[str, int]]
_LAYOUTS: dict[type, _Layout] = {}


def _layout(cls: type) -> _Layout:
    """Every field's value in field order (one ``attrgetter``), and each field's position."""
    names = tuple(f.name for f in fields(cls))
    values: Callable[[Any], tuple[Any, ...]]
    if len(names) > 1:
        values = attrgetter(*names)
    else:  # ``attrgetter`` of one name returns the value itself, and needs a name
        one = attrgetter(*names) if names else None

        def values(obj: Any) -> tuple[Any, ...]:
            return () if one is None else (one(obj),)
    layout = _LAYOUTS[cls] = values, {name: i for i, name in enumerate(names)}
    return layout


def replace(obj: T, **changes: Any) -> T:
    cls = type(obj)
    values, index = _LAYOUTS.get(cls) or _layout(cls)
    args = list(values(obj))
    for key, value in changes.items():
        i = index.get(key)
        if i is None:
            raise TypeError(f"{cls.__name__} has no field {key!r}")
        args[i] = value
    return cls(*args)
