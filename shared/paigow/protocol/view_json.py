"""``ViewJson``: the JSON of a table's views, assembled from the JSON of their parts.

``ViewJson().encode(view)`` is byte for byte ``encode_view(view)`` (pydantic's ``dump_json`` of the whole
``TableView``; tests/protocol/test_view_json.py checks it over played rounds for every kind of viewer), but
a part that is the same object as one already encoded is not encoded again:

- the views ``view_for`` makes of one state share every part that is the same for all viewers: a player's
  view differs from a spectator's only in ``you`` and in its own hand of ``round.hands``, the operator's
  only in ``admin``. So the rules, the seats, the round's public fields and hands... are encoded once per
  commit, not once per viewer;
- a state carries what a command did not change over to the next version (the rules, the timers, the
  round's bets), and that text is reused as it is.

What is kept, always with a strong reference to the value (so no other object can take its id while its
text is kept): for each run of fields between those that differ from one viewer to another (``you``,
``admin``, ``round.hands``...), the values and text of the last run encoded (``_Run``), and the text of
each field of the run, and of each hand, that the views of the current or the previous version used
(``_Texts``, dropped one version later, or sooner past ``TEXTS_KEPT``: a player's own hand is a new
object in every view of them, so a client reconnecting again and again at one version would add one each
time). ``you`` and ``admin`` are new objects for every viewer and are simply encoded. Reusing text by
identity is sound because a view is made of frozen dataclasses, tuples, strings, ints and enums: a part
never changes once made.

Each part is written by a pydantic ``TypeAdapter`` of its declared type, as the whole view's adapter
writes it; objects are joined as ``{"field":value,...}`` in field order and tuples as ``[item,...]``, which
is how pydantic writes dataclasses and tuples. One encoder per table: it remembers that table's parts.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from functools import cache
from itertools import groupby
from operator import attrgetter, is_
from typing import Any, get_type_hints

from pydantic import TypeAdapter

from paigow.table.views import HandView, RoundView, TableView

__all__ = ["ViewJson"]

_Dump = Callable[[Any], str]

_ADAPTERS: dict[object, TypeAdapter[Any]] = {}


def _pydantic(hint: Any) -> _Dump:
    """pydantic's JSON of a value of type ``hint`` (the adapters are shared by every encoder)."""
    adapter = _ADAPTERS.get(hint)
    if adapter is None:
        adapter = _ADAPTERS[hint] = TypeAdapter(hint)
    to_json = adapter.serializer.to_json  # what ``adapter.dump_json`` calls, with the same defaults
    return lambda value: to_json(value).decode()


@cache
def _hints(cls: type) -> dict[str, Any]:
    """The declared type of each field of dataclass ``cls``, in field order."""
    hints = get_type_hints(cls)
    return {f.name: hints[f.name] for f in fields(cls)}


TEXTS_KEPT = 256
"""Texts a ``_Texts`` keeps for the current version before it starts afresh (the views of one commit use a
few dozen: the hidden hands, and each player's own)."""


class _Texts:
    """The JSON of one part's values by identity, kept for two versions (``next_version``): a field of a run,
    for when the run is encoded again because another of its fields changed (the rules and the timers
    when only the version did), and the hands (the hidden ones are the same in every viewer's round).
    Past ``TEXTS_KEPT`` texts of one version, those become the previous ones (so at most about twice that
    are kept, however many views one version has)."""

    __slots__ = ("_before", "_dump", "_now")

    def __init__(self, dump: _Dump) -> None:
        self._dump = dump
        self._now: dict[int, tuple[object, str]] = {}
        self._before: dict[int, tuple[object, str]] = {}

    def __call__(self, value: object) -> str:
        key = id(value)
        entry = self._now.get(key)
        if entry is None:
            entry = self._before.pop(key, None)
            if entry is None:
                entry = (value, self._dump(value))
            self._now[key] = entry
            if len(self._now) > TEXTS_KEPT:
                self.next_version()
        return entry[1]

    def items(self, values: tuple[object, ...]) -> str:
        """A tuple of such values (what ``__call__`` does for each, in one call)."""
        now, before, texts = self._now, self._before, []
        for value in values:
            entry = now.get(id(value))
            if entry is None:
                entry = before.pop(id(value), None) or (value, self._dump(value))
                now[id(value)] = entry
            texts.append(entry[1])
        if len(now) > TEXTS_KEPT:
            self.next_version()
        return f"[{','.join(texts)}]"

    def next_version(self) -> None:
        self._before = self._now
        self._now = {}


def _or_null(dump: _Dump) -> _Dump:
    """``dump`` of a value that may be None (as pydantic writes None: ``null``)."""
    return lambda value: "null" if value is None else dump(value)


class _Run:
    """Consecutive fields of a dataclass, each through its own part: the text of the whole run is kept with
    the values it was made from, and reused while every one of them is the same object."""

    __slots__ = ("_get", "_keys", "_last", "_parts")

    def __init__(self, names: list[str], parts: list[_Texts]) -> None:
        get = attrgetter(*names)
        self._get: Callable[[object], tuple[object, ...]] = (
            get if len(names) > 1 else lambda value: (get(value),))
        self._keys = [f'"{name}":' for name in names]
        self._parts = parts
        self._last: tuple[tuple[object, ...], str] | None = None

    def __call__(self, value: object) -> str:
        values, last = self._get(value), self._last
        if last is not None and all(map(is_, values, last[0])):
            return last[1]
        text = ",".join([key + part(v) for key, part, v in zip(self._keys, self._parts, values, strict=True)])
        self._last = values, text
        return text


class _Field:
    """One field of a dataclass through ``part``, written as ``"name":text``."""

    __slots__ = ("_get", "_key", "_part")

    def __init__(self, name: str, part: _Dump) -> None:
        self._get = attrgetter(name)
        self._key = f'"{name}":'
        self._part = part

    def __call__(self, value: object) -> str:
        return self._key + self._part(self._get(value))


class ViewJson:
    """The JSON of one table's ``TableView``s; see the module docstring."""

    __slots__ = ("_parts", "_version", "_view")

    def __init__(self) -> None:
        self._parts: list[_Texts] = []
        self._version: int | None = None
        round_ = self._object(RoundView, hands=self._texts(_pydantic(HandView)).items)
        you, admin = (_or_null(_pydantic(_hints(TableView)[name])) for name in ("you", "admin"))
        self._view = self._object(TableView, round=round_, you=you, admin=admin)

    def encode(self, view: TableView) -> str:
        """``encode_view(view)``, byte for byte."""
        if view.version != self._version:
            self._version = view.version
            for part in self._parts:
                part.next_version()
        return self._view(view)

    def _texts(self, dump: _Dump) -> _Texts:
        texts = _Texts(dump)
        self._parts.append(texts)
        return texts

    def _object(self, cls: type, **special: _Dump) -> _Dump:
        """A dataclass (or None) field by field: ``special`` encodes the named fields, those that differ
        between viewers or need their own kind of reuse; each run of the other fields is a ``_Run``."""
        segments: list[_Dump] = []
        for is_special, group in groupby(_hints(cls), key=special.__contains__):
            names = list(group)
            if is_special:
                segments += [_Field(name, special[name]) for name in names]
            else:
                segments.append(_Run(names, [self._texts(_pydantic(_hints(cls)[name])) for name in names]))

        def dump(value: object) -> str:
            if value is None:
                return "null"
            return f"{{{','.join([segment(value) for segment in segments])}}}"
        return dump
