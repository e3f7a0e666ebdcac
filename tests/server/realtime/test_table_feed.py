"""TableFeed with an in-memory source: commits in order, duplicates ignored, gaps caught up from the log or
answered with snapshots, and each viewer's frames projected for that viewer."""

from __future__ import annotations

import json
from typing import Any

import pytest

from paigow.protocol.patch import apply_patch
from paigow.protocol.projection import Seen, project_commit
from paigow.protocol.server import Role, Snapshot, decode_server_message, encode_event
from paigow.protocol.version import PROTOCOL_VERSION
from paigow.protocol.view_patch import jsonable_view
from paigow.table.commands import AcceptBank, Command, PlaceBet, Sit, Tick, UseHouseWay
from paigow.table.commit import VersionedEvents
from paigow.table.events import RoundSettled
from paigow.table.machine import apply
from paigow.table.state import Phase, TableState, Timers, new_table
from paigow.table.ticks import next_deadline
from paigow.table.views import (
    OperatorViewer,
    PlayerViewer,
    SpectatorViewer,
    Viewer,
    event_for,
    view_for,
)
from paigow_server.realtime.table_feed import TableFeed, TableGoneError
from paigow_server.store.codec import commit_from_json, commit_to_json

T0 = 1_800_000_000_000


class Source:
    """The table's history: every state and commit, as Redis would hold them."""

    def __init__(self) -> None:
        self.states = [new_table("t1", "Main", timers=Timers(betting_ms=60_000))]
        self.commits: list[VersionedEvents] = []
        self.log_reaches_back = True
        self._views: Seen | None = None

    def play(self, command: Command) -> VersionedEvents:
        """Apply ``command`` and keep the commit as the writing process stores it (with every kind of
        viewer's update) and as the feed reads it back."""
        before = self.states[-1]
        state, events = apply(before, command, seed=bytes(range(32)))
        assert events, command
        self.states.append(state)
        projection = project_commit(before, state, events, self._views)
        self._views = projection.seen
        commit = commit_from_json(commit_to_json(state.version, events, views=projection.texts))
        self.commits.append(commit)
        return commit

    async def load(self, table_id: str) -> TableState | None:
        return self.states[-1] if table_id == "t1" else None

    async def version(self, table_id: str) -> int | None:
        return self.states[-1].version if table_id == "t1" else None

    async def events_since(self, table_id: str, version: int) -> list[VersionedEvents] | None:
        if not self.log_reaches_back:
            return None
        return [c for c in self.commits if c.version > version]


class Viewer_:
    """A connection: keeps every frame, and its view (the last snapshot with every patch since applied)."""

    def __init__(self, viewer: Viewer) -> None:
        self.viewer = viewer
        self.frames: list[dict[str, Any]] = []
        self.texts: list[str] = []
        self.view: dict[str, Any] | None = None

    def deliver(self, text: str) -> None:
        decode_server_message(text)  # every frame is a valid server message
        frame = json.loads(text)
        if frame["type"] == "snapshot":
            self.view = frame["view"]
        elif self.view is not None:  # a resume's first patch applies to a view this object never saw
            self.view = apply_patch(self.view, frame["patch"])
        self.frames.append(frame)
        self.texts.append(text)


def _deal(source: Source) -> None:
    source.play(Sit(player_id="ann", name="Ann", seat=1, buy_in_cents=10_000))
    source.play(Sit(player_id="bo", name="Bo", seat=2, buy_in_cents=10_000))
    source.play(Tick(now_ms=T0))  # the round starts, betting opens
    source.play(PlaceBet(player_id="ann", amount_cents=1_000))
    source.play(PlaceBet(player_id="bo", amount_cents=1_000))  # everyone has bet: the deal


async def _started(feed: TableFeed, *viewers: Viewer_, last: int | None = None) -> None:
    feed.start()
    for v in viewers:
        await feed.join(v, last)


async def _settle(feed: TableFeed) -> None:
    """Let the feed's task handle everything queued so far."""
    probe = Viewer_(SpectatorViewer())
    await feed.join(probe, None)
    feed.leave(probe)


async def test_each_viewer_gets_its_own_projection_of_each_commit() -> None:
    source = Source()
    feed = TableFeed("t1", source)
    ann, bo, spectator = Viewer_(PlayerViewer("ann")), Viewer_(PlayerViewer("bo")), Viewer_(SpectatorViewer())
    await _started(feed, ann, bo, spectator)
    _deal(source)
    for commit in source.commits:
        feed.published(commit)
    await _settle(feed)
    await feed.stop()
    for viewer, me in ((ann, "ann"), (bo, "bo"), (spectator, None)):
        assert viewer.frames[0]["type"] == "snapshot"
        assert [f["version"] for f in viewer.frames[1:]] == [1, 2, 3, 4, 5]
        assert all(f["since"] == f["version"] - 1 for f in viewer.frames[1:])
        dealt = next(e for e in viewer.frames[-1]["events"] if e["kind"] == "hands_dealt")
        for hand in dealt["hands"]:
            assert (len(hand["cards"]) == 7) is (hand["player_id"] == me and me is not None)
        assert viewer.view is not None
        for hand in viewer.view["round"]["hands"]:
            assert bool(hand["cards"]) is (hand["player_id"] == me and me is not None)
        seed_events = [e for f in viewer.frames[1:] for e in f["events"] if e["kind"] == "round_started"]
        assert [e["server_seed"] for e in seed_events] == [None]


