"""Per-address limits on creating sessions, signing in, chat, practice deals and public round reads,
per-account limits on the table chat, split analyses, practice deals and private tables' host messages, and
the deployment's budget of new guests, kept in Redis (shared by every process).

An "address" is the client's network (``client_network``: the /24 of an IPv4 address, the /64 of an IPv6
one, settings ``limit_ipv4_prefix`` and ``limit_ipv6_prefix``), so a host holding many addresses of one
network is one client; every per-address limit, here and elsewhere (the spectator sockets, the analysis
queue), counts by it.

Each limit is a steady rate of ``per_minute`` requests with bursts of as many (``per_hour``: so many an
hour, the downloads of one's own data), checked by the generic cell rate algorithm: one Redis string per
(limit, address) holds the time at which the address's allowance is next fully spent ("theoretical arrival
time"); a request is allowed while that time is less than the window (a minute; an hour) ahead, and each
allowed one moves it on by ``window / per_window``. The key expires when the allowance is full again, so a
flood from any number of addresses leaves at most one small key per address for at most the window. A
refused request writes nothing and is answered ``429 RATE_LIMITED`` with ``Retry-After``.
"""

from __future__ import annotations

import time
from enum import StrEnum

from starlette.requests import HTTPConnection

from paigow_server.store.rate_counters import RateCounters
from paigow_server.web.api import retry_after
from paigow_server.web.client_address import TrustedProxies, address_network, client_address

__all__ = ["Limit", "RateLimits"]

WINDOW_MS = 60_000
HOUR_MS = 3_600_000

class Limit(StrEnum):
    SESSIONS = "sessions"
    """New sessions: guests and registrations."""
    SIGN_INS = "sign-ins"
    """Sign-in attempts, players' and operators'."""
    CHAT = "chat"
    """Table chat messages, per account (the "address" is the player id) rather than per address."""
    ANALYSES = "analyses"
    """Split analyses, counted per account (``check_account``)."""
    GUESTS = "guests"
    """New guests on the whole deployment (``check_everyone``), after the address's ``SESSIONS``."""
    CHAT_NETWORK = "chat-network"
    """Table chat messages per address network, every account of it together."""
    ACCOUNT_SETTINGS = "account settings changes"
    """Changes of an account's own settings (its language), per account (``check_account``)."""
    PRACTICE_DEALS = "practice deals"
    """Practice deals, per account and per address network."""
    ROUND_READS = "round reads"
    """Public reads of a table's last rounds, per address network."""
    INVITE_LOOKUPS = "invite look-ups"
    """``POST /api/invites/resolve``, per address network and per account."""
    SHORT_CODE_LOOKUPS = "short-code look-ups"
    """Look-ups of a six-letter invite code on the whole deployment (``check_everyone``): guessing one
    across many networks is bounded however many the guesser holds."""
    HOST_MESSAGES = "host messages"
    """A private table's ``host_*`` messages, each audited, per sender (``web.host_audit``)."""
    HOST_LIMIT_NOTES = "host message limit notes"
    """The one audit entry a minute of a sender's host messages refused past ``HOST_MESSAGES`` (1 a
    minute)."""
    DATA_DOWNLOADS = "data downloads"
    """Downloads of an account's own data (``GET /api/account/data``), per account, counted **an hour**
    (``per_hour``)."""


EVERYONE = "everyone"
"""The "address" of a limit on the whole deployment (``check_everyone``)."""


class RateLimits:
    def __init__(self, counters: RateCounters, proxies: TrustedProxies, per_minute: dict[Limit, int], *,
                 per_hour: dict[Limit, int] | None = None, ipv4_prefix: int = 24,
                 ipv6_prefix: int = 64) -> None:
        self._counters = counters
        self.proxies = proxies
        self.per_minute = per_minute
        self.per_hour = per_hour or {}
        """The limits counted an hour rather than a minute (a steady rate of so many an hour, bursts of as
        many)."""
        self.ipv4_prefix = ipv4_prefix
        self.ipv6_prefix = ipv6_prefix

    def network(self, address: str) -> str:
        """The network an address is counted in (``address_network`` with the settings' prefixes)."""
        return address_network(address, ipv4_prefix=self.ipv4_prefix, ipv6_prefix=self.ipv6_prefix)

    def client_network(self, conn: HTTPConnection) -> str:
        """The network of the request's client (``client_address``): what every per-address limit counts."""
        return self.network(client_address(conn, self.proxies))

    async def wait_ms(self, limit: Limit, address: str, *, now_ms: int | None = None) -> int:
        """0 and the request counted, or how long ``address`` must wait (nothing counted)."""
        now = time.time_ns() // 1_000_000 if now_ms is None else now_ms
        count, window, _ = self._rate(limit)
        return await self._counters.hit(str(limit), address, now_ms=now, interval_ms=max(1, window // count),
                                        window_ms=window)

    def _rate(self, limit: Limit) -> tuple[int, int, str]:
        """How many requests the limit allows, in what window (ms), and that window in words."""
        if limit in self.per_hour:
            return self.per_hour[limit], HOUR_MS, "an hour"
        return self.per_minute[limit], WINDOW_MS, "a minute"

    def _at_most(self, limit: Limit) -> str:
        count, _, window = self._rate(limit)
        return f"at most {count} {window}"

    async def check_account(self, limit: Limit, player_id: str) -> None:
        """Count the request against the player's own limit, or raise the 429."""
        wait = await self.wait_ms(limit, f"player:{player_id}")
        if wait > 0:
            raise retry_after(429, "RATE_LIMITED",
                              f"too many {limit} for this account: {self._at_most(limit)}; try again in "
                              f"{max(1, -(-wait // 1000))} s", wait / 1000)

    async def check(self, conn: HTTPConnection, limit: Limit) -> None:
        """Count the request against its client network's limit, or raise the 429."""
        network = self.client_network(conn)
        wait = await self.wait_ms(limit, network)
        if wait > 0:
            raise retry_after(429, "RATE_LIMITED",
                              f"too many {limit} from {network}: {self._at_most(limit)}; try again in "
                              f"{max(1, -(-wait // 1000))} s", wait / 1000)

    async def check_everyone(self, limit: Limit, *, instead: str = "") -> None:
        """Count the request against the whole deployment's budget, or raise the 429 (its message ends
        with ``instead``, what the client may do meanwhile)."""
        wait = await self.wait_ms(limit, EVERYONE)
        if wait > 0:
            raise retry_after(429, "RATE_LIMITED",
                              f"too many {limit} on this server: {self._at_most(limit)} "
                              f"from everyone together; try again in {max(1, -(-wait // 1000))} s{instead}",
                              wait / 1000)
