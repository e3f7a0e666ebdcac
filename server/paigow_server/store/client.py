"""``StoreClient``: the handle every store object is built from, and what the composition root asks of it.

It is the redis-py asyncio client ``process/redis_client.redis_from_url`` makes (plain, Sentinel or
Cluster); outside ``store/`` it is only passed on to store constructors, never called. ``ping`` and
``is_cluster`` are what ``app.py`` needs of it (readiness, and whether the old key layout may exist).
"""

from __future__ import annotations

from typing import TypeAlias

from redis.asyncio import Redis, RedisCluster

from paigow_server.store.errors import guarded

__all__ = ["StoreClient", "claim_once", "is_cluster", "ping"]

StoreClient: TypeAlias = Redis


@guarded
async def ping(client: StoreClient) -> None:
    """Raises ``StoreUnavailable`` when Redis does not answer."""
    await client.ping()


def is_cluster(client: StoreClient) -> bool:
    return isinstance(client, RedisCluster)


@guarded
async def claim_once(client: StoreClient, key: str) -> bool:
    """True for the first caller ever (over every process) to claim ``key`` (``SET NX``), False after."""
    return bool(await client.set(key, "1", nx=True))
