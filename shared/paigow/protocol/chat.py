"""The table chat: its setting, the quick emotes, the messages people post, and who may read and post.

Chat is not part of the table's state or its versioned view: it is text from people, kept beside the table
(the last ``CHAT_KEPT`` messages) and pushed to the viewers allowed to read it. Nothing in a chat message
comes from the table's state: the server adds only the sender's name and role, an id and the time.

Who may read and post, by the table's ``ChatSetting``:

===============  =====================================  =========================================
setting          reads                                  posts
===============  =====================================  =========================================
``everyone``     every viewer                           seated players, spectators with a session,
                                                        operators
``players_only`` seated players and operators           seated players and operators
``off``          operators (the messages kept before)   nobody
===============  =====================================  =========================================

A muted player (per table, by an operator) still reads but may not post.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from paigow.protocol.codes import ErrorCode

__all__ = [
    "CHAT_KEPT",
    "EMOTES",
    "MAX_CHAT_CHARS",
    "ChatDeleted",
    "ChatEntry",
    "ChatPosted",
    "ChatRole",
    "ChatSetting",
    "ChatSettingChanged",
    "chat_refusal",
    "emote_text",
    "may_read_chat",
]

MAX_CHAT_CHARS = 200
"""The longest chat text, in characters (after trimming its surrounding space)."""
CHAT_KEPT = 100
"""Messages kept per table (older ones are dropped) and sent to a viewer who joins late."""

EMOTES: dict[str, str] = {
    "good_luck": "Good luck!",
    "nice_hand": "Nice hand!",
    "well_played": "Well played",
    "unlucky": "Unlucky…",
    "thanks": "Thanks!",
    "hello": "Hi all!",
}
"""The quick emotes: id -> the text every client shows."""


class ChatSetting(StrEnum):
    EVERYONE = "everyone"
    PLAYERS_ONLY = "players_only"
    OFF = "off"


class ChatRole(StrEnum):
    """Who the sender was at the table when they posted."""

    PLAYER = "player"
    """Seated at the table."""
    SPECTATOR = "spectator"
    """Watching (a session, not seated)."""
    OPERATOR = "operator"


def emote_text(emote: str) -> str:
    """The text of a quick emote; ``ValueError`` naming the choices for an unknown id."""
    try:
        return EMOTES[emote]
    except KeyError:
        raise ValueError(f"unknown emote {emote[:40]!r}; choose one of {', '.join(EMOTES)}") from None


def may_read_chat(setting: ChatSetting, *, operator: bool, seated: bool) -> bool:
    """Whether a viewer (an operator, a seated player, or neither) receives the table's chat."""
    if operator:
        return True
    if setting is ChatSetting.OFF:
        return False
    return seated or setting is ChatSetting.EVERYONE


def chat_refusal(setting: ChatSetting, *, operator: bool, seated: bool, named: bool,
                 muted: bool) -> tuple[ErrorCode, str] | None:
    """Why this sender may not post now (the code and the words), or None when they may."""
    if setting is ChatSetting.OFF:
        return ErrorCode.CHAT_OFF, "the chat of this table is off"
    if operator:
        return None
    if not named:
        return (ErrorCode.CHAT_NEEDS_SESSION,
                "say hello with a session token to chat (a spectator without one only reads)")
    if setting is ChatSetting.PLAYERS_ONLY and not seated:
        return ErrorCode.CHAT_PLAYERS_ONLY, "only players seated at this table may chat here"
    if muted:
        return ErrorCode.CHAT_MUTED, "an operator muted you at this table"
    return None


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ChatEntry(_Message):
    """One chat message as everyone who may read it sees it."""

    id: int = Field(description="Increases with every message of the table; names it for a deletion")
    ts_ms: int = Field(description="When the server took it (ms since the epoch)")
    player_id: str | None = Field(description="The sender's player id (null for an operator)")
    name: str = Field(description="The sender's display name (an operator's username, or 'Operator')")
    role: ChatRole
    text: str = Field(description="Plain text as the sender typed it (trimmed); show it as text, never "
                                  "as HTML")
    emote: str | None = Field(description="The quick emote's id when the message is one (text is its "
                                          "words)")


class ChatPosted(_Message):
    """A new chat message at the table, pushed to every viewer who may read the chat (the sender too)."""

    type: Literal["chat"] = "chat"
    message: ChatEntry


class ChatDeleted(_Message):
    """An operator deleted the message ``message_id``: remove it from the chat shown."""

    type: Literal["chat_deleted"] = "chat_deleted"
    message_id: int


class ChatSettingChanged(_Message):
    """The operator changed the table's chat setting: read the chat again
    (``GET /api/tables/{id}/chat``), as who may read and post has changed."""

    type: Literal["chat_setting"] = "chat_setting"
    setting: ChatSetting
