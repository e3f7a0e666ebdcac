"""JSON forms of the table's values, through pydantic ``TypeAdapter`` over the pure dataclasses.

Commands and events are told apart by their ``kind`` field (a discriminated union), so each one comes
back as the very class it was. A commit travels (event log and pub/sub alike) as
``{"version": N, "events": [...], "views": {...}}``, where N is the table version the events produced and
``views`` what the commit looks like to each kind of viewer (``commit_to_json``).
"""

from __future__ import annotations

import types
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields, is_dataclass
from enum import Enum
from typing import Annotated, Any, TypeVar, Union, cast, get_args, get_origin, get_type_hints

from pydantic import Field, TypeAdapter

from paigow.protocol.projection import ViewerUpdate, update_text
from paigow.protocol.view_json import RecentJson
from paigow.table.commands import Command
from paigow.table.events import Event
from paigow.table.state import TableState

__all__ = [
    "CodecError",
    "VersionedEvents",
    "command_from_json",
    "command_to_json",
    "commit_from_json",
    "commit_to_json",
    "event_from_json",
    "event_to_json",
    "events_from_python",
    "events_to_python",
    "jsonable",
    "state_from_json",
    "state_to_json",
]

_STATE: TypeAdapter[TableState] = TypeAdapter(TableState)
_EVENT = cast(TypeAdapter[Event], TypeAdapter(Annotated[Event, Field(discriminator="kind")]))
_EVENTS = cast(TypeAdapter[tuple[Event, ...]],
               TypeAdapter(tuple[Annotated[Event, Field(discriminator="kind")], ...]))
_COMMAND = cast(TypeAdapter[Command], TypeAdapter(Annotated[Command, Field(discriminator="kind")]))
_ANY: TypeAdapter[Any] = TypeAdapter(Any)

_T = TypeVar("_T")


class CodecError(ValueError):
    """Stored or received JSON that is not a valid value of the expected type."""


@dataclass(frozen=True, slots=True)
class VersionedEvents:
    """The events of one commit and the table version they produced, and what the commit looks like to
    each kind of viewer (``paigow.protocol.projection``): per viewer key, the JSON text of its update
    ``{"events": [...], "patch": [...]}``. ``views`` is None for a commit written without them (by a
    version of the server before protocol 2, or straight to the store): its viewers get a snapshot."""

    version: int
    events: tuple[Event, ...]
    views: Mapping[str, str] | None = None


RECENT_TABLES = 1024
"""Tables whose recent round records' JSON ``state_to_json`` keeps (the least recently written dropped)."""

_recent: dict[str, RecentJson] = {}
_RECENT_FIELD = {"recent"}
_SCALARS = (str, int, bool, float, type(None))


def _keys_of(hint: Any, seen: set[type]) -> list[str | None]:
    """Every key a JSON object within a value of type ``hint`` may have (None: any key, for a dict or a
    type this does not know)."""
    hint = get_args(hint)[0] if get_origin(hint) is Annotated else hint
    origin = get_origin(hint)
    if origin in (tuple, list, frozenset, Union, types.UnionType):
        return [key for arg in get_args(hint) if arg is not Ellipsis for key in _keys_of(arg, seen)]
    if isinstance(hint, type) and is_dataclass(hint):
        if hint in seen:
            return []
        seen.add(hint)
        hints = get_type_hints(hint, include_extras=True)
        return [key for f in fields(hint) for key in (f.name, *_keys_of(hints[f.name], seen))]
    if isinstance(hint, type) and issubclass(hint, (Enum, *_SCALARS)):
        return []
    return [None]


def check_recent_splice(cls: type) -> None:
    """Raise ``TypeError`` unless ``state_to_json`` may write the recent records into the JSON of ``cls``
    (``TableState``) before its last ``,"version":``: ``version`` must be the field right after ``recent``,
    and no later field hold an object with a ``version`` key (or a dict, or a value of a type not known
    here). Checked when this module is imported."""
    names = [f.name for f in fields(cls)]
    at = names.index("recent") + 1
    if names[at:at + 1] != ["version"]:
        raise TypeError(f"{cls.__name__}.recent is followed by {names[at:at + 1]}, not version: "
                        "state_to_json writes the recent records before the last version")
    hints = get_type_hints(cls, include_extras=True)
    for name in names[at + 1:]:
        keys = _keys_of(hints[name], set())
        if "version" in keys or None in keys:
            raise TypeError(f"{cls.__name__}.{name} ({hints[name]}) may hold a version key: state_to_json "
                            "writes the recent records before the last version")


