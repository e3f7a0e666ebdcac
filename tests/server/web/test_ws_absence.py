"""A player whose connection drops is away: the others see it, the House Way sets their hand when the grace
time ends, and their next hello reconnects them."""

from __future__ import annotations

import contextlib
from typing import Any

from paigow.table.state import Timers

GRACE = Timers(bank_offer_ms=5_000, betting_ms=5_000, setting_ms=20_000, between_rounds_ms=60_000,
               reconnect_grace_ms=300)
"""A long setting deadline and a short grace: only the drop can explain a House Way set."""


async def test_a_dropped_player_is_played_by_the_house_way_and_reconnects(tables: Any, connect: Any) -> None:
    table_id = await tables.table(timers=GRACE)
    ann_id, ann_token = await tables.player("Ann")
    bo_id, bo_token = await tables.player("Bo")
    async with connect(table_id, player_id=ann_id) as ann:
        await ann.hello(ann_token)
        await _ok(ann, {"type": "sit", "seat": 1, "buy_in_cents": 20_000})
        async with contextlib.AsyncExitStack() as stack:
            bo = await stack.enter_async_context(connect(table_id, player_id=bo_id))
            await bo.hello(bo_token)
            await _ok(bo, {"type": "sit", "seat": 2, "buy_in_cents": 20_000})
            await bo.until_view(lambda v: v["phase"] == "betting")
            await _ok(bo, {"type": "place_bet", "amount_cents": 1_000})
            await ann.until_view(lambda v: v["phase"] == "betting")
            await _ok(ann, {"type": "place_bet", "amount_cents": 1_000})
            await bo.until_view(lambda v: v["phase"] == "setting")
        # Bo's connection is closed: Ann sees Bo away, then the House Way sets Bo's hand.
        view = await ann.until_view(lambda v: v["seats"][2]["status"] == "away")
        assert view["seats"][2]["away_until_ms"] is not None
        dropped = [e for e in ann.events if e["kind"] == "player_dropped"]
        assert [e["player_id"] for e in dropped] == [bo_id]
        bo_set = await ann.until_event(lambda e: e["kind"] == "hand_set" and e["player_id"] == bo_id)
        # Ann may not see Bo's cards, nor how his hand was set, before the showdown
        assert (bo_set["set_by"], bo_set["high"], bo_set["low"]) == ("hidden", [], [])
        await _ok(ann, {"type": "use_house_way"})
        record = (await ann.until_event(lambda e: e["kind"] == "round_settled"))["record"]
        bo_hand = next(h for h in record["hands"] if h["player_id"] == bo_id)
        assert bo_hand["set_by"] == "timeout"

        # Bo comes back: the hello reconnects him, and everyone sees him active again.
        async with connect(table_id, player_id=bo_id) as bo:
            first = await bo.hello(bo_token)
            assert first["type"] == "snapshot"
            view = await bo.until_view(lambda v: v["seats"][2]["status"] == "active")
            assert view["you"]["status"] == "active"
            await ann.until_view(lambda v: v["seats"][2]["status"] == "active")
            assert any(e["kind"] == "player_reconnected" and e["player_id"] == bo_id for e in ann.events)


async def test_a_second_connection_of_the_player_keeps_them_present(tables: Any, connect: Any) -> None:
    table_id = await tables.table(timers=GRACE)
    ann_id, ann_token = await tables.player("Ann")
    async with connect(table_id) as spectator:
        await spectator.hello()
        async with connect(table_id, player_id=ann_id) as first:
            await first.hello(ann_token)
            await _ok(first, {"type": "sit", "seat": 3, "buy_in_cents": 5_000})
            async with connect(table_id, player_id=ann_id) as second:
                await second.hello(ann_token)
            # One of Ann's connections closed; she still has one: not away.
            await first.send({"type": "ping", "id": "p"})
            await first.until(lambda f: f["type"] == "pong")
            assert first.view is not None
            assert first.view["seats"][3]["status"] == "active"
        await spectator.until_view(lambda v: v["seats"][3] is not None and v["seats"][3]["status"] == "away")


async def _ok(client: Any, command: dict[str, Any]) -> None:
    answer = await client.command(command)
    assert answer["type"] == "accepted", answer
