"""JSON forms of the table's values, through pydantic ``TypeAdapter`` over the pure dataclasses.

Commands and events are told apart by their ``kind`` field (a discriminated union), so each one comes
back as the very class it was. A commit (the core's ``paigow.table.commit.VersionedEvents``) travels
(event log and pub/sub alike) as ``{"version": N, "events": [...], "views": {...}}``, where N is the table
version the events produced and ``views`` what the commit looks like to each kind of viewer
(``commit_to_json``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated, Any, TypeVar, cast

from pydantic import Field, TypeAdapter

from paigow.protocol.projection import ViewerUpdate, update_text
from paigow.table.commands import Command
from paigow.table.commit import VersionedEvents
from paigow.table.events import Event
from paigow.table.state import TableState
from paigow_server.errors import ServerError

__all__ = [
    "CodecError",
    "command_from_json",
    "command_to_json",
    "commit_from_json",
    "commit_to_json",
    "commit_version_of",
    "commit_views",
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


class CodecError(ServerError, ValueError):
    """Stored or received JSON that is not a valid value of the expected type."""


def state_to_json(state: TableState) -> str:
    """pydantic's JSON of the state (a few kB: the state holds no round records)."""
    return _STATE.dump_json(state).decode()


def _from_json(adapter: TypeAdapter[_T], text: str | bytes, what: str) -> _T:
    """``text`` validated as ``adapter``'s type; a ``CodecError`` saying it is not ``what`` otherwise."""
    try:
        return adapter.validate_json(text)
    except ValueError as exc:
        raise CodecError(f"{what}: {exc}") from None


def state_from_json(text: str | bytes) -> TableState:
    """The state ``state_to_json`` wrote. A field the state no longer has is ignored: a state written
    before the round records left it still carries ``recent``, which is dropped here."""
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


def commit_views(updates: Mapping[str, ViewerUpdate]) -> dict[str, str]:
    """Per viewer key, the JSON text of its update (``update_text``): viewers whose update is the same
    share one text object, written once (most commits look alike to most players)."""
    distinct: list[tuple[ViewerUpdate, str]] = []
    keyed: dict[str, str] = {}
    for key, update in updates.items():
        text = next((t for seen, t in distinct if seen == update), None)
        if text is None:
            text = update_text(update)
            distinct.append((update, text))
        keyed[key] = text
    return keyed


def commit_to_json(version: int, events: Sequence[Event],
                   updates: Mapping[str, ViewerUpdate] | None = None, *,
                   views: Mapping[str, str] | None = None) -> str:
    """The text stored in a table's event log and published on its channel: ``{"version", "events",
    "views"}``, where ``views`` is ``{"texts": [update JSON text, ...], "keys": {viewer key: index}}``
    (viewers that share one text object of ``views``, or an equal update, share one entry of
    ``texts``). ``views``: the updates' texts already made by ``commit_views``. The text starts with
    ``{"version":N,`` (``commit_version_of`` reads it without parsing the rest)."""
    body: dict[str, Any] = {"version": version, "events": events_to_python(events)}
    if views is None and updates is not None:
        views = commit_views(updates)
    if views is not None:
        texts: list[str] = []
        index_of: dict[int, int] = {}
        keyed: dict[str, int] = {}
        for key, text in views.items():
            index = index_of.get(id(text))
            if index is None:
                index = index_of[id(text)] = len(texts)
                texts.append(text)
            keyed[key] = index
        body["views"] = {"texts": texts, "keys": keyed}
    return _ANY.dump_json(body).decode()


_VERSION_HEAD = b'{"version":'


def commit_version_of(text: str | bytes) -> int | None:
    """The version of a commit ``commit_to_json`` wrote, read from its first bytes (None: not such a
    text; ``commit_from_json`` then says what is wrong with it)."""
    head = text[:32].encode() if isinstance(text, str) else text[:32]
    if not head.startswith(_VERSION_HEAD):
        return None
    end = head.find(b",", len(_VERSION_HEAD))
    digits = head[len(_VERSION_HEAD):end] if end > 0 else b""
    return int(digits) if digits.isdigit() else None


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
