"""The key that signs device tokens (``web/device_tokens.py``): 32 random bytes, made once by whichever
process needs it first (``SET NX``) and shared by every process through Redis (``G:device-key``).

Deleting the key forgets every device: each device's next sign-in is counted as a new device's until it
succeeds again. Read at each sign-in (one ``GET``), so a deleted key takes effect at once everywhere.
"""

from __future__ import annotations

import secrets

from redis.asyncio import Redis

from paigow_server.store import keys
from paigow_server.store.errors import guarded

__all__ = ["DeviceKey", "device_key"]


@guarded
async def device_key(redis: Redis) -> bytes:
    stored = await redis.get(keys.DEVICE_KEY)
    if stored is None:
        await redis.set(keys.DEVICE_KEY, secrets.token_hex(32), nx=True)
        stored = await redis.get(keys.DEVICE_KEY)
    text = stored.decode() if isinstance(stored, bytes) else str(stored)
    return bytes.fromhex(text)


class DeviceKey:
    """The shared device key of one Redis (``device_key``), read at each use."""

    def __init__(self, redis: Redis) -> None:
        self._redis = redis

    async def get(self) -> bytes:
        return await device_key(self._redis)