async def test_a_commit_written_here_is_pushed_from_the_state_it_left_and_its_publication_dropped() -> None:
    """The writing process hands the feed its commit and the state after it: the viewers get the same
    frames as from the publication, the feed takes that state as it is (it does not evolve the events
    again), and the publication of a version handed over already is skipped."""
    source, twin = Source(), Source()
    feed = TableFeed("t1", source, clock=lambda: 1_000)  # one clock: the frames compare byte for byte
    reference = TableFeed("t1", twin, clock=lambda: 1_000)
    ann, ann_ref = Viewer_(PlayerViewer("ann")), Viewer_(PlayerViewer("ann"))
    await _started(feed, ann)
    await _started(reference, ann_ref)
    _deal(source)
    _deal(twin)
    for commit, state in zip(source.commits, source.states[1:], strict=True):
        feed.written(commit, state)
        assert feed.queued_version == commit.version
    for commit in twin.commits:
        reference.published(commit)
    await _settle(feed)
    await _settle(reference)
    assert feed.state is source.states[-1]  # the written state itself, not one evolved again
    for commit in source.commits:  # the publications come back: nothing more is pushed
        feed.published(commit)
    await _settle(feed)
    await feed.stop()
    await reference.stop()
    assert ann.texts == ann_ref.texts
    assert [f["version"] for f in ann.frames[1:]] == [1, 2, 3, 4, 5]


async def test_every_frame_carries_the_server_clock() -> None:
    source = Source()
    ticks = iter(range(1_000, 2_000))
    feed = TableFeed("t1", source, clock=lambda: next(ticks))
    spectator, late = Viewer_(SpectatorViewer()), Viewer_(PlayerViewer("ann"))
    await _started(feed, spectator)
    _deal(source)
    for commit in source.commits:
        feed.published(commit)
    await _settle(feed)
    await feed.join(late, 2)  # a resume: one patch of what it missed
    await _settle(feed)
    await feed.stop()
    stamps = [f["server_ms"] for f in spectator.frames + late.frames]
    assert [f["type"] for f in late.frames] == ["patch"]
    assert all(type(t) is int and 1_000 <= t < 2_000 for t in stamps)
    assert stamps[: len(spectator.frames)] == sorted(stamps[: len(spectator.frames)])


async def test_duplicates_and_old_commits_are_ignored() -> None:
    source = Source()
    feed = TableFeed("t1", source)
    spectator = Viewer_(SpectatorViewer())
    _deal(source)
    await _started(feed, spectator)  # joins at version 5
    for commit in source.commits:
        feed.published(commit)  # all already in the loaded state
    await _settle(feed)
    await feed.stop()
    assert [f["type"] for f in spectator.frames] == ["snapshot"]


async def test_a_gap_is_caught_up_from_the_log() -> None:
    source = Source()
    feed = TableFeed("t1", source)
    spectator = Viewer_(SpectatorViewer())
    await _started(feed, spectator)
    _deal(source)
    feed.published(source.commits[0])
    feed.published(source.commits[3])  # 2 and 3 were lost on the way
    feed.published(source.commits[4])
    await _settle(feed)
    await feed.stop()
    assert [(f["type"], f["version"]) for f in spectator.frames] == [
        ("snapshot", 0), ("patch", 1), ("patch", 2), ("patch", 3), ("patch", 4), ("patch", 5)]


async def test_a_gap_older_than_the_log_sends_everyone_a_snapshot() -> None:
    source = Source()
    feed = TableFeed("t1", source)
    ann, spectator = Viewer_(PlayerViewer("ann")), Viewer_(SpectatorViewer())
    await _started(feed, ann, spectator)
    _deal(source)
    source.log_reaches_back = False
    feed.published(source.commits[4])
    await _settle(feed)
    await feed.stop()
    for viewer in (ann, spectator):
        assert [(f["type"], f["version"]) for f in viewer.frames] == [("snapshot", 0), ("snapshot", 5)]
    assert ann.frames[-1]["view"]["you"]["position"] == 1


async def test_a_join_with_a_version_gets_the_missed_commits_from_memory() -> None:
    source = Source()
    feed = TableFeed("t1", source)
    watcher = Viewer_(SpectatorViewer())
    await _started(feed, watcher)
    _deal(source)
    for commit in source.commits:
        feed.published(commit)
    source.log_reaches_back = False  # only the feed's memory can answer
    late = Viewer_(PlayerViewer("bo"))
    await feed.join(late, 2)
    await feed.stop()
    assert len(late.frames) == 1
    frame = late.frames[0]
    assert (frame["type"], frame["since"], frame["version"]) == ("patch", 2, 5)
    kinds = [e["kind"] for e in frame["events"]]
    assert kinds.count("bet_placed") == 2
    assert {"round_started", "betting_opened", "hands_dealt"} <= set(kinds)


