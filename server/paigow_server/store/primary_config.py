"""``PrimaryConfig``: what the Redis primary says of its own configuration (``CONFIG GET``).

``process/replica_guard.py`` asks it for ``min-replicas-to-write`` at start and again now and then. A
managed Redis may refuse or rename ``CONFIG``, and a node may not answer: both read as unknown (None).
"""

from __future__ import annotations

from typing import Any

from redis.asyncio import Redis

from paigow_server.store.errors import FAILURES

__all__ = ["PrimaryConfig"]


class PrimaryConfig:
    def __init__(self, redis: Redis) -> None:
        self._redis = redis

    async def min_replicas_to_write(self) -> int | None:
        """The primary's ``min-replicas-to-write``, or None when it cannot be read (``CONFIG`` refused or
        renamed, as managed Redis services do, or the node does not answer)."""
        try:
            reply: Any = await self._redis.config_get("min-replicas-to-write")
        except FAILURES:
            return None
        value = reply.get("min-replicas-to-write") if isinstance(reply, dict) else None
        try:
            return None if value is None else int(value)
        except ValueError:
            return None
