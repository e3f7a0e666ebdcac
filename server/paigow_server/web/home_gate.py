"""The table connection's side of private tables (docs/protocol.md, "Private tables and the waiting list"):
who may say hello, and what a host's message does beyond the table command.

- ``refusal(...)``: at a private table (an ``h_`` id), whether a hello is let in: the operator always; a
  player who is the host, was admitted (``POST /api/invites/resolve``) or brings the current invite code
  (then admitted); a spectator only with ``spectators: "link"`` and the code (or an admitted token).
  Refused: ``NO_ACCESS`` (also an unknown ``h_`` id, after the same reads: a hello cannot tell a private
  table it may not enter from no table), ``SPECTATORS_OFF`` (only to a hello that would otherwise come in)
  or ``BARRED`` (to the barred player's own token: the host's bar or an operator's, its ``by``); the
  connection then closes with 4403.
- ``host(...)``: every ``host_*`` message is counted against its sender's budget and audited, naming the
  sender and the host apart (``host_audit``, which also audits those refused before they reach here), and is
  a table command, which the table carries out only if the sender is its host at that version (a
  ``host_mute`` too: the table's ``home.muted``, which the chat reads beside the operator's mutes);
  ``host_remove``'s bar is written by the removal's own commit (``store.seating_effects``: both stand, or
  neither), and a removal then ends the player's admission.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from paigow.protocol import home_messages as m
from paigow.protocol.codes import ErrorCode
from paigow.table.commands import Command
from paigow.table.home import SpectatorsPolicy
from paigow.table.rejections import Rejection
from paigow.table.state import KickedBy, Phase, TableState
from paigow_server.errors import ServerError
from paigow_server.store.audit import AuditLog
from paigow_server.store.bars import Bars
from paigow_server.store.home_tables import LONG_CODE, HomeTables
from paigow_server.web.barred import barred_message
from paigow_server.web.host_audit import HostAudit, HostMessage, HostSender
from paigow_server.web.rate_limits import RateLimits

__all__ = ["HOME_PREFIX", "HomeGate", "Refusal", "is_private_id"]

HOME_PREFIX = "h_"


def is_private_id(table_id: str) -> bool:
    return table_id.startswith(HOME_PREFIX)


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
    limits: RateLimits
    log: HostAudit = field(init=False)
    """The audit of host messages, within each sender's ``host_messages_per_minute``."""

    def __post_init__(self) -> None:
        self.log = HostAudit(self.audit, self.limits, self.load)

    # --- hello ---------------------------------------------------------------------------------------
    async def refusal(self, table_id: str, *, player_id: str | None, spectate: bool, operator: bool,
                      invite: str | None) -> Refusal | None:
        """None when the hello may join the private table ``table_id``; else why not. Access is an admission
        (the host's too: the creator is admitted when the table is made, and every later host sat there) or
        the current code, looked up before the table is read: a hello without either is refused
        ``NO_ACCESS`` after the same reads whether or not the table exists. ``SPECTATORS_OFF`` is told only
        to a hello that would otherwise come in, ``BARRED`` only to the barred player's own token."""
        if operator:
            return None  # an unknown id: joining its feed fails (TABLE_NOT_FOUND)
        if player_id is not None:
            bar = await self.bars.get(table_id, player_id)
            if bar is not None:
                return Refusal(ErrorCode.BARRED, barred_message(bar.by, table_id, bar.until_ms), bar.until_ms,
                               bar.by)
        admitted = player_id is not None and await self.homes.admitted(table_id, player_id)
        coded = (not admitted and invite is not None and LONG_CODE.fullmatch(invite) is not None
                 and await self.homes.table_of_code(invite) == table_id)
        state = await self.load(table_id) if admitted or coded else None
        home = None if state is None else state.home
        if state is None or home is None or (coded and (state.phase == Phase.CLOSED or state.closing)):
            return Refusal(ErrorCode.NO_ACCESS, f"no table {table_id!r} lets you in: a private table opens "
                                                "only with its invite link (an old or unknown code opens "
                                                "nothing)")
        if spectate and home.spectators == SpectatorsPolicy.NONE:
            return Refusal(ErrorCode.SPECTATORS_OFF, "the host of this table lets nobody watch: say hello "
                                                     "with your session token, as a player")
        if coded and player_id is not None:
            await self.homes.admit(table_id, player_id)
        return None

    # --- host messages -------------------------------------------------------------------------------
    async def host(self, table_id: str, msg: HostMessage, *, player_id: str, name: str, command: Command,
                   execute: Callable[[Command], Awaitable[int]]) -> int:
        """Carry out a host's message (``command`` its table command) and audit it (``host_audit``: past the
        sender's budget ``HostTooFast``, nothing done): the table's version after it."""
        sender = HostSender(player_id, name)
        await self.log.count(table_id, sender, msg)
        try:
            if isinstance(msg, m.HostRemove):
                version = await self._remove(table_id, msg, command, execute)
            else:
                version = await execute(command)
        except (Rejection, ServerError) as exc:
            await self.log.write(table_id, sender, msg, str(exc.code), exc.message)
            raise
        await self.log.write(table_id, sender, msg, "ok", f"version {version}", hosted=True)
        return version

    async def _remove(self, table_id: str, msg: m.HostRemove, command: Command,
                      execute: Callable[[Command], Awaitable[int]]) -> int:
        version = await execute(command)  # its commit bars the player (the table checks the host)
        await self.homes.unadmit(table_id, msg.player_id)
        return version
