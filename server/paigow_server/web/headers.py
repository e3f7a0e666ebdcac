"""The security headers of every HTTP answer (OWASP's HTTP headers cheat sheet), a second line of defence
should markup ever get into a page, and against other sites framing or sniffing ours.

Every answer: ``X-Content-Type-Options: nosniff``, ``X-Frame-Options: DENY``, ``Referrer-Policy:
same-origin``. The browser client's pages and files: ``PAGE_POLICY``, a Content Security Policy with no
inline script or style at all (the client keeps every script and style in its own files; scripts may
still set ``element.style``), scripts, styles, fonts and images only from the server itself (images also as
``data:`` URLs: the pages' empty favicon), no plugins, no ``<base>``, forms posting only here, no framing
by any page (``frame-ancestors 'none'``), and connections only to the server itself: ``'self'`` and, for
browsers that do not count WebSockets as ``'self'``, ``ws://`` and ``wss://`` of the ``Host`` the page was
asked by, when it is one of ``allowed_hosts`` (``hosts``). The JSON API (``/api``): ``API_POLICY``
(nothing may load from an answer) and ``Cache-Control: no-store``, since its answers carry tokens and
balances, unless the endpoint set its own ``Cache-Control``. A header the endpoint set is never replaced.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from starlette.datastructures import Headers, MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from paigow_server.web.hosts import host_allowed
from paigow_server.web.json_only import is_api_path

__all__ = ["API_POLICY", "COMMON_HEADERS", "PAGE_POLICY", "SecurityHeaders", "page_policy"]

PAGE_POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
               "connect-src 'self'{sockets}; object-src 'none'; base-uri 'none'; "
               "form-action 'self'; frame-ancestors 'none'")
API_POLICY = "default-src 'none'; frame-ancestors 'none'"
COMMON_HEADERS: tuple[tuple[str, str], ...] = (
    ("X-Content-Type-Options", "nosniff"),
    ("X-Frame-Options", "DENY"),
    ("Referrer-Policy", "same-origin"),
)
_API_HEADERS = (*COMMON_HEADERS, ("Content-Security-Policy", API_POLICY), ("Cache-Control", "no-store"))
_HOST = re.compile(r"(?P<name>[a-z0-9.-]+|\[[0-9a-f:.]+\])(:[0-9]{1,5})?")
"""A ``Host`` safe to repeat in the policy: a name or IPv4 address, or a bracketed IPv6 one, and a port."""


def page_policy(host: str | None, allowed_hosts: Iterable[str]) -> str:
    """The pages' policy for a request with this ``Host`` header: its WebSocket origins only when it is
    one of ``allowed_hosts`` (a refused request's answer names no socket)."""
    name = (host or "").strip().lower()
    found = _HOST.fullmatch(name)
    allowed = found is not None and host_allowed(found["name"], allowed_hosts)
    return PAGE_POLICY.format(sockets=f" ws://{name} wss://{name}" if allowed else "")


class SecurityHeaders:
    """Adds the headers to every ``http`` answer that does not already carry them."""

    def __init__(self, app: ASGIApp, allowed_hosts: Iterable[str]) -> None:
        self.app = app
        self.allowed_hosts = tuple(allowed_hosts)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if is_api_path(scope["path"]):
            added = _API_HEADERS
        else:
            policy = page_policy(Headers(scope=scope).get("host"), self.allowed_hosts)
            added = (*COMMON_HEADERS, ("Content-Security-Policy", policy))

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in added:
                    headers.setdefault(name, value)
            await send(message)

        await self.app(scope, receive, send_with_headers)
