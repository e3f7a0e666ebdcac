"""``ChatStore``: a table's chat in Redis — its setting, its muted players, and its last messages.

Beside the table, never in its state: a capped list per table (``LPUSH`` + ``LTRIM``, the last ``CHAT_KEPT``
messages), a message counter, a hash with the setting, a set of muted player ids, and a pub/sub channel
on which every process's fanout hears each new message, deletion and setting change (``realtime.chat_relay``
pushes them to the viewers allowed to read). A message is numbered, kept and published by one script, so
the list, the ids and the channel agree on the order of the messages.

Channel payloads (JSON): ``{"kind": "message", "setting", "message": ChatEntry}``,
``{"kind": "deleted", "setting", "message_id"}``, ``{"kind": "setting", "setting"}``; ``setting`` is the
table's setting when it was published (who may read it).
"""

from __future__ import annotations

import json

from redis.asyncio import Redis

from paigow.protocol.chat import CHAT_KEPT, ChatEntry, ChatRole, ChatSetting
from paigow_server.store import keys
from paigow_server.store.errors import store_boundary

__all__ = ["ChatStore"]

# KEYS: messages, seq, settings. ARGV: the message's JSON after its opening brace (every field but the id),
# how many to keep, the channel (a channel is no key: on a cluster only keys must share the table's slot).
# Returns the message's JSON with its id.
_POST = """
local id = redis.call('INCR', KEYS[2])
local text = '{"id":' .. id .. ',' .. ARGV[1]
redis.call('LPUSH', KEYS[1], text)
redis.call('LTRIM', KEYS[1], 0, tonumber(ARGV[2]) - 1)
local setting = redis.call('HGET', KEYS[3], 'setting') or 'everyone'
redis.call('PUBLISH', ARGV[3], '{"kind":"message","setting":"' .. setting .. '","message":' .. text .. '}')
return text
"""

# KEYS: messages, settings. ARGV: the message id (digits), the channel. Returns the deleted message's JSON,
# or nil when the table keeps no message of that id.
_DELETE = """
local prefix = '{"id":' .. ARGV[1] .. ','
for _, item in ipairs(redis.call('LRANGE', KEYS[1], 0, -1)) do
  if string.sub(item, 1, #prefix) == prefix then
    redis.call('LREM', KEYS[1], 1, item)
    local setting = redis.call('HGET', KEYS[2], 'setting') or 'everyone'
    redis.call('PUBLISH', ARGV[2],
               '{"kind":"deleted","setting":"' .. setting .. '","message_id":' .. ARGV[1] .. '}')
    return item
  end
end
return false
"""


# KEYS: settings. ARGV: the setting, the channel, the message announcing it.
_SET_SETTING = """
redis.call('HSET', KEYS[1], 'setting', ARGV[1])
redis.call('PUBLISH', ARGV[2], ARGV[3])
return 1
"""


@store_boundary
class ChatStore:
    def __init__(self, redis: Redis) -> None:
        self._redis = redis
        self._post = redis.register_script(_POST)
        self._delete = redis.register_script(_DELETE)
        self._set_setting = redis.register_script(_SET_SETTING)

    async def setting(self, table_id: str) -> ChatSetting:
        raw = await self._redis.hget(keys.table_chat(table_id), "setting")
        return ChatSetting.EVERYONE if raw is None else ChatSetting(_text(raw))

    async def set_setting(self, table_id: str, setting: ChatSetting) -> None:
        """Change the setting and tell every process (one script: a cluster allows no PUBLISH in a
        transaction)."""
        await self._set_setting(keys=[keys.table_chat(table_id)],
                                args=[setting.value, keys.table_chat_channel(table_id),
                                      json.dumps({"kind": "setting", "setting": setting.value})])

    async def is_muted(self, table_id: str, player_id: str) -> bool:
        return bool(await self._redis.sismember(keys.table_chat_muted(table_id), player_id))

    async def set_muted(self, table_id: str, player_id: str, muted: bool) -> bool:
        """Mute or unmute ``player_id`` at the table; whether that changed anything."""
        key = keys.table_chat_muted(table_id)
        changed = await (self._redis.sadd(key, player_id) if muted
                         else self._redis.srem(key, player_id))
        return bool(changed)

    async def muted(self, table_id: str) -> list[str]:
        return sorted(_text(m) for m in await self._redis.smembers(keys.table_chat_muted(table_id)))

    async def post(self, table_id: str, *, ts_ms: int, player_id: str | None, name: str, role: ChatRole,
                   text: str, emote: str | None) -> ChatEntry:
        """Number, keep and publish a message (the text already checked)."""
        rest = json.dumps({"ts_ms": ts_ms, "player_id": player_id, "name": name, "role": role.value,
                           "text": text, "emote": emote}, ensure_ascii=False, separators=(",", ":"))
        stored = await self._post(keys=[keys.table_chat_messages(table_id), keys.table_chat_seq(table_id),
                                        keys.table_chat(table_id)],
                                  args=[rest[1:], CHAT_KEPT, keys.table_chat_channel(table_id)])
        return ChatEntry.model_validate_json(stored)

    async def messages(self, table_id: str) -> list[ChatEntry]:
        """The kept messages, oldest first."""
        stored = await self._redis.lrange(keys.table_chat_messages(table_id), 0, CHAT_KEPT - 1)
        return [ChatEntry.model_validate_json(item) for item in reversed(stored)]

    async def delete(self, table_id: str, message_id: int) -> ChatEntry | None:
        """Remove a kept message and tell every process; None when there is none of that id."""
        stored = await self._delete(keys=[keys.table_chat_messages(table_id), keys.table_chat(table_id)],
                                    args=[int(message_id), keys.table_chat_channel(table_id)])
        return None if stored is None else ChatEntry.model_validate_json(stored)


def _text(value: str | bytes) -> str:
    return value.decode() if isinstance(value, bytes) else value
