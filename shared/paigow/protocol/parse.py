"""Parse a client frame once, at the boundary, into a typed message — or a ``ProtocolError`` with a code.

``parse_client_message(frame)`` accepts the text (or bytes) of one WebSocket frame. Every way a frame can be
wrong maps to one ``ErrorCode``: not JSON / not an object / a key twice in one object → MALFORMED_JSON; no
or unknown ``type`` → UNKNOWN_TYPE; a missing field → MISSING_FIELD; an extra field → UNKNOWN_FIELD; a
wrong JSON type → WRONG_TYPE; a bad value (range, card text, ...) → INVALID_VALUE. The message quotes the
field and the input.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import TypeAdapter, ValidationError
from pydantic_core import ErrorDetails

from paigow.protocol.client import CLIENT_MESSAGE_TYPES, ClientMessage
from paigow.protocol.codes import ErrorCode

__all__ = ["DuplicateKeyError", "ProtocolError", "client_id_of", "parse_client_message", "unique_object"]

_ADAPTER: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)

_TYPE_CODES = {
    "missing": ErrorCode.MISSING_FIELD,
    "extra_forbidden": ErrorCode.UNKNOWN_FIELD,
    "union_tag_invalid": ErrorCode.UNKNOWN_TYPE,
    "union_tag_not_found": ErrorCode.UNKNOWN_TYPE,
    "json_invalid": ErrorCode.MALFORMED_JSON,
    "json_type": ErrorCode.MALFORMED_JSON,
    "model_attributes_type": ErrorCode.MALFORMED_JSON,
    "model_type": ErrorCode.MALFORMED_JSON,
    "dict_type": ErrorCode.MALFORMED_JSON,
}
_WRONG_TYPE_SUFFIXES = ("_type", "_parsing")
_MAX_QUOTE = 60


class ProtocolError(ValueError):
    """A client frame that is not a valid message. ``code`` says what kind of wrong; ``client_id`` is the
    frame's ``id`` when one could be read, so the error can name the command it answers."""

    def __init__(self, code: ErrorCode, message: str, client_id: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.client_id = client_id


class DuplicateKeyError(ValueError):
    """A JSON object that has the same key twice (JSON parsers disagree on which value wins, so it is
    refused rather than guessed at)."""

    def __init__(self, key: str) -> None:
        super().__init__(f"the key {_quote(key)} appears more than once in one object")
        self.key = key


def unique_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A ``json.loads`` ``object_pairs_hook`` that raises ``DuplicateKeyError`` on a repeated key."""
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise DuplicateKeyError(key)
        result[key] = value
    return result


_UNIQUE_KEYS = json.JSONDecoder(object_pairs_hook=unique_object)
"""``json.loads(text, object_pairs_hook=unique_object)`` without making a decoder for each frame."""


def parse_client_message(frame: str | bytes) -> ClientMessage:
    """The typed message of one frame; raises ``ProtocolError``."""
    try:
        message = _ADAPTER.validate_json(frame)
    except ValidationError as exc:
        raise _protocol_error(exc, frame) from None
    try:  # the fast parser above keeps the last of a repeated key: look again, only at a valid message
        if isinstance(frame, str):
            _UNIQUE_KEYS.decode(frame)
        else:
            json.loads(frame, object_pairs_hook=unique_object)
    except DuplicateKeyError as exc:
        client_id = None if exc.key == "id" else getattr(message, "id", None)
        raise ProtocolError(ErrorCode.MALFORMED_JSON, f"the frame is not a JSON object of unique keys: {exc}",
                            client_id) from None
    return message


def client_id_of(frame: str | bytes) -> str | None:
    """The ``id`` of a frame that failed to parse, if it has a usable one (a short string)."""
    try:
        data = json.loads(frame)
    except (ValueError, RecursionError):
        return None
    if isinstance(data, dict):
        value = data.get("id")
        if isinstance(value, str) and 1 <= len(value) <= 64:
            return value
    return None


def _protocol_error(exc: ValidationError, frame: str | bytes) -> ProtocolError:
    first = exc.errors(include_url=False)[0]
    code = _code_of(first)
    client_id = None if code is ErrorCode.MALFORMED_JSON else client_id_of(frame)
    return ProtocolError(code, _describe(code, first), client_id)


def _code_of(error: ErrorDetails) -> ErrorCode:
    kind = error["type"]
    if kind in _TYPE_CODES:
        code = _TYPE_CODES[kind]
        # A dict/model type error on a nested field is a wrong type, not a malformed frame.
        if code is ErrorCode.MALFORMED_JSON and kind != "json_invalid" and _field_path(error):
            return ErrorCode.WRONG_TYPE
        return code
    if kind.endswith(_WRONG_TYPE_SUFFIXES) or kind in ("is_instance_of", "literal_error"):
        return ErrorCode.WRONG_TYPE if kind != "literal_error" else ErrorCode.INVALID_VALUE
    return ErrorCode.INVALID_VALUE


def _field_path(error: ErrorDetails) -> str:
    # The first element of loc is the union tag (the message type); the rest is the field path.
    loc = [str(p) for p in error["loc"]]
    return ".".join(loc[1:])


def _describe(code: ErrorCode, error: ErrorDetails) -> str:
    loc = [str(p) for p in error["loc"]]
    if code is ErrorCode.MALFORMED_JSON:
        return f"the frame is not a JSON object: {error['msg']}"
    if code is ErrorCode.UNKNOWN_TYPE:
        tag = _quote(error.get("ctx", {}).get("tag")) if error["type"] == "union_tag_invalid" else None
        expected = ", ".join(repr(t) for t in CLIENT_MESSAGE_TYPES)
        if tag is None:
            return f"the message has no 'type' field; expected one of {expected}"
        return f"unknown message type {tag}; expected one of {expected}"
    kind, field = loc[0], ".".join(loc[1:])
    if code is ErrorCode.MISSING_FIELD:
        return f"{kind}: missing field '{field}'"
    if code is ErrorCode.UNKNOWN_FIELD:
        return f"{kind}: unknown field '{field}' (extra fields are not allowed)"
    message = str(error["msg"]).removeprefix("Value error, ")
    return f"{kind}.{field}: {message} (got {_quote(error.get('input'))})"


def _quote(value: Any) -> str:
    text = json.dumps(value) if isinstance(value, str | int | float | bool | None) else repr(value)
    return text if len(text) <= _MAX_QUOTE else text[: _MAX_QUOTE - 3] + "..."
