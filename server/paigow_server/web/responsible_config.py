"""``GET /api/responsible-play/config``: what the page shows of the deployment's responsible-play set
(docs/responsible-play.md), before anyone signs in.

``{"enabled", "help_notice", "no_live_aid", "reality_check_minutes", "limits_timezone"}``:
whether the set is on (``responsible_play``), the help notice
in force (the operator's, else the serve setting's; ``""`` when there is none or the set is off: the page
shows it at sign-in and after signing out, as text, when it is not empty) and whether ``POST /api/analyze``
refuses live hands (``Settings.refuses_live_aid``), the deployment's default reality-check interval (0: off)
and the time zone of the limits' periods.

No session needed, and cheap: the notice is read from Redis at most once every ``help_notice.CACHE_S``
seconds per process (``HelpNotice.current``), whatever the traffic; the answer may be cached as long
(``Cache-Control``), so a proxy or a browser asks again at most that often.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from paigow_server.store.help_notice import CACHE_S
from paigow_server.web.context import context_of

__all__ = ["routes"]


async def config(request: Request) -> Response:
    ctx = context_of(request)
    enabled = ctx.settings.responsible_play
    notice = await ctx.help_notice.current() if enabled else ""
    return JSONResponse({"enabled": enabled, "help_notice": notice,
                         "no_live_aid": ctx.settings.refuses_live_aid,
                         "reality_check_minutes": ctx.settings.reality_check_minutes,
                         "limits_timezone": ctx.settings.limits_timezone},
                        headers={"Cache-Control": f"public, max-age={int(CACHE_S)}"})


def routes() -> list[BaseRoute]:
    return [Route("/api/responsible-play/config", config, methods=["GET"])]
