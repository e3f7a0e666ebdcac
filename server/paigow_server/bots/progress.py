"""What the bots of one table share (``TableProgress``): the rounds settled, each counted once, a home
game's chip events, each counted once, and when to stop."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from paigow_server.bots.stats import RunStats
from paigow_server.bots.variants import count_variants

__all__ = ["TableProgress"]

Json = dict[str, Any]


@dataclass
class TableProgress:
    """What the bots of one table share: rounds settled (each counted once) and when to stop."""

    table_id: str
    target_rounds: int
    invite: str | None = None
    """A private table's invite code, for the spectators' hello (the players' accounts are admitted)."""
    settled: set[str] = field(default_factory=set)
    chip_events: set[str] = field(default_factory=set)
    done: asyncio.Event = field(default_factory=asyncio.Event)

    def chip_event(self, key: str, counter: str, stats: RunStats) -> None:
        """Count a home game's chip event once however many bots of the table see it."""
        if key not in self.chip_events:
            self.chip_events.add(key)
            stats.home_chips[counter] += 1

    def round_settled(self, record: Json, stats: RunStats) -> None:
        round_id = str(record["round_id"])
        if round_id not in self.settled:
            self.settled.add(round_id)
            stats.rounds += 1
            stats.bonus_bets += sum(1 for h in record["hands"] if h.get("bonus_cents"))
            stats.bonus_house_net_cents += int(record.get("bonus_house_net_cents", 0))
            for name, count in count_variants(record).items():
                stats.variants[name] = stats.variants.get(name, 0) + count
            if len(self.settled) >= self.target_rounds:
                self.done.set()
