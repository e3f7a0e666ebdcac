"""``Fanout``: one Redis pub/sub listener per process, feeding the ``TableFeed`` of every table watched here.

A table's channel is subscribed when its first viewer in this process joins and unsubscribed when its last
one leaves. Each published commit (``{"version", "events", "views"}``, see ``store.codec``) goes to that
table's feed, which pushes each viewer its update. A commit this process wrote itself goes to the feed as
soon as it is written (``written``, with the state it left), and its publication is dropped when it comes
back, from its first bytes: the feed neither parses it nor evolves the state again. The fanout also
counts spectators per table over all processes (the ``SpectatorCounter`` of ``GET /api/tables``; see
``spectators.py``), relays the table's chat channel to the same viewers (``chat_relay.py``: chat is not a
commit, it never moves a version), and measures command-to-push latency for commands executed for this
process (``TableService`` reports each command with its arrival time; the feed reports when that version
was pushed).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Protocol

from paigow.table.commit import VersionedEvents
from paigow.table.events import PlayerDropped, PlayerKicked, PlayerLeaving
from paigow.table.home_events import AdmissionEnded
from paigow.table.state import KickedBy, TableState
from paigow_server.process.metrics import Metrics
from paigow_server.process.tasks import stop_task
from paigow_server.realtime.chat_relay import relay_chat
from paigow_server.realtime.pubsub_probe import PubSubProbe
from paigow_server.realtime.spectators import SpectatorCounts
from paigow_server.realtime.table_feed import CommitSource, Subscriber, TableFeed
from paigow_server.realtime.tables import Executed
from paigow_server.store import keys
from paigow_server.store.channels import Channels, Subscription
from paigow_server.store.codec import CodecError, commit_from_json, commit_version_of
from paigow_server.store.errors import StoreUnavailable
from paigow_server.store.spectator_counts import SpectatorCountStore

__all__ = ["Fanout", "FeedSource"]

log = logging.getLogger("paigow_server.fanout")

_MAX_PENDING_MARKS = 10_000
_RECONNECT_PAUSE_S = 0.5
CHECK_S = 5.0
"""How often the feeds' versions are compared with Redis (a safety net under pub/sub)."""


class FeedSource(CommitSource, Protocol):
    async def versions(self, table_ids: Sequence[str]) -> list[int | None]:
        """The current version of each table (None: no such table), in one round trip."""
        ...


