"""One factory from a ``--redis-url`` to a ``redis.asyncio`` client, Sentinel included.

redis-py's ``from_url`` understands ``redis://``, ``rediss://`` and ``unix://``; it has no URL form for
Redis Sentinel. This module adds one, so a Sentinel-managed Redis is configured the same way as any other::

    redis+sentinel://[:password@]host1:26379[,host2:26379,...]/service_name[/db][?sentinel_password=...]
    rediss+sentinel://...      (TLS to the sentinels and to the master)

A Redis Cluster is named by some of its nodes (the client finds the others and follows the slot map)::

    redis+cluster://[user:password@]host1:6379[,host2:6379,...]
    rediss+cluster://...       (TLS)

It makes a ``redis.asyncio.RedisCluster``: every key of one table is in one hash slot (``store/keys.py``),
so a table's commit is one script on the node that owns the table; pub/sub goes over the cluster bus.

The client asks the sentinels for the current master of ``service_name`` and follows fail-overs (redis-py
``Sentinel.master_for``): every new connection asks them, and a command that gets no answer within
``SENTINEL_SOCKET_TIMEOUT_S`` drops its connection, so a frozen or partitioned old primary is left. A
managed Redis (one address that survives fail-over by itself) just uses ``redis://`` or ``rediss://``.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

import redis.asyncio as aioredis
from redis.asyncio.cluster import ClusterNode, ClusterPubSub, RedisCluster, _ClusterNodePoolAdapter
from redis.asyncio.connection import BlockingConnectionPool
from redis.asyncio.sentinel import Sentinel, SentinelConnectionPool
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError
from redis.exceptions import TimeoutError as RedisTimeoutError

from paigow_server.errors import ServerError

PLAIN_SCHEMES = ("redis", "rediss", "unix")
MAX_CONNECTIONS = 200
"""Connections one process opens to Redis at most; a command beyond that waits for a free one (up to
``POOL_TIMEOUT_S``) instead of failing, as redis-py's default pool of 100 would under a burst."""
POOL_TIMEOUT_S = 20.0
SENTINEL_SCHEMES = {"redis+sentinel": False, "rediss+sentinel": True}
CLUSTER_SCHEMES = {"redis+cluster": False, "rediss+cluster": True}
DEFAULT_CLUSTER_PORT = 6379
DEFAULT_SENTINEL_PORT = 26379
SENTINEL_SOCKET_TIMEOUT_S = 2.0
"""A command to the master of a Sentinel URL that gets no answer in this long fails, and its connection is
dropped: a primary frozen or cut off by a partition would otherwise hold it forever, while the sentinels
promote its replica. The next connection asks the sentinels where the master is now."""
SENTINEL_CONNECT_TIMEOUT_S = 1.0


class RedisUrlError(ServerError, ValueError):
    """A ``--redis-url`` that cannot be used; the message quotes it and says what is wrong."""


@dataclass(frozen=True, slots=True)
class SentinelUrl:
    """A parsed ``redis+sentinel://`` URL."""

    sentinels: tuple[tuple[str, int], ...]
    service_name: str
    db: int
    password: str | None
    username: str | None
    sentinel_password: str | None
    ssl: bool


class SentinelRedis(aioredis.Redis):
    """The master client of a Sentinel URL; closing it also closes the connections to the sentinels."""

    async def aclose(self, close_connection_pool: bool | None = None) -> None:
        await super().aclose(close_connection_pool)
        pool = self.connection_pool
        if isinstance(pool, SentinelConnectionPool):
            for sentinel in pool.sentinel_manager.sentinels:
                await sentinel.aclose()


