"""``TableFeed``: one table's live stream to the viewers connected to this process.

The feed keeps the table state, evolved commit by commit from the table channel (``evolve_all`` of the
published events: the same function the machine used), for the snapshots, and pushes each commit to every
viewer as a ``patch`` message: what the commit looks like to that kind of viewer, as the writing process
worked it out and stored with the commit (``paigow.protocol.projection``: the events projected for it and
the JSON Patch of its view). The feed only picks each viewer's update and writes it out once per kind of
viewer. A commit stored without its updates (written by an older server) is pushed as a ``snapshot``.
Everything for one table happens in one task, in order: a commit, a viewer joining, a viewer asking to
resync, so a viewer never misses or repeats a version.

A viewer that joins with the last version it saw gets what it missed — from the feed's memory of recent
commits, else from the table's event log in Redis — as one ``patch`` (its updates of those commits, one
after the other: events and patches), or a ``snapshot`` when the gap is older than the log. When the feed
itself misses a commit (a pub/sub hiccup) it catches up from the log, or reloads the state and sends
everyone a snapshot.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from paigow.protocol.codes import ErrorCode
from paigow.protocol.projection import ViewerUpdate, key_of, update_text
from paigow.protocol.server import Role, encode_patch_message, encode_snapshot_message
from paigow.protocol.view_json import ViewJson
from paigow.table.commit import VersionedEvents
from paigow.table.machine import evolve_all
from paigow.table.state import TableState
from paigow.table.views import OperatorViewer, PlayerViewer, SpectatorViewer, Viewer, view_for
from paigow_server.errors import ServerError
from paigow_server.process.tasks import stop_task

__all__ = ["CommitSource", "Subscriber", "TableFeed", "TableGoneError"]

log = logging.getLogger("paigow_server.fanout")

RECENT_COMMITS = 64
"""Commits the feed remembers, to resume a reconnecting viewer without asking Redis."""


class CommitSource(Protocol):
    """Where a feed reads the truth: the state and the event log (``TableRepo`` behind an adapter)."""

    async def load(self, table_id: str) -> TableState | None: ...

    async def events_since(self, table_id: str, version: int) -> list[VersionedEvents] | None:
        """The commits after ``version``, oldest first; None when the log no longer reaches back."""
        ...

    async def version(self, table_id: str) -> int | None: ...


class Subscriber(Protocol):
    """A connection watching a table. ``deliver`` must not block (it queues the text for sending)."""

    @property
    def viewer(self) -> Viewer: ...

    def deliver(self, text: str) -> None: ...


class TableGoneError(ServerError, LookupError):
    """The table does not exist (any more)."""

    code = ErrorCode.TABLE_NOT_FOUND
    http_status = 404


@dataclass(slots=True)
class _Join:
    subscriber: Subscriber
    last_version: int | None
    done: asyncio.Future[None]


@dataclass(slots=True)
class _Leave:
    subscriber: Subscriber


@dataclass(slots=True)
class _Written:
    """A commit this process wrote, with the state it left (no need to evolve the events again)."""

    commit: VersionedEvents
    state: TableState


class _Refresh:
    """Compare the feed's version with Redis and catch up if it fell behind."""


LatencyHook = Callable[[int], None]
"""Called with the version just pushed to every viewer (for the command-to-push metric)."""


