"""The help notice (docs/responsible-play.md): the text the lobby shows at sign-in and after signing out.

The serve setting ``help_notice`` (empty: none) until an operator sets one (``PUT /api/operator/settings
{"help_notice"}``), kept in ``keys.SETTINGS`` field ``help_notice`` for every process; ``null`` there
deletes the field, and the serve setting is in force again. ``current()`` is read by every page load
(``GET /api/responsible-play/config``, no session needed), so a process keeps what it read for
``CACHE_S`` seconds: a process asks Redis for it at most once in that time, whatever the traffic, and
another process shows an operator's change at most that much later (the process that wrote it at once).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from redis.asyncio import Redis

from paigow_server.store import keys
from paigow_server.store.errors import store_boundary

__all__ = ["CACHE_S", "SETTING", "HelpNotice"]

SETTING = "help_notice"
"""The operator's value in ``keys.SETTINGS``."""
CACHE_S = 5.0


@store_boundary
class HelpNotice:
    def __init__(self, redis: Redis, *, default: str, clock: Callable[[], float] = time.monotonic) -> None:
        self.redis = redis
        self.default = default
        self._clock = clock
        self._cached: tuple[float, str] | None = None

    async def get(self) -> str:
        """The notice in force, read now: the operator's, else the serve setting."""
        stored = await self.redis.hget(keys.SETTINGS, SETTING)
        text = self.default if stored is None else (stored.decode() if isinstance(stored, bytes)
                                                    else str(stored))
        self._cached = (self._clock() + CACHE_S, text)
        return text

    async def current(self) -> str:
        """The notice in force, as read at most ``CACHE_S`` seconds ago."""
        if self._cached is not None and self._clock() < self._cached[0]:
            return self._cached[1]
        return await self.get()

    async def set(self, text: str | None) -> None:
        """The operator's notice from now on (checked by the caller: ``settings.check_help_notice``);
        None: the serve setting's again."""
        if text is None:
            await self.redis.hdel(keys.SETTINGS, SETTING)
        else:
            await self.redis.hset(keys.SETTINGS, SETTING, text)
        self._cached = None
