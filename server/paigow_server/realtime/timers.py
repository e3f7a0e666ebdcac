"""``TableTimers``: turns each table's ``next_deadline`` into a ``Tick(now_ms)`` command when it is due.

The deadlines live in Redis, so nothing is lost when a process dies: in each table's state, and in the
deadline index (a sorted set, table id -> next deadline) that every commit writes together with the state.
At start every table is loaded and its next deadline scheduled (and written to the index for tables stored
before it existed); commits made through this process's ``TableService`` reschedule their table at once
(a deadline of 0 — "pending, stamp it now" — ticks immediately); and every ``rescan_s`` seconds one read of
the index schedules the deadlines due before the next rescan (plus a margin), which is how deadlines set by
other processes are found — no state is loaded for that. With several processes, ``claim(table_id)`` (the
router's lease check) lets only the process driving a table tick it; the others drop it until their next
rescan, so a table whose process died is ticked by another one once the lease has expired. Without leases
every process may tick: a Tick that is not due changes nothing, and compare-and-set makes the due one happen
once.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Protocol

from paigow.table.commands import Tick
from paigow.table.machine import next_deadline
from paigow.table.rejections import Rejection
from paigow.table.state import TableState
from paigow_server.process.tasks import stop_task
from paigow_server.realtime.tables import ServiceError, TableNotFoundError, TableService
from paigow_server.store.errors import StoreUnavailable

__all__ = ["TableTimers", "TimerStore"]

log = logging.getLogger("paigow_server.timers")

RETRY_MS = 1_000
"""After a failed tick (Redis down, busy table), try again this much later."""
IDLE_WAIT_S = 3600.0
HOLD_BACK_MS = 1_000
"""How long a process that neither drives a table nor has viewers of it lets a due deadline wait for the one
that has (see ``hold_back``) before claiming the table itself."""
RESCAN_MARGIN_MS = 5_000
"""A rescan schedules the deadlines due before the next one plus this much (a late rescan misses none)."""
_LOAD_BATCH = 200


class TimerStore(Protocol):
    async def list_ids(self) -> list[str]: ...

    async def load(self, table_id: str) -> TableState | None: ...

    async def load_many(self, table_ids: Sequence[str]) -> list[TableState | None]: ...

    async def deadlines_until(self, until_ms: int) -> list[tuple[str, int]]: ...

    async def sync_deadlines(self, states: Sequence[TableState]) -> None: ...


class TableTimers:
    """``start()`` / ``stop()`` a background task; ``schedule(table_id, at_ms)`` is the hint API."""

    def __init__(self, service: TableService, store: TimerStore, *, rescan_s: float = 1.0,
                 claim: Callable[[str], Awaitable[bool]] | None = None,
                 hold_back: Callable[[str], bool] | None = None) -> None:
        """``claim(table_id)``: do we drive the table (taking a free lease)? ``hold_back(table_id)``: True
        when this process neither drives the table nor has viewers of it: a due deadline then waits
        ``HOLD_BACK_MS`` before this process claims the table, so that a free lease goes to the process
        its viewers are routed to (which pushes each commit once, without forwarding commands)."""
        self._service = service
        self._store = store
        self._claim = claim
        self._hold_back = hold_back
        self._held: dict[str, tuple[int, int]] = {}
        """Tables held back: the deadline, and when this process claims the table if still due."""
        self._rescan_s = rescan_s
        self._due: dict[str, int] = {}
        self._loaded = False
        """The start-up scan has run (until it has, each rescan tries it again instead)."""
        self._committed: set[str] = set()
        """Tables rescheduled by a commit since the current index read began (that read may be older)."""
        self._heap: list[tuple[int, str]] = []
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._ticking: set[asyncio.Task[None]] = set()
        service.observe_commits(self.schedule_state)

    # --- scheduling -----------------------------------------------------------------------------------
    def schedule(self, table_id: str, at_ms: int | None) -> None:
        """Tick ``table_id`` at ``at_ms`` (None: it has no deadline). Replaces the previous schedule."""
        if at_ms is None:
            self._due.pop(table_id, None)
            return
        if self._due.get(table_id) == at_ms:
            return
        self._due[table_id] = at_ms
        heapq.heappush(self._heap, (at_ms, table_id))
        if self._heap[0] == (at_ms, table_id):
            self._wake.set()

    def schedule_state(self, table_id: str, state: TableState) -> None:
        self._committed.add(table_id)
        self.schedule(table_id, next_deadline(state))

    def scheduled(self, table_id: str) -> int | None:
        return self._due.get(table_id)

    # --- the task -------------------------------------------------------------------------------------
    async def start(self) -> None:
        if self._task is None:
            await self._load_all()
            self._task = asyncio.create_task(self._run(), name="paigow-timers")

    async def stop(self) -> None:
        task, self._task = self._task, None
        await stop_task(task)
        for tick in list(self._ticking):
            tick.cancel()
        if self._ticking:
            await asyncio.wait(list(self._ticking), timeout=2.0)

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        next_rescan = loop.time() + self._rescan_s
        while True:
            if loop.time() >= next_rescan:
                await (self._rescan() if self._loaded else self._load_all())
                next_rescan = loop.time() + self._rescan_s
            now = self._service.now_ms()
            for table_id, due_at in self._pop_due(now):
                task = asyncio.create_task(self._tick(table_id, due_at))
                self._ticking.add(task)
                task.add_done_callback(self._ticking.discard)
            wait_s = min(next_rescan - loop.time(), self._until_next_s(now))
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(max(0.0, wait_s)):  # no task per wait, as wait_for makes
                    await self._wake.wait()

    def _pop_due(self, now: int) -> list[tuple[str, int]]:
        due: list[tuple[str, int]] = []
        while self._heap and self._heap[0][0] <= now:
            at_ms, table_id = heapq.heappop(self._heap)
            if self._due.get(table_id) == at_ms:
                del self._due[table_id]
                due.append((table_id, at_ms))
        return due

    def _until_next_s(self, now: int) -> float:
        while self._heap and self._due.get(self._heap[0][1]) != self._heap[0][0]:
            heapq.heappop(self._heap)  # a stale entry, replaced or cancelled
        return IDLE_WAIT_S if not self._heap else max(0.0, (self._heap[0][0] - now) / 1000)

    async def _load_all(self) -> None:
        """Load every table, schedule its next deadline and write it to the deadline index where the table
        has not been committed since it was loaded (tables stored before the index existed)."""
        try:
            ids = await self._store.list_ids()
            for start in range(0, len(ids), _LOAD_BATCH):
                loaded = await self._load_batch(ids[start:start + _LOAD_BATCH])
                for table_id, state in loaded:
                    self.schedule_state(table_id, state)
                await self._store.sync_deadlines([state for _, state in loaded])
        except (StoreUnavailable, OSError) as exc:
            log.warning("timer start-up scan failed, trying again at the next rescan: %s", exc)
        else:
            self._loaded = True

    async def _rescan(self) -> None:
        """Schedule the deadlines of the index due before the next rescan (those of tables committed here
        during the read excepted: the commit's own schedule is newer). A table whose deadline was moved or
        cleared elsewhere keeps its old schedule here: its Tick changes nothing and reschedules it."""
        until = self._service.now_ms() + int(self._rescan_s * 1000) + RESCAN_MARGIN_MS
        self._committed.clear()
        try:
            due = await self._store.deadlines_until(until)
        except (StoreUnavailable, OSError) as exc:
            log.warning("timer rescan failed: %s", exc)
            return
        for table_id, at_ms in due:
            if table_id not in self._committed:
                self.schedule(table_id, at_ms)

    async def _load_batch(self, batch: list[str]) -> list[tuple[str, TableState]]:
        """The tables of ``batch`` that could be read; an unreadable one is logged and skipped, so it
        never stops the timers of the others."""
        try:
            states = await self._store.load_many(batch)
            return [(t, s) for t, s in zip(batch, states, strict=True) if s is not None]
        except (StoreUnavailable, OSError):
            raise
        except Exception:
            loaded = []
            for table_id in batch:
                try:
                    state = await self._store.load(table_id)
                except (StoreUnavailable, OSError):
                    raise
                except Exception:
                    log.exception("table %s cannot be read: no timers for it", table_id)
                    continue
                if state is not None:
                    loaded.append((table_id, state))
            return loaded

    def _holding_back(self, table_id: str, due_at: int, now: int) -> bool:
        """True (and the table rescheduled) while ``hold_back`` asks this process to leave the deadline
        ``due_at`` to another one and ``HOLD_BACK_MS`` have not passed since this process first found it
        due (a deadline of 0, "now", is due at once)."""
        if self._hold_back is None or not self._hold_back(table_id):
            self._held.pop(table_id, None)
            return False
        held = self._held.get(table_id)
        if held is None or due_at not in held:  # a deadline not held back yet
            held = self._held[table_id] = (due_at, now + HOLD_BACK_MS)
        resume_at = held[1]
        if now < resume_at:
            self.schedule(table_id, resume_at)
            return True
        del self._held[table_id]
        return False

    async def _tick(self, table_id: str, due_at: int) -> None:
        now = self._service.now_ms()
        if self._holding_back(table_id, due_at, now):
            return
        try:
            if self._claim is not None and not await self._claim(table_id):
                return  # another process drives it; the next rescan looks again
            executed = await self._service.execute(table_id, Tick(now_ms=now))
        except TableNotFoundError:
            return
        except Rejection as exc:  # closed, or nothing to do: look again later
            log.debug("tick of %s refused: %s", table_id, exc)
            self._reschedule_after_nothing(table_id, await self._reload(table_id), now)
        except (ServiceError, StoreUnavailable, OSError) as exc:
            log.warning("tick of %s failed, retrying in %d ms: %s", table_id, RETRY_MS, exc)
            self.schedule(table_id, now + RETRY_MS)
        except Exception:
            log.exception("tick of %s failed, retrying in %d ms", table_id, RETRY_MS)
            self.schedule(table_id, now + RETRY_MS)
        else:
            if not executed.events:
                self._reschedule_after_nothing(table_id, executed.state, now)
            # else: the commit observer already scheduled the next deadline

    async def _reload(self, table_id: str) -> TableState | None:
        try:
            return await self._store.load(table_id)
        except (StoreUnavailable, OSError):
            return None

    def _reschedule_after_nothing(self, table_id: str, state: TableState | None, now: int) -> None:
        """A tick that changed nothing: the deadline (if any) is later than we thought, or another process
        handled it. Never spin on a deadline the machine does not consider due."""
        if table_id in self._due:
            return  # a newer commit already rescheduled it
        at = next_deadline(state) if state is not None else now + RETRY_MS
        if at is not None and at <= now:
            at = now + RETRY_MS
        self.schedule(table_id, at)
