"""``GuestCollector``: the background task that collects guest accounts nobody used for
``guest_retention_days``.

Every ``guest_collect_seconds`` one process (whichever takes ``paigow:guests:collector`` for the turn)
reads the guests unseen since the cutoff, oldest first, a batch at a time. For each that has no open
connection here (an open connection elsewhere keeps the guest seen: ``SessionWatch`` slides its token
and last-seen time about once a minute), under a per-guest claim so no two processes work on one guest:

1. every seat it holds is given up with a ``Kick`` through the ``TableService``, so the table's commit
   returns the chips to the balance with its ``cash_out`` ledger entry; a guest still in a round leaves
   when the round ends, and is collected on a later pass;
2. ``Guests.expire`` moves the balance to the bank (ledger ``guest_expired``) and deletes the guest's keys,
   in one script that changes nothing if the guest was seen or its balance moved meanwhile.

So the money still adds up (``store.money``) and every cent has its ledger entry.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Callable

from paigow.table.commands import Kick
from paigow.table.rejections import Rejection
from paigow_server.process.tasks import Every
from paigow_server.realtime.tables import ServiceError, TableService
from paigow_server.store.accounts import Accounts
from paigow_server.store.errors import StoreUnavailable
from paigow_server.store.guests import ExpireOutcome, Guests
from paigow_server.store.tables import TableRepo

__all__ = ["GuestCollector"]

log = logging.getLogger("paigow_server.guest_collector")

BATCH = 100
CLAIM_MS = 60_000


def _now_ms() -> int:
    return time.time_ns() // 1_000_000


class GuestCollector:
    def __init__(self, repo: TableRepo, accounts: Accounts, guests: Guests, service: TableService,
                 connected: Callable[[str], bool], *, retention_ms: int, interval_s: float,
                 clock: Callable[[], int] = _now_ms) -> None:
        self._repo = repo
        self._accounts = accounts
        self._guests = guests
        self._service = service
        self._connected = connected
        self.retention_ms = retention_ms
        self.interval_s = interval_s
        self._clock = clock
        self._owner = secrets.token_hex(8)
        self._every = Every("paigow-guest-collector", interval_s, self._turn,
                            failures=(StoreUnavailable, OSError))
        self.start, self.stop = self._every.start, self._every.stop

    async def _turn(self) -> None:
        """One process per interval looks (whichever takes the turn first)."""
        turn_ms = max(1, int(self.interval_s * 900))
        if await self._guests.take_turn(self._owner, turn_ms):
            await self.collect_once()

    async def collect_once(self) -> list[str]:
        """Collect the guests due now; returns the ids collected."""
        now = self._clock()
        cutoff = now - self.retention_ms
        collected: list[str] = []
        due = await self._guests.unseen_since(cutoff, BATCH)
        if not due:
            return collected
        states = [s for s in await self._repo.load_many(await self._repo.list_ids()) if s is not None]
        for player_id in due:
            if self._connected(player_id) or not await self._guests.claim(player_id, self._owner, CLAIM_MS):
                continue
            try:
                seated = [s.table_id for s in states if s.seat_of(player_id) is not None]
                if await self._stand_up(player_id, seated):
                    outcome = await self._expire(player_id, cutoff)
                    if outcome is ExpireOutcome.OK:
                        collected.append(player_id)
            finally:
                await self._guests.release(player_id)
        if collected:
            log.info("collected %d guest accounts", len(collected), extra={"cutoff_ms": cutoff})
        return collected

    async def _stand_up(self, player_id: str, table_ids: list[str]) -> bool:
        """Kick the guest from each table; True when no seat is left (chips back in the balance)."""
        for table_id in table_ids:
            try:
                await self._service.execute(table_id, Kick(player_id))
            except (Rejection, ServiceError) as exc:
                log.info("kick of guest %s at %s not done: %s", player_id, table_id, exc)
            state = await self._repo.load(table_id)
            if state is not None and state.seat_of(player_id) is not None:
                return False  # in a round: leaves when it ends
        return True

    async def _expire(self, player_id: str, cutoff: int) -> ExpireOutcome:
        balance = await self._accounts.balance(player_id)
        outcome = await self._guests.expire(player_id, balance or 0, cutoff, self._clock())
        if outcome is not ExpireOutcome.OK:
            log.info("guest %s not collected: %s", player_id, outcome)
        return outcome
