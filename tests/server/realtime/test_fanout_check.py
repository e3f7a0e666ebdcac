"""Fanout's periodic check under pub/sub: one batched version read for every watched table, and only a feed
that fell behind (here: a commit pub/sub never delivered) goes to Redis to catch up."""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from collections.abc import AsyncIterator, Sequence
from typing import Any

import pytest
from redis.asyncio import Redis

from paigow.table.commands import PauseTable
from paigow.table.commit import VersionedEvents
from paigow.table.state import TableState, new_table
from paigow.table.views import SpectatorViewer, Viewer
from paigow_server.process.metrics import Metrics
from paigow_server.realtime import fanout as fanout_module
from paigow_server.realtime.fanout import Fanout
from paigow_server.realtime.tables import TableService
from paigow_server.store.channels import Channels
from paigow_server.store.errors import StoreUnavailable
from paigow_server.store.spectator_counts import SpectatorCountStore
from paigow_server.store.tables import TableRepo


class CountingSource:
    """The repo as the feeds' source, counting the version reads."""

    def __init__(self, repo: TableRepo) -> None:
        self.repo = repo
        self.calls: Counter[str] = Counter()
        self.versions_fail = False

    async def load(self, table_id: str) -> TableState | None:
        return await self.repo.load(table_id)

    async def events_since(self, table_id: str, version: int) -> list[VersionedEvents] | None:
        return await self.repo.events_since(table_id, version)

    async def version(self, table_id: str) -> int | None:
        self.calls[f"version {table_id}"] += 1
        return await self.repo.version(table_id)

    async def versions(self, table_ids: Sequence[str]) -> list[int | None]:
        self.calls["versions"] += 1
        if self.versions_fail:
            raise StoreUnavailable("connection lost")
        return await self.repo.versions(table_ids)


class Spectator:
    def __init__(self) -> None:
        self.viewer: Viewer = SpectatorViewer()
        self.frames: list[dict[str, Any]] = []

    def deliver(self, text: str) -> None:
        self.frames.append(json.loads(text))


async def _watch_two_and_lose_a_commit(redis: Redis, source: CountingSource, fanout: Fanout,
                                       monkeypatch: pytest.MonkeyPatch) -> dict[str, Spectator]:
    """t1 and t2 watched; then t1 gets a commit that pub/sub never delivers. Returns when t1's spectator
    has it (the periodic check caught up)."""
    spectators = {table_id: Spectator() for table_id in ("t1", "t2")}
    for table_id, spectator in spectators.items():
        assert await source.repo.create(new_table(table_id, "Main"))
        await fanout.join(table_id, spectator, None)
    monkeypatch.setattr(fanout, "_dispatch", lambda channel, data: None)  # pub/sub loses everything
    await TableService(source.repo, Metrics()).execute("t1", PauseTable())
    for _ in range(500):
        if spectators["t1"].frames[-1]["version"] == 1:
            break
        await asyncio.sleep(0.01)
    assert [f["version"] for f in spectators["t1"].frames] == [0, 1]
    assert [f["version"] for f in spectators["t2"].frames] == [0]
    return spectators


@pytest.fixture
async def watched(redis: Redis,
                  monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[tuple[CountingSource, Fanout]]:
    monkeypatch.setattr(fanout_module, "CHECK_S", 0.05)
    source = CountingSource(TableRepo(redis))
    fanout = Fanout(Channels(redis), SpectatorCountStore(redis, "proc-test"), source, Metrics())
    await fanout.start()
    yield source, fanout
    await fanout.stop()


async def test_a_feed_behind_catches_up_and_the_others_cost_one_batched_read(
        redis: Redis, watched: tuple[CountingSource, Fanout], monkeypatch: pytest.MonkeyPatch) -> None:
    source, fanout = watched
    await _watch_two_and_lose_a_commit(redis, source, fanout, monkeypatch)
    assert source.calls["versions"] >= 1
    assert source.calls["version t1"] >= 1  # the feed that fell behind looked for itself
    assert source.calls["version t2"] == 0  # the one up to date never did


async def test_when_the_batched_read_fails_every_feed_checks_for_itself(
        redis: Redis, watched: tuple[CountingSource, Fanout], monkeypatch: pytest.MonkeyPatch) -> None:
    source, fanout = watched
    source.versions_fail = True
    await _watch_two_and_lose_a_commit(redis, source, fanout, monkeypatch)
    for _ in range(500):
        if source.calls["version t2"] > 0:
            break
        await asyncio.sleep(0.01)
    assert source.calls["version t2"] > 0
