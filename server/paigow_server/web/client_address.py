"""The client's address, for the per-address limits: the TCP peer, or, behind a trusted proxy, the
address that proxy saw.

``X-Forwarded-For`` is a list each proxy appends the address it received from to. Only a request whose TCP
peer is one of the ``trusted_proxies`` has the header read at all (anybody else could write anything in
it), and then it is read from the right: the first address that is not itself a trusted proxy is the
client. Left of that, the entries were written by the client and are ignored. A malformed entry where
the client's address should be falls back to the peer (the proxy), so a bad header never widens a limit.

The peer is the one the socket saw: uvicorn's own proxy-headers middleware (on by default, trusting
``FORWARDED_ALLOW_IPS``, 127.0.0.1 unless set) rewrites ``scope["client"]`` from ``X-Forwarded-For``
before the app runs, which would let any loopback client choose its address. ``paigow serve`` puts
``KeepPeer`` outside that middleware, and ``client_address`` reads the address it kept.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Sequence

from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Receive, Scope, Send

__all__ = ["PEER", "KeepPeer", "TrustedProxies", "address_network", "client_address"]

PEER = "paigow.peer"
"""The scope key of the TCP peer ``(host, port)`` as the socket saw it (see ``KeepPeer``)."""

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address


class TrustedProxies:
    """The ``trusted_proxies`` setting, parsed once."""

    def __init__(self, networks: Iterable[str]) -> None:
        self.networks: tuple[Network, ...] = tuple(ipaddress.ip_network(n, strict=False) for n in networks)

    def trusts(self, address: str) -> bool:
        parsed = _parse(address)
        return parsed is not None and any(parsed in network for network in self.networks)

    def client(self, peer: str | None, forwarded_for: Sequence[str]) -> str:
        """The client's address, given the TCP peer and every ``X-Forwarded-For`` header's text."""
        if peer is None:
            return "unknown"
        if not self.networks or not self.trusts(peer):
            return _normal(peer)
        hops = [hop.strip() for header in forwarded_for for hop in header.split(",")]
        for hop in reversed(hops):
            if _parse(hop) is None:
                return _normal(peer)
            if not self.trusts(hop):
                return _normal(hop)
        return _normal(hops[0]) if hops else _normal(peer)


def _parse(text: str) -> Address | None:
    """The address (an IPv4-mapped IPv6 one as IPv4), or None when the text is not one."""
    try:
        parsed = ipaddress.ip_address(text.strip().strip("[]"))
    except ValueError:
        return None
    if isinstance(parsed, ipaddress.IPv6Address) and parsed.ipv4_mapped is not None:
        return parsed.ipv4_mapped
    return parsed


def _normal(text: str) -> str:
    parsed = _parse(text)
    return text if parsed is None else str(parsed)


def address_network(address: str, *, ipv4_prefix: int, ipv6_prefix: int) -> str:
    """The network a per-address limit counts ``address`` in: its ``/ipv4_prefix`` (IPv4, an IPv4-mapped
    IPv6 address included) or ``/ipv6_prefix`` (IPv6), as CIDR text (``198.51.100.0/24``,
    ``2001:db8:1:2::/64``). One host of an IPv6 /64, or of a rented IPv4 /24, is one client however many
    addresses it takes. A text that is no address (``"unknown"``) is its own network."""
    parsed = _parse(address)
    if parsed is None:
        return address
    bits = ipv4_prefix if isinstance(parsed, ipaddress.IPv4Address) else ipv6_prefix
    return str(ipaddress.ip_network(f"{parsed}/{bits}", strict=False))


class KeepPeer:
    """The outermost ASGI layer: notes the socket's peer before anything rewrites ``scope["client"]``."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            scope[PEER] = scope.get("client")
        await self.app(scope, receive, send)


def client_address(conn: HTTPConnection, proxies: TrustedProxies) -> str:
    kept = conn.scope.get(PEER, conn.scope.get("client"))
    peer = str(kept[0]) if kept else None
    return proxies.client(peer, conn.headers.getlist("x-forwarded-for"))

