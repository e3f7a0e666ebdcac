"""Server → client messages: a closed set of pydantic models discriminated by ``type``.

Table messages carry the table ``version``. ``snapshot`` replaces everything the client knows; ``patch``
moves the client from version ``since`` to ``version``: the events projected for this viewer (another
player's cards never appear, and an event the viewer may not see at all is left out — the message still
comes, so versions stay contiguous) and the JSON Patch of its view. A client that gets a ``patch`` whose
``since`` is not its own version missed something and sends ``sync``.
"""

from __future__ import annotations

import json
from enum import StrEnum
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue, TypeAdapter

from paigow.protocol.chat import ChatDeleted, ChatPosted, ChatSettingChanged
from paigow.protocol.codes import ErrorCode
from paigow.protocol.version import PROTOCOL_VERSION
from paigow.table.events import Event
from paigow.table.rejections import RejectCode
from paigow.table.state import KickedBy
from paigow.table.views import TableView

__all__ = [
    "SERVER_MESSAGE_TYPES",
    "Accepted",
    "ErrorMessage",
    "Patch",
    "PatchOperation",
    "PlaySession",
    "Pong",
    "RealityCheck",
    "Role",
    "ServerMessage",
    "Snapshot",
    "TableEvent",
    "decode_server_message",
    "encode_event",
    "encode_patch_message",
    "encode_server_message",
    "encode_snapshot_message",
    "encode_view",
]


TableEvent = Annotated[Event, Field(discriminator="kind")]
"""A table event (``paigow.table.events``), told apart by its ``kind``."""


class Role(StrEnum):
    PLAYER = "player"
    SPECTATOR = "spectator"
    OPERATOR = "operator"
    """Watches with the operator's view (``view.admin``); acts only through the HTTP operator API."""


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Snapshot(_Message):
    """The whole view of the table for this connection, at ``version``. The first message after ``hello``
    (unless a resume needed only missed events), and the answer to a ``sync`` when the gap is too old."""

    type: Literal["snapshot"] = "snapshot"
    protocol: int
    table_id: str
    version: int
    role: Role
    player_id: str | None = Field(description="The connection's player (None for a spectator)")
    view: TableView
    server_ms: int | None = Field(default=None, description=(
        "The server's clock when it wrote the message (ms since the epoch): a client corrects its own "
        "clock's skew from it before counting down to a deadline_ms"))


class PatchOperation(_Message):
    """One operation of a JSON Patch (RFC 6902): ``replace`` the value at ``path``, ``add`` a member,
    ``remove`` a member. ``path`` is a JSON Pointer (RFC 6901) into the view: ``""`` is the whole view,
    ``/seats/3/chips_cents`` one seat's chips (``~0`` stands for ``~`` and ``~1`` for ``/`` in a name)."""

    op: Literal["add", "replace", "remove"]
    path: str
    value: JsonValue = Field(default=None, description="The new value (absent for remove)")


class Patch(_Message):
    """What changed from version ``since`` to ``version`` (usually one command: ``since`` = version - 1),
    for this viewer: the events it may see (another player's cards never appear; an event it may not see at
    all is left out) and ``patch``, the operations that turn its view of version ``since`` into its view of
    ``version``, applied in order. Either may be empty: the viewer saw nothing of that change, but its
    version still advances. After a resume or a ``sync`` it may span several versions."""

    type: Literal["patch"] = "patch"
    since: int
    version: int
    events: tuple[TableEvent, ...]
    patch: tuple[PatchOperation, ...]
    server_ms: int | None = Field(default=None, description=(
        "The server's clock when it wrote the message (ms since the epoch), as in snapshot"))


class Accepted(_Message):
    """The command with client id ``id`` was applied; the table is now at ``version`` (its events arrive
    in an ``events`` message of that version, before or after this one)."""

    type: Literal["accepted"] = "accepted"
    id: str
    version: int


class ErrorMessage(_Message):
    """A frame was refused, or a command was rejected by the table. Nothing changed. ``id`` names the
    command when the frame had a readable one. ``code`` is an ``ErrorCode`` or a table ``RejectCode``."""

    type: Literal["error"] = "error"
    id: str | None
    code: ErrorCode | RejectCode
    message: str
    until_ms: int | None = None
    """When the refusal ends (ms since the epoch): set for ``BARRED`` (the end of the bar) and
    ``LIMIT_RAISE_TOO_SOON`` (when the next raise of your own limit is allowed), else null."""
    by: KickedBy | None = None
    """Who barred the player: set for ``BARRED`` (``"host"``: a private table's host removed them;
    ``"operator"``: an operator's kick with a bar), else null."""
    amount_cents: int | None = None
    """The amount refused, for an amount's rejection (``BELOW_MINIMUM``, ``ABOVE_MAXIMUM``,
    ``ABOVE_OWN_LIMIT``, ``INSUFFICIENT_CHIPS``, ``BET_OVER_COVERAGE``), else null."""
    limit_cents: int | None = None
    """The limit the amount passed, beside ``amount_cents``: the minimum, the maximum, your own limit, your
    chips, what the bank still covers (``paigow.table.rejections.REJECTION_FIELDS``), else null."""
    retry_after_s: int | None = None
    """Whole seconds to wait before trying again: set for ``CHAT_TOO_FAST``, else null."""
    max_chars: int | None = None
    """The most characters a text may have: set for ``CHAT_TOO_LONG``, else null."""