class FollowingClusterPubSub(ClusterPubSub):
    """A cluster pub/sub connection that follows its channels' node through a failover.

    redis-py's ``ClusterPubSub`` stays on the node it first chose for its (classic) channels: when that
    primary fails, every reconnection goes to the dead node, and the listener never hears again. When a
    command or a read fails on the connection, this one asks the cluster where the slot of its first
    channel is served now (the node a ``PUBLISH`` of that channel goes to) and, if it moved, takes a
    connection to the new node; the listener's next read or subscription connects there, and the
    connection subscribes to every channel again (``on_connect``), as after any reconnection."""

    async def execute_command(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return await super().execute_command(*args, **kwargs)
        except (RedisConnectionError, RedisTimeoutError, OSError):
            await self._follow()
            raise

    async def parse_response(self, block: bool = True, timeout: float = 0) -> Any:  # noqa: ASYNC109 (redis-py's)
        try:
            return await super().parse_response(block=block, timeout=timeout)
        except (RedisConnectionError, RedisTimeoutError, OSError):
            await self._follow()
            raise

    async def _follow(self) -> None:
        channel = next(iter(self.channels), None) or next(iter(self.patterns), None)
        if channel is None or self.connection is None or self.node is None:
            return
        with contextlib.suppress(RedisError, OSError):
            await self.cluster.nodes_manager.initialize()  # where the slots are served now
        try:
            node = self.cluster.nodes_manager.get_node_from_slot(self.cluster.keyslot(channel))
        except (RedisError, OSError):  # the slot is served by nobody yet: the next failure asks again
            return
        if node.name == self.node.name:
            return
        old, self.connection = self.connection, None
        old.deregister_connect_callback(self.on_connect)
        with contextlib.suppress(RedisError, OSError):
            await old.disconnect()
        if self.connection_pool is not None:
            await self.connection_pool.release(old)
        self.node = node
        self.connection_pool = _ClusterNodePoolAdapter(node)
        self.connection = await self.connection_pool.get_connection()
        self.connection.register_connect_callback(self.on_connect)


class FollowingRedisCluster(RedisCluster):
    """The client of a ``redis+cluster://`` URL: its pub/sub connections follow failovers."""

    def pubsub(self, node: ClusterNode | None = None, host: str | None = None, port: int | None = None,
               **kwargs: Any) -> ClusterPubSub:
        return FollowingClusterPubSub(self, node=node, host=host, port=port, **kwargs)


def is_sentinel_url(url: str) -> bool:
    return url.split("://", 1)[0].lower() in SENTINEL_SCHEMES


def is_cluster_url(url: str) -> bool:
    return url.split("://", 1)[0].lower() in CLUSTER_SCHEMES


@dataclass(frozen=True, slots=True)
class ClusterUrl:
    """A parsed ``redis+cluster://`` URL."""

    nodes: tuple[tuple[str, int], ...]
    password: str | None
    username: str | None
    ssl: bool


def parse_cluster_url(url: str) -> ClusterUrl:
    """Parse ``redis+cluster://[user:pass@]h1:p1,h2:p2[/]``."""
    scheme, sep, rest = url.partition("://")
    if not sep or scheme.lower() not in CLUSTER_SCHEMES:
        raise RedisUrlError(f"{_redact(url)!r} is not a redis+cluster:// or rediss+cluster:// URL")
    netloc, _, tail = rest.partition("/")
    if tail.strip("/"):
        raise RedisUrlError(f"{_redact(url)!r}: a cluster URL has no path (a cluster has one database)")
    username, password, hosts = _credentials(netloc)
    if "?" in hosts:
        raise RedisUrlError(f"{_redact(url)!r}: a cluster URL takes no query parameters")
    if not hosts:
        raise RedisUrlError(f"{_redact(url)!r} names no cluster node (expected host:6379[,host:port])")
    nodes = tuple(_host_port(item, url, DEFAULT_CLUSTER_PORT, "cluster node") for item in hosts.split(",")
                  if item)
    return ClusterUrl(nodes=nodes, password=password, username=username, ssl=CLUSTER_SCHEMES[scheme.lower()])


def _credentials(netloc: str) -> tuple[str | None, str | None, str]:
    """``[user[:pass]@]hosts`` → (user name, password, hosts), percent-decoded (None: absent)."""
    userinfo, at, hosts = netloc.rpartition("@")
    if not at:
        return None, None, netloc
    user_text, colon, pass_text = userinfo.partition(":")
    return unquote(user_text) or None, unquote(pass_text) if colon else None, hosts


def _redact(url: str) -> str:
    parts = urlsplit(url)
    if parts.password is None:
        return url
    return url.replace(f":{parts.password}@", ":***@", 1)


def _host_port(item: str, url: str, default_port: int = DEFAULT_SENTINEL_PORT,
               what: str = "sentinel") -> tuple[str, int]:
    if item.startswith("["):  # [ipv6]:port
        host, _, port_part = item[1:].partition("]")
        port_text = port_part.removeprefix(":") or str(default_port)
    else:
        host, sep, port_text = item.rpartition(":")
        if not sep:
            host, port_text = item, str(default_port)
    if not host:
        raise RedisUrlError(f"{what} address {item!r} in {_redact(url)!r} has no host")
    try:
        port = int(port_text)
    except ValueError:
        raise RedisUrlError(f"{what} port {port_text!r} in {_redact(url)!r} is not a number") from None
    if not 0 < port < 65536:
        raise RedisUrlError(f"{what} port {port} in {_redact(url)!r} is out of range 1-65535")
    return host, port


def parse_sentinel_url(url: str) -> SentinelUrl:
    """Parse ``redis+sentinel://[user:pass@]h1:p1,h2:p2/service[/db][?sentinel_password=...]``."""
    scheme, sep, rest = url.partition("://")
    if not sep or scheme.lower() not in SENTINEL_SCHEMES:
        raise RedisUrlError(f"{_redact(url)!r} is not a redis+sentinel:// or rediss+sentinel:// URL")
    netloc, _, tail = rest.partition("/")
    path, _, query = tail.partition("?")
    username, password, hosts = _credentials(netloc)
    if not hosts:
        raise RedisUrlError(f"{_redact(url)!r} names no sentinel host (expected host:26379[,host:port])")
    sentinels = tuple(_host_port(item, url) for item in hosts.split(",") if item)
    segments = [s for s in path.split("/") if s]
    if not segments:
        raise RedisUrlError(f"{_redact(url)!r} names no master service (expected .../mymaster[/db])")
    if len(segments) > 2:
        raise RedisUrlError(f"{_redact(url)!r} has extra path segments after /service/db")
    db = 0
    if len(segments) == 2:
        if not segments[1].isdigit():
            raise RedisUrlError(f"database {segments[1]!r} in {_redact(url)!r} is not a number")
        db = int(segments[1])
    params = parse_qs(query)
    unknown = sorted(set(params) - {"sentinel_password"})
    if unknown:
        raise RedisUrlError(f"unknown query parameter(s) {unknown} in {_redact(url)!r}")
    sentinel_password = params.get("sentinel_password", [None])[-1]
    return SentinelUrl(
        sentinels=sentinels,
        service_name=unquote(segments[0]),
        db=db,
        password=password,
        username=username,
        sentinel_password=sentinel_password,
        ssl=SENTINEL_SCHEMES[scheme.lower()],
    )


def check_redis_url(url: str) -> str | None:
    """``None`` when :func:`redis_from_url` accepts ``url``, else what is wrong with it (for settings)."""
    scheme = url.split("://", 1)[0].lower() if "://" in url else ""
    if scheme in SENTINEL_SCHEMES:
        try:
            parse_sentinel_url(url)
        except RedisUrlError as exc:
            return str(exc)
        return None
    if scheme in CLUSTER_SCHEMES:
        try:
            parse_cluster_url(url)
        except RedisUrlError as exc:
            return str(exc)
        return None
    if scheme not in PLAIN_SCHEMES:
        return ("must start with one of redis://, rediss://, unix://, redis+sentinel://, rediss+sentinel://, "
                "redis+cluster://, rediss+cluster://")
    if scheme != "unix" and not urlsplit(url).hostname:
        return "must name a host, as in redis://127.0.0.1:6379/0"
    return None


def redis_from_url(url: str, **options: Any) -> aioredis.Redis:
    """A ``redis.asyncio.Redis`` for ``url``; ``options`` go to every connection (e.g. decode_responses).
    At most ``MAX_CONNECTIONS`` connections; more concurrent commands wait for one."""
    max_connections = int(options.pop("max_connections", MAX_CONNECTIONS))
    if is_sentinel_url(url):
        parsed = parse_sentinel_url(url)
        sentinel_kwargs: dict[str, Any] = {"ssl": parsed.ssl, "socket_timeout": SENTINEL_CONNECT_TIMEOUT_S,
                                           "socket_connect_timeout": SENTINEL_CONNECT_TIMEOUT_S}
        options.setdefault("socket_timeout", SENTINEL_SOCKET_TIMEOUT_S)
        options.setdefault("socket_connect_timeout", SENTINEL_CONNECT_TIMEOUT_S)
        if parsed.sentinel_password is not None:
            sentinel_kwargs["password"] = parsed.sentinel_password
        sentinel = Sentinel(  # type: ignore[no-untyped-call, unused-ignore]
            list(parsed.sentinels), sentinel_kwargs=sentinel_kwargs, **options
        )
        master: aioredis.Redis = sentinel.master_for(
            parsed.service_name,
            redis_class=SentinelRedis,
            max_connections=max_connections * 5,  # the Sentinel pool cannot wait: a generous cap
            db=parsed.db,
            password=parsed.password,
            username=parsed.username,
            ssl=parsed.ssl,
        )
        return master
    if is_cluster_url(url):
        cluster = parse_cluster_url(url)
        options.pop("health_check_interval", None)
        client: aioredis.Redis = FollowingRedisCluster(  # type: ignore[assignment]
            startup_nodes=[ClusterNode(host, port) for host, port in cluster.nodes],
            password=cluster.password, username=cluster.username, ssl=cluster.ssl,
            max_connections=max_connections, **options)
        return client
    problem = check_redis_url(url)
    if problem is not None:
        raise RedisUrlError(f"{_redact(url)!r}: {problem}")
    pool = BlockingConnectionPool.from_url(url, max_connections=max_connections, timeout=POOL_TIMEOUT_S,
                                           **options)
    plain: aioredis.Redis = aioredis.Redis.from_pool(pool)
    return plain