check_recent_splice(TableState)


def state_to_json(state: TableState) -> str:
    """pydantic's JSON of the state, byte for byte. The recent round records are most of it (about 2.6 kB
    each, ten at a table that has played ten rounds) and change only at a settlement, so their text is
    kept per table with the records (by identity: the state a commit writes carries them over) and written
    into the rest of the state's JSON in their place, before ``version`` (the field after ``recent``; no
    field after it has a ``version`` of its own, which ``check_recent_splice`` makes sure of, and a
    string's quotes are escaped)."""
    if not state.recent:
        return _STATE.dump_json(state).decode()
    recent = _recent.pop(state.table_id, None) or RecentJson()
    _recent[state.table_id] = recent
    if len(_recent) > RECENT_TABLES:
        del _recent[next(iter(_recent))]
    text = _STATE.dump_json(state, exclude=_RECENT_FIELD).decode()
    at = text.rindex(',"version":')
    return f'{text[:at]},"recent":{recent(state.recent)}{text[at:]}'


def _from_json(adapter: TypeAdapter[_T], text: str | bytes, what: str) -> _T:
    """``text`` validated as ``adapter``'s type; a ``CodecError`` saying it is not ``what`` otherwise."""
    try:
        return adapter.validate_json(text)
    except ValueError as exc:
        raise CodecError(f"{what}: {exc}") from None


def state_from_json(text: str | bytes) -> TableState:
    return _from_json(_STATE, text, "stored table state is not a valid TableState")


def event_to_json(event: Event) -> str:
    return _EVENT.dump_json(event).decode()


def event_from_json(text: str | bytes) -> Event:
    return _from_json(_EVENT, text, "not a valid table event")


def events_to_python(events: Sequence[Event]) -> list[dict[str, Any]]:
    return cast(list[dict[str, Any]], _EVENTS.dump_python(tuple(events), mode="json"))


def events_from_python(data: Any) -> tuple[Event, ...]:
    try:
        return _EVENTS.validate_python(data)
    except ValueError as exc:
        raise CodecError(f"not a valid list of table events: {exc}") from None


def command_to_json(command: Command) -> str:
    return _COMMAND.dump_json(command).decode()


def command_from_json(text: str | bytes) -> Command:
    return _from_json(_COMMAND, text, "not a valid table command")


def commit_to_json(version: int, events: Sequence[Event],
                   updates: Mapping[str, ViewerUpdate] | None = None) -> str:
    """The text stored in a table's event log and published on its channel: ``{"version", "events",
    "views"}``, where ``views`` is ``{"texts": [update JSON text, ...], "keys": {viewer key: index}}``
    (viewers whose update is the same share one text: most commits look alike to most players)."""
    body: dict[str, Any] = {"version": version, "events": events_to_python(events)}
    if updates is not None:
        texts: list[str] = []
        index_of: dict[str, int] = {}
        keyed: dict[str, int] = {}
        for key, update in updates.items():
            text = update_text(update)
            if text not in index_of:
                index_of[text] = len(texts)
                texts.append(text)
            keyed[key] = index_of[text]
        body["views"] = {"texts": texts, "keys": keyed}
    return _ANY.dump_json(body).decode()


def commit_from_json(text: str | bytes) -> VersionedEvents:
    try:
        data = _ANY.validate_json(text)
        version = data["version"]
        if type(version) is not int:
            raise TypeError(f"version {version!r} is not a whole number")
        views = data.get("views")
        keyed = None
        if views is not None:
            texts = views["texts"]
            keyed = {str(key): str(texts[index]) for key, index in views["keys"].items()}
        return VersionedEvents(version, events_from_python(data["events"]), keyed)
    except (ValueError, TypeError, KeyError, IndexError, AttributeError) as exc:
        raise CodecError(f"not a valid commit {{version, events, views}}: {exc}") from None


_ADAPTERS: dict[type, TypeAdapter[Any]] = {}


def _adapter(kind: type) -> TypeAdapter[Any]:
    adapter = _ADAPTERS.get(kind)
    if adapter is None:
        adapter = _ADAPTERS[kind] = TypeAdapter(kind)
    return adapter


def jsonable(value: Any) -> Any:
    """A dataclass (or any value pydantic knows) as plain JSON data: dicts, lists, str, int, None."""
    return _adapter(type(value)).dump_python(value, mode="json")
