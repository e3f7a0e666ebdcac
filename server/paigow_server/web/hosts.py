"""The ``Host`` allow-list (setting ``allowed_hosts``): a request for any other name never reaches the app.

A page on another site whose name an attacker points at this server's address (DNS rebinding) sends its
own name as ``Host``; so does a request meant for another site on a shared address. Starlette's
``TrustedHostMiddleware`` answers both with ``400 Invalid host header``, HTTP requests and WebSocket
upgrades alike. The process probes (``/healthz``, ``/readyz``, ``/metrics``) are left open: orchestrators
and Prometheus ask them by the pod's address, and they carry no session or token.

``host_allowed`` is the same comparison, for the WebSocket's ``Origin`` check (``ws_limits``).
"""

from __future__ import annotations

from collections.abc import Iterable

from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.types import ASGIApp, Receive, Scope, Send

__all__ = ["PROBE_PATHS", "HostGuard", "host_allowed"]

PROBE_PATHS = frozenset({"/healthz", "/readyz", "/metrics"})
"""Answered whatever the ``Host``: liveness, readiness and metrics, asked by address."""


def host_allowed(host: str, patterns: Iterable[str], *, any_host: bool = True) -> bool:
    """Whether a host name (lower case, no port; IPv6 in brackets) matches an ``allowed_hosts`` pattern as
    ``TrustedHostMiddleware`` matches it: exactly, or ``*.example.com`` for any name ending in
    ``.example.com``. ``"*"`` matches any host unless ``any_host`` is false."""
    for pattern in patterns:
        if pattern == "*":
            if any_host:
                return True
        elif host == pattern or (pattern.startswith("*.") and host.endswith(pattern[1:])):
            return True
    return False


class HostGuard:
    """``TrustedHostMiddleware`` (without its www. redirect) for every path but ``PROBE_PATHS``."""

    def __init__(self, app: ASGIApp, allowed_hosts: Iterable[str]) -> None:
        self.app = app
        self.guarded = TrustedHostMiddleware(app, allowed_hosts=list(allowed_hosts), www_redirect=False)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"] in PROBE_PATHS:
            await self.app(scope, receive, send)
        else:
            await self.guarded(scope, receive, send)
