"""The table chat over HTTP: the kept messages for a viewer who joins late, and the operator's moderation.

``GET /api/tables/{id}/chat`` (optionally with the player's bearer token) answers what that reader may see:
the setting, the last messages (oldest first; none when they may not read the chat) and whether they are
muted there. The operator's endpoints (``/api/operator/tables/{id}/chat...``) read everything, change the
setting, mute and unmute a player, and delete a message; each is audited (``change_chat``, ``chat_mute``,
``chat_unmute``, ``chat_delete``), and a setting change or a deletion reaches every viewer live through the
table's chat channel (``store.chat``).
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from paigow.protocol.chat import ChatEntry, ChatSetting, may_read_chat
from paigow.table.state import TableState
from paigow_server.web.api import ApiError, bearer_token, json_body, only_fields, str_field
from paigow_server.web.chat import host_muted
from paigow_server.web.context import AppContext, context_of
from paigow_server.web.operator_gate import audited, require_operator
from paigow_server.web.private_access import no_table, require_access

__all__ = ["routes"]

_MESSAGE_ID = re.compile(r"[0-9]{1,15}")
_SETTINGS = ", ".join(s.value for s in ChatSetting)


async def _table(ctx: AppContext, table_id: str) -> TableState:
    state = await ctx.tables.load(table_id)
    if state is None:
        raise no_table(table_id)
    return state


def _entries(messages: list[ChatEntry]) -> list[dict[str, Any]]:
    return [m.model_dump(mode="json") for m in messages]


async def read_chat(request: Request) -> Response:
    """What one reader may see of a table's chat: a seated player (by their token) or anyone else. The token
    is checked before the table is looked for, and a private table's access (``private_access``) before it
    is read, so that a caller without access is answered as for no table."""
    ctx = context_of(request)
    table_id = request.path_params["table_id"]
    player_id: str | None = None
    token = bearer_token(request)
    if token is not None:
        identity = await ctx.sessions.identify(token)
        if identity is None:
            raise ApiError(401, "UNKNOWN_SESSION", "unknown, expired or signed-out session token")
        player_id = identity.player_id
    await require_access(ctx, table_id, player_id)
    state = await _table(ctx, table_id)
    setting = await ctx.chat.setting(table_id)
    seated = player_id is not None and state.seat_of(player_id) is not None
    readable = may_read_chat(setting, operator=False, seated=seated)
    return JSONResponse({
        "table_id": table_id, "setting": setting.value,
        "muted": player_id is not None and (host_muted(state, player_id)
                                            or await ctx.chat.is_muted(table_id, player_id)),
        "messages": _entries(await ctx.chat.messages(table_id)) if readable else []})


async def operator_chat(request: Request) -> Response:
    ctx = await require_operator(request)
    table_id = request.path_params["table_id"]
    await _table(ctx, table_id)
    return JSONResponse({"table_id": table_id, "setting": (await ctx.chat.setting(table_id)).value,
                         "muted": await ctx.chat.muted(table_id),
                         "messages": _entries(await ctx.chat.messages(table_id))})


async def change_chat(request: Request) -> Response:
    ctx = await require_operator(request)
    table_id = request.path_params["table_id"]
    data = await json_body(request)

    async def run() -> dict[str, Any]:
        only_fields(data, {"setting"})
        raw = str(str_field(data, "setting"))
        try:
            setting = ChatSetting(raw)
        except ValueError:
            raise ApiError(400, "INVALID_FIELD", f"setting {raw!r} is not one of {_SETTINGS}") from None
        await _table(ctx, table_id)
        await ctx.chat.set_setting(table_id, setting)
        return {"table_id": table_id, "setting": setting.value}

    return await audited(request, "change_chat", run, table_id=table_id, params=data,
                         describe=lambda result: f"chat {result['setting']}")


def _mute_handler(muted: bool) -> Callable[[Request], Awaitable[Response]]:
    async def handler(request: Request) -> Response:
        ctx = await require_operator(request)
        table_id = request.path_params["table_id"]
        data = await json_body(request)
        player_id = data.get("player_id") if isinstance(data.get("player_id"), str) else None

        async def run() -> dict[str, Any]:
            only_fields(data, {"player_id"})
            target = str(str_field(data, "player_id"))
            await _table(ctx, table_id)
            if await ctx.accounts.get(target) is None:
                raise ApiError(404, "PLAYER_NOT_FOUND", f"no player {target!r}")
            changed = await ctx.chat.set_muted(table_id, target, muted)
            return {"table_id": table_id, "player_id": target, "muted": muted, "changed": changed}

        return await audited(request, "chat_mute" if muted else "chat_unmute", run, table_id=table_id,
                             player_id=player_id, params=data,
                             describe=lambda result: None if result["changed"] else
                             f"already {'muted' if muted else 'not muted'}")

    return handler


async def delete_message(request: Request) -> Response:
    ctx = await require_operator(request)
    table_id, raw_id = request.path_params["table_id"], request.path_params["message_id"]

    async def run() -> dict[str, Any]:
        if _MESSAGE_ID.fullmatch(raw_id) is None:
            raise ApiError(400, "INVALID_FIELD", f"message id {raw_id[:40]!r} must be a whole number "
                                                 "(ASCII digits)")
        await _table(ctx, table_id)
        deleted = await ctx.chat.delete(table_id, int(raw_id))
        if deleted is None:
            raise ApiError(404, "MESSAGE_NOT_FOUND",
                           f"table {table_id!r} keeps no chat message {int(raw_id)} (deleted, or older than "
                           "the last 100)")
        return {"table_id": table_id, "message_id": deleted.id, "deleted": deleted.model_dump(mode="json")}

    def describe(result: dict[str, Any]) -> str:
        m = result["deleted"]
        return f"deleted message {m['id']} by {m['name']} ({m['role']}, {m['player_id']}): {m['text']!r}"

    return await audited(request, "chat_delete", run, table_id=table_id, params={"message_id": raw_id[:40]},
                         describe=describe)


def routes() -> list[BaseRoute]:
    table = "/api/operator/tables/{table_id}/chat"
    return [
        Route("/api/tables/{table_id}/chat", read_chat, methods=["GET"]),
        Route(table, operator_chat, methods=["GET"]),
        Route(table, change_chat, methods=["PUT"]),
        Route(f"{table}/mute", _mute_handler(True), methods=["POST"]),
        Route(f"{table}/unmute", _mute_handler(False), methods=["POST"]),
        Route(f"{table}/messages/{{message_id}}", delete_message, methods=["DELETE"]),
    ]
