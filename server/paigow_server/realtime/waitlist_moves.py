"""``WaitlistMoves``: sitting at one table takes the player off every other table's waiting list
(docs/protocol.md, "Private tables and the waiting list").

No table sees another, so the tables' commits keep each player's lists and last sit beside them
(``store.waitlists``, written by the commits themselves: ``store.seating_effects``). From that record:

1. **After a sit** (``written``: a ``PlayerSat`` this process committed), the lists the player joined before
   it are left behind: each of those tables is sent ``LeaveWaitlist(seated_elsewhere=True)`` through the
   ``TableService`` (so by whichever process drives it), and takes the player off (``waitlist_left``,
   ``seated_elsewhere``), in the background.
2. **Before a seat is offered** (``first``, the ``TableService``'s ``OfferCheck``): a commit that offers a
   seat to a waiting player whose place was left behind is not written; the player is taken off first, in
   a commit of its own, and the command is decided again, so the seat goes to the next in line. This holds
   when step 1 never ran (the process died right after the sit): the record was written with the sit.

Step 1 costs one Redis read per sit (and one command per list left behind), in the background;
step 2 one read, only for a commit that offers a seat. No round trip is added to any other command.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from paigow.table.commands import Command
from paigow.table.commit import Commit, VersionedEvents
from paigow.table.events import PlayerSat
from paigow.table.home_commands import LeaveWaitlist
from paigow.table.home_events import SeatOffered
from paigow.table.rejections import Rejection
from paigow.table.state import TableState
from paigow_server.process.tasks import stop_task
from paigow_server.realtime.tables import ServiceError
from paigow_server.store.errors import StoreUnavailable
from paigow_server.store.waitlists import Waitlists

__all__ = ["WaitlistMoves"]

log = logging.getLogger("paigow_server.waitlists")

Execute = Callable[[str, Command], Awaitable[object]]


class WaitlistMoves:
    def __init__(self, waitlists: Waitlists) -> None:
        self._waitlists = waitlists
        self._execute: Execute | None = None
        self._background: set[asyncio.Task[None]] = set()

    def bind(self, execute: Execute) -> None:
        """``TableService.execute``: how a table is told (built after this, which it checks with)."""
        self._execute = execute

    async def first(self, table_id: str, commit: Commit) -> tuple[Command, ...]:
        """What to commit before ``commit``: the ``LeaveWaitlist`` of each player it offers a seat to who sat
        at another table after joining this one's list (none when it offers no seat: no Redis call)."""
        if not commit.after.waiting:
            return ()
        offered = [e.player_id for e in commit.events if isinstance(e, SeatOffered)]
        if not offered:
            return ()
        try:
            gone = await self._waitlists.sat_elsewhere(table_id, offered)
        except (StoreUnavailable, OSError) as exc:  # the commit's own write fails too, or the offer stands
            log.warning("waiting lists of %s not read before an offer at %s: %s", offered, table_id, exc)
            return ()
        return tuple(LeaveWaitlist(player_id, seated_elsewhere=True) for player_id in gone)

    def written(self, table_id: str, state: TableState, commit: VersionedEvents) -> None:
        """``TableService`` observer: a commit this process wrote; each player it seated leaves the lists
        they joined before (in the background)."""
        for event in commit.events:
            if isinstance(event, PlayerSat):
                task = asyncio.create_task(self._leave_others(event.player_id))
                self._background.add(task)
                task.add_done_callback(self._background.discard)

    async def _leave_others(self, player_id: str) -> None:
        execute = self._execute
        if execute is None:
            return
        try:
            behind = await self._waitlists.left_behind(player_id)
        except (StoreUnavailable, OSError) as exc:
            log.warning("waiting lists of %s not read after a sit: %s (an offer checks them)", player_id, exc)
            return
        for table_id in behind:
            try:
                await execute(table_id, LeaveWaitlist(player_id, seated_elsewhere=True))
            except Rejection as exc:  # off that list already
                log.debug("%s stays off the list of %s: %s", player_id, table_id, exc)
            except (ServiceError, StoreUnavailable, OSError) as exc:
                log.warning("%s not taken off the list of %s: %s (an offer checks it)", player_id, table_id,
                            exc)

    async def stop(self) -> None:
        """Wait for (or cancel) the messages still under way."""
        for task in list(self._background):
            await stop_task(task)
