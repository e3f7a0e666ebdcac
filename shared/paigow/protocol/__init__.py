"""paigow.protocol: the wire messages between a browser and the table server (pydantic v2, no I/O).

Client → server (``ClientMessage``, discriminated by ``type``): ``hello``, ``sync``, ``ping`` and the table
commands (``sit``, ``leave``, ``sit_out``, ``sit_in``, ``accept_bank``, ``decline_bank``, ``place_bet``,
``remove_bet``, ``set_hand``, ``use_house_way``, ``set_own_limit``, the variants'; the private tables' and
the waiting list's in ``home_messages``, a home game's chips' in ``chip_messages``), each command with a
client ``id``, and ``chat`` (the table chat, ``paigow.protocol.chat``). Server → client
(``ServerMessage``): ``snapshot``, ``patch``, ``accepted``, ``error``, ``pong``, and the chat's ``chat``,
``chat_deleted``, ``chat_setting``. ``parse_client_message`` reads a frame once (or raises
``ProtocolError`` with an ``ErrorCode``); ``to_command`` turns a client command into the ``paigow.table``
command; ``protocol_schema`` is the JSON Schema of it all. See docs/protocol.md.
"""

from paigow.protocol.client import CLIENT_MESSAGE_TYPES, ClientCommand, ClientMessage, Hello, Ping, Sync
from paigow.protocol.codes import CloseCode, ErrorCode
from paigow.protocol.convert import to_command
from paigow.protocol.parse import ProtocolError, parse_client_message
from paigow.protocol.schema import protocol_schema, protocol_schema_text
from paigow.protocol.server import (
    SERVER_MESSAGE_TYPES,
    Accepted,
    ErrorMessage,
    Patch,
    PatchOperation,
    Pong,
    Role,
    ServerMessage,
    Snapshot,
    decode_server_message,
    encode_server_message,
)
from paigow.protocol.version import PROTOCOL_VERSION, SUPPORTED_PROTOCOLS

__all__ = [
    "CLIENT_MESSAGE_TYPES",
    "PROTOCOL_VERSION",
    "SERVER_MESSAGE_TYPES",
    "SUPPORTED_PROTOCOLS",
    "Accepted",
    "ClientCommand",
    "ClientMessage",
    "CloseCode",
    "ErrorCode",
    "ErrorMessage",
    "Hello",
    "Patch",
    "PatchOperation",
    "Ping",
    "Pong",
    "ProtocolError",
    "Role",
    "ServerMessage",
    "Snapshot",
    "Sync",
    "decode_server_message",
    "encode_server_message",
    "parse_client_message",
    "protocol_schema",
    "protocol_schema_text",
    "to_command",
]
