"""The table connection's side of private tables (docs/protocol.md, "Private tables and the waiting list"):
who may say hello, and what a host's message does beyond the table command.

- ``refusal(...)``: at a private table (an ``h_`` id), whether a hello is let in: the operator always; a
  player who is the host, was admitted (``POST /api/invites/resolve``) or brings the current invite code
  (then admitted); a spectator only with ``spectators: "link"`` and the code (or an admitted token).
  Refused: ``NO_ACCESS``, ``SPECTATORS_OFF`` or ``BARRED`` (the host's bar or an operator's: its ``by``);
  the connection then closes with 4403.
- ``host(...)``: every ``host_*`` message is audited with the host as actor (``host:<player id>``), and is
  a table command, which the table carries out only if the sender is its host at that version (a
  ``host_mute`` too: the table's ``home.muted``, which the chat reads beside the operator's mutes);
  ``host_remove``'s bar is written by the removal's own commit (``store.seating_effects``: both stand, or
  neither), and a removal then ends the player's admission.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any

from paigow.protocol import home_messages as m
from paigow.protocol.codes import ErrorCode
from paigow.table.commands import Command
from paigow.table.home import SpectatorsPolicy
from paigow.table.rejections import Rejection
from paigow.table.state import KickedBy, Phase, TableState
from paigow_server.errors import ServerError
from paigow_server.store.audit import AuditEntry, AuditLog
from paigow_server.store.bars import HOST_ACTOR, Bars
from paigow_server.store.home_tables import LONG_CODE, HomeTables
from paigow_server.web.barred import barred_message

__all__ = ["HOME_PREFIX", "HomeGate", "Refusal", "host_actor", "is_private_id"]

HOME_PREFIX = "h_"


def is_private_id(table_id: str) -> bool:
    return table_id.startswith(HOME_PREFIX)


def host_actor(player_id: str) -> str:
    return f"{HOST_ACTOR}{player_id}"


def _now_ms() -> int:
    return time.time_ns() // 1_000_000


@dataclass(frozen=True, slots=True)
class Refusal:
    code: ErrorCode
    message: str
    until_ms: int | None = None
    """``BARRED``: when the bar ends."""
    by: KickedBy | None = None
    """``BARRED``: who barred the player (the host, or an operator)."""


@dataclass(slots=True)
class HomeGate:
    homes: HomeTables
    bars: Bars
    audit: AuditLog
    load: Callable[[str], Awaitable[TableState | None]]

    # --- hello ---------------------------------------------------------------------------------------
    async def refusal(self, state: TableState, *, player_id: str | None, spectate: bool, operator: bool,
                      invite: str | None) -> Refusal | None:
        """None when the hello may join ``state``'s private table; else why not."""
        home = state.home
        if home is None or operator:
            return None
        table_id = state.table_id
        if player_id is not None:
            bar = await self.bars.get(table_id, player_id)
            if bar is not None:
                return Refusal(ErrorCode.BARRED, barred_message(bar.by, table_id, bar.until_ms), bar.until_ms,
                               bar.by)
        if spectate and home.spectators == SpectatorsPolicy.NONE:
            return Refusal(ErrorCode.SPECTATORS_OFF, "the host of this table lets nobody watch: say hello "
                                                     "with your session token, as a player")
        if player_id is not None and (player_id == home.host_player_id
                                      or await self.homes.admitted(table_id, player_id)):
            return None
        if invite is not None and LONG_CODE.fullmatch(invite) and state.phase != Phase.CLOSED \
                and not state.closing and await self.homes.table_of_code(invite) == table_id:
            if player_id is not None:
                await self.homes.admit(table_id, player_id)
            return None
        return Refusal(ErrorCode.NO_ACCESS, f"table {table_id!r} is a private table: open it with its "
                                            "invite link (an old or unknown code opens nothing)")

    # --- host messages -------------------------------------------------------------------------------
    async def host(self, table_id: str, msg: m.HOME_CLIENT_COMMANDS, *, player_id: str, name: str,
                   command: Command, execute: Callable[[Command], Awaitable[int]]) -> int:
        """Carry out a host's message (``command`` its table command) and audit it: the table's version
        after it."""
        action: str = msg.type  # the audit's action is the message's type, host_mute's split in two
        if isinstance(msg, m.HostMute):
            action = "host_mute" if msg.muted else "host_unmute"
        params: dict[str, Any] = {**msg.model_dump(exclude={"id", "type"}), "host_name": name}
        entry = AuditEntry(action, _now_ms(), "ok", host_actor(player_id), table_id=table_id,
                           player_id=getattr(msg, "player_id", None), params=params)
        try:
            if isinstance(msg, m.HostRemove):
                version = await self._remove(table_id, msg, command, execute)
            else:
                version = await execute(command)
        except (Rejection, ServerError) as exc:
            await self.audit.append(replace(entry, outcome=str(exc.code), detail=exc.message))
            raise
        await self.audit.append(replace(entry, detail=f"version {version}"))
        return version

    async def _remove(self, table_id: str, msg: m.HostRemove, command: Command,
                      execute: Callable[[Command], Awaitable[int]]) -> int:
        version = await execute(command)  # its commit bars the player (the table checks the host)
        await self.homes.unadmit(table_id, msg.player_id)
        return version
