"""Every client frame is parsed once into a typed message, or refused with a code naming what was wrong."""

from __future__ import annotations

import json
import typing

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paigow.protocol.client import (
    CLIENT_MESSAGE_TYPES,
    ClientMessage,
    Hello,
    PlaceBet,
    SetHand,
    Sit,
)
from paigow.protocol.codes import ErrorCode
from paigow.protocol.parse import ProtocolError, client_id_of, parse_client_message


def _code(frame: str | bytes) -> ErrorCode:
    with pytest.raises(ProtocolError) as info:
        parse_client_message(frame)
    return info.value.code


def test_the_type_list_names_every_client_message() -> None:
    union = typing.get_args(typing.get_args(ClientMessage)[0])
    assert tuple(m.model_fields["type"].default for m in union) == CLIENT_MESSAGE_TYPES


def test_valid_messages_parse_into_their_models() -> None:
    assert parse_client_message('{"type":"hello","protocol":1}') == Hello(protocol=1)
    hello = parse_client_message('{"type":"hello","protocol":1,"token":"abc","last_version":17}')
    assert isinstance(hello, Hello)
    assert (hello.token, hello.last_version, hello.spectate) == ("abc", 17, False)
    sit = parse_client_message(b'{"type":"sit","id":"c1","seat":6,"buy_in_cents":50000}')
    assert sit == Sit(id="c1", seat=6, buy_in_cents=50000)
    assert parse_client_message('{"id":"7","amount_cents":500,"type":"place_bet"}') == PlaceBet(
        id="7", amount_cents=500)


def test_set_hand_takes_cards_in_their_one_text_form() -> None:
    msg = parse_client_message('{"type":"set_hand","id":"x","low":["Th","JK"]}')
    assert isinstance(msg, SetHand)
    assert msg.low == ("Th", "JK")
    assert [str(c) for c in msg.low_cards()] == ["Th", "JK"]


@pytest.mark.parametrize("low", [["ks", "2c"], [" 2d", "Th"], ["10h", "2c"], ["Jk", "2c"], ["Joker", "2c"],
                                 ["AS", "2c"], ["2c", "td"], ["2c", "Th "], ["2c", "jk"], ["2c", "1h"]])
def test_set_hand_refuses_any_other_card_spelling(low: list[str]) -> None:
    frame = json.dumps({"type": "set_hand", "id": "x", "low": low})
    with pytest.raises(ProtocolError) as info:
        parse_client_message(frame)
    assert (info.value.code, info.value.client_id) == (ErrorCode.INVALID_VALUE, "x")
    bad = next(t for t in low if t not in ("2c", "Th"))
    assert f"bad card {bad!r}" in info.value.message


@pytest.mark.parametrize("low", [[], ["As"], ["As", "Kd", "Qh"]])
def test_a_low_hand_of_other_than_two_cards_is_an_invalid_value(low: list[str]) -> None:
    with pytest.raises(ProtocolError) as info:
        parse_client_message(json.dumps({"type": "set_hand", "id": "x", "low": low}))
    assert info.value.code is ErrorCode.INVALID_VALUE
    assert "set_hand.low" in info.value.message
    assert "2 items" in info.value.message


@pytest.mark.parametrize(
    ("frame", "code", "words"),
    [
        ("not json", ErrorCode.MALFORMED_JSON, "not a JSON object"),
        ('{"type":"hello"', ErrorCode.MALFORMED_JSON, "not a JSON object"),
        ("[1, 2]", ErrorCode.MALFORMED_JSON, "not a JSON object"),
        ('"hello"', ErrorCode.MALFORMED_JSON, "not a JSON object"),
        ("", ErrorCode.MALFORMED_JSON, "not a JSON object"),
        ("{}", ErrorCode.UNKNOWN_TYPE, "no 'type' field"),
        ('{"type":"teleport","id":"1"}', ErrorCode.UNKNOWN_TYPE, 'unknown message type "teleport"'),
        ('{"type":7}', ErrorCode.UNKNOWN_TYPE, "unknown message type"),
        ('{"type":"sit","id":"1","seat":2}', ErrorCode.MISSING_FIELD, "sit: missing field 'buy_in_cents'"),
        ('{"type":"leave"}', ErrorCode.MISSING_FIELD, "leave: missing field 'id'"),
        ('{"type":"leave","id":"1","seat":2}', ErrorCode.UNKNOWN_FIELD, "leave: unknown field 'seat'"),
        ('{"type":"sit","id":"1","seat":"2","buy_in_cents":500}', ErrorCode.WRONG_TYPE, 'sit.seat'),
        ('{"type":"sit","id":"1","seat":2.0,"buy_in_cents":500}', ErrorCode.WRONG_TYPE, "sit.seat"),
        ('{"type":"sit","id":"1","seat":true,"buy_in_cents":500}', ErrorCode.WRONG_TYPE, "sit.seat"),
        ('{"type":"sit","id":1,"seat":2,"buy_in_cents":500}', ErrorCode.WRONG_TYPE, "sit.id"),
        ('{"type":"ping","id":{"a":1}}', ErrorCode.WRONG_TYPE, "ping.id"),
        ('{"type":"set_hand","id":"1","low":"As Kd"}', ErrorCode.WRONG_TYPE, "set_hand.low"),
        ('{"type":"sit","id":"1","seat":7,"buy_in_cents":500}', ErrorCode.INVALID_VALUE, "equal to 6"),
        ('{"type":"sit","id":"1","seat":0,"buy_in_cents":500}', ErrorCode.INVALID_VALUE, "sit.seat"),
        ('{"type":"place_bet","id":"1","amount_cents":-500}', ErrorCode.INVALID_VALUE, "got -500"),
        ('{"type":"place_bet","id":"1","amount_cents":0}', ErrorCode.INVALID_VALUE, "place_bet.amount_cents"),
        ('{"type":"place_bet","id":"1","amount_cents":1e999}', ErrorCode.WRONG_TYPE, "amount_cents"),
        ('{"type":"place_bet","id":"1","amount_cents":1234567890123456789012345}', ErrorCode.INVALID_VALUE,
         "amount_cents"),
        ('{"type":"place_bet","id":"","amount_cents":500}', ErrorCode.INVALID_VALUE, "place_bet.id"),
        ('{"type":"leave","id":"' + "x" * 65 + '"}', ErrorCode.INVALID_VALUE, "leave.id"),
        ('{"type":"set_hand","id":"1","low":["As","Zz"]}', ErrorCode.INVALID_VALUE, "bad card 'Zz'"),
        ('{"type":"set_hand","id":"1","low":["As","As"]}', ErrorCode.INVALID_VALUE, "duplicate card As"),
        ('{"type":"set_hand","id":"1","low":["As","Kd","Qh"]}', ErrorCode.INVALID_VALUE, "set_hand.low"),
        ('{"type":"hello","protocol":1,"last_version":-1}', ErrorCode.INVALID_VALUE, "hello.last_version"),
        ('{"type":"hello","protocol":1,"token":""}', ErrorCode.INVALID_VALUE, "hello.token"),
        ('{"type":"sync","last_version":-1}', ErrorCode.INVALID_VALUE, "sync.last_version"),
        ('{"type":"sync","last_version":"7"}', ErrorCode.WRONG_TYPE, "sync.last_version"),
    ],
)
def test_each_bad_frame_gets_the_code_naming_what_was_wrong(frame: str, code: ErrorCode, words: str) -> None:
    with pytest.raises(ProtocolError) as info:
        parse_client_message(frame)
    assert info.value.code is code
    assert words in info.value.message


