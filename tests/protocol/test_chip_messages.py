"""A home game's chip messages (docs/protocol.md, "A home game's own chips"): each parses strictly, or is
refused with the code naming what was wrong (a missing field, a wrong type, an unknown field, a value out
of range), before the table sees it."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from paigow.protocol.chip_messages import HostBuyIn, HostChips, HostChipSettings
from paigow.protocol.client import CLIENT_MESSAGE_TYPES
from paigow.protocol.codes import ErrorCode
from paigow.protocol.parse import ProtocolError, parse_client_message
from paigow.rules.house_rules import MAX_CENTS


def _refused(message: dict[str, object]) -> ProtocolError:
    with pytest.raises(ProtocolError) as info:
        parse_client_message(json.dumps({"id": "c1", **message}))
    assert info.value.client_id == "c1"
    return info.value


INVALID, MISSING, WRONG, UNKNOWN = (ErrorCode.INVALID_VALUE, ErrorCode.MISSING_FIELD, ErrorCode.WRONG_TYPE,
                                    ErrorCode.UNKNOWN_FIELD)


@pytest.mark.parametrize(("message", "code", "words"), [
    ({"type": "rebuy"}, MISSING, "rebuy: missing field 'amount_cents'"),
    ({"type": "rebuy", "amount_cents": "5000"}, WRONG, "rebuy.amount_cents"),
    ({"type": "rebuy", "amount_cents": 50.0}, WRONG, "rebuy.amount_cents"),
    ({"type": "rebuy", "amount_cents": 0}, INVALID, "rebuy.amount_cents"),
    ({"type": "rebuy", "amount_cents": MAX_CENTS + 1}, INVALID, "rebuy.amount_cents"),
    ({"type": "rebuy", "amount_cents": 5000, "seat": 2}, UNKNOWN, "rebuy: unknown field 'seat'"),
    ({"type": "rebuy", "amount_cents": 5000, "player_id": "p_x"}, UNKNOWN, "'player_id'"),
    ({"type": "cancel_buy_in"}, MISSING, "cancel_buy_in: missing field 'request_id'"),
    ({"type": "cancel_buy_in", "request_id": 3}, WRONG, "cancel_buy_in.request_id"),
    ({"type": "cancel_buy_in", "request_id": ""}, INVALID, "cancel_buy_in.request_id"),
    ({"type": "cancel_buy_in", "request_id": "b" * 65}, INVALID, "cancel_buy_in.request_id"),
    ({"type": "host_buy_in", "request_id": "b1"}, MISSING, "host_buy_in: missing field 'approve'"),
    ({"type": "host_buy_in", "approve": True}, MISSING, "missing field 'request_id'"),
    ({"type": "host_buy_in", "request_id": "b1", "approve": 1}, WRONG, "host_buy_in.approve"),
    ({"type": "host_buy_in", "request_id": "b1", "approve": "yes"}, WRONG, "host_buy_in.approve"),
    ({"type": "host_buy_in", "request_id": "b1", "approve": True, "amount_cents": -5}, INVALID,
     "host_buy_in.amount_cents"),
    ({"type": "host_buy_in", "request_id": "b1", "approve": False, "amount_cents": 5000},
     INVALID, "amount_cents goes with approve true"),
    ({"type": "host_buy_in", "request_id": "b1", "approve": True, "player_id": "p_x"}, UNKNOWN,
     "host_buy_in: unknown field 'player_id'"),
    ({"type": "host_chips", "amount_cents": 500, "reason": "x"}, MISSING,
     "host_chips: missing field 'player_id'"),
    ({"type": "host_chips", "player_id": "p_b", "reason": "x"}, MISSING,
     "host_chips: missing field 'amount_cents'"),
    ({"type": "host_chips", "player_id": "p_b", "amount_cents": 500}, MISSING,
     "host_chips: missing field 'reason'"),
    ({"type": "host_chips", "player_id": "p_b", "amount_cents": "500", "reason": "x"}, WRONG,
     "host_chips.amount_cents"),
    ({"type": "host_chips", "player_id": "p_b", "amount_cents": 500, "reason": 7}, WRONG,
     "host_chips.reason"),
    ({"type": "host_chips", "player_id": "p_b", "amount_cents": 0, "reason": "x"}, INVALID,
     "a correction of 0 changes nothing"),
    ({"type": "host_chips", "player_id": "p_b", "amount_cents": -MAX_CENTS - 1, "reason": "x"},
     INVALID, "host_chips.amount_cents"),
    ({"type": "host_chips", "player_id": "p_b", "amount_cents": MAX_CENTS + 1, "reason": "x"},
     INVALID, "host_chips.amount_cents"),
    ({"type": "host_chips", "player_id": "p_b", "amount_cents": 500, "reason": ""}, INVALID,
     "host_chips.reason"),
    ({"type": "host_chips", "player_id": "p_b", "amount_cents": 500, "reason": " \u3000 "},
     INVALID, "the reason is empty"),
    ({"type": "host_chips", "player_id": "p_b", "amount_cents": 500, "reason": "x" * 201},
     INVALID, "host_chips.reason"),
    ({"type": "host_chips", "player_id": "p_b", "amount_cents": 500, "reason": "two\nlines"},
     INVALID, "U+000A (category Cc) at position 3"),
    ({"type": "host_chips", "player_id": "p_b", "amount_cents": 500, "reason": "hid\u200bden"},
     INVALID, "U+200B (category Cf)"),
    ({"type": "host_chips", "player_id": "", "amount_cents": 500, "reason": "x"}, INVALID,
     "host_chips.player_id"),
    ({"type": "host_chips", "player_id": "p_b", "amount_cents": 500, "reason": "x", "note": "y"},
     UNKNOWN, "host_chips: unknown field 'note'"),
    ({"type": "host_chip_settings"}, INVALID, "host_chip_settings needs at least one of"),
    ({"type": "host_chip_settings", "rebuys": None}, INVALID, "needs at least one of"),
    ({"type": "host_chip_settings", "rebuys": "no"}, WRONG, "host_chip_settings.rebuys"),
    ({"type": "host_chip_settings", "auto_approve": 1}, WRONG, "host_chip_settings.auto_approve"),
    ({"type": "host_chip_settings", "min_buy_in_cents": 0}, INVALID,
     "host_chip_settings.min_buy_in_cents"),
    ({"type": "host_chip_settings", "max_buy_in_cents": 1.5}, WRONG,
     "host_chip_settings.max_buy_in_cents"),
    ({"type": "host_chip_settings", "commission": "none"}, UNKNOWN,
     "host_chip_settings: unknown field 'commission'"),
    ({"type": "host_chip_settings", "players_bank_in_turn": True}, UNKNOWN,
     "unknown field 'players_bank_in_turn'"),
])
def test_each_bad_chip_message_gets_the_code_naming_what_was_wrong(message: dict[str, object],
                                                                    code: ErrorCode, words: str) -> None:
    error = _refused(message)
    assert error.code is code
    assert words in error.message


def test_a_reason_is_trimmed_and_its_inner_space_made_one() -> None:
    msg = parse_client_message('{"type":"host_chips","id":"1","player_id":"p_b","amount_cents":-250,'
                               '"reason":"  chips  counted\\u00a0twice "}')
    assert msg == HostChips(id="1", player_id="p_b", amount_cents=-250, reason="chips counted twice")
    longest = parse_client_message(json.dumps({"type": "host_chips", "id": "1", "player_id": "p_b",
                                               "amount_cents": MAX_CENTS, "reason": "é" * 200}))
    assert isinstance(longest, HostChips)
    assert len(longest.reason) == 200


def test_a_host_buy_in_approves_as_asked_or_with_an_amount_and_denies_without_one() -> None:
    assert parse_client_message('{"type":"host_buy_in","id":"1","request_id":"b2","approve":true}') == \
        HostBuyIn(id="1", request_id="b2", approve=True)
    assert parse_client_message('{"type":"host_buy_in","id":"1","request_id":"b2","approve":false,'
                                '"amount_cents":null}') == HostBuyIn(id="1", request_id="b2", approve=False)


def test_chip_settings_name_only_what_changes() -> None:
    msg = parse_client_message('{"type":"host_chip_settings","id":"1","rebuys":false,'
                               '"max_buy_in_cents":90000}')
    assert isinstance(msg, HostChipSettings)
    assert msg.changes() == {"max_buy_in_cents": 90000, "rebuys": False}


DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_the_docs_list_every_client_message_and_every_host_message_the_audit_names() -> None:
    protocol = (DOCS / "protocol.md").read_text(encoding="utf-8")
    table = protocol[protocol.index("\n## Client messages\n"):protocol.index("\n## Server messages\n")]
    listed = {name for row in table.splitlines() if row.startswith("| `")
              for name in re.findall(r"`(\w+)`", row.split(" | ")[0])}
    assert set(CLIENT_MESSAGE_TYPES) <= listed, set(CLIENT_MESSAGE_TYPES) - listed
    audit = (DOCS / "home-games.md").read_text(encoding="utf-8")
    [action_row] = [row for row in audit.splitlines() if row.startswith("| `action` |")]
    host_types = {t for t in CLIENT_MESSAGE_TYPES if t.startswith("host_")}
    assert host_types <= set(re.findall(r"`(host_\w+)`", action_row))
