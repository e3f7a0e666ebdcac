"""The audit of a private table's host messages (docs/home-games.md, "The audit of host messages").

Every ``host_*`` message a connection at a private table sends after its hello is one entry of the
operator's audit log, carried out or refused, whatever the refusal: the table's (``NOT_HOST``,
``INVALID_VALUE``, ``ALREADY_DONE``...), a connection that only watches (``SPECTATOR_CANNOT_ACT``), a frame
that is no valid message (``INVALID_VALUE``, ``MISSING_FIELD``, ``WRONG_TYPE``, ``UNKNOWN_FIELD``: then its
``params`` hold none of its fields, the ``detail`` quotes what was wrong), one over the connection's
message rate (``RATE_LIMITED``), or one past its sender's budget (below).

An entry names who sent it and who the host was, apart. ``actor`` is the sender: ``host:<player id>`` when
the sender is the table's host, ``player:<player id>`` for any other player (seated or watching with their
token), ``spectator:<address network>`` for a connection without a session, an operator's name for an
operator's connection; ``params`` are the message's fields with ``sender_name`` (the sender's display name,
null without one), ``host_player_id`` and ``host_name`` (the table's host: the sender, for a message the
table carried out; else the host as the table is read when the entry is written).

The budget: every host message counts against its sender's ``host_messages_per_minute`` (an account; a
connection without a session by its address network; an operator by name), in Redis for every process.
Past it a host message is refused ``RATE_LIMITED`` (whatever else it is; never carried out), and only the
first such refusal in a minute is written (``Limit.HOST_LIMIT_NOTES``): one sender writes at most
``host_messages_per_minute`` + 1 entries a minute, however many connections and messages it sends.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from paigow.protocol import home_messages as m
from paigow.protocol.chip_messages import CHIP_HOST_MESSAGES
from paigow.protocol.codes import ErrorCode
from paigow.table.rejections import RejectCode
from paigow.table.state import TableState
from paigow_server.errors import ServerError
from paigow_server.store.audit import AuditEntry, AuditLog
from paigow_server.store.bars import HOST_ACTOR
from paigow_server.web.rate_limits import Limit, RateLimits

__all__ = ["PLAYER_ACTOR", "SPECTATOR_ACTOR", "HostAudit", "HostMessage", "HostSender", "HostTooFast",
           "described", "host_actor"]

PLAYER_ACTOR = "player:"
"""How the ``actor`` of a host message from a player who is not the host starts: ``player:<player id>``."""
SPECTATOR_ACTOR = "spectator:"
"""... from a connection without a session: ``spectator:<address network>``."""

HostMessage = (m.HostApprove | m.HostDeny | m.HostRemove | m.HostMute | m.HostHandOver | m.HostPause
               | m.HostResume | m.HostClose | m.HostLimits | m.HostTimers | m.HostSettings
               | CHIP_HOST_MESSAGES)
"""A host's messages, the ``host_*`` client messages (a union, for ``isinstance`` too): a private table's
(``home_messages``) and a home game's chips' (``chip_messages``: ``host_buy_in``, ``host_chips``,
``host_chip_settings``)."""


def host_actor(player_id: str) -> str:
    """The ``actor`` of the table's host: ``host:<player id>``."""
    return f"{HOST_ACTOR}{player_id}"


def described(msg: HostMessage) -> tuple[str, dict[str, Any], str | None]:
    """A host message as its entry says it: the action (its type; ``host_mute`` split in ``host_mute`` and
    ``host_unmute``), its fields, and the player it names (or None)."""
    action: str = msg.type
    if isinstance(msg, m.HostMute):
        action = "host_mute" if msg.muted else "host_unmute"
    return action, msg.model_dump(exclude={"id", "type"}), getattr(msg, "player_id", None)


@dataclass(frozen=True, slots=True)
class HostSender:
    """Who sent a host message: a player (by their session), an operator's connection, or a connection
    without a session (known by its address network)."""

    player_id: str | None
    name: str | None
    operator: str | None = None
    """The operator's name on an operator's connection."""
    network: str = "unknown"

    def actor(self, host_player_id: str | None) -> str:
        """The entry's ``actor``: the sender, as the table's host or not."""
        if self.operator is not None:
            return self.operator
        if self.player_id is None:
            return f"{SPECTATOR_ACTOR}{self.network}"
        if self.player_id == host_player_id:
            return host_actor(self.player_id)
        return f"{PLAYER_ACTOR}{self.player_id}"

    @property
    def budget(self) -> str:
        """Whose ``host_messages_per_minute`` the message counts against."""
        if self.operator is not None:
            return f"operator:{self.operator}"
        return f"player:{self.player_id}" if self.player_id is not None else self.network


class HostTooFast(ServerError):
    """A host message past its sender's ``host_messages_per_minute``: refused, nothing done."""

    code = ErrorCode.RATE_LIMITED
    http_status = 429


@dataclass(slots=True)
class HostAudit:
    audit: AuditLog
    limits: RateLimits
    load: Callable[[str], Awaitable[TableState | None]]

    async def count(self, table_id: str, sender: HostSender, msg: HostMessage | str) -> None:
        """Count a host message (or the type of a frame that did not parse) against its sender's budget;
        past it raise ``HostTooFast``, having written the minute's one entry of such refusals."""
        wait_ms = await self.limits.wait_ms(Limit.HOST_MESSAGES, sender.budget)
        if wait_ms <= 0:
            return
        per_minute = self.limits.per_minute[Limit.HOST_MESSAGES]
        error = HostTooFast(f"over {per_minute} host messages a minute: refused, nothing changed; try again "
                            f"in {max(1, -(-wait_ms // 1000))} s")
        if await self.limits.wait_ms(Limit.HOST_LIMIT_NOTES, sender.budget) <= 0:
            await self.write(table_id, sender, msg, str(error.code),
                             f"{error.message} (the sender's further host messages refused so are not "
                             "audited before a minute has passed)")
        raise error

    async def refused(self, table_id: str, sender: HostSender, msg: HostMessage | str,
                      code: ErrorCode | RejectCode, message: str) -> tuple[ErrorCode | RejectCode, str]:
        """A host message refused before the table saw it (``code``, ``message``), audited: the answer to
        send, which is ``RATE_LIMITED`` past the sender's budget."""
        try:
            await self.count(table_id, sender, msg)
        except HostTooFast as exc:
            return exc.code, exc.message
        await self.write(table_id, sender, msg, str(code), message)
        return code, message

    async def write(self, table_id: str, sender: HostSender, msg: HostMessage | str, outcome: str,
                    detail: str, *, hosted: bool = False) -> None:
        """Append the message's entry (``hosted``: the table carried it out, so the sender was its host)."""
        action, fields, target = described(msg) if not isinstance(msg, str) else (msg, {}, None)
        host_id, host_name = sender.player_id, sender.name
        if not hosted:
            state = await self.load(table_id)
            home = None if state is None else state.home
            host_id, host_name = (None, None) if home is None else (home.host_player_id, home.host_name)
        params = {**fields, "sender_name": sender.name, "host_player_id": host_id, "host_name": host_name}
        now_ms = time.time_ns() // 1_000_000
        await self.audit.append(AuditEntry(action, now_ms, outcome, sender.actor(host_id), table_id=table_id,
                                           player_id=target, params=params, detail=detail))
