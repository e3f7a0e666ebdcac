"""``Presence`` on its own, with a fake service: the first connection reconnects an away player, the last
one to close drops a seated player, and a drop in another process is undone while the player is connected
here."""

from __future__ import annotations

import asyncio
import dataclasses

from paigow.table.commands import Command, Drop, Reconnect
from paigow.table.rejections import RejectCode, Rejection
from paigow.table.state import SeatPlayer, SeatStatus, TableState, new_table
from paigow_server.realtime.presence import ConnectionCounter, Presence

NOW = 1_000


class FakeService:
    def __init__(self) -> None:
        self.executed: list[tuple[str, Command]] = []
        self.refuse = False

    def now_ms(self) -> int:
        return NOW

    async def execute(self, table_id: str, command: Command) -> object:
        self.executed.append((table_id, command))
        if self.refuse:
            raise Rejection(RejectCode.NOT_SEATED, "refused")
        return None


class Tables:
    """The tables as the feed sees them (``seen``) and as the store has them (``load``)."""

    def __init__(self) -> None:
        self.seen: dict[str, TableState] = {}
        self.stored: dict[str, TableState] = {}

    def seen_of(self, table_id: str) -> TableState | None:
        return self.seen.get(table_id)

    async def load(self, table_id: str) -> TableState | None:
        return self.stored.get(table_id)


def _table(*players: SeatPlayer) -> TableState:
    seats: list[SeatPlayer | None] = [None] * 7
    for i, player in enumerate(players, start=1):
        seats[i] = player
    return dataclasses.replace(new_table("t1", "One"), seats=tuple(seats))


def _presence() -> tuple[Presence, FakeService, Tables]:
    service, tables = FakeService(), Tables()
    return Presence(service, tables.seen_of, tables.load), service, tables


ANN = SeatPlayer("ann", "Ann", 10_000)
ANN_AWAY = dataclasses.replace(ANN, away_until_ms=5_000)


async def test_opening_reconnects_an_away_player_and_nobody_else() -> None:
    presence, service, tables = _presence()
    await presence.opened("t1", "ann")  # nobody here watches t1 yet: nothing to decide on
    tables.seen["t1"] = _table(ANN)
    await presence.opened("t1", "ann")  # seated and here
    await presence.opened("t1", "bo")  # not seated
    assert service.executed == []
    tables.seen["t1"] = _table(ANN_AWAY)
    await presence.opened("t1", "ann")
    assert service.executed == [("t1", Reconnect(player_id="ann", now_ms=NOW))]
    assert presence.count("t1", "ann") == 3


async def test_an_away_player_sitting_out_is_reconnected_and_keeps_the_status() -> None:
    presence, service, tables = _presence()
    tables.seen["t1"] = _table(dataclasses.replace(ANN_AWAY, status=SeatStatus.SITTING_OUT))
    await presence.opened("t1", "ann")
    assert service.executed == [("t1", Reconnect(player_id="ann", now_ms=NOW))]


async def test_only_the_last_connection_closing_drops_a_seated_player() -> None:
    presence, service, tables = _presence()
    tables.seen["t1"] = _table(ANN)
    await presence.opened("t1", "ann")
    await presence.opened("t1", "ann")
    await presence.closed("t1", "ann")
    assert service.executed == []
    await presence.closed("t1", "ann")
    assert service.executed == [("t1", Drop(player_id="ann", now_ms=NOW))]
    assert presence.count("t1", "ann") == 0


async def test_the_last_close_reads_the_store_when_the_feed_is_gone_and_skips_unseated_players() -> None:
    presence, service, tables = _presence()
    await presence.opened("t1", "ann")
    await presence.opened("t1", "bo")
    tables.stored["t1"] = _table(ANN)  # nobody watches t1 here any more: the store decides
    await presence.closed("t1", "bo")
    await presence.closed("t1", "ann")
    assert service.executed == [("t1", Drop(player_id="ann", now_ms=NOW))]


async def test_connections_count_per_table() -> None:
    presence, service, tables = _presence()
    tables.seen["t1"] = _table(ANN)
    tables.seen["t2"] = dataclasses.replace(_table(ANN), table_id="t2")
    await presence.opened("t1", "ann")
    await presence.opened("t2", "ann")
    await presence.closed("t2", "ann")
    assert service.executed == [("t2", Drop(player_id="ann", now_ms=NOW))]
    assert presence.count("t1", "ann") == 1


async def test_a_refused_drop_is_normal() -> None:
    presence, service, tables = _presence()
    tables.seen["t1"] = _table(ANN)
    service.refuse = True
    await presence.opened("t1", "ann")
    await presence.closed("t1", "ann")  # no exception
    assert [type(c) for _, c in service.executed] == [Drop]


async def test_a_drop_elsewhere_is_undone_while_the_player_is_connected_here() -> None:
    presence, service, tables = _presence()
    presence.dropped_elsewhere("t1", "ann")  # not connected here: theirs to come back
    await asyncio.sleep(0)
    assert service.executed == []
    tables.seen["t1"] = _table(ANN)
    await presence.opened("t1", "ann")
    presence.dropped_elsewhere("t1", "ann")
    presence.dropped_elsewhere("t1", "bo")
    for _ in range(3):
        await asyncio.sleep(0)
    assert service.executed == [("t1", Reconnect(player_id="ann", now_ms=NOW))]
    await presence.stop()


async def test_a_refused_reconnection_elsewhere_is_not_an_error() -> None:
    presence, service, tables = _presence()
    tables.seen["t1"] = _table(ANN)
    await presence.opened("t1", "ann")
    service.refuse = True
    presence.dropped_elsewhere("t1", "ann")
    for _ in range(3):
        await asyncio.sleep(0)
    assert service.executed == [("t1", Reconnect(player_id="ann", now_ms=NOW))]
    await presence.stop()


def test_the_connection_counter_caps_each_player() -> None:
    counter = ConnectionCounter(limit=1)
    assert counter.acquire("ann")
    assert not counter.acquire("ann")
    counter.release("ann")
    assert counter.count("ann") == 0
