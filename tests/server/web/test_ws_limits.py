"""The connection limits: Origin check, rate limit and flood, connections per player."""

from __future__ import annotations

import pytest

from paigow_server.realtime.presence import ConnectionCounter
from paigow_server.web.ws_limits import RateLimiter, Verdict, origin_allowed


@pytest.mark.parametrize(
    ("origin", "host", "scheme", "allowed", "expected"),
    [
        (None, "127.0.0.1:8000", "ws", (), True),  # not a browser
        ("http://127.0.0.1:8000", "127.0.0.1:8000", "ws", (), True),  # same origin
        ("http://127.0.0.1:8000/", "127.0.0.1:8000", "ws", (), True),
        ("HTTP://LOCALHOST:8000", "localhost:8000", "ws", (), True),
        ("http://example.com", "example.com:80", "ws", (), True),  # default port spelled out on one side
        ("https://example.com", "example.com", "wss", (), True),
        ("https://example.com", "example.com:443", "wss", (), True),
        ("https://example.com:443", "example.com", "WSS", (), True),
        ("https://example.com", "example.com:80", "wss", (), False),  # https default port is 443
        ("http://127.0.0.1:8001", "127.0.0.1:8000", "ws", (), False),  # another port is another origin
        ("http://evil.example", "127.0.0.1:8000", "ws", (), False),
        ("null", "127.0.0.1:8000", "ws", (), False),  # sandboxed frames and file: pages
        ("ws://127.0.0.1:8000", "127.0.0.1:8000", "ws", (), False),
        ("http://127.0.0.1:8000", None, "ws", (), False),
        # the scheme is part of the origin: the server's own is the request's (ws -> http, wss -> https)
        ("https://127.0.0.1:8000", "127.0.0.1:8000", "ws", (), False),
        ("https://example.com", "example.com", "ws", (), False),
        ("https://example.com:80", "example.com", "ws", (), False),
        ("http://example.com", "example.com", "wss", (), False),
        ("http://example.com:443", "example.com", "wss", (), False),
        ("https://play.example", "127.0.0.1:8000", "ws", ("https://play.example",), True),
        ("https://play.example", "127.0.0.1:8000", "ws", ("https://PLAY.example/",), True),
        ("http://play.example", "play.example", "wss", ("https://play.example",), False),
        ("https://other.example", "127.0.0.1:8000", "ws", ("https://play.example",), False),
        ("https://other.example", "127.0.0.1:8000", "ws", ("*",), True),
        ("http://[::1]:8000", "[::1]:8000", "ws", (), True),
        ("http://[::1]", "[::1]:80", "ws", (), True),
        # DNS rebinding: the attacker's name as both Origin and Host; not an allowed host
        ("http://evil.example", "evil.example", "ws", (), False),
        ("http://evil.example:8000", "evil.example:8000", "ws", (), False),
        ("http://evil.example", "evil.example", "ws", ("https://play.example",), False),
    ],
)
def test_origin_allowed(origin: str | None, host: str | None, scheme: str, allowed: tuple[str, ...],
                        expected: bool) -> None:
    hosts = ("localhost", "127.0.0.1", "[::1]", "example.com")
    assert origin_allowed(origin, host, scheme=scheme, origins=allowed, hosts=hosts) is expected


@pytest.mark.parametrize(
    ("origin", "host", "hosts", "expected"),
    [
        ("https://play.example.com", "play.example.com", ("*.example.com",), True),
        ("https://example.com", "example.com", ("*.example.com",), False),  # *. names only what is under it
        ("https://evil.example", "evil.example", ("*",), False),  # "*" answers any Host, vouches for none
        ("https://paigow.example.com", "paigow.example.com", ("*", "paigow.example.com"), True),
        ("https://PAIGOW.example.com", "paigow.example.com:443", ("paigow.example.com",), True),
    ],
)
def test_the_servers_own_origin_counts_only_under_an_allowed_host(origin: str, host: str,
                                                                  hosts: tuple[str, ...],
                                                                  expected: bool) -> None:
    assert origin_allowed(origin, host, scheme="wss", origins=(), hosts=hosts) is expected


def test_rate_limiter_allows_a_burst_then_limits_then_refills() -> None:
    limiter = RateLimiter(rate=10, burst=5, flood_after=20)
    assert [limiter.check(0.0) for _ in range(5)] == [Verdict.OK] * 5
    assert limiter.check(0.0) is Verdict.LIMITED
    assert limiter.check(0.1) is Verdict.OK  # one token back after 1/rate seconds
    assert limiter.check(0.1) is Verdict.LIMITED
    assert [limiter.check(10.0) for _ in range(5)] == [Verdict.OK] * 5  # full again, never above burst
    assert limiter.check(10.0) is Verdict.LIMITED


def test_steady_traffic_at_the_rate_is_never_limited() -> None:
    limiter = RateLimiter(rate=20, burst=20, flood_after=20)
    assert all(limiter.check(i / 20) is Verdict.OK for i in range(1000))


def test_a_flood_is_detected_after_flood_after_refusals_in_about_a_second() -> None:
    limiter = RateLimiter(rate=10, burst=10, flood_after=5)
    verdicts = [limiter.check(0.0) for _ in range(16)]
    assert verdicts[:10] == [Verdict.OK] * 10
    assert verdicts[10:15] == [Verdict.LIMITED] * 5
    assert verdicts[15] is Verdict.FLOOD


def test_strikes_drain_so_occasional_excess_is_not_a_flood() -> None:
    limiter = RateLimiter(rate=1, burst=1, flood_after=3)
    now = 0.0
    for _ in range(50):  # two messages every second: one passes, one is refused, forever
        assert limiter.check(now) is Verdict.OK
        assert limiter.check(now) is Verdict.LIMITED
        now += 1.0


def test_rate_limiter_refuses_nonsense_parameters() -> None:
    with pytest.raises(ValueError, match="rate > 0"):
        RateLimiter(rate=0, burst=1, flood_after=1)


def test_connection_counter_caps_per_player() -> None:
    counter = ConnectionCounter(limit=2)
    assert counter.acquire("p1")
    assert counter.acquire("p1")
    assert not counter.acquire("p1")
    assert counter.acquire("p2")
    counter.release("p1")
    assert counter.count("p1") == 1
    assert counter.acquire("p1")
    counter.release("p2")
    assert counter.count("p2") == 0