class TableFeed:
    def __init__(self, table_id: str, source: CommitSource, *, on_pushed: LatencyHook | None = None,
                 on_commit: Callable[[VersionedEvents], None] | None = None,
                 clock: Callable[[], int] = lambda: time.time_ns() // 1_000_000) -> None:
        self.table_id = table_id
        self._clock = clock
        """The server's clock (ms since the epoch) that stamps every message's ``server_ms``."""
        self._source = source
        self._on_pushed = on_pushed
        self._on_commit_seen = on_commit
        self.state: TableState | None = None
        self.members: dict[Subscriber, int] = {}
        self._recent: deque[VersionedEvents] = deque(maxlen=RECENT_COMMITS)
        self._inbox: asyncio.Queue[VersionedEvents | _Written | _Join | _Leave | _Refresh | None] = (
            asyncio.Queue())
        self.queued_version = -1
        """The highest version of a commit handed to the feed so far (it may still be in the inbox)."""
        self._task: asyncio.Task[None] | None = None
        self._view_json = ViewJson()  # the views' JSON, each part encoded once while it is the same object

    # --- called from outside the feed's task ------------------------------------------------------------
    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name=f"paigow-feed-{self.table_id}")

    async def stop(self, *, grace_s: float = 2.0) -> None:
        """Finish what is queued (at most ``grace_s`` seconds), then end the task."""
        task, self._task = self._task, None
        if task is not None:
            self._inbox.put_nowait(None)
            done, _ = await asyncio.wait([task], timeout=grace_s)
            if not done:
                await stop_task(task)

    def published(self, commit: VersionedEvents) -> None:
        self.queued_version = max(self.queued_version, commit.version)
        self._inbox.put_nowait(commit)

    def written(self, commit: VersionedEvents, state: TableState) -> None:
        """A commit this process wrote, and the state it left (``state.version == commit.version``)."""
        self.queued_version = max(self.queued_version, commit.version)
        self._inbox.put_nowait(_Written(commit, state))

    async def join(self, subscriber: Subscriber, last_version: int | None) -> None:
        """Add a viewer; it is sent a snapshot, or what it missed since ``last_version``. Raises
        ``TableGoneError`` when the table does not exist. Also used to resync a member."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._inbox.put_nowait(_Join(subscriber, last_version, done))
        await done

    def leave(self, subscriber: Subscriber) -> None:
        self._inbox.put_nowait(_Leave(subscriber))

    def refresh(self) -> None:
        """Check the table's version in Redis and catch up if commits were missed."""
        self._inbox.put_nowait(_Refresh())

    # --- the feed's task --------------------------------------------------------------------------------
    async def _run(self) -> None:
        while (item := await self._inbox.get()) is not None:
            try:
                if isinstance(item, VersionedEvents):
                    await self._on_commit(item)
                elif isinstance(item, _Written):
                    await self._on_commit(item.commit, item.state)
                elif isinstance(item, _Join):
                    await self._on_join(item)
                elif isinstance(item, _Refresh):
                    await self._on_refresh()
                else:
                    self.members.pop(item.subscriber, None)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # a bad payload or a Redis error must not kill the feed
                log.exception("table feed %s failed on %s", self.table_id, type(item).__name__)
                if isinstance(item, _Join) and not item.done.done():
                    item.done.set_exception(exc)
                await self._resnapshot()

    async def _ensure_state(self) -> TableState:
        if self.state is None:
            state = await self._source.load(self.table_id)
            if state is None:
                raise TableGoneError(f"no table {self.table_id!r}")
            self.state = state
            self._recent.clear()
        return self.state

    async def _on_join(self, join: _Join) -> None:
        try:
            state = await self._ensure_state()
        except TableGoneError as exc:
            join.done.set_exception(exc)
            return
        sub, last = join.subscriber, join.last_version
        missed = None if last is None else await self._missed_since(state, last)
        if missed is None or last is None:
            sub.deliver(self._snapshot(state, sub.viewer))
        else:
            sub.deliver(self._resume(last, state, missed, sub.viewer))
        self.members[sub] = state.version
        join.done.set_result(None)

    async def _missed_since(self, state: TableState, last: int) -> list[VersionedEvents] | None:
        """The commits from ``last`` to the feed's version, or None when a snapshot is needed."""
        if last > state.version:
            return None  # a client from the future (a restored Redis, or a made-up number)
        if last == state.version:
            return []
        if self._recent and self._recent[0].version <= last + 1:
            return [c for c in self._recent if c.version > last]
        commits = await self._source.events_since(self.table_id, last)
        if commits is None:
            return None
        commits = [c for c in commits if c.version <= state.version]
        if [c.version for c in commits] != list(range(last + 1, state.version + 1)):
            return None
        return commits

    async def _on_commit(self, commit: VersionedEvents, after: TableState | None = None) -> None:
        """``after``: the state the commit left, when this process wrote it (else evolved here)."""
        if self.state is None:
            await self._ensure_state()  # the loaded state may already include this commit
        assert self.state is not None
        if commit.version <= self.state.version:
            return
        if commit.version == self.state.version + 1:
            self._advance(commit, after)
            return
        # A gap: commits were published that this feed never received.
        log.warning("table %s: feed at version %d got %d; catching up", self.table_id, self.state.version,
                    commit.version)
        await self._catch_up()

    async def _on_refresh(self) -> None:
        """A check against Redis (periodic, and after the pub/sub connection was lost)."""
        if self.state is None:
            await self._resnapshot()
            return
        version = await self._source.version(self.table_id)
        if version is not None and version > self.state.version:
            log.warning("table %s: feed at version %d, table at %d; catching up", self.table_id,
                        self.state.version, version)
            await self._catch_up()

    async def _catch_up(self) -> None:
        """Apply the commits after the feed's version from the log, or reload and resnapshot."""
        assert self.state is not None
        commits = await self._source.events_since(self.table_id, self.state.version)
        if commits is not None and commits and commits[0].version == self.state.version + 1:
            for c in commits:
                if c.version == self.state.version + 1:
                    self._advance(c)
            return
        await self._resnapshot()

    async def _resnapshot(self) -> None:
        """Forget what the feed believed, reload the table, and send a snapshot to every member that is
        not at the reloaded version. A failure here leaves the state unknown: the next item retries."""
        self.state = None
        try:
            state = await self._ensure_state()
        except Exception:
            log.exception("table feed %s could not reload the table", self.table_id)
            return
        for sub, seen in self.members.items():
            if seen != state.version:
                sub.deliver(self._snapshot(state, sub.viewer))
                self.members[sub] = state.version

    def _advance(self, commit: VersionedEvents, after: TableState | None = None) -> None:
        assert self.state is not None
        before = self.state
        if after is None:
            after = evolve_all(before, commit.events)
        if after.version != commit.version:
            raise ValueError(f"table {self.table_id}: commit {commit.version} evolves version "
                             f"{before.version} to {after.version}")
        self.state = after
        self._recent.append(commit)
        patches: dict[str, str] = {}
        snapshots: dict[Viewer, str] = {}
        for sub, seen in self.members.items():
            if seen == before.version and commit.views is not None:
                key = key_of(sub.viewer, commit.views)
                text = patches.get(key)
                if text is None:
                    text = patches[key] = encode_patch_message(before.version, after.version,
                                                               commit.views[key], self._clock())
            else:  # an old commit without updates (or a member behind, which joining rules out)
                text = snapshots.get(sub.viewer) or snapshots.setdefault(sub.viewer,
                                                                          self._snapshot(after, sub.viewer))
            sub.deliver(text)
            self.members[sub] = after.version
        if self._on_pushed is not None:
            self._on_pushed(after.version)
        if self._on_commit_seen is not None:
            self._on_commit_seen(commit)

    # --- messages -------------------------------------------------------------------------------------
    def _snapshot(self, state: TableState, viewer: Viewer) -> str:
        player_id = viewer.player_id if isinstance(viewer, PlayerViewer) else None
        role = (Role.PLAYER if player_id is not None
                else Role.OPERATOR if isinstance(viewer, OperatorViewer) else Role.SPECTATOR)
        return encode_snapshot_message(self.table_id, state.version, role, player_id,
                                       self._view_json.encode(view_for(state, viewer)), self._clock())

    def _resume(self, since: int, state: TableState, commits: Sequence[VersionedEvents],
                viewer: Viewer) -> str:
        """What a viewer at version ``since`` missed: its updates of ``commits`` (events and patches) as one
        ``patch``, or a snapshot when a commit has none."""
        if any(c.views is None for c in commits):
            return self._snapshot(state, viewer)
        events: list[Any] = []
        patch: list[Any] = []
        for c in commits:
            assert c.views is not None
            missed = json.loads(c.views[key_of(viewer, c.views)])
            events += missed["events"]
            patch += missed["patch"]
        update = update_text(ViewerUpdate(tuple(events), tuple(patch)))
        return encode_patch_message(since, state.version, update, self._clock())

    # --- figures --------------------------------------------------------------------------------------
    def spectators(self) -> int:
        return sum(1 for sub in self.members if isinstance(sub.viewer, SpectatorViewer))