def test_the_error_names_the_command_id_when_it_can_be_read() -> None:
    with pytest.raises(ProtocolError) as info:
        parse_client_message('{"type":"place_bet","id":"bet-3","amount_cents":-1}')
    assert info.value.client_id == "bet-3"
    with pytest.raises(ProtocolError) as info:
        parse_client_message('{"type":"place_bet","id":"' + "x" * 65 + '","amount_cents":1}')
    assert info.value.client_id is None
    assert client_id_of("not json") is None
    assert client_id_of('["id"]') is None


def test_a_deeply_nested_frame_is_refused_without_crashing() -> None:
    assert _code("[" * 100_000 + "]" * 100_000) is ErrorCode.MALFORMED_JSON
    assert _code('{"type":"ping","id":' + "[" * 5000 + "]" * 5000 + "}") in (
        ErrorCode.MALFORMED_JSON, ErrorCode.WRONG_TYPE)


@pytest.mark.parametrize(("frame", "key", "client_id"), [
    ('{"type":"place_bet","id":"b1","amount_cents":500,"amount_cents":900}', "amount_cents", "b1"),
    ('{"type":"ping","type":"sync","last_version":1}', "type", None),
    ('{"type":"set_hand","id":"b2","id":"b3","low":["As","Kd"]}', "id", None),
    ('{"type":"hello","protocol":1,"spectate":true,"spectate":false}', "spectate", None),
])
def test_a_key_twice_in_a_frame_is_malformed_json_naming_the_key(frame: str, key: str,
                                                                  client_id: str | None) -> None:
    with pytest.raises(ProtocolError) as info:
        parse_client_message(frame)
    assert (info.value.code, info.value.client_id) == (ErrorCode.MALFORMED_JSON, client_id)
    assert f'the key "{key}" appears more than once' in info.value.message


def test_invalid_utf8_is_malformed() -> None:
    assert _code(b'{"type":"ping","id":"\xff"}') is ErrorCode.MALFORMED_JSON


@settings(deadline=None)  # the machine is shared: no per-example time limit
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner,
                                                                                 max_size=4),
                    max_leaves=12))
def test_any_json_value_parses_or_gets_a_protocol_error(value: object) -> None:
    error = _error_or_none(json.dumps(value))
    assert error is None or (error.code in ErrorCode and error.message)


@settings(deadline=None)
@given(st.sampled_from(CLIENT_MESSAGE_TYPES), st.dictionaries(
    st.sampled_from(["id", "seat", "buy_in_cents", "amount_cents", "low", "protocol", "token", "last_version",
                     "max_bet_cents", "spectate", "extra"]),
    st.none() | st.booleans() | st.integers() | st.text(max_size=5) | st.lists(st.text(max_size=3)),
    max_size=5))
def test_fuzzed_fields_of_every_type_parse_or_get_a_field_error(kind: str, fields: dict[str, object]) -> None:
    error = _error_or_none(json.dumps({"type": kind, **fields}))
    assert error is None or error.code not in (ErrorCode.UNKNOWN_TYPE, ErrorCode.MALFORMED_JSON)


def _error_or_none(frame: str) -> ProtocolError | None:
    try:
        parse_client_message(frame)
    except ProtocolError as exc:
        return exc
    return None
