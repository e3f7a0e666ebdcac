"""``redis_client``: URL parsing, and a real Sentinel in front of a real Redis."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from paigow_server.process.embedded_redis import EmbeddedRedis, find_redis_server, free_port
from paigow_server.process.redis_client import (
    ClusterUrl,
    RedisUrlError,
    SentinelUrl,
    check_redis_url,
    parse_cluster_url,
    parse_sentinel_url,
    redis_from_url,
)


def test_parse_sentinel_url_with_everything() -> None:
    url = "rediss+sentinel://app:s%40cret@10.0.0.1:26379,[::1]:26380,sentinel-c/mymaster/3?sentinel_password=x"
    assert parse_sentinel_url(url) == SentinelUrl(
        sentinels=(("10.0.0.1", 26379), ("::1", 26380), ("sentinel-c", 26379)),
        service_name="mymaster",
        db=3,
        password="s@cret",
        username="app",
        sentinel_password="x",
        ssl=True,
    )


def test_parse_cluster_url_with_everything_and_defaults() -> None:
    assert parse_cluster_url("rediss+cluster://app:s%40cret@10.0.0.1:7000,[::1]:7001,node-c/") == ClusterUrl(
        nodes=(("10.0.0.1", 7000), ("::1", 7001), ("node-c", 6379)), password="s@cret", username="app",
        ssl=True)
    assert parse_cluster_url("redis+cluster://node:7000") == ClusterUrl((("node", 7000),), None, None, False)


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("redis+cluster://", "names no cluster node"),
        ("redis+cluster://h:7000/0", "a cluster URL has no path"),
        ("redis+cluster://h:port", "cluster node port 'port'"),
        ("redis+cluster://h:0", "out of range"),
        ("redis+cluster://h:7000?x=1", "takes no query parameters"),
    ],
)
def test_bad_cluster_urls_are_refused_with_the_reason(url: str, words: str) -> None:
    with pytest.raises(RedisUrlError, match=words):
        parse_cluster_url(url)
    assert words in (check_redis_url(url) or "")


def test_parse_sentinel_url_defaults_db_zero_and_no_password() -> None:
    parsed = parse_sentinel_url("redis+sentinel://sentinel:26379/mymaster")
    assert (parsed.db, parsed.password, parsed.ssl) == (0, None, False)


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("redis+sentinel:///mymaster", "no sentinel host"),
        ("redis+sentinel://h:26379", "no master service"),
        ("redis+sentinel://h:26379/m/x", "database 'x'"),
        ("redis+sentinel://h:port/m", "sentinel port 'port'"),
        ("redis+sentinel://h:70000/m", "out of range"),
        ("redis+sentinel://h/m/0/extra", "extra path"),
        ("redis+sentinel://h/m?timeout=3", "unknown query parameter"),
    ],
)
def test_bad_sentinel_urls_are_refused_with_the_reason(url: str, words: str) -> None:
    with pytest.raises(RedisUrlError, match=words):
        parse_sentinel_url(url)
    assert words in (check_redis_url(url) or "")


def test_password_is_redacted_from_messages() -> None:
    with pytest.raises(RedisUrlError) as info:
        parse_sentinel_url("redis+sentinel://:hunter2@h:26379")
    assert "hunter2" not in str(info.value)


def test_plain_urls_are_checked() -> None:
    assert check_redis_url("redis://127.0.0.1:6379/0") is None
    assert check_redis_url("unix:///tmp/redis.sock") is None
    assert "must start with" in (check_redis_url("http://x") or "")
    assert "must name a host" in (check_redis_url("redis:///0") or "")
    with pytest.raises(RedisUrlError, match="must start with"):
        redis_from_url("memcached://x")


@pytest.fixture
def sentinel_setup(tmp_path: Path) -> Iterator[tuple[str, int]]:
    """A private Redis and a Sentinel monitoring it as ``mymaster``; yields (master url, sentinel port)."""
    with EmbeddedRedis(tmp_path / "master", appendonly=False) as master:
        port = free_port()
        conf = tmp_path / "sentinel.conf"
        conf.write_text(
            f"port {port}\nbind 127.0.0.1\ndir {tmp_path}\n"
            f"sentinel monitor mymaster 127.0.0.1 {master.port} 1\n"
        )
        process = subprocess.Popen(
            [str(find_redis_server()), str(conf), "--sentinel"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            deadline = time.monotonic() + 10
            while True:
                try:
                    with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                        break
                except OSError:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.05)
            yield master.url, port
        finally:
            process.terminate()
            process.wait(10)


@pytest.mark.failover
async def test_sentinel_url_reaches_the_master_database(sentinel_setup: tuple[str, int]) -> None:
    master_url, sentinel_port = sentinel_setup
    client = redis_from_url(f"redis+sentinel://127.0.0.1:{sentinel_port}/mymaster/2", decode_responses=True)
    try:
        await client.set("paigow:probe", "through-sentinel")
        assert await client.get("paigow:probe") == "through-sentinel"
    finally:
        await client.aclose()
    direct = redis.Redis.from_url(master_url.rsplit("/", 1)[0] + "/2", decode_responses=True)
    try:
        assert direct.get("paigow:probe") == "through-sentinel"
    finally:
        direct.close()


async def test_a_burst_beyond_the_pool_waits_instead_of_failing(redis_url: str) -> None:
    client = redis_from_url(redis_url, decode_responses=True, max_connections=4)
    try:
        waits = [client.blpop([f"paigow:test:none{i}"], timeout=0.2) for i in range(8)]
        results = await asyncio.gather(*waits, client.ping())
        assert results == [None] * 8 + [True], "8 blocking commands on 4 connections: queued, none failed"
    finally:
        await client.aclose()
