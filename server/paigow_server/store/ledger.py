"""The ledger in Redis: every cent that moves, as an append-only stream of double entries.

The entries and accounts are the core's (``paigow.ledger.accounts``); they are written only inside the
transactions that move the money. ``Ledger`` reads them back.
"""

from __future__ import annotations

from typing import Any

from redis.asyncio import Redis

from paigow.ledger.accounts import derived_balances
from paigow_server.store import keys
from paigow_server.store.errors import store_boundary
from paigow_server.store.streams import Page, iterate, read_page

__all__ = ["Ledger"]


@store_boundary
class Ledger:
    """Read access; entries are written only inside the transactions that move the money."""

    def __init__(self, redis: Redis) -> None:
        self.redis = redis

    async def page(self, *, after: str | None = None, limit: int = 100) -> Page:
        return await read_page(self.redis, keys.LEDGER, after=after, limit=limit)

    async def entries(self, *, until: str = "+") -> list[dict[str, Any]]:
        """Every entry, oldest first; with ``until`` (a stream id), only those up to it."""
        return [entry async for entry in iterate(self.redis, keys.LEDGER, until=until)]

    async def balances(self, *, until: str = "+") -> dict[str, int]:
        return derived_balances(await self.entries(until=until))
