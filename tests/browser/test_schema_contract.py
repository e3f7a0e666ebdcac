"""The browser client speaks the protocol the server publishes (client_web/protocol.schema.json): its
protocol version, every message it sends with every field it fills, every event kind it handles, and every
wire field (snake_case) it reads from views, events and round records."""

from __future__ import annotations

import json
import re
from importlib.resources import files
from pathlib import Path
from typing import Any

WEB = Path(str(files("paigow_web")))
SCHEMA: dict[str, Any] = json.loads((WEB / "protocol.schema.json").read_text())
DEFS: dict[str, Any] = SCHEMA["$defs"]
TABLE_MODULES = ["table_app.js", "table_actions.js", "tray.js", "table_render.js", "showdown.js",
                 "history.js", "rounds.js", "chat.js", "fortune.js", "coach.js",
                 "home_seat.js", "host_panel.js", "home_words.js", "table_access.js", "side_bets.js"]
SENT = re.compile(r"(?<!Intl\.PluralRules\(locale, )\{ type: ([^,}]+)((?:, \w+: [^,}]+)*) \}")
# Not a field the client reads: a quoted string, a catalog key ("table:actions.bank_offer", also inside a
# template literal), a comment.
NOT_CODE = re.compile(r'"(?:[^"\\\n]|\\.)*"' + r"|'(?:[^'\\\n]|\\.)*'" + r"|\b[a-z]+:[\w.]+|(?:^|\s)//[^\n]*")
# Fields of the HTTP API (docs/http-api.md), not of the WebSocket protocol.
HTTP_FIELDS = {"balance_cents", "display_name", "balance_before_cents", "balance_after_cents",
               "total_net_cents",  # a history entry's whole result
               # the coach: a hand's analysis, its stored form and the history's sessions
               "ev_given_up", "chosen_ev", "best_ev", "best_splits", "ev_given_up_total", "ev_given_up_mean",
               "timed_out", "table_name",
               # home games (docs/http-api.md, "Home games"): an invite's resolution and a table's summary
               "spectators_policy", "short_code", "until_ms",
               # responsible play (docs/http-api.md, "Limits (players)"): History's play sessions, the room
               # a money limit leaves (the bet panel)
               "play_sessions", "start_ms", "end_ms", "room_cents"}


def _source(name: str) -> str:
    return (WEB / "js" / name).read_text()


def _const(schema: dict[str, Any]) -> str | None:
    value = schema.get("const", schema.get("default"))
    return value if isinstance(value, str) else None


def _messages() -> dict[str, set[str]]:
    """Client message ``type`` -> its fields."""
    out: dict[str, set[str]] = {}
    for ref in DEFS["ClientMessage"]["oneOf"]:
        props = DEFS[ref["$ref"].rsplit("/", 1)[1]]["properties"]
        type_name = _const(props["type"])
        assert type_name is not None
        out[type_name] = set(props)
    return out


def _all_properties(node: Any) -> set[str]:
    found: set[str] = set()
    if isinstance(node, dict):
        if isinstance(node.get("properties"), dict):
            found |= set(node["properties"])
        for value in node.values():
            found |= _all_properties(value)
    elif isinstance(node, list):
        for value in node:
            found |= _all_properties(value)
    return found


def test_protocol_version_matches() -> None:
    match = re.search(r"const PROTOCOL = (\d+);", _source("table_app.js"))
    assert match is not None
    assert int(match.group(1)) == SCHEMA["x-protocol-version"]


def test_every_message_the_client_sends_is_in_the_schema_with_its_fields() -> None:
    messages = _messages()
    sent = [m for name in TABLE_MODULES for m in SENT.finditer(_source(name))]
    assert len(sent) >= 8
    seen: set[str] = set()
    for m in sent:
        types = re.findall(r'"(\w+)"', m.group(1))
        assert types, m.group(0)
        fields = set(re.findall(r", (\w+):", m.group(2))) | {"type"}
        for t in types:
            assert t in messages, f"{t!r} is not a client message"
            assert fields <= messages[t], f"{m.group(0)} sends fields the schema lacks"
            seen.add(t)
    hello = re.search(r'\{ type: "hello", protocol: PROTOCOL \}', _source("table_app.js"))
    assert hello is not None
    assert {"token", "spectate", "last_version"} <= messages["hello"]
    assert seen >= {"place_bet", "remove_bet", "set_hand", "use_house_way", "accept_bank", "decline_bank",
                    "sit_out", "sit_in", "leave", "set_own_limit", "chat", "place_bonus"}


def test_every_event_kind_the_client_handles_exists() -> None:
    kinds = {_const(d["properties"]["kind"]) for d in DEFS.values()
             if isinstance(d.get("properties"), dict) and "kind" in d["properties"]}
    handled = set(re.findall(r'case "(\w+)":', _source("table_app.js") + _source("home_words.js")))
    assert handled
    assert handled <= kinds, handled - kinds


def test_every_wire_field_the_client_reads_exists() -> None:
    known = _all_properties(DEFS) | HTTP_FIELDS
    read = {f for name in TABLE_MODULES
            for f in re.findall(r"\.([a-z]+(?:_[a-z]+)+)\b", NOT_CODE.sub(' ', _source(name)))}
    assert {"chips_cents", "deadline_ms", "coverage_left_cents", "banker_net_cents"} <= read
    assert read <= known, sorted(read - known)
