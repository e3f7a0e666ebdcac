"""The committed JSON Schema is the protocol's, and it describes real messages."""

from __future__ import annotations

import json
from pathlib import Path

from paigow.protocol import PROTOCOL_VERSION, CloseCode, ErrorCode
from paigow.protocol.client import CLIENT_MESSAGE_TYPES
from paigow.protocol.schema import protocol_schema, protocol_schema_text
from paigow.protocol.server import SERVER_MESSAGE_TYPES
from paigow.table.rejections import RejectCode
from paigow_server.cli import main

COMMITTED = Path(__file__).resolve().parents[2] / "client_web" / "protocol.schema.json"


def test_the_committed_schema_is_current() -> None:
    assert COMMITTED.read_text(encoding="utf-8") == protocol_schema_text(), (
        "client_web/protocol.schema.json is stale: run `paigow schema` and commit it")


def test_the_schema_command_writes_and_checks(tmp_path: Path, capsys: object) -> None:
    out = tmp_path / "schema.json"
    assert main(["schema", "--output", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == protocol_schema_text()
    assert main(["schema", "--output", str(out), "--check"]) == 0
    out.write_text("{}", encoding="utf-8")
    assert main(["schema", "--output", str(out), "--check"]) == 1
    assert main(["schema", "--output", str(tmp_path / "missing.json"), "--check"]) == 1


def test_the_schema_lists_both_closed_message_sets_and_the_codes() -> None:
    schema = protocol_schema()
    defs = schema["$defs"]
    assert schema["x-protocol-version"] == PROTOCOL_VERSION
    assert tuple(defs["ClientMessage"]["discriminator"]["mapping"]) == CLIENT_MESSAGE_TYPES
    assert tuple(defs["ServerMessage"]["discriminator"]["mapping"]) == SERVER_MESSAGE_TYPES
    for name in CLIENT_MESSAGE_TYPES + SERVER_MESSAGE_TYPES:
        ref = {**defs["ClientMessage"]["discriminator"]["mapping"],
               **defs["ServerMessage"]["discriminator"]["mapping"]}[name]
        model = defs[ref.rsplit("/", 1)[1]]
        assert model["additionalProperties"] is False
        assert model["required"][0] == "type"
    assert defs["ErrorCode"]["enum"] == [c.value for c in ErrorCode]
    assert defs["RejectCode"]["enum"] == [c.value for c in RejectCode]
    assert defs["CloseCode"]["enum"] == [int(c) for c in CloseCode]
    json.dumps(schema)  # plain JSON


def test_error_and_reject_codes_share_only_invalid_value() -> None:
    assert {c.value for c in ErrorCode} & {c.value for c in RejectCode} == {"INVALID_VALUE"}
