"""Hand history: each player's last ``HISTORY_LENGTH`` hands for recall, each table's last
``TABLE_ROUNDS_KEPT`` settled rounds, and every round for export.

All are written by ``TableRepo.commit`` in the transaction that settles the round; this module reads.
"""

from __future__ import annotations

import json
from typing import Any

from redis.asyncio import Redis

from paigow_server.store import keys
from paigow_server.store.errors import store_boundary
from paigow_server.store.streams import Page, read_page

__all__ = ["HISTORY_LENGTH", "TABLE_ROUNDS_KEPT", "History"]

HISTORY_LENGTH = 10
TABLE_ROUNDS_KEPT = 100
"""Settled rounds kept per table (``keys.table_rounds``): the most ``table_rounds`` returns."""


@store_boundary
class History:
    def __init__(self, redis: Redis) -> None:
        self.redis = redis

    async def recent(self, player_id: str) -> list[dict[str, Any]]:
        """The player's last hands (at most ``HISTORY_LENGTH``), newest first."""
        texts = await self.redis.lrange(keys.history(player_id), 0, HISTORY_LENGTH - 1)
        return [json.loads(text) for text in texts]

    async def table_rounds(self, table_id: str, limit: int) -> list[dict[str, Any]]:
        """The public records of the table's last settled rounds (at most ``limit``, which is at most
        ``TABLE_ROUNDS_KEPT``), newest first: each is the ``record`` of its ``round_settled`` event."""
        if not 1 <= limit <= TABLE_ROUNDS_KEPT:
            raise ValueError(f"limit={limit} is not within 1..{TABLE_ROUNDS_KEPT}")
        texts = await self.redis.lrange(keys.table_rounds(table_id), 0, limit - 1)
        return [json.loads(text) for text in texts]

    async def rounds(self, *, after: str | None = None, limit: int = 100, table_id: str | None = None,
                     player_id: str | None = None) -> Page:
        """Settled and voided rounds, oldest first, optionally only one table's or one player's."""
        page = await read_page(self.redis, keys.ROUNDS, after=after, limit=limit)
        if table_id is None and player_id is None:
            return page
        kept = [r for r in page.entries if (table_id is None or r["table_id"] == table_id)
                and (player_id is None or _has_player(r, player_id))]
        return Page(kept, page.next_after)


def _has_player(entry: dict[str, Any], player_id: str) -> bool:
    if entry["status"] == "settled":
        return any(h["player_id"] == player_id for h in entry["round"]["hands"])
    return any(b["player_id"] == player_id for b in entry["returned_bets"])
