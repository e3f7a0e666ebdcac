"""Hand history: each player's last ``HISTORY_LENGTH`` hands for recall, each table's last
``TABLE_ROUNDS_KEPT`` settled rounds (a home game with its own chips: ``HOME_ROUNDS_KEPT``, its whole hand
log, with each round's time: ``round_times``), and every round for export.

All are written by ``TableRepo.commit`` in the transaction that settles the round; this module reads.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from typing import Any

from redis.asyncio import Redis
from redis.exceptions import RedisError

from paigow.ledger.home_entries import plays_home_chips
from paigow.table.state import TableState
from paigow_server.store import keys
from paigow_server.store.errors import store_boundary
from paigow_server.store.streams import Page, read_page

__all__ = ["HISTORY_LENGTH", "HOME_ROUNDS_KEPT", "TABLE_ROUNDS_KEPT", "History", "keep_round_times",
           "rounds_kept"]

log = logging.getLogger("paigow_server.history")

HISTORY_LENGTH = 10
TABLE_ROUNDS_KEPT = 100
"""Settled rounds kept per table (``keys.table_rounds``)."""
HOME_ROUNDS_KEPT = 2_000
"""Settled rounds shown in a home game's hand log (``GET /api/home/tables/{id}/hands``): the game's
every round up to that many (as its ledger holds up to ``MAX_CHIP_LINES`` lines); its table keeps one more,
so a log that lost its first rounds says so."""


def rounds_kept(state: TableState) -> int:
    """How many settled rounds the table's list keeps (the commit trims it to that)."""
    return HOME_ROUNDS_KEPT + 1 if plays_home_chips(state) else TABLE_ROUNDS_KEPT


async def keep_round_times(redis: Redis, table_id: str, rounds: Sequence[dict[str, Any]],
                           now_ms: int) -> None:
    """A home game's settled ``rounds`` (a commit's export entries) settled at ``now_ms``, for its hand log
    (``History.round_times``): written after the commit (``TableRepo.commit``), so a failure here loses only
    the time (the log shows it unknown); the times of rounds long gone from the log are dropped."""
    numbers = [r["round"]["number"] for r in rounds if r["status"] == "settled"]
    if not numbers:
        return
    try:
        async with redis.pipeline(transaction=False) as pipe:
            for number in numbers:
                pipe.hset(keys.table_round_times(table_id), str(number), str(now_ms))
                pipe.hdel(keys.table_round_times(table_id), str(number - 2 * HOME_ROUNDS_KEPT))
            await pipe.execute()
    except (RedisError, OSError) as exc:
        log.warning("round times of %s not written: %s", table_id, exc)


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
        ``HOME_ROUNDS_KEPT`` + 1), newest first: each is the ``record`` of its ``round_settled`` event."""
        if not 1 <= limit <= HOME_ROUNDS_KEPT + 1:
            raise ValueError(f"limit={limit} is not within 1..{HOME_ROUNDS_KEPT + 1}")
        texts = await self.redis.lrange(keys.table_rounds(table_id), 0, limit - 1)
        return [json.loads(text) for text in texts]

    async def round_times(self, table_id: str) -> dict[int, int]:
        """Round number -> when it settled (ms), of a home game's rounds (``TableRepo.commit`` writes them
        after each settlement of a home game with its own chips; a round whose time was not written is
        missing)."""
        found = await self.redis.hgetall(keys.table_round_times(table_id))
        return {int(number): int(ms) for number, ms in found.items()}

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
