"""The gate of every ``/api/operator`` handler, and its audit entries.

``await require_operator(request)`` answers 401 ``UNAUTHORIZED`` (no bearer token), ``BAD_OPERATOR_TOKEN``
(neither the bootstrap token nor a live operator session) or ``OPERATOR_DISABLED``
(``operator_auth.OperatorAuth.actor_of``), and otherwise leaves the actor's name — the operator's username,
or ``"bootstrap"`` — for the audit entries (``actor_of(request)``, ``audited``).
"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from paigow_server.errors import http_error
from paigow_server.process.logs import bind
from paigow_server.store.audit import AuditEntry
from paigow_server.web.api import ApiError, StoredJSONResponse, bearer_token
from paigow_server.web.context import AppContext, context_of
from paigow_server.web.operator_auth import OperatorAuthError

__all__ = ["actor_of", "audited", "require_operator"]

log = logging.getLogger("paigow_server.operator")


def _now_ms() -> int:
    return time.time_ns() // 1_000_000


async def require_operator(request: Request) -> AppContext:
    """The context, once the request's bearer token is an operator's (else a 401)."""
    ctx = context_of(request)
    token = bearer_token(request)
    if token is None:
        raise ApiError(401, "UNAUTHORIZED",
                       "the operator API needs 'Authorization: Bearer <operator token or session token>'")
    try:
        request.state.operator = await ctx.operators.actor_of(token)
    except OperatorAuthError as exc:
        error = http_error(exc)
        if error is None:
            raise
        raise error from None
    return ctx


def actor_of(request: Request) -> str:
    """The operator ``require_operator`` let in."""
    actor = getattr(request.state, "operator", None)
    if not isinstance(actor, str):
        raise RuntimeError("actor_of before require_operator")
    return actor


async def audited(request: Request, action: str, run: Callable[[], Awaitable[dict[str, Any]]], *,
                   table_id: str | None = None, player_id: str | None = None,
                   params: dict[str, Any] | None = None, status: int = 200,
                   describe: Callable[[dict[str, Any]], str | None] | None = None) -> Response:
    """Run an operator action and write its audit entry (naming the operator), whatever the outcome; the
    entry's ``detail`` is ``describe(result)``, by default the table's new version if there is one."""
    ctx = context_of(request)
    entry = AuditEntry(action, _now_ms(), "ok", actor_of(request), table_id=table_id, player_id=player_id,
                       params={} if params is None else params)  # the same dict: a handler may fill it
    with bind(table_id=table_id, player_id=player_id, action=action):
        try:
            result = await run()
        except ApiError as exc:
            await ctx.audit.append(dataclasses.replace(entry, outcome=exc.code, detail=exc.message))
            log.info("operator action refused: %s", exc.message, extra={"outcome": exc.code})
            raise
        if describe is not None:
            detail: str | None = describe(result)
        else:
            detail = f"version {result['version']}" if "version" in result else None
        await ctx.audit.append(dataclasses.replace(entry, detail=detail))
        log.info("operator action done", extra={"outcome": "ok", "version": result.get("version")})
    return StoredJSONResponse(result, status_code=status)  # the export is made of stored rounds
