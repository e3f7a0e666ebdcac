"""``AccountCloser``: finishes the closed accounts (``store/account_closure.py``) once none of their money is
at a table.

Every ``interval_s`` one process (whichever takes ``G:closing:turn`` for the turn) reads ``G:closing``. For
each account: still seated anywhere -> ``StandUp`` (reason ``account_closed``; a dealt hand plays out, the
chips come back at the round's end) and look again next turn; an outbox credit of it not applied yet (a
Redis Cluster, or replica acknowledgements) -> next turn; else ``AccountClosure.finish`` (one script: it
refuses while a buy-in hold is open or the balance moved meanwhile), then its chat lines go. Idempotent
and safe on several processes: a finished account is a no-op, a stand-up of someone already leaving a
refusal.
"""

from __future__ import annotations

import json
import logging
import secrets
import time
from collections.abc import Callable

from paigow.table.events import StandUpReason
from paigow.table.state import SeatStatus
from paigow_server.process.tasks import Every
from paigow_server.realtime.stand_ups import stand_up
from paigow_server.realtime.tables import TableService
from paigow_server.store import keys
from paigow_server.store.account_closure import AccountClosure, FinishOutcome
from paigow_server.store.errors import FAILURES, StoreUnavailable
from paigow_server.store.outbox import Outbox
from paigow_server.store.tables import TableRepo

__all__ = ["AccountCloser"]

log = logging.getLogger("paigow_server.account_closer")


def _now_ms() -> int:
    return time.time_ns() // 1_000_000


def _credits(text: str, player_id: str) -> bool:
    return any(credit[0] == player_id for credit in json.loads(text).get("credits", []))


class AccountCloser:
    def __init__(self, closure: AccountClosure, repo: TableRepo, service: TableService, *,
                 username_ms: int, interval_s: float = 2.0, clock: Callable[[], int] = _now_ms) -> None:
        self.closure = closure
        self._repo = repo
        self._service = service
        self.username_ms = username_ms
        self.interval_s = interval_s
        self._clock = clock
        self._owner = secrets.token_hex(8)
        self._every = Every("paigow-account-closer", interval_s, self._turn,
                            failures=(StoreUnavailable, *FAILURES))
        self.start, self.stop = self._every.start, self._every.stop

    async def _turn(self) -> None:
        turn_ms = max(1, int(self.interval_s * 900))
        if await self.closure.redis.set(keys.CLOSING + ":turn", self._owner, nx=True, px=turn_ms):
            await self.finish_due()

    async def finish_due(self) -> list[str]:
        """Finish every closing account that has nothing left at a table; the ids finished."""
        due = await self.closure.closing()
        if not due:
            return []
        table_ids = await self._repo.list_ids()
        states = [s for s in await self._repo.load_many(table_ids) if s is not None]
        outbox = Outbox(self.closure.redis)
        pending = [text for table_id in table_ids for text in await outbox.pending(table_id)]
        finished: list[str] = []
        for player_id in due:
            seated = False
            for state in states:
                index = state.seat_of(player_id)
                seat = None if index is None else state.seats[index]
                if seat is None:
                    continue
                seated = True
                if seat.status != SeatStatus.LEAVING:
                    await self._stand_up(state.table_id, player_id)
            if seated or any(_credits(text, player_id) for text in pending):
                continue
            outcome = await self.closure.finish(player_id, self._clock(), self.username_ms)
            if outcome in (FinishOutcome.OK, FinishOutcome.DONE):
                await self.closure.forget_chat(player_id, table_ids)
                finished.append(player_id)
            else:
                log.info("closing of %s not finished yet: %s", player_id, outcome)
        return finished

    async def _stand_up(self, table_id: str, player_id: str) -> None:
        await stand_up(self._service, table_id, player_id, StandUpReason.ACCOUNT_CLOSED,
                       self._service.now_ms())
