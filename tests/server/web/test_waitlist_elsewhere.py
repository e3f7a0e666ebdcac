"""Sitting at one table takes the player off every other table's waiting list (docs/protocol.md, "Private
tables and the waiting list"), across server processes: a player waiting at a full table who sits at another
table (through another process) leaves the first table's ``view.waiting`` at once, and the seat the first
table frees next is offered to the next on its list, never to them. When the messages that follow a sit
never went out (its process died right after the commit), the record the sit's own commit wrote still keeps
the next seat from the player: they are taken off just before it is offered to the next in line."""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import AsyncIterator
from typing import Any

import websockets

from paigow.table.commands import Sit
from paigow.table.machine import apply
from paigow.table.state import Timers
from paigow_server.store.tables import CommitResult
from support.commits import commit_now

SLOW = Timers(bank_offer_ms=3_600_000, betting_ms=3_600_000, between_rounds_ms=150)
"""The first round opens its betting and stays there: nobody is dealt in, a leave frees its seat at once."""


@contextlib.asynccontextmanager
async def seated_six(tables: Any, connect: Any, table_id: str) -> AsyncIterator[list[Any]]:
    """Six players seated at ``table_id`` (seats 1 to 6), each with an open connection."""
    async with contextlib.AsyncExitStack() as stack:
        clients = []
        for seat in range(1, 7):
            player_id, token = await tables.player(f"P{seat}")
            client = await stack.enter_async_context(connect(table_id, player_id=player_id))
            await client.hello(token)
            answer = await client.command({"type": "sit", "seat": seat, "buy_in_cents": 10_000})
            assert answer["type"] == "accepted", answer
            clients.append(client)
        yield clients


def waiting(view: dict[str, Any]) -> list[str]:
    return [w["player_id"] for w in view["waiting"]]


async def test_a_player_who_sits_elsewhere_leaves_the_list_and_the_next_seat_goes_to_the_next_in_line(
        tables: Any, connect: Any, other_ws_url: str, frame_checker: Any) -> None:
    full, other = await tables.table(timers=SLOW), await tables.table(timers=SLOW)
    wes_id, wes_token = await tables.player("Wes")
    xia_id, xia_token = await tables.player("Xia")
    async with seated_six(tables, connect, full) as seated, \
            connect(full, player_id=wes_id) as wes, connect(full, player_id=xia_id) as xia, \
            websockets.connect(f"{other_ws_url}/ws/tables/{other}") as elsewhere_ws:
        elsewhere = frame_checker(wes_id)  # Wes at the other table, through the other server process
        elsewhere.ws = elsewhere_ws
        await wes.hello(wes_token)
        await xia.hello(xia_token)
        await elsewhere.hello(wes_token)
        assert (await wes.command({"type": "join_waitlist"}))["type"] == "accepted"
        assert (await xia.command({"type": "join_waitlist"}))["type"] == "accepted"
        await xia.until_view(lambda v: waiting(v) == [wes_id, xia_id])

        sat = await elsewhere.command({"type": "sit", "seat": 2, "buy_in_cents": 10_000})
        assert sat["type"] == "accepted", sat

        view = await xia.until_view(lambda v: waiting(v) == [xia_id])
        assert view["waiting"][0]["offered_seat"] is None
        left = await xia.until_event(lambda e: e["kind"] == "waitlist_left")
        assert left == {"kind": "waitlist_left", "player_id": wes_id, "reason": "seated_elsewhere"}

        gone = await seated[2].command({"type": "leave"})
        assert gone["type"] == "accepted", gone
        view = await xia.until_view(lambda v: bool(v["waiting"]) and v["waiting"][0]["offered_seat"] == 3)
        assert waiting(view) == [xia_id]
        offers = [e for e in xia.events if e["kind"] == "seat_offered"]
        assert [e["player_id"] for e in offers] == [xia_id] * len(offers)
        taken = await xia.command({"type": "take_seat", "buy_in_cents": 10_000})
        assert taken["type"] == "accepted", taken


async def test_a_sit_whose_messages_were_lost_still_keeps_the_next_seat_from_the_player(
        tables: Any, connect: Any) -> None:
    full, other = await tables.table(timers=SLOW), await tables.table(timers=SLOW)
    wes_id, wes_token = await tables.player("Wes")
    xia_id, xia_token = await tables.player("Xia")
    async with seated_six(tables, connect, full) as seated, \
            connect(full, player_id=wes_id) as wes, connect(full, player_id=xia_id) as xia:
        await wes.hello(wes_token)
        await xia.hello(xia_token)
        assert (await wes.command({"type": "join_waitlist"}))["type"] == "accepted"
        assert (await xia.command({"type": "join_waitlist"}))["type"] == "accepted"
        await xia.until_view(lambda v: waiting(v) == [wes_id, xia_id])

        # Wes sits at the other table, and the process dies right after the commit: no message follows it.
        before = await tables.repo.load(other)
        after, events = apply(before, Sit(wes_id, "Wes", 1, 10_000), seed=secrets.token_bytes(32))
        assert await tables.repo.commit(commit_now(before, after, events)) is CommitResult.OK
        await xia.drain()
        assert waiting(xia.view) == [wes_id, xia_id]  # the first table has not heard of it

        gone = await seated[2].command({"type": "leave"})
        assert gone["type"] == "accepted", gone
        view = await xia.until_view(lambda v: bool(v["waiting"]) and v["waiting"][0]["offered_seat"] == 3)
        assert waiting(view) == [xia_id]
        left = await xia.until_event(lambda e: e["kind"] == "waitlist_left")
        assert left == {"kind": "waitlist_left", "player_id": wes_id, "reason": "seated_elsewhere"}
        offers = [e for e in xia.events if e["kind"] == "seat_offered"]
        assert [e["player_id"] for e in offers] == [xia_id] * len(offers)