async def test_an_unknown_table_refuses_the_join() -> None:
    feed = TableFeed("t9", Source())
    feed.start()
    with pytest.raises(TableGoneError, match="no table 't9'"):
        await feed.join(Viewer_(SpectatorViewer()), None)
    await feed.stop()


async def test_an_unreadable_commit_reloads_instead_of_dying() -> None:
    source = Source()
    feed = TableFeed("t1", source)
    spectator = Viewer_(SpectatorViewer())
    await _started(feed, spectator)
    _deal(source)
    feed.published(VersionedEvents(1, source.commits[4].events))  # events that do not fit version 0
    feed.published(source.commits[1])
    await _settle(feed)
    await feed.stop()
    # The bad commit was dropped with the cached state; the feed reloaded and sent a snapshot.
    assert [(f["type"], f["version"]) for f in spectator.frames] == [("snapshot", 0), ("snapshot", 5)]
    assert feed.state is not None
    assert feed.state.version == 5


async def test_a_refresh_catches_up_commits_that_pub_sub_never_delivered() -> None:
    source = Source()
    feed = TableFeed("t1", source)
    spectator = Viewer_(SpectatorViewer())
    await _started(feed, spectator)
    _deal(source)  # committed, never published
    feed.refresh()
    feed.refresh()  # a second check finds nothing new
    await _settle(feed)
    await feed.stop()
    assert [f["version"] for f in spectator.frames] == [0, 1, 2, 3, 4, 5]


def _check_frame(source: Source, v: Viewer_, index: int, start: dict[str, Any] | None) -> None:
    """A snapshot is what pydantic's model writes, byte for byte; after a patch (one commit's, or a resume's
    several) the connection's view is the view of that version, and the events are its projected events.
    ``start``: the view the connection had before its first frame (a resume's)."""
    frame, text = v.frames[index], v.texts[index]
    version = frame["version"]
    view = view_for(source.states[version], v.viewer)
    if frame["type"] == "snapshot":
        me = v.viewer.player_id if isinstance(v.viewer, PlayerViewer) else None
        role = (Role.PLAYER if me else Role.OPERATOR if isinstance(v.viewer, OperatorViewer)
                else Role.SPECTATOR)
        assert text == Snapshot(protocol=PROTOCOL_VERSION, table_id="t1", version=version, role=role,
                                player_id=me, view=view, server_ms=frame["server_ms"]).model_dump_json()
        return
    missed = [c for c in source.commits if frame["since"] < c.version <= version]
    events = [json.loads(encode_event(p)) for c in missed for e in c.events
              if (p := event_for(e, v.viewer)) is not None]
    assert frame["events"] == events
    replayed = start
    for f in v.frames[: index + 1]:
        replayed = f["view"] if f["type"] == "snapshot" else apply_patch(replayed, f["patch"])
    assert replayed == jsonable_view(view)


async def test_every_frame_is_what_the_viewer_may_see_of_its_version() -> None:
    """Snapshots, one commit's patch and a resume's several, over two settled rounds (the second banked
    by a player), for both players, a player without a seat, a spectator and the operator."""
    source = Source()
    feed = TableFeed("t1", source)
    viewers = [Viewer_(v) for v in (PlayerViewer("ann"), PlayerViewer("bo"), PlayerViewer("cy"),
                                    SpectatorViewer(), OperatorViewer())]
    await _started(feed, *viewers)
    _deal(source)
    now = T0
    for pid in ("ann", "bo"):
        source.play(UseHouseWay(player_id=pid))  # the second one settles the round
    while source.states[-1].phase != Phase.BANK_OFFER:
        now = max(now, next_deadline(source.states[-1]) or 0)
        source.play(Tick(now_ms=now))
    rnd = source.states[-1].round
    assert rnd is not None
    assert rnd.offer_player_id is not None
    source.play(AcceptBank(player_id=rnd.offer_player_id))
    source.play(PlaceBet(player_id="bo" if rnd.offer_player_id == "ann" else "ann", amount_cents=2_000))
    for pid in ("ann", "bo"):
        source.play(UseHouseWay(player_id=pid))
    assert sum(isinstance(e, RoundSettled) for c in source.commits for e in c.events) == 2
    for commit in source.commits:
        feed.published(commit)
    late = Viewer_(PlayerViewer("bo"))
    await feed.join(late, 3)
    await _settle(feed)
    await feed.stop()
    for v in (*viewers, late):
        assert [f["type"] for f in v.frames[:2]] == (["patch"] if v is late else ["snapshot", "patch"])
        start = jsonable_view(view_for(source.states[3], v.viewer)) if v is late else None
        for index in range(len(v.frames)):
            _check_frame(source, v, index, start)
