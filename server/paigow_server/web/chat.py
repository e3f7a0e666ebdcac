"""Posting to a table's chat from a table connection: the checks, in order, then ``ChatStore.post``.

1. the message: exactly one of ``text`` and ``emote``; the text checked like a name (``names.check_name``:
   no control, format, surrogate, private-use or unassigned character, no line or paragraph separator;
   trimmed, inner runs of space made one), 1 to ``MAX_CHAT_CHARS`` characters and at most ``MAX_MARKS``
   combining marks on one character (``marks.check_marks``) (``INVALID_VALUE``, ``CHAT_TOO_LONG``);
2. who may post under the table's setting (``paigow.protocol.chat.chat_refusal``: ``CHAT_OFF``,
   ``CHAT_NEEDS_SESSION``, ``CHAT_PLAYERS_ONLY``, ``CHAT_MUTED``: muted by an operator, or by a private
   table's host); seated and muted by the host mean so in the table as this process's feed holds it;
3. the account's chat rate (``chat_per_minute``, in Redis for every process: ``CHAT_TOO_FAST``), then its
   address network's (``chat_per_address_per_minute``, every account of the network together; operators
   are not counted by address), so ten guests of one network cannot replace a table's kept chat at once.

A refusal raises ``ChatRefused`` with its code, and nothing is kept or sent.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from paigow.protocol.chat import MAX_CHAT_CHARS, ChatEntry, ChatRole, chat_refusal, emote_text
from paigow.protocol.client import Chat
from paigow.protocol.codes import ErrorCode
from paigow.table.state import TableState
from paigow_server.errors import ServerError
from paigow_server.store.audit import BOOTSTRAP
from paigow_server.store.chat import ChatStore
from paigow_server.web.marks import TooManyMarksError, check_marks
from paigow_server.web.names import InvalidNameError, NameTooLongError, check_name
from paigow_server.web.rate_limits import Limit, RateLimits

__all__ = ["ChatPoster", "ChatRefused", "ChatSender", "host_muted"]

OPERATOR_NAME = "Operator"
"""The name the bootstrap operator posts with."""


def host_muted(state: TableState | None, player_id: str) -> bool:
    """Whether a private table's host muted the player (the table's ``home.muted``; an operator's mutes
    are the chat store's)."""
    return state is not None and state.home is not None and player_id in state.home.muted


class ChatRefused(ServerError):
    """A chat message refused, with its code (``CHAT_*``, ``INVALID_VALUE``)."""

    http_status = 400

    def __init__(self, code: ErrorCode, message: str, *, retry_after_s: int | None = None,
                 max_chars: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        if retry_after_s is not None:
            self.fields["retry_after_s"] = retry_after_s
        if max_chars is not None:
            self.fields["max_chars"] = max_chars


@dataclass(frozen=True, slots=True)
class ChatSender:
    """Who posts: a player (with a session, seated or not), an operator, or a spectator without a
    session (both ids None: it may read, not post)."""

    player_id: str | None
    name: str | None
    operator: str | None = None
    """The operator's username, or ``"bootstrap"``."""
    network: str | None = None
    """The client's address network (``RateLimits.client_network``); None: not counted by address."""


class ChatPoster:
    def __init__(self, store: ChatStore, limits: RateLimits,
                 state_of: Callable[[str], TableState | None],
                 settle: Callable[[str], Awaitable[object]] | None = None) -> None:
        """``settle``: called with the poster's player id before a line is kept (a fresh guest's first
        line makes it an ordinary guest: ``store.fresh_guests``)."""
        self._store = store
        self._limits = limits
        self._state_of = state_of
        self._settle = settle

    async def post(self, table_id: str, sender: ChatSender, msg: Chat) -> ChatEntry:
        text, emote = _content(msg)
        state = self._state_of(table_id)
        seated = (sender.player_id is not None and state is not None
                  and state.seat_of(sender.player_id) is not None)
        muted = sender.player_id is not None and (host_muted(state, sender.player_id)
                                                  or await self._store.is_muted(table_id, sender.player_id))
        refusal = chat_refusal(await self._store.setting(table_id), operator=sender.operator is not None,
                               seated=seated, named=sender.name is not None, muted=muted)
        if refusal is not None:
            raise ChatRefused(*refusal)
        if sender.operator is not None:
            role, name, account = ChatRole.OPERATOR, _operator_name(sender.operator), f"op.{sender.operator}"
        elif sender.player_id is not None and sender.name is not None:  # else chat_refusal refused it
            role = ChatRole.PLAYER if seated else ChatRole.SPECTATOR
            name, account = sender.name, sender.player_id
        else:  # pragma: no cover - CHAT_NEEDS_SESSION above
            raise ChatRefused(ErrorCode.CHAT_NEEDS_SESSION, "say hello with a session token to chat")
        wait_ms = await self._limits.wait_ms(Limit.CHAT, account)
        if wait_ms > 0:
            per_minute = self._limits.per_minute[Limit.CHAT]
            wait = max(1, -(-wait_ms // 1000))
            raise ChatRefused(ErrorCode.CHAT_TOO_FAST,
                              f"at most {per_minute} chat messages a minute: try again in {wait} s",
                              retry_after_s=wait)
        if sender.operator is None and sender.network is not None:
            await self._check_network(sender.network)
        if sender.operator is None and sender.player_id is not None and self._settle is not None:
            await self._settle(sender.player_id)
        return await self._store.post(table_id, ts_ms=time.time_ns() // 1_000_000, player_id=sender.player_id,
                                      name=name, role=role, text=text, emote=emote)


    async def _check_network(self, network: str) -> None:
        wait_ms = await self._limits.wait_ms(Limit.CHAT_NETWORK, network)
        if wait_ms > 0:
            per_minute = self._limits.per_minute[Limit.CHAT_NETWORK]
            wait = max(1, -(-wait_ms // 1000))
            raise ChatRefused(ErrorCode.CHAT_TOO_FAST,
                              f"at most {per_minute} chat messages a minute from your address network "
                              f"{network}, every account together: try again in {wait} s",
                              retry_after_s=wait)


def _content(msg: Chat) -> tuple[str, str | None]:
    """The text to keep and the emote id (None for typed text)."""
    if (msg.text is None) == (msg.emote is None):
        raise ChatRefused(ErrorCode.INVALID_VALUE,
                          "chat: send exactly one of 'text' and 'emote'"
                          + (", not both" if msg.text is not None else ""))
    if msg.emote is not None:
        return emote_text(msg.emote), msg.emote
    try:
        return check_marks(check_name(msg.text, "chat.text", MAX_CHAT_CHARS), "chat.text"), None
    except NameTooLongError as exc:
        raise ChatRefused(ErrorCode.CHAT_TOO_LONG, str(exc), max_chars=MAX_CHAT_CHARS) from None
    except (InvalidNameError, TooManyMarksError) as exc:
        raise ChatRefused(ErrorCode.INVALID_VALUE, str(exc)) from None


def _operator_name(operator: str) -> str:
    return OPERATOR_NAME if operator == BOOTSTRAP else operator
