"""The JSON Schema of the whole protocol, for the browser client (``client_web/protocol.schema.json``).

One document: ``$defs`` holds every message and value type; ``$defs.ClientMessage`` and
``$defs.ServerMessage`` are the two closed unions (``oneOf`` with a ``type`` discriminator);
``$defs.CloseCode`` lists the close codes. ``x-protocol-version`` is ``PROTOCOL_VERSION``.
Client messages are described as the server validates them; server messages as the server writes them
(every field present).
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import TypeAdapter

from paigow.protocol.client import ClientMessage
from paigow.protocol.codes import CloseCode, ErrorCode
from paigow.protocol.server import ServerMessage
from paigow.protocol.version import PROTOCOL_VERSION

__all__ = ["protocol_schema", "protocol_schema_text"]

_CLOSE_CODE_HELP = {
    CloseCode.NORMAL: "normal closure",
    CloseCode.GOING_AWAY: "the server is shutting down: reconnect with the last version",
    CloseCode.POLICY_VIOLATION: "message flood over the rate limit",
    CloseCode.MESSAGE_TOO_BIG: "a frame over the size limit",
    CloseCode.INTERNAL_ERROR: "unexpected server error: reconnect with the last version",
    CloseCode.SERVICE_RESTART: "the server is restarting: reconnect with the last version",
    CloseCode.TRY_AGAIN_LATER: "the client fell too far behind: reconnect with the last version",
    CloseCode.UNAUTHORIZED: "unknown session token: start a new session",
    CloseCode.FORBIDDEN: "a private table refused the hello: ask its host for a link",
    CloseCode.TABLE_NOT_FOUND: "no table with that id",
    CloseCode.HELLO_TIMEOUT: "no hello in time",
    CloseCode.UNSUPPORTED_PROTOCOL: "hello.protocol is not spoken by this server",
    CloseCode.TOO_MANY_CONNECTIONS: "the player has too many open connections",
}


def protocol_schema() -> dict[str, Any]:
    """The schema document as a dict."""
    keyed, top = TypeAdapter.json_schemas(
        [
            ("client", "validation", TypeAdapter(ClientMessage)),
            ("server", "serialization", TypeAdapter(ServerMessage)),
        ],
        ref_template="#/$defs/{model}",
    )
    defs: dict[str, Any] = dict(top.get("$defs", {}))
    defs["ClientMessage"] = keyed[("client", "validation")]
    defs["ServerMessage"] = keyed[("server", "serialization")]
    defs["CloseCode"] = {
        "title": "CloseCode",
        "description": "WebSocket close codes sent by the server",
        "type": "integer",
        "enum": [int(c) for c in CloseCode],
        "x-enum-names": [c.name for c in CloseCode],
        "x-enum-descriptions": [_CLOSE_CODE_HELP[c] for c in CloseCode],
    }
    if "ErrorCode" not in defs:  # pragma: no cover - ErrorMessage always references it
        defs["ErrorCode"] = {"type": "string", "enum": [c.value for c in ErrorCode]}
    _require_type(defs)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"urn:paigow:protocol:v{PROTOCOL_VERSION}",
        "title": f"Pai Gow Poker table protocol, version {PROTOCOL_VERSION}",
        "description": "Messages over WS /ws/tables/{table_id}; see docs/protocol.md.",
        "x-protocol-version": PROTOCOL_VERSION,
        "anyOf": [{"$ref": "#/$defs/ClientMessage"}, {"$ref": "#/$defs/ServerMessage"}],
        "$defs": dict(sorted(defs.items())),
    }


def _require_type(defs: dict[str, Any]) -> None:
    """A message's ``type`` has a default in Python but is required on the wire: say so."""
    for name in ("ClientMessage", "ServerMessage"):
        for ref in defs[name]["discriminator"]["mapping"].values():
            model = defs[ref.rsplit("/", 1)[-1]]
            required = model.setdefault("required", [])
            if "type" not in required:
                required.insert(0, "type")


def protocol_schema_text() -> str:
    """The schema as the stable text committed in ``client_web/protocol.schema.json``."""
    return json.dumps(protocol_schema(), indent=2, ensure_ascii=False) + "\n"
