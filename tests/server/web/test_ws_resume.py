"""Reconnecting with the last version seen: the missed events (from the feed's memory or the Redis event
log), or a snapshot when the gap is too old or the version is not one the table has had; ``sync``."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from paigow.table.commands import PlaceBet, Sit
from paigow.table.state import Timers

SLOW_BETTING = Timers(betting_ms=60_000, between_rounds_ms=10)
"""Betting stays open, so bets can be changed many times (one commit each)."""


@pytest.fixture
def settings(settings: Any) -> Any:
    """The shortest Redis event log the settings allow: 10 commits."""
    return dataclasses.replace(settings, event_log_length=10)


async def _execute(live_server: Any, table_id: str, command: Any) -> int:
    service = live_server.app.state.realtime.service
    return int((await service.execute(table_id, command)).version)


async def _betting_table(tables: Any, live_server: Any, connect: Any) -> tuple[str, str, str]:
    """A table in its betting phase with two seated players (seated from the server side); the bets of the
    first can change many times (the round is dealt only when both have bet)."""
    table_id = await tables.table(timers=SLOW_BETTING)
    player_id, token = await tables.player("Ann")
    other_id, _ = await tables.player("Bo")
    await _execute(live_server, table_id, Sit(player_id=player_id, name="Ann", seat=1, buy_in_cents=20_000))
    await _execute(live_server, table_id, Sit(player_id=other_id, name="Bo", seat=2, buy_in_cents=20_000))
    async with connect(table_id) as watcher:
        await watcher.hello()
        await watcher.until_view(lambda v: v["phase"] == "betting")
    return table_id, player_id, token


async def test_a_reconnect_gets_the_missed_events_from_the_event_log(tables: Any, connect: Any,
                                                                     live_server: Any) -> None:
    table_id, player_id, _ = await _betting_table(tables, live_server, connect)
    async with connect(table_id) as spectator:
        first = await spectator.hello()
        last, view = first["version"], spectator.view
    # Nobody watches now: the feed is gone, so the missed commits come from Redis.
    for amount in (500, 700, 900):
        await _execute(live_server, table_id, PlaceBet(player_id=player_id, amount_cents=amount))
    async with connect(table_id) as spectator:
        resumed = await spectator.hello(last_version=last, view=view)
        assert resumed["type"] == "patch"
        assert resumed["since"] == last
        assert resumed["version"] == last + 3
        bets = [e["amount_cents"] for e in resumed["events"] if e["kind"] == "bet_placed"]
        assert bets == [500, 700, 900]
        assert spectator.view is not None
        assert spectator.view["seats"][1]["bet_cents"] == 900


async def test_a_reconnect_gets_the_missed_events_from_the_feed_while_others_watch(
        tables: Any, connect: Any, live_server: Any) -> None:
    table_id, player_id, _ = await _betting_table(tables, live_server, connect)
    async with connect(table_id) as other:
        await other.hello()
        async with connect(table_id) as spectator:
            last = (await spectator.hello())["version"]
            view = spectator.view
        for amount in range(500, 500 + 100 * 15, 100):  # more than the Redis log keeps (10)
            await _execute(live_server, table_id, PlaceBet(player_id=player_id, amount_cents=amount))
        await other.until_view(lambda v: v["seats"][1]["bet_cents"] == 1900)
        async with connect(table_id) as spectator:
            resumed = await spectator.hello(last_version=last, view=view)
            assert resumed["type"] == "patch"
            assert (resumed["since"], resumed["version"]) == (last, last + 15)
            assert len([e for e in resumed["events"] if e["kind"] == "bet_placed"]) == 15


async def test_a_gap_older_than_the_log_gets_a_snapshot(tables: Any, connect: Any, live_server: Any) -> None:
    table_id, player_id, _ = await _betting_table(tables, live_server, connect)
    async with connect(table_id) as spectator:
        last = (await spectator.hello())["version"]
    for i in range(12):
        await _execute(live_server, table_id, PlaceBet(player_id=player_id, amount_cents=500 + i))
    async with connect(table_id) as spectator:
        resumed = await spectator.hello(last_version=last)
        assert resumed["type"] == "snapshot"
        assert resumed["version"] == last + 12
        assert spectator.view is not None
        assert spectator.view["seats"][1]["bet_cents"] == 511


@pytest.mark.parametrize("offset", [1, 1000])
async def test_a_version_from_the_future_gets_a_snapshot(tables: Any, connect: Any, live_server: Any,
                                                         offset: int) -> None:
    table_id, _, _ = await _betting_table(tables, live_server, connect)
    async with connect(table_id) as spectator:
        current = (await spectator.hello())["version"]
    async with connect(table_id) as spectator:
        resumed = await spectator.hello(last_version=current + offset)
        assert resumed["type"] == "snapshot"
        assert resumed["version"] == current


async def test_an_up_to_date_reconnect_gets_an_empty_patch(tables: Any, connect: Any,
                                                          live_server: Any) -> None:
    table_id, _, _ = await _betting_table(tables, live_server, connect)
    async with connect(table_id) as spectator:
        current = (await spectator.hello())["version"]
        view = spectator.view
    async with connect(table_id) as spectator:
        resumed = await spectator.hello(last_version=current, view=view)
        assert resumed["type"] == "patch"
        assert (resumed["since"], resumed["version"], resumed["events"], resumed["patch"]) == (
            current, current, [], [])


async def test_sync_resends_what_the_client_says_it_missed(tables: Any, connect: Any,
                                                          live_server: Any) -> None:
    table_id, player_id, _ = await _betting_table(tables, live_server, connect)
    async with connect(table_id) as spectator:
        start = (await spectator.hello())["version"]
        view = spectator.view
        await _execute(live_server, table_id, PlaceBet(player_id=player_id, amount_cents=600))
        await _execute(live_server, table_id, PlaceBet(player_id=player_id, amount_cents=800))
        await spectator.until(lambda f: f["type"] == "patch" and f["version"] == start + 2)
        latest = spectator.view
        await spectator.send({"type": "sync", "last_version": start})
        spectator.version, spectator.view = start, view  # the client chose to go back
        again = await spectator.recv()
        assert again["type"] == "patch"
        assert (again["since"], again["version"]) == (start, start + 2)
        assert [e["amount_cents"] for e in again["events"] if e["kind"] == "bet_placed"] == [600, 800]
        assert spectator.view == latest, "the missed patches bring the client's view up to date"
        await spectator.send({"type": "sync"})  # no version: a fresh snapshot
        fresh = await spectator.recv()
        assert (fresh["type"], fresh["version"], fresh["view"]) == ("snapshot", start + 2, latest)
