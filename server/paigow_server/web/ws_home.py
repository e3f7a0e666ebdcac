"""The table connection's side of home games (docs/protocol.md, "Private tables and the waiting list"): how
``ws.TableConnection`` asks ``home_gate`` whether a hello may join a private table and has a host's message
carried out, which messages a barred player may not send, and the closing of a removed player's
connections, and the audit of a host message refused before the table saw it (a spectator's, one that did
not parse, one over the message rate: ``host_refused``). ``home_gate`` decides; the table checks the host in
each host message's own commit."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Protocol, get_args, runtime_checkable

from paigow.protocol.client import ClientCommand, Hello, Sit
from paigow.protocol.codes import ErrorCode
from paigow.protocol.home_messages import JoinWaitlist, RequestSeat, TakeSeat
from paigow.table.commands import Command
from paigow.table.rejections import RejectCode, Rejection
from paigow.table.state import KickedBy
from paigow_server.realtime.tables import TableService
from paigow_server.web.home_gate import HomeGate, Refusal, is_private_id
from paigow_server.web.host_audit import HostMessage, HostSender
from paigow_server.web.sessions import Identity

__all__ = [
    "HOST_MESSAGES", "SITTING", "RemovableConnection", "Sender", "close_removed", "hello_refusal",
    "host_message", "host_refused",
]

SITTING = (Sit, TakeSeat, RequestSeat, JoinWaitlist)
"""The commands a barred player may not send (``BARRED``): each leads to a seat."""
HOST_MESSAGES = HostMessage
"""A host's messages (``host_audit.HostMessage``): audited, and ``host_remove``'s bar written beside the table
(``home_gate``)."""
HOST_TYPES = frozenset(cls.model_fields["type"].default for cls in get_args(HostMessage))


async def hello_refusal(home: HomeGate | None, table_id: str, hello: Hello, identity: Identity | None, *,
                        spectate: bool, operator: bool) -> Refusal | None:
    """Why ``hello`` (of ``identity``'s session, if any) may not join the table (``HomeGate.refusal``, which
    refuses an unknown private id as it refuses a table without access); None at a public id (an unknown
    one: joining its feed then fails, ``TABLE_NOT_FOUND``)."""
    if home is None or not is_private_id(table_id):
        return None
    return await home.refusal(table_id, player_id=None if identity is None else identity.player_id,
                              spectate=spectate, operator=operator, invite=hello.invite)


async def host_message(home: HomeGate | None, service: TableService, table_id: str, msg: HostMessage,
                       identity: Identity, command: Command) -> int:
    """Carry out a host's message (``HomeGate.host``) through the table service: the table's version after
    it. At a public table it is ``NOT_PRIVATE`` (not audited)."""
    if home is None or not is_private_id(table_id):
        raise Rejection(RejectCode.NOT_PRIVATE, f"table {table_id!r} is not a private table: host messages "
                                                "are for home games")

    async def execute(table_command: Command) -> int:
        return (await service.execute(table_id, table_command)).version

    return await home.host(table_id, msg, player_id=identity.player_id, name=identity.name, command=command,
                           execute=execute)


class Sender(Protocol):
    """A table connection, as the audit of its host messages names it (``ws.TableConnection``)."""

    table_id: str
    identity: Identity | None
    operator: str | None
    network: str


async def host_refused(home: HomeGate | None, conn: Sender, frame: str | ClientCommand,
                       code: ErrorCode | RejectCode, message: str) -> tuple[ErrorCode | RejectCode, str]:
    """The answer to a frame (or a command) refused before the table saw it: a host message at a private
    table is audited (``HostAudit.refused``), and past its sender's budget answered ``RATE_LIMITED``
    instead; any other frame keeps ``code`` and ``message``."""
    if home is None or not is_private_id(conn.table_id):
        return code, message
    msg = _host_type(frame) if isinstance(frame, str) else frame if isinstance(frame, HOST_MESSAGES) else None
    if msg is None:
        return code, message
    identity = conn.identity
    sender = HostSender(None if identity is None else identity.player_id,
                        None if identity is None else identity.name, conn.operator, conn.network)
    return await home.log.refused(conn.table_id, sender, msg, code, message)


def _host_type(frame: str) -> str | None:
    """The type of a frame that did not parse, when it names a host message."""
    if '"host_' not in frame:
        return None
    try:
        data = json.loads(frame)
    except (ValueError, RecursionError):
        return None
    kind = data.get("type") if isinstance(data, dict) else None
    return kind if isinstance(kind, str) and kind in HOST_TYPES else None


@runtime_checkable
class RemovableConnection(Protocol):
    """A table connection, as a removal closes it (``ws.TableConnection``)."""

    table_id: str
    identity: Identity | None

    def close_removed(self, until_ms: int | None, by: KickedBy) -> None:
        """Tell the player they were removed (``BARRED``: who removed them, when the bar ends), then close
        with 4403."""
        ...


def close_removed(connections: Iterable[object], table_id: str, player_id: str, until_ms: int | None,
                  by: KickedBy | None) -> None:
    """``Fanout.on_removed``: a private table's host removed ``player_id`` (``by``, the kick's; None in an
    event stored before it was told: the host, whose ``host_remove`` alone ends an admission); this
    process's connections of theirs to that table are told and closed (every process does the same for its
    own)."""
    for conn in list(connections):
        if (isinstance(conn, RemovableConnection) and conn.table_id == table_id and conn.identity is not None
                and conn.identity.player_id == player_id):
            conn.close_removed(until_ms, by or KickedBy.HOST)
