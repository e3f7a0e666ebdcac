"""``TableService``: the only caller of the table state machine.

One command: load the table (version N) → the pure commit (``paigow.table.commit.decide_commit(state,
command, seed=<32 fresh bytes from secrets>, now_ms=...)``: the new state, the events, every kind of
viewer's update and the money effects) → ``TableRepo.commit`` writes it only if the table is still at
version N, with the publication on the table's channel. When another command got there
first (CONFLICT) the command is decided again on the new state, a bounded number of times. Commands of one
table in this process are serialized by a lock, so conflicts only come from other processes.

Outcomes: ``Executed`` (the new version, state and events; no events = nothing changed, nothing written),
or an exception: ``Rejection`` from the table (with its ``RejectCode``), or a ``ServiceError`` with an
``ErrorCode`` (table not found, buy-in over the balance, busy, fenced, unconfirmed: the replicas did not
confirm the commit in time, so it may or may not stand).

Before a commit that offers a seat from the waiting list is written, the ``OfferCheck`` (``check_offers``:
``waitlist_moves``) may ask for commands to commit first (taking off the list a player who sat at another
table); the command is then decided again on the state after them.

Several processes: with a ``Router`` (the ``router`` argument), ``execute`` goes through it — it runs
the command here (``execute_owned`` with this process's fencing token) when this process holds the
table's lease, else forwards it to the process that does.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
import weakref
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol, TypeAlias

from paigow.protocol.codes import ErrorCode
from paigow.protocol.projection import Seen
from paigow.table.cardtext import format_cents
from paigow.table.commands import Command, Sit
from paigow.table.commit import Commit, VersionedEvents, decide_commit
from paigow.table.events import Event
from paigow.table.rejections import RejectCode, Rejection
from paigow.table.state import TableState
from paigow_server.errors import ServerError
from paigow_server.process.metrics import Metrics
from paigow_server.store.accounts import InsufficientBalanceError
from paigow_server.store.errors import StoreUnavailable
from paigow_server.store.floor_stats import commit_figures
from paigow_server.store.play_risk import PlayRisk, Refusal, Reservation
from paigow_server.store.tables import CommitNotConfirmed, CommitResult

__all__ = [
    "CommitObserver",
    "Executed",
    "ExecutedObserver",
    "FencedError",
    "InsufficientBalanceError",
    "OfferCheck",
    "ServiceError",
    "TableBusyError",
    "TableNotFoundError",
    "TableService",
    "TableStore",
    "UnconfirmedError",
    "WriteObserver",
    "WrittenObserver",
    "now_ms",
]

log = logging.getLogger("paigow_server.tables")

VIEWS_KEPT = 4096
"""Tables whose viewers' views this process keeps after writing their commits (least recent dropped)."""

MAX_ATTEMPTS = 8
"""How many times a command is decided again after losing a compare-and-set race."""


def now_ms() -> int:
    """The server clock: milliseconds since the epoch (wall clock, shared by every process)."""
    return time.time_ns() // 1_000_000


class TableStore(Protocol):
    """What the service needs of ``paigow_server.store.tables.TableRepo``."""

    async def load(self, table_id: str) -> TableState | None: ...

    async def commit(self, commit: Commit, *, fence: int | None = None, request_id: str | None = None,
                     limits_generation: int | None = None) -> CommitResult: ...

    async def committed_version(self, table_id: str, request_id: str) -> int | None: ...

    async def commit_at(self, table_id: str, version: int) -> VersionedEvents | None: ...


class CommandRouter(Protocol):
    """``paigow_server.realtime.router.Router``: runs a command in the process that holds the table's
    lease."""

    async def execute(self, table_id: str, command: Command, *,
                      received_at: float | None = None) -> Executed: ...


class ServiceError(ServerError, ValueError):
    """A command that could not be executed for a reason outside the table's rules; ``code`` says which."""

    http_status = 503