class Fanout:
    def __init__(self, channels: Channels, counts: SpectatorCountStore, source: FeedSource, metrics: Metrics,
                 *, counts_every_s: float = 1.0) -> None:
        self._channels = channels
        self._source = source
        self._metrics = metrics
        self._feeds: dict[str, TableFeed] = {}
        self._writing: dict[str, int] = {}
        """table id -> the version this process is writing now (``writing``; one at a time per table)."""
        self._held: dict[str, tuple[str, str | bytes]] = {}
        """table id -> (channel, message): the publication of the version being written, held unread."""
        self._tables_of: dict[Subscriber, str] = {}
        self._subscription: Subscription | None = None
        self._probe: PubSubProbe | None = None
        self._subscribed = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._lock = asyncio.Lock()
        self._marks: OrderedDict[tuple[str, int], float] = OrderedDict()
        self._pushed_at: OrderedDict[tuple[str, int], float] = OrderedDict()
        self._drop_listeners: list[Callable[[str, str], None]] = []
        self._removal_listeners: list[Callable[[str, str, int | None, KickedBy | None], None]] = []
        self._counts = SpectatorCounts(counts, self._local_spectators, every_s=counts_every_s)

    # --- lifecycle ------------------------------------------------------------------------------------
    async def start(self) -> None:
        if self._task is None:
            self._subscription = self._channels.subscription()
            self._probe = PubSubProbe(self._channels, self._subscription, "table channels")
            await self._probe.start()
            self._task = asyncio.create_task(self._listen(), name="paigow-fanout")
            await self._counts.start()

    async def stop(self) -> None:
        await self._counts.stop()
        task, self._task = self._task, None
        await stop_task(task)
        feeds, self._feeds = list(self._feeds.values()), {}
        await asyncio.gather(*(f.stop() for f in feeds), return_exceptions=True)
        self._tables_of.clear()
        if self._subscription is not None:
            await self._subscription.close()
            self._subscription = None

    # --- viewers --------------------------------------------------------------------------------------
    async def join(self, table_id: str, subscriber: Subscriber, last_version: int | None) -> None:
        """Start pushing ``table_id`` to ``subscriber``: first a snapshot, or what it missed since
        ``last_version``. Raises ``TableGoneError`` when there is no such table."""
        async with self._lock:
            feed = self._feeds.get(table_id)
            if feed is None:
                feed = self._feeds[table_id] = TableFeed(
                    table_id, self._source, on_pushed=lambda version: self._pushed(table_id, version),
                    on_commit=lambda commit: self._seen(table_id, commit))
                feed.start()
                await self._subscribe(table_id)  # before the feed loads the state: no commit falls between
            self._tables_of[subscriber] = table_id
        try:
            await feed.join(subscriber, last_version)
        except BaseException:
            await self.leave(subscriber)
            raise

    async def resync(self, subscriber: Subscriber, last_version: int | None) -> None:
        """A member saw a gap: send it what it missed since ``last_version`` (or a snapshot; always one
        when ``last_version`` is None)."""
        table_id = self._tables_of.get(subscriber)
        if table_id is not None:
            await self._feeds[table_id].join(subscriber, last_version)

    async def leave(self, subscriber: Subscriber) -> None:
        async with self._lock:
            table_id = self._tables_of.pop(subscriber, None)
            if table_id is None:
                return
            feed = self._feeds[table_id]
            feed.leave(subscriber)
            if any(t == table_id for t in self._tables_of.values()):
                return
            del self._feeds[table_id]
            self._writing.pop(table_id, None)
            self._held.pop(table_id, None)
            await self._unsubscribe(table_id)
        await feed.stop()

    def count(self, table_id: str) -> int:
        """Spectators of ``table_id``: this process's now, the others' as of their last report."""
        feed = self._feeds.get(table_id)
        return (0 if feed is None else feed.spectators()) + self._counts.remote(table_id)

    def _local_spectators(self) -> dict[str, int]:
        return {table_id: feed.spectators() for table_id, feed in self._feeds.items()}

    def state_of(self, table_id: str) -> TableState | None:
        """The table as this process's feed last saw it (None when nobody here watches it)."""
        feed = self._feeds.get(table_id)
        return None if feed is None else feed.state

    def watched(self, table_id: str) -> bool:
        """Someone in this process watches ``table_id`` (its feed runs here)."""
        return table_id in self._feeds

    def viewers(self, table_id: str) -> int:
        return sum(1 for t in self._tables_of.values() if t == table_id)

    # --- drops -----------------------------------------------------------------------------------------
    def on_player_dropped(self, listener: Callable[[str, str], None]) -> None:
        """Call ``listener(table_id, player_id)`` whenever a watched table marks a player away (whichever
        process dropped them: the player may still be connected here)."""
        self._drop_listeners.append(listener)

    def on_removed(self, listener: Callable[[str, str, int | None, KickedBy | None], None]) -> None:
        """Call ``listener(table_id, player_id, barred_until_ms, by)`` whenever a watched private table's
        host removed a player (``AdmissionEnded``), after the commit's patch reached this process's viewers
        (``barred_until_ms`` and ``by``: the commit's kick of that player; with none, the removal's bar
        and no ``by``, the host's; None when they do not say)."""
        self._removal_listeners.append(listener)

    def _seen(self, table_id: str, commit: VersionedEvents) -> None:
        kicks: dict[str, tuple[int | None, KickedBy | None]] = {}
        for event in commit.events:
            if isinstance(event, PlayerDropped):
                for listener in self._drop_listeners:
                    listener(table_id, event.player_id)
            elif isinstance(event, PlayerKicked | PlayerLeaving):
                kicks[event.player_id] = (event.barred_until_ms, event.by)
            elif isinstance(event, AdmissionEnded):
                until_ms, by = kicks.get(event.player_id, (event.barred_until_ms, None))
                for removal in self._removal_listeners:
                    removal(table_id, event.player_id, until_ms, by)

    def written(self, table_id: str, state: TableState, commit: VersionedEvents) -> None:
        """``TableService`` observer: this process wrote ``commit`` (leaving ``state``). Its viewers here
        get it at once; its publication, when it comes back (or came while it was written), is dropped
        unread."""
        if self._writing.get(table_id) == commit.version:
            del self._writing[table_id]
            self._held.pop(table_id, None)
        feed = self._feeds.get(table_id)
        if feed is not None:
            feed.written(commit, state)

    def writing(self, table_id: str, version: int) -> None:
        """``TableService`` observer (``WriteObserver``): this process is writing ``version`` of the table.
        A publication of that version that arrives meanwhile is most likely this very commit, whose reply
        is on its way on another connection: it is held unread until the write's outcome is known."""
        if table_id in self._feeds:
            self._writing[table_id] = version

    def not_written(self, table_id: str, version: int) -> None:
        """The write of ``version`` did not succeed (lost a race, refused, or its outcome unknown): a
        publication of that version held meanwhile is another process's commit (or ours after all, its
        reply lost), and goes to the feed now."""
        if self._writing.get(table_id) == version:
            del self._writing[table_id]
        held = self._held.pop(table_id, None)
        if held is not None:
            self._deliver(table_id, *held)

    # --- latency --------------------------------------------------------------------------------------
    def command_executed(self, table_id: str, executed: Executed, received_at: float | None) -> None:
        """``TableService`` observer: the command that made ``executed.version`` arrived at ``received_at``.
        Its push may come before or after this call (a forwarded command's answer can be slower than the
        published commit), so whichever of the two comes second records the latency."""
        if received_at is None or table_id not in self._feeds:
            return
        key = (table_id, executed.version)
        pushed_at = self._pushed_at.pop(key, None)
        if pushed_at is not None:
            self._metrics.command_to_push.observe(max(0.0, pushed_at - received_at))
        else:
            _bounded_put(self._marks, key, received_at)

    def _pushed(self, table_id: str, version: int) -> None:
        key, now = (table_id, version), time.perf_counter()
        received_at = self._marks.pop(key, None)
        if received_at is not None:
            self._metrics.command_to_push.observe(now - received_at)
        else:
            _bounded_put(self._pushed_at, key, now)

    # --- pub/sub --------------------------------------------------------------------------------------
    async def _subscribe(self, table_id: str) -> None:
        assert self._subscription is not None, "Fanout.start() first"
        await self._subscription.subscribe(keys.table_channel(table_id), keys.table_chat_channel(table_id))
        self._subscribed.set()

    async def _unsubscribe(self, table_id: str) -> None:
        if self._subscription is not None:
            try:
                await self._subscription.unsubscribe(keys.table_channel(table_id),
                                                     keys.table_chat_channel(table_id))
            except StoreUnavailable as exc:
                log.warning("unsubscribe from table %s failed: %s", table_id, exc)

    async def _listen(self) -> None:
        """Read the table channels. Commits published while the connection was down are lost to pub/sub,
        so after a reconnection, and every ``CHECK_S`` seconds, the feeds' versions are checked in Redis. A
        connection that went silent (its Redis frozen or partitioned away) is dropped (``PubSubProbe``)."""
        subscription = self._subscription
        assert subscription is not None
        loop = asyncio.get_running_loop()
        next_check = loop.time() + CHECK_S
        reconnected = False
        assert self._probe is not None
        while True:
            await self._subscribed.wait()
            try:
                message = await subscription.receive(1.0)
                if self._probe.heard(message):
                    message = None
                reconnected = await self._probe.check() or reconnected
            except StoreUnavailable as exc:
                self._metrics.redis_errors.labels(operation="pubsub").inc()
                log.warning("pub/sub listener: %s; reconnecting", exc)
                reconnected = True
                await asyncio.sleep(_RECONNECT_PAUSE_S)
                continue
            if reconnected or loop.time() >= next_check:
                reconnected, next_check = False, loop.time() + CHECK_S
                await self._check_versions()
            if message is None:
                continue
            self._dispatch(message.channel, message.data)

    async def _check_versions(self) -> None:
        """Read every watched table's version in one round trip and make the feeds that are behind it (or
        hold no state) catch up; if the read fails, every feed checks for itself."""
        feeds = list(self._feeds.items())
        if not feeds:
            return
        try:
            versions = await self._source.versions([table_id for table_id, _ in feeds])
        except StoreUnavailable as exc:
            log.warning("version check of the watched tables failed: %s", exc)
            behind = [feed for _, feed in feeds]
        else:
            behind = [feed for (table_id, feed), version in zip(feeds, versions, strict=True)
                      if self._behind(table_id, feed, version)]
        for feed in behind:
            feed.refresh()

    def _behind(self, table_id: str, feed: TableFeed, version: int | None) -> bool:
        """Whether the table's ``version`` in Redis is ahead of ``feed``: not when the one version ahead is
        the one this process is writing now (its writer hands it over as soon as the reply is in; the
        check read it between the script and its reply, most often when many tables' timers fall due
        together)."""
        if feed.state is None:
            return True
        if version is None or version <= feed.state.version:
            return False
        return not (version == feed.state.version + 1 and self._writing.get(table_id) == version)

    def _dispatch(self, name: str, data: str | bytes) -> None:
        chat_table = keys.table_id_of_chat_channel(name)
        if chat_table is not None:
            chat_feed = self._feeds.get(chat_table)
            if chat_feed is not None:
                relay_chat(chat_feed, data)
            return
        try:
            table_id = keys.table_id_of_channel(name)
            if table_id not in self._feeds:
                return
            version = commit_version_of(data)
            if version is not None and self._writing.get(table_id) == version:
                self._held[table_id] = (name, data)  # ours, as like as not: ``written`` or ``not_written``
                return
            self._deliver(table_id, name, data)
        except (ValueError, CodecError) as exc:
            log.error("unreadable message on %s: %s", name, exc)

    def _deliver(self, table_id: str, name: str, data: str | bytes) -> None:
        feed = self._feeds.get(table_id)
        if feed is None:
            return
        try:
            version = commit_version_of(data)
            if version is not None and version <= feed.queued_version:
                return  # written by this process, and handed to the feed already (``written``)
            feed.published(commit_from_json(data))
        except (ValueError, CodecError) as exc:
            log.error("unreadable message on %s: %s", name, exc)


def _bounded_put(marks: OrderedDict[tuple[str, int], float], key: tuple[str, int], value: float) -> None:
    marks[key] = value
    while len(marks) > _MAX_PENDING_MARKS:
        marks.popitem(last=False)
