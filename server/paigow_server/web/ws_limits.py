"""The limits of a WebSocket connection: Origin check, message rate and flood (connections per player:
``presence.ConnectionCounter``).

Pure and synchronous (the caller passes the clock), so each rule is tested on its own.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from urllib.parse import urlsplit

from paigow_server.web.hosts import host_allowed

__all__ = ["RateLimiter", "Verdict", "origin_allowed"]


def origin_allowed(origin: str | None, host: str | None, *, scheme: str, origins: Iterable[str],
                   hosts: Iterable[str]) -> bool:
    """Whether a WebSocket upgrade with this ``Origin`` header may proceed.

    No Origin header: allowed (only browsers send one, and the check exists to stop other sites' pages from
    using a visitor's session). An origin in ``origins`` (setting ``allowed_origins``: scheme, host and
    port, compared without a trailing slash and case-insensitively; ``"*"`` allows any) is allowed. So is
    the server's own origin, but only under a name the operator allowed: the origin's host must match one
    of ``hosts`` (setting ``allowed_hosts``; a ``"*"`` there does not count), and the origin must be the
    request's own, its scheme the request's (``scheme``, as the ASGI scope gives it: ``ws`` -> ``http``,
    ``wss`` -> ``https``) and its ``host[:port]`` the ``Host`` header's, default ports filled in. A page
    reached by DNS rebinding sends its own name as both ``Origin`` and ``Host``: that name is not allowed.
    """
    if origin is None:
        return True
    normalized = origin.strip().rstrip("/").lower()
    allowed_list = [a.strip().rstrip("/").lower() for a in origins]
    if "*" in allowed_list or normalized in allowed_list:
        return True
    if host is None or normalized == "null":
        return False
    own_scheme = "https" if scheme.lower() in ("wss", "https") else "http"
    parts = urlsplit(normalized)
    if parts.scheme != own_scheme or not parts.netloc or parts.hostname is None:
        return False
    name = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    if not host_allowed(name, hosts, any_host=False):
        return False
    own = _with_default_port(host.strip().lower(), own_scheme)
    return _with_default_port(parts.netloc, own_scheme) == own


def _with_default_port(netloc: str, scheme: str) -> str:
    if netloc.endswith("]") or ":" not in netloc.rsplit("]", 1)[-1]:
        return f"{netloc}:{443 if scheme == 'https' else 80}"
    return netloc


class Verdict(StrEnum):
    OK = "ok"
    LIMITED = "limited"
    """Over the rate: drop this message with a RATE_LIMITED error."""
    FLOOD = "flood"
    """Far over the rate for too long: close the connection (1008)."""


@dataclass(slots=True)
class RateLimiter:
    """A token bucket per connection plus a flood detector.

    ``rate`` messages per second are allowed on average, with bursts up to ``burst``. Each refused message
    adds a strike; strikes drain at ``flood_after`` per second. More than ``flood_after`` strikes (that is,
    more than ``flood_after`` refused messages in about a second) is a flood.
    """

    rate: float
    burst: float
    flood_after: float
    _tokens: float = field(init=False)
    _strikes: float = field(default=0.0, init=False)
    _last: float | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        if self.rate <= 0 or self.burst < 1 or self.flood_after < 1:
            raise ValueError(f"rate limiter needs rate > 0, burst >= 1 and flood_after >= 1, not "
                             f"rate={self.rate}, burst={self.burst}, flood_after={self.flood_after}")
        self._tokens = self.burst

    def check(self, now: float) -> Verdict:
        """Account for one message arriving at ``now`` (seconds, monotonic)."""
        elapsed = 0.0 if self._last is None else max(0.0, now - self._last)
        self._last = now
        self._tokens = min(self.burst, self._tokens + elapsed * self.rate)
        self._strikes = max(0.0, self._strikes - elapsed * self.flood_after)
        if self._tokens >= 1:
            self._tokens -= 1
            return Verdict.OK
        self._strikes += 1
        return Verdict.FLOOD if self._strikes > self.flood_after else Verdict.LIMITED
