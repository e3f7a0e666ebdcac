"""The fanout and this process's own commits: a commit written here reaches its viewers from the writer
(``written``), and its publication is never parsed, even when it arrives before the script's reply
(``writing`` holds it); a publication of the version being written that turns out to be another
process's (the write lost) reaches the viewers as soon as the write's failure is known."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
from redis.asyncio import Redis

from paigow.table.commands import PauseTable
from paigow.table.commit import Commit
from paigow.table.state import new_table
from paigow.table.views import SpectatorViewer, Viewer
from paigow_server.process.metrics import Metrics
from paigow_server.realtime import fanout as fanout_module
from paigow_server.realtime.fanout import Fanout
from paigow_server.realtime.tables import TableService
from paigow_server.store.channels import Channels
from paigow_server.store.spectator_counts import SpectatorCountStore
from paigow_server.store.tables import CommitResult, TableRepo


class Spectator:
    def __init__(self) -> None:
        self.viewer: Viewer = SpectatorViewer()
        self.versions: list[int] = []

    def deliver(self, text: str) -> None:
        self.versions.append(json.loads(text)["version"])


class SlowReplyRepo(TableRepo):
    """A repo whose commit answers 100 ms after Redis did: the publication is surely in first."""

    async def commit(self, commit: Commit, *, fence: int | None = None,
                     request_id: str | None = None) -> CommitResult:
        result = await super().commit(commit, fence=fence, request_id=request_id)
        await asyncio.sleep(0.1)
        return result


@pytest.fixture
async def fanout(redis: Redis) -> AsyncIterator[Fanout]:
    fanout = Fanout(Channels(redis), SpectatorCountStore(redis, "proc-test"), TableRepo(redis), Metrics())
    await fanout.start()
    yield fanout
    await fanout.stop()


def _count_parses(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    parsed: list[Any] = []
    original = fanout_module.commit_from_json

    def counting(text: str | bytes) -> Any:
        parsed.append(text)
        return original(text)

    monkeypatch.setattr(fanout_module, "commit_from_json", counting)
    return parsed


async def _until(check: Any) -> None:
    for _ in range(300):
        if check():
            return
        await asyncio.sleep(0.01)


async def test_a_commit_written_here_is_pushed_once_and_its_early_publication_never_parsed(
        redis: Redis, fanout: Fanout, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = SlowReplyRepo(redis)
    assert await repo.create(new_table("t1", "Main"))
    service = TableService(repo, Metrics())
    service.observe_written(fanout.written)
    service.observe_writes(fanout)
    spectator = Spectator()
    await fanout.join("t1", spectator, None)
    parsed = _count_parses(monkeypatch)
    await service.execute("t1", PauseTable())
    await _until(lambda: spectator.versions[-1] == 1)
    await asyncio.sleep(0.1)
    assert spectator.versions == [0, 1]
    assert parsed == []  # the publication came while the write was under way: held, then dropped


async def test_a_held_publication_of_another_process_is_pushed_when_our_write_fails(
        redis: Redis, fanout: Fanout, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = TableRepo(redis)
    assert await repo.create(new_table("t1", "Main"))
    spectator = Spectator()
    await fanout.join("t1", spectator, None)
    parsed = _count_parses(monkeypatch)
    fanout.writing("t1", 1)  # this process is writing version 1 ...
    await TableService(repo, Metrics()).execute("t1", PauseTable())  # ... another one wrote it first
    await asyncio.sleep(0.2)
    assert spectator.versions == [0]  # held: as like as not our own
    fanout.not_written("t1", 1)  # our write lost the race: the one held is the table's version 1
    await _until(lambda: spectator.versions[-1] == 1)
    assert spectator.versions == [0, 1]
    assert len(parsed) == 1


async def test_the_version_check_leaves_a_version_being_written_here_to_its_writer(
        redis: Redis, fanout: Fanout, caplog: pytest.LogCaptureFixture) -> None:
    """The periodic check reads a version this process is writing, between the script and its reply (most
    often when many tables' timers fall due together): the writer hands it over, no catch-up from the log."""
    repo = SlowReplyRepo(redis)
    assert await repo.create(new_table("t1", "Main"))
    service = TableService(repo, Metrics())
    service.observe_written(fanout.written)
    service.observe_writes(fanout)
    spectator = Spectator()
    await fanout.join("t1", spectator, None)
    read: list[list[str]] = []
    original = repo.events_since

    async def counting(table_id: str, version: int) -> Any:
        read.append([table_id])
        return await original(table_id, version)

    fanout._source.events_since = counting  # type: ignore[method-assign]
    writing = asyncio.create_task(service.execute("t1", PauseTable()))
    await _until(lambda: fanout._writing.get("t1") == 1)
    for _ in range(50):  # the script has run (the table is at 1 in Redis); its reply is 100 ms away
        if await repo.versions(["t1"]) == [1]:
            break
        await asyncio.sleep(0.005)
    with caplog.at_level("WARNING"):
        await fanout._check_versions()
        await writing
        await _until(lambda: spectator.versions[-1] == 1)
        await asyncio.sleep(0.1)
    assert spectator.versions == [0, 1]
    assert read == []
    assert "catching up" not in caplog.text
