"""Who may see a private table over HTTP, and what everyone else is told (docs/home-games.md, "Who sees a
private table"; the table connection's hello is ``home_gate.HomeGate.refusal``).

A private table (an ``h_`` id) is seen by the accounts it admitted (its host among them: the creator is
admitted when the table is made, and every later host sat there, so was admitted) while no bar of theirs
runs there, and by the operator (through the operator API). Every other caller (a stranger's token, a
removed or barred player's, no token) gets from every endpoint exactly what an unknown id gets:
``no_table``, the same status, code and message, after the same reads (the admission, whether or not the
table exists; the bar only of an admitted player), so neither the answer nor its time tells a private
table from no table, nor how far its play has gone.
"""

from __future__ import annotations

from starlette.requests import Request

from paigow_server.web.api import ApiError, bearer_token
from paigow_server.web.context import AppContext, context_of
from paigow_server.web.home_gate import is_private_id
from paigow_server.web.session_routes import current_player

__all__ = ["check_private_access", "may_see", "no_table", "require_access"]


def no_table(table_id: str) -> ApiError:
    """``404 TABLE_NOT_FOUND`` "no table '<id>'": the answer to an unknown table id, and to a caller without
    access to a private table."""
    return ApiError(404, "TABLE_NOT_FOUND", f"no table {table_id!r}")


async def may_see(ctx: AppContext, table_id: str, player_id: str | None) -> bool:
    """Whether ``player_id`` (None: a caller without a token) may see ``table_id``: any public id; a private
    one when the table admitted the account and no bar of theirs runs there."""
    if not is_private_id(table_id):
        return True
    if player_id is None or not await ctx.homes.admitted(table_id, player_id):
        return False
    return await ctx.bars.get(table_id, player_id) is None


async def require_access(ctx: AppContext, table_id: str, player_id: str | None) -> None:
    """Nothing when ``player_id`` may see the table (``may_see``); else ``no_table``, raised."""
    if not await may_see(ctx, table_id, player_id):
        raise no_table(table_id)


async def check_private_access(request: Request, table_id: str) -> None:
    """For a read whose bearer token is optional: at a private id, ``require_access`` for the token's player
    (an unknown, expired or revoked token: the 401 of ``current_player``, whether or not the table exists;
    no token: nobody); a public id needs nothing."""
    if is_private_id(table_id):
        player_id = (await current_player(request)).player_id if bearer_token(request) is not None else None
        await require_access(context_of(request), table_id, player_id)
