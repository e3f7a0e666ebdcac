"""The account's language over HTTP (the contract: docs/http-api.md, "The account's language").

``PUT /api/account/language {"language": "vi"}`` with the bearer token keeps the language the player chose
for the page on the player's record (a guest's too), so that the session JSON's ``language`` brings it to
every device the player signs in on. The codes offered are those of the browser client's list, the
``paigow_web`` package's ``i18n/languages.json``, read once when the routes are made (at startup). Any
other value is ``400 INVALID_LANGUAGE`` (``field``: ``"language"``) and changes nothing; each request, a
refused one too, counts against the account's ``account_settings_per_minute``.
"""

from __future__ import annotations

import json
from functools import cache
from importlib.resources import files

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from paigow_server.web.api import ApiError, json_body, only_fields
from paigow_server.web.context import context_of
from paigow_server.web.rate_limits import Limit
from paigow_server.web.session_routes import session_of
from paigow_server.web.sessions import session_json

__all__ = ["offered_languages", "routes"]

LANGUAGES_FILE = "i18n/languages.json"


@cache
def offered_languages() -> frozenset[str]:
    """The language codes of the browser client's list (``paigow_web``'s ``i18n/languages.json``)."""
    data = json.loads(files("paigow_web").joinpath(LANGUAGES_FILE).read_text(encoding="utf-8"))
    return frozenset(str(entry["code"]) for entry in data["languages"])


def _routes_for(offered: frozenset[str]) -> list[BaseRoute]:
    listed = ", ".join(sorted(offered))

    async def set_language(request: Request) -> Response:
        data = await json_body(request)  # first: a refusal before the body is read can drop the connection
        _, player, touched = await session_of(request)
        ctx = context_of(request)
        await ctx.rate_limits.check_account(Limit.ACCOUNT_SETTINGS, player.player_id)
        only_fields(data, {"language"})
        language = data.get("language")
        if not isinstance(language, str) or language not in offered:
            message = f"language must be one of {listed}, not {language!r}"[:300]
            raise ApiError(400, "INVALID_LANGUAGE", message, extra={"field": "language"})
        await ctx.accounts.set_language(player.player_id, language)
        changed = await ctx.accounts.get(player.player_id)
        if changed is None:
            raise ApiError(401, "UNKNOWN_SESSION", "this session's player no longer exists")
        return JSONResponse(session_json(changed, touched.expires_ms))

    return [Route("/api/account/language", set_language, methods=["PUT"])]


def routes() -> list[BaseRoute]:
    return _routes_for(offered_languages())
