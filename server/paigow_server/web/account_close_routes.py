"""Closing one's account over HTTP (the contract: docs/http-api.md, "Closing your account").

``POST /api/account/close {"confirm": "CLOSE", "password": "..."}`` with the bearer token (a guest's too,
without a password). In this order: the token (``401``), the account's ``account_settings_per_minute``
(``429``, a refused request counts), the body (``400`` naming the ``field``), a registered account's
password, checked like a sign-in with its backoff (``401 BAD_CREDENTIALS`` / ``429 SIGN_IN_BACKOFF``).
Nothing changes on a refusal. Then: the closed block (``store/account_closure.py``), every token revoked
and the player's connections closed (4401) in every process, a ``StandUp`` at every table (a dealt hand
plays out); ``204``. The rest (the balance to the bank, the personal fields erased) is
``realtime/account_closer.py``'s, once nothing is left at a table.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from paigow_server.web.account_routes import limit_untrusted, prefix_of
from paigow_server.web.api import ApiError, json_body, only_fields
from paigow_server.web.context import context_of
from paigow_server.web.rate_limits import Limit
from paigow_server.web.session_routes import current_player
from paigow_server.web.sign_in import verify_sign_in

__all__ = ["CONFIRM", "routes"]

CONFIRM = "CLOSE"
"""What ``confirm`` must be: typed, so no stray click closes an account."""


async def close_account(request: Request) -> Response:
    data = await json_body(request)  # first: a refusal before the body is read can drop the connection
    player = await current_player(request)
    ctx = context_of(request)
    await ctx.rate_limits.check_account(Limit.ACCOUNT_SETTINGS, player.player_id)
    only_fields(data, {"confirm", "password"})
    if data.get("confirm") != CONFIRM:
        raise ApiError(400, "CONFIRM_REQUIRED", f"closing an account cannot be undone: send \"confirm\": "
                       f"\"{CONFIRM}\" to close it", extra={"field": "confirm"})
    password = data.get("password")
    if player.username is not None:
        if not isinstance(password, str) or not password:
            raise ApiError(400, "PASSWORD_REQUIRED", "send the account's password to close it",
                           extra={"field": "password"})
        sessions = ctx.sessions
        device = await limit_untrusted(request, "player", player.username)
        login = await sessions.credentials.login_of(player.username)
        await verify_sign_in(sessions.guard, sessions.passwords, player.username, password,
                             None if login is None or login.player_id != player.player_id else login.pw_hash,
                             ctx.play_blocks.now_ms(), device=device, prefix=prefix_of(request))
    elif password is not None:
        raise ApiError(400, "INVALID_FIELD", "a guest account has no password: send none",
                       extra={"field": "password"})
    guard = ctx.play_blocks
    assert guard.closer is not None
    block = await guard.closer.closure.begin(player.player_id, guard.now_ms())
    if block is None:
        raise ApiError(401, "UNKNOWN_SESSION", "this session's player no longer exists")
    await ctx.sessions.sign_out_everywhere(player.player_id)
    await guard.stand_up_everywhere(player.player_id, block)
    return Response(status_code=204)


def routes() -> list[BaseRoute]:
    return [Route("/api/account/close", close_account, methods=["POST"])]
