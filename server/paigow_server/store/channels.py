"""``Channels``: Redis pub/sub behind a small interface — publish, and subscriptions to listen on.

The realtime side (the router's process channel, the fanout's table channels, the probe) and the web side
(revocations) publish and listen through it and never see a Redis client. A ``Subscription`` is one pub/sub
connection: ``subscribe`` / ``unsubscribe`` channels, ``receive`` the next ``Message`` (``None`` after
``timeout_s`` of silence, or when what came was not a publication), ``disconnect`` it (the next call
reconnects and subscribes to every channel again) and ``close`` it. On a Redis Cluster (``redis+cluster://``)
publications go over the cluster bus and the subscription follows its channels' node through a failover
(``process/redis_client.FollowingClusterPubSub``); there ``PUBLISH`` counts only the subscribers of the
node it reached (``counts_every_receiver`` is False). Every Redis failure is a ``StoreUnavailable``.
"""

from __future__ import annotations

import asyncio
from typing import NamedTuple

from redis.asyncio import Redis, RedisCluster
from redis.asyncio.client import PubSub

from paigow_server.store.errors import FAILURES, StoreUnavailable, store_boundary, unavailable

__all__ = ["Channels", "Message", "Subscription"]


class Message(NamedTuple):
    """One publication: the channel it came on and its payload (as Redis gave it)."""

    channel: str
    data: str | bytes


@store_boundary
class Channels:
    def __init__(self, redis: Redis) -> None:
        self._redis = redis
        self.counts_every_receiver = not isinstance(redis, RedisCluster)
        """``publish`` answers how many subscribers got it (not on a cluster: only those of one node)."""

    async def publish(self, channel: str, data: str) -> int:
        """Publish ``data``; how many subscribers received it."""
        return int(await self._redis.publish(channel, data))

    def subscription(self) -> Subscription:
        """A new pub/sub connection, subscribed to nothing yet (it connects on its first subscription)."""
        return Subscription(self._redis.pubsub(ignore_subscribe_messages=True))


class Subscription:
    def __init__(self, pubsub: PubSub) -> None:
        self._pubsub = pubsub

    async def subscribe(self, *channels: str) -> None:
        try:
            await self._pubsub.subscribe(*channels)
        except FAILURES as exc:
            raise unavailable(exc) from exc

    async def unsubscribe(self, *channels: str) -> None:
        try:
            await self._pubsub.unsubscribe(*channels)
        except FAILURES as exc:
            raise unavailable(exc) from exc

    async def receive(self, timeout_s: float) -> Message | None:
        """The next publication, or None (nothing within ``timeout_s``, or a subscription's confirmation)."""
        try:
            message = await self._pubsub.get_message(ignore_subscribe_messages=True, timeout=timeout_s)
        except FAILURES as exc:
            raise unavailable(exc) from exc
        if message is None or message.get("type") != "message":
            return None
        channel = message["channel"]
        return Message(channel.decode() if isinstance(channel, bytes) else str(channel), message["data"])

    async def disconnect(self) -> None:
        """Drop the connection (e.g. found deaf): the next call reconnects and subscribes again."""
        connection = self._pubsub.connection
        if connection is not None:
            try:
                await connection.disconnect()
            except FAILURES as exc:
                raise unavailable(exc) from exc

    async def close(self, timeout_s: float = 2.0) -> None:
        """Close the connection; a Redis that fails or does not answer within ``timeout_s`` is left."""
        try:
            await asyncio.wait_for(self._pubsub.aclose(), timeout_s)  # type: ignore[no-untyped-call, unused-ignore]
        except (StoreUnavailable, *FAILURES):
            pass
