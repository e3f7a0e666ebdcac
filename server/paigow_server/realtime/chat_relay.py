"""The table chat's live side: from a table's chat channel to the viewers in this process allowed to read.

Every process's ``Fanout`` subscribes a table's chat channel beside its commit channel while someone
watches the table here, and hands each payload (``store.chat``) to ``relay_chat`` with the table's feed:
a message or a deletion goes to each member who may read the chat under the setting it was published with
(``paigow.protocol.chat.may_read_chat``: operators always; seated players unless the chat is off; anyone
else only when it is for everyone), a setting change to every member (so each client reads the chat again).
Who is seated is the feed's state of the table. Nothing of the table's state goes into a chat frame.
"""

from __future__ import annotations

import json
import logging

from pydantic import ValidationError

from paigow.protocol.chat import (
    ChatDeleted,
    ChatEntry,
    ChatPosted,
    ChatSetting,
    ChatSettingChanged,
    may_read_chat,
)
from paigow.table.state import TableState
from paigow.table.views import OperatorViewer, PlayerViewer, Viewer
from paigow_server.realtime.table_feed import TableFeed

__all__ = ["chat_reader", "relay_chat"]

log = logging.getLogger("paigow_server.chat")


def chat_reader(viewer: Viewer, state: TableState | None, setting: ChatSetting) -> bool:
    """Whether ``viewer`` receives the table's chat now (``state``: the table as the feed holds it)."""
    seated = (isinstance(viewer, PlayerViewer) and state is not None
              and state.seat_of(viewer.player_id) is not None)
    return may_read_chat(setting, operator=isinstance(viewer, OperatorViewer), seated=seated)


def relay_chat(feed: TableFeed, data: str | bytes) -> None:
    """Push one chat channel payload to the feed's members who may read it."""
    try:
        payload = json.loads(data)
        setting = ChatSetting(payload["setting"])
        kind = payload["kind"]
        if kind == "setting":
            text = ChatSettingChanged(setting=setting).model_dump_json()
        elif kind == "message":
            text = ChatPosted(message=ChatEntry.model_validate(payload["message"])).model_dump_json()
        elif kind == "deleted":
            text = ChatDeleted(message_id=int(payload["message_id"])).model_dump_json()
        else:
            raise ValueError(f"unknown chat payload kind {kind!r}")
    except (ValueError, KeyError, TypeError, ValidationError) as exc:
        log.error("unreadable chat payload of table %s: %s", feed.table_id, exc)
        return
    for sub in list(feed.members):
        if kind == "setting" or chat_reader(sub.viewer, feed.state, setting):
            sub.deliver(text)
