"""Hidden information under protocol 2, for every kind of viewer: six seated players, a spectator and the
operator, each with a snapshot taken mid-round (a join in the betting and in the setting phase) and a resume
mid-round (a reconnect with ``last_version`` that gets the missed patches). Every frame, snapshot, patch
and resume alike, goes through ``TableClient``'s checks (no card but the viewer's own outside a settled
round's event, no seed before the reveal, no version gap, each patch applying to the view it holds); and,
so that the check is not passing for want of cards, each player's own seven cards do reach them. The table
offers the Fortune bonus and half the players bet it: no frame says what a hand holds (a bonus result, a
category) before the round's record at the settlement, and then every bonus is in it."""

from __future__ import annotations

import contextlib
from typing import Any

from paigow.rules.house_rules import HouseRules
from paigow.table.commands import Sit
from paigow.table.state import Phase, Timers
from support.harness import wait_for_phase

from .test_ws_play import Bot

TIMERS = Timers(bank_offer_ms=2_000, betting_ms=60_000, setting_ms=60_000, between_rounds_ms=100,
                reconnect_grace_ms=60_000)


async def test_every_viewer_joining_or_resuming_mid_round_sees_only_what_it_may(
        tables: Any, connect: Any, live_server: Any) -> None:
    table_id = await tables.table(timers=TIMERS, rules=HouseRules(fortune_enabled=True))
    rt = live_server.app.state.realtime
    players = [await tables.player(f"P{seat}") for seat in range(1, 7)]
    for seat, (player_id, _) in enumerate(players, start=1):
        await rt.service.execute(table_id, Sit(player_id, f"P{seat}", seat, 20_000))
    await wait_for_phase(rt, table_id, Phase.BETTING)  # declines a bank offer on the way
    async with contextlib.AsyncExitStack() as stack:
        clients = []
        for player_id, token in players:
            client = await stack.enter_async_context(connect(table_id, player_id=player_id))
            assert (await client.hello(token))["type"] == "snapshot"  # a snapshot mid-round (betting)
            clients.append(client)
        operator = await stack.enter_async_context(connect(table_id))
        assert (await operator.hello_as_operator(live_server.operator_token))["role"] == "operator"
        bots = [Bot(client, own_split=n % 2 == 0, accept_bank=False, bonus_cents=500 * (n % 2))
                for n, client in enumerate(clients)]
        for bot in bots:  # answer the bank offer if there is one, then bet: the last bet deals
            while (action := bot._next_action()) is not None:
                assert (await bot.client.command(action))["type"] == "accepted"
        for client in clients:
            await client.until_view(lambda v: v["phase"] == "setting")
            mine = next(h for h in client.view["round"]["hands"] if h["player_id"] == client.player_id)
            assert len(mine["cards"]) == 7, "each player's own cards reach them"
        spectator = await stack.enter_async_context(connect(table_id))
        assert (await spectator.hello())["type"] == "snapshot"  # a snapshot mid-round (setting)
        assert spectator.view is not None
        assert all(h["cards"] == [] for h in spectator.view["round"]["hands"])
        # Two players leave and come back with the version and view they had, after others set their hands.
        gone = {0: (clients[0].version, clients[0].view), 3: (clients[3].version, clients[3].view)}
        await clients[0].ws.close()
        await clients[3].ws.close()
        for n in (1, 2):
            assert (await bots[n].client.command(bots[n]._next_action() or {}))["type"] == "accepted"
        for n, (version, view) in gone.items():
            player_id, token = players[n]
            client = await stack.enter_async_context(connect(table_id, player_id=player_id))
            resumed = await client.hello(token, last_version=version, view=view)
            assert resumed["type"] == "patch"
            assert resumed["since"] == version
            clients[n] = bots[n].client = client
        for bot in bots:
            if (action := bot._next_action()) is not None:
                answer = await bot.client.command(action)
                assert answer["type"] in ("accepted", "error"), answer
        for viewer in (*clients, spectator, operator):
            await viewer.until_event(lambda e: e["kind"] == "round_settled", within=10)
        record = next(e["record"] for e in spectator.events if e["kind"] == "round_settled")
        players_hands = [h for h in record["hands"] if h["player_id"] is not None]
        assert all(h["fortune"] for h in record["hands"]), "the record gives every hand's category"
        assert sorted(h["bonus_cents"] for h in players_hands) == [0, 0, 0, 500, 500, 500]
        # The House Way's clause of a hand reaches its own player (the checks above keep it from the rest).
        clauses = [e["house_way_clause"] for c in clients for e in c.events if e["kind"] == "hand_set"
                   and e["player_id"] == c.player_id and e["set_by"] == "house_way"]
        assert clauses, "some players used the House Way"
        assert all(clauses), "each House Way hand's clause reaches its player"
        # And a late spectator resuming from before the deal gets one patch of all it missed.
        late = await stack.enter_async_context(connect(table_id))
        start = spectator.frames[0]["version"]
        resumed = await late.hello(last_version=start, view=spectator.frames[0]["view"])
        assert resumed["type"] == "patch"
        await spectator.until_view(lambda v: v["version"] >= late.version)
        await late.until_view(lambda v: v["version"] >= spectator.version)
        assert late.view == spectator.view, "the missed patches give the view everyone else has"