class Pong(_Message):
    type: Literal["pong"] = "pong"
    id: str | None = None


class PlaySession(_Message):
    """The player's play session (docs/responsible-play.md): sent to a player's connection after ``hello``
    and whenever the figures change (a round the player was in settled). Versionless, like ``chat``."""

    type: Literal["play_session"] = "play_session"
    started_ms: int | None = Field(description=(
        "When the session began (the player first sat at any table, ms since the epoch); null: no session"))
    net_cents: int = Field(description=(
        "Wins less losses since then, side bets and commission included (negative: a loss)"))
    wagered_cents: int = Field(description=(
        "Everything wagered since then (bets, side bets, a bank's exposure)"))


class RealityCheck(_Message):
    """A reality check is due (every ``reality_check_minutes``): sent once per player across every table and
    process, only while the player is not in play at this connection's table (it waits for the round's
    end). The page shows the time played and the net and lets the player keep playing, read History or
    leave."""

    type: Literal["reality_check"] = "reality_check"
    started_ms: int
    elapsed_ms: int = Field(description="The session's length when the check was claimed")
    net_cents: int
    wagered_cents: int
    next_ms: int = Field(description="When the next check falls due (ms since the epoch)")


AnyServerMessage = (Snapshot | Patch | Accepted | ErrorMessage | Pong | ChatPosted | ChatDeleted
                    | ChatSettingChanged | PlaySession | RealityCheck)
ServerMessage = Annotated[AnyServerMessage, Field(discriminator="type")]
"""Every message the server sends."""

SERVER_MESSAGE_TYPES: tuple[str, ...] = ("snapshot", "patch", "accepted", "error", "pong", "chat",
                                         "chat_deleted", "chat_setting", "play_session", "reality_check")

_ADAPTER: TypeAdapter[ServerMessage] = TypeAdapter(ServerMessage)
_EVENT: TypeAdapter[Event] = TypeAdapter(TableEvent)
_VIEW: TypeAdapter[TableView] = TypeAdapter(TableView)


def encode_server_message(msg: AnyServerMessage) -> str:
    """The JSON text of a server message."""
    return msg.model_dump_json()


def decode_server_message(text: str | bytes) -> AnyServerMessage:
    """Parse a server message (for tests, bots and the load benchmark)."""
    return _ADAPTER.validate_json(text)


# --- the fast path of the fanout: each part encoded once, the message assembled from the parts ----------
# ``encode_patch_message(since, version, update_text(update))`` is ``Patch(...).model_dump_json()`` for the
# update's events and operations (tests/protocol check it as JSON), written from the update's text that the
# commit stored. The table feed writes snapshots' views with ``paigow.protocol.view_json.ViewJson``, byte for
# byte ``encode_view``, which encodes the parts the views share once.


def encode_event(event: Event) -> str:
    return _EVENT.dump_json(event).decode()


def encode_view(view: TableView) -> str:
    return _VIEW.dump_json(view).decode()


def _ms(server_ms: int | None) -> str:
    return "null" if server_ms is None else str(int(server_ms))


def encode_patch_message(since: int, version: int, update: str, server_ms: int | None = None) -> str:
    """A ``patch`` message from the JSON text ``{"events":[...],"patch":[...]}`` of an update, stamped with
    the server's clock ``server_ms``."""
    if not update.startswith('{"events":') or not update.endswith("}"):
        raise ValueError(f"not the text of an update: {update[:40]!r}")
    return (f'{{"type":"patch","since":{int(since)},"version":{int(version)},{update[1:-1]},'
            f'"server_ms":{_ms(server_ms)}}}')


def encode_snapshot_message(table_id: str, version: int, role: Role, player_id: str | None,
                            view: str, server_ms: int | None = None) -> str:
    return (f'{{"type":"snapshot","protocol":{PROTOCOL_VERSION},"table_id":{json.dumps(table_id)},'
            f'"version":{int(version)},"role":"{role.value}","player_id":{json.dumps(player_id)},'
            f'"view":{view},"server_ms":{_ms(server_ms)}}}')