class PlayLimitReached(ServiceError):
    """``LOSS_LIMIT_REACHED`` / ``WAGER_LIMIT_REACHED`` / ``TIME_LIMIT_REACHED`` (403): the command would
    take the player past a limit they set (``store/play_risk.py``); nothing changed."""

    http_status = 403

    def __init__(self, message: str, code: str = ErrorCode.WAGER_LIMIT_REACHED,
                 fields: dict[str, int] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.fields = dict(fields or {})


def _limit_refusal(command: Command, refusal: Refusal) -> Exception:
    """The error of a refused reservation: the limit's own for the player who sent the command; for a
    player-banker whose bank the command would stretch past a limit, ``BET_OVER_COVERAGE``."""
    if refusal.player_id != getattr(command, "player_id", refusal.player_id):
        return Rejection(RejectCode.BET_OVER_COVERAGE, "the player-banker cannot cover that bet within "
                         "their own limits", amount_cents=refusal.amount_cents)
    if refusal.code == ErrorCode.TIME_LIMIT_REACHED:
        return PlayLimitReached(f"your session time limit was reached: you may sit again from "
                                f"{refusal.until_ms} (ms)", refusal.code, {"until_ms": refusal.until_ms})
    kind = "loss" if refusal.code == ErrorCode.LOSS_LIMIT_REACHED else "wager"
    return PlayLimitReached(
        f"that would bring your {kind} this {refusal.period} to {format_cents(refusal.amount_cents)}, over "
        f"your {kind} limit of {format_cents(refusal.limit_cents)} per {refusal.period} (until "
        f"{refusal.until_ms} ms)", refusal.code,
        {"limit_cents": refusal.limit_cents, "amount_cents": refusal.amount_cents,
         "until_ms": refusal.until_ms})


class TableNotFoundError(ServiceError):
    code = ErrorCode.TABLE_NOT_FOUND
    http_status = 404


class TableBusyError(ServiceError):
    code = ErrorCode.BUSY


class UnconfirmedError(ServiceError):
    """The commit was sent but the replicas did not confirm it in time (``CommitResult.UNCONFIRMED``): it
    may stand or be lost in a failover. Never retried here: the client resyncs and looks."""

    code = ErrorCode.UNCONFIRMED


class FencedError(ServiceError):
    """Our write was refused by the fencing token: another process took the table over. The router
    routes the command again."""

    code = ErrorCode.BUSY


@dataclass(frozen=True, slots=True)
class Executed:
    """A command that went through: the table's version and state after it, and its events (empty when
    the command changed nothing, e.g. a Tick with nothing due; then nothing was written). A repeated
    request (``execute_owned(request_id=...)``) is answered with its commit's version and events and the
    table's current state."""

    version: int
    state: TableState
    events: tuple[Event, ...]


CommitObserver: TypeAlias = Callable[[str, TableState], None]
"""Called after every commit written by this process: (table id, state after). The timers use it to
schedule the table's next deadline at once."""

WrittenObserver: TypeAlias = Callable[[str, TableState, VersionedEvents], None]
"""Called as each commit this process wrote succeeds, in version order: (table id, state after, the commit
with every kind of viewer's update, as the table channel carries it). The fanout pushes it to this process's
viewers at once, without waiting for (and parsing) its publication."""

OfferCheck: TypeAlias = Callable[[str, Commit], Awaitable[tuple[Command, ...]]]
"""Asked of every commit before it is written: (table id, the commit) -> the commands to commit before it
(``waitlist_moves``: the ``LeaveWaitlist`` of a player it offers a seat to who sat elsewhere since joining
the list), after which the command is decided again; none (at once, with no Redis call, for a commit that
offers no seat): write it."""

class WriteObserver(Protocol):
    """Told when this process sends a commit to the store and, when it was not written, that it was not
    (a written one is told through ``WrittenObserver``): (table id, the version it writes). The fanout
    holds a publication of that version, its own as like as not, until it knows."""

    def writing(self, table_id: str, version: int) -> None: ...

    def not_written(self, table_id: str, version: int) -> None: ...


ExecutedObserver: TypeAlias = Callable[[str, Executed, float | None], None]
"""Called after every command executed for this process (here or forwarded) that changed the table:
(table id, outcome, the command's arrival time (``time.perf_counter()``) or None). The fanout uses it for
the command-to-push latency."""


_NOT_WRITTEN = frozenset({CommitResult.CONFLICT, CommitResult.FENCED, CommitResult.DUPLICATE,
                          CommitResult.INSUFFICIENT_BALANCE, CommitResult.LIMITS})
"""Results of a commit certainly not written (an ``UNCONFIRMED`` one may stand: its reservation stays,
the round's end clears it)."""


class TableService:
    def __init__(self, store: TableStore, metrics: Metrics, *, router: CommandRouter | None = None,
                 clock: Callable[[], int] = now_ms, max_attempts: int = MAX_ATTEMPTS) -> None:
        self._store = store
        self._metrics = metrics
        self.clock = clock
        self._max_attempts = max_attempts
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        self._commit_observers: list[CommitObserver] = []
        self._executed_observers: list[ExecutedObserver] = []
        self._written_observers: list[WrittenObserver] = []
        self._write_observers: list[WriteObserver] = []
        self._offer_check: OfferCheck | None = None
        self.play_risk: PlayRisk | None = None
        """The players' limits (``store/play_risk.py``): checked and recorded before each commit that puts
        money in play or seats a player; None: no limits (tests of the table alone)."""
        self.router = router
        self._seen: OrderedDict[str, Seen] = OrderedDict()
        """table id -> every kind of viewer's view of the table as the last commit written here left them:
        the next commit's projection starts from them (if they are of the state it starts from)."""
        self._owned: dict[str, tuple[int, TableState]] = {}
        """table id -> (fencing token, the state this process last read or wrote under it). While we hold
        the lease with that token nobody else writes the table, so the next command skips the load; the
        commit's version compare-and-set still checks it, and a CONFLICT or FENCED drops the entry."""

    def observe_commits(self, observer: CommitObserver) -> None:
        self._commit_observers.append(observer)

    def observe_written(self, observer: WrittenObserver) -> None:
        self._written_observers.append(observer)

    def observe_writes(self, observer: WriteObserver) -> None:
        self._write_observers.append(observer)

    def observe_executed(self, observer: ExecutedObserver) -> None:
        self._executed_observers.append(observer)

    def check_offers(self, check: OfferCheck) -> None:
        self._offer_check = check

    def now_ms(self) -> int:
        return self.clock()

    async def execute(self, table_id: str, command: Command, *, received_at: float | None = None) -> Executed:
        """Decide ``command`` on the current state of ``table_id`` and commit it (here, or through the
        router in the process that drives the table). Raises ``Rejection`` or a ``ServiceError``.
        ``received_at`` (``time.perf_counter()`` when the command arrived) feeds the command-to-push
        latency histogram."""
        try:
            if self.router is not None:
                executed = await self.router.execute(table_id, command, received_at=received_at)
            else:
                executed = await self.execute_owned(table_id, command, received_at=received_at, fence=None)
        except Rejection as exc:
            self._count(command, str(exc.code))
            raise
        except (ServiceError, InsufficientBalanceError) as exc:
            self._count(command, str(exc.code))
            raise
        self._count(command, "accepted" if executed.events else "unchanged")
        if executed.events:
            for observer in self._executed_observers:
                observer(table_id, executed, received_at)
        return executed

    async def execute_owned(self, table_id: str, command: Command, *, received_at: float | None = None,
                            fence: int | None = None, request_id: str | None = None) -> Executed:
        """Execute here, writing with ``fence`` (this process's lease token on the table, or None when
        leases are not used). Commands of one table are serialized in this process.

        ``request_id`` (a command the router may send more than once: it gave up waiting for a slow owner,
        or the table changed hands) makes the command run once: its commit records the id, and a command
        whose id was committed already is answered with that commit (its version and events) instead of
        being decided again."""
        lock = self._locks.get(table_id)
        if lock is None:
            lock = self._locks[table_id] = asyncio.Lock()
        async with lock:
            done = None if request_id is None else await self._already_done(table_id, request_id)
            if done is not None:
                return done
            executed = await self._execute(table_id, command, fence, request_id)
        if executed.events:
            for observer in self._commit_observers:
                observer(table_id, executed.state)
        return executed

    async def _already_done(self, table_id: str, request_id: str) -> Executed | None:
        """The outcome of the commit of ``request_id``, if it was written (by this process or another)."""
        try:
            version = await self._store.committed_version(table_id, request_id)
        except CommitNotConfirmed as exc:  # told UNCONFIRMED once: it stays so until a replica holds it
            raise UnconfirmedError(f"{exc}: it may or may not stand; resync and look before sending it "
                                   "again") from exc
        if version is None:
            return None
        self._metrics.commands.labels(type="repeated_request", result="answered_once").inc()
        committed = await self._store.commit_at(table_id, version)
        state = await self._store.load(table_id)
        if state is None:
            raise TableNotFoundError(f"no table {table_id!r}")
        log.info("request %s on table %s ran at version %d already: answered with that commit", request_id,
                 table_id, version)
        return Executed(version, state, () if committed is None else committed.events)

    async def _execute(self, table_id: str, command: Command, fence: int | None,
                       request_id: str | None = None) -> Executed:
        for attempt in range(self._max_attempts):
            cached = self._owned.get(table_id) if fence is not None else None
            before = cached[1] if cached is not None and cached[0] == fence else None
            if before is None:
                before = await self._store.load(table_id)
            if before is None:
                raise TableNotFoundError(f"no table {table_id!r}")
            before, commit = await self._decide(table_id, before, command, fence)
            if commit is None:
                return Executed(before.version, before, ())
            after = commit.after
            reservation: Reservation | None = None
            generation: int | None = None
            if self.play_risk is not None:
                reservation, refusal, generation = await self.play_risk.reserve(
                    commit, check=hasattr(command, "player_id"),  # a player's command; never a tick
                    in_commit=getattr(self._store, "direct", False))
                if refusal is not None:
                    raise _limit_refusal(command, refusal)
            try:
                result = await self._write(table_id, commit, fence, request_id, generation)
            except (StoreUnavailable, OSError):
                if reservation is not None and self.play_risk is not None:
                    with contextlib.suppress(StoreUnavailable, OSError):  # best effort: the store is failing
                        await self.play_risk.undo(reservation)
                raise
            if reservation is not None and result in _NOT_WRITTEN and self.play_risk is not None:
                await self.play_risk.undo(reservation)
            if result is CommitResult.LIMITS and self.play_risk is not None:
                self.play_risk.forget_all()  # a player got a first limit: check again, with their limits
                continue
            if result is CommitResult.OK:
                figures = commit_figures(commit) if commit.effects.rounds else None
                if figures is not None:
                    self._metrics.count_floor(figures)
                if self._written_observers:
                    record = commit.record()
                    for written in self._written_observers:
                        written(table_id, after, record)
                if fence is not None:
                    self._owned[table_id] = (fence, after)
                self._seen[table_id] = commit.seen
                self._seen.move_to_end(table_id)
                if len(self._seen) > VIEWS_KEPT:
                    self._seen.popitem(last=False)
                return Executed(after.version, after, commit.events)
            self._owned.pop(table_id, None)
            self._seen.pop(table_id, None)
            if result is CommitResult.FENCED:
                raise FencedError(f"table {table_id!r} is driven by another process now")
            if result is CommitResult.UNCONFIRMED:
                log.warning("commit of %s at table %s version %d was not confirmed by a replica",
                            command.kind, table_id, after.version, extra={"table_id": table_id})
                raise UnconfirmedError(f"{command.kind} at table {table_id!r} was written but no replica "
                                       "confirmed it in time (a failover under way?): it may or may not "
                                       "have taken effect; resync and look before sending it again")
            if result is CommitResult.DUPLICATE and request_id is not None:
                done = await self._already_done(table_id, request_id)
                if done is not None:
                    return done
            if result is CommitResult.INSUFFICIENT_BALANCE:
                amount = command.buy_in_cents if isinstance(command, Sit) else 0
                raise InsufficientBalanceError(
                    f"the buy-in of {format_cents(amount)} is more than the account balance")
            self._metrics.commands.labels(type=command.kind, result="conflict").inc()
            log.debug("conflict on table %s (attempt %d): deciding %s again", table_id, attempt + 1,
                      command.kind)
            await asyncio.sleep(0.001 * attempt)
        raise TableBusyError(f"table {table_id!r} changed {self._max_attempts} times while {command.kind} "
                             "was tried; nothing changed, send it again")

    async def _decide(self, table_id: str, before: TableState, command: Command,
                      fence: int | None) -> tuple[TableState, Commit | None]:
        """``command`` decided on ``before`` (the state it was decided on, and its commit). When the offer
        check asks for commands first, they are committed and it is decided again on the state after them,
        as often as the waiting list is long (then it is written as it is)."""
        rounds = len(before.waiting)
        while True:
            commit = decide_commit(before, command, seed=secrets.token_bytes(32), now_ms=self.clock(),
                                   seen=self._seen.get(table_id))
            check = self._offer_check
            first = () if commit is None or check is None or rounds < 0 else await check(table_id, commit)
            if not first:
                return before, commit
            rounds -= 1
            for earlier in first:
                try:
                    before = (await self._execute(table_id, earlier, fence)).state
                except Rejection:  # the table changed meanwhile (another process wrote it): read it again
                    loaded = await self._store.load(table_id)
                    if loaded is None:
                        raise TableNotFoundError(f"no table {table_id!r}") from None
                    before = loaded

    async def _write(self, table_id: str, commit: Commit, fence: int | None, request_id: str | None,
                     generation: int | None = None) -> CommitResult:
        version = commit.after.version
        for observer in self._write_observers:
            observer.writing(table_id, version)
        result: CommitResult | None = None
        try:
            if generation is None:  # (a store without limits need not know the argument)
                result = await self._store.commit(commit, fence=fence, request_id=request_id)
            else:
                result = await self._store.commit(commit, fence=fence, request_id=request_id,
                                                  limits_generation=generation)
            return result
        finally:
            if result is not CommitResult.OK:
                for observer in self._write_observers:
                    observer.not_written(table_id, version)

    def _count(self, command: Command, result: str) -> None:
        self._metrics.commands.labels(type=command.kind, result=result).inc()
