"""``host_remove`` through the home gate: the bar is written by the table's commit itself, never beside it
(docs/protocol.md, "Host messages"). While the removal is on its way to the table no bar exists, so a crash
before the commit cannot leave a bar the table never confirmed; once the commit stands the bar does, with
the table's time; a removal the table refuses leaves the bars as they were."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from redis.asyncio import Redis

from paigow.protocol.convert import to_command
from paigow.protocol.home_messages import HostRemove
from paigow.protocol.version import PROTOCOL_VERSION
from paigow.table import commands as c
from paigow.table.commands import Command
from paigow.table.home_commands import HostAct, RemovePlayer
from paigow.table.rejections import RejectCode, Rejection
from paigow_server.process.settings import Settings
from paigow_server.realtime.realtime import Realtime
from paigow_server.store.bars import Bar
from paigow_server.web.home_gate import HomeGate
from support.homes import Homes, asgi_homes, home_settings


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return home_settings(settings)


@pytest.fixture
async def homes(settings: Settings, redis: Redis) -> AsyncIterator[Homes]:
    async with asgi_homes(settings, redis) as h:
        yield h


@pytest.fixture
async def live_homes(live_server: Any) -> AsyncIterator[Homes]:
    async with httpx.AsyncClient(base_url=live_server.url) as client:
        yield Homes(client)


async def test_no_bar_exists_until_the_tables_commit_writes_it(homes: Homes) -> None:
    rt: Realtime = homes.rt
    (hal_id, hal), (bob_id, _) = await homes.account(), await homes.account()
    table_id = (await homes.table(hal))["table_id"]
    for seat, player_id in ((1, hal_id), (2, bob_id)):
        await rt.service.execute(table_id, c.Sit(player_id, f"P{seat}", seat, 10_000))
    bars = homes.ctx.bars
    looked: list[Bar | None] = []

    async def execute(command: Command) -> int:
        looked.append(await bars.get(table_id, bob_id))  # what a process dying here would leave
        return (await rt.service.execute(table_id, command)).version

    gate = HomeGate(homes.ctx.homes, bars, homes.ctx.audit, rt.store.load, homes.ctx.rate_limits)
    remove = HostRemove(id="r1", player_id=bob_id, bar_minutes=30)
    command = to_command(remove, player_id=hal_id, name="Hal", now_ms=rt.service.now_ms())
    assert isinstance(command, HostAct)
    assert isinstance(command.action, RemovePlayer)
    version = await gate.host(table_id, remove, player_id=hal_id, name="Hal", command=command,
                              execute=execute)
    assert looked == [None]
    bar = await bars.get(table_id, bob_id)
    assert bar is not None
    assert (bar.until_ms, bar.actor, bar.reason) == (command.action.barred_until_ms, f"host:{hal_id}",
                                                    "removed by the host")
    state = await rt.store.load(table_id)
    assert state is not None
    assert state.seat_of(bob_id) is None
    assert state.version >= version  # a chips game's timers may stamp the cash-out's line at once after it
    assert not await homes.ctx.homes.admitted(table_id, bob_id)


async def test_a_refused_removal_leaves_the_bars_as_they_were(homes: Homes) -> None:
    rt: Realtime = homes.rt
    (hal_id, hal), (bob_id, _) = await homes.account(), await homes.account()
    table_id = (await homes.table(hal))["table_id"]
    await rt.service.execute(table_id, c.Sit(hal_id, "Hal", 1, 10_000))
    bars = homes.ctx.bars
    earlier = Bar(table_id, bob_id, rt.service.now_ms() + 60_000, rt.service.now_ms(), "ops", "earlier")
    await bars.put(earlier)

    async def execute(command: Command) -> int:
        return (await rt.service.execute(table_id, command)).version

    gate = HomeGate(homes.ctx.homes, bars, homes.ctx.audit, rt.store.load, homes.ctx.rate_limits)
    remove = HostRemove(id="r1", player_id=bob_id, bar_minutes=5)  # Bob is neither seated nor waiting
    command = to_command(remove, player_id=hal_id, name="Hal", now_ms=rt.service.now_ms())
    with pytest.raises(Rejection) as refused:
        await gate.host(table_id, remove, player_id=hal_id, name="Hal", command=command, execute=execute)
    assert refused.value.code == RejectCode.NOT_SEATED
    assert await bars.get(table_id, bob_id) == earlier
    assert await bars.active(rt.service.now_ms(), table_id=table_id) == [earlier]


async def test_a_removed_player_who_was_not_seated_is_told_when_the_bar_ends(live_homes: Homes,
                                                                             connect: Any) -> None:
    (_, hal), (cat_id, cat) = await live_homes.account(), await live_homes.account()
    body = await live_homes.table(hal, seating="approval")
    table_id, code = body["table_id"], body["invite"]["code"]
    async with connect(table_id) as host, connect(table_id, player_id=cat_id) as guest:
        await host.send({"type": "hello", "protocol": PROTOCOL_VERSION, "token": hal})
        await host.recv()
        await guest.send({"type": "hello", "protocol": PROTOCOL_VERSION, "token": cat, "invite": code})
        await guest.recv()
        assert (await guest.command({"type": "request_seat"}))["type"] == "accepted"
        removed = await host.command({"type": "host_remove", "player_id": cat_id, "bar_minutes": 30})
        assert removed["type"] == "accepted", removed
        ended = await guest.until_event(lambda e: e["kind"] == "admission_ended")
        assert ended["barred_until_ms"] is not None
        told = await guest.until(lambda f: f["type"] == "error")
        assert (told["code"], told["until_ms"], told["by"]) == ("BARRED", ended["barred_until_ms"], "host")
