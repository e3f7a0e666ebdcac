"""Whole rounds over real WebSockets: several players and a spectator, the house bank and a player bank.

Every frame every client receives is checked by ``TableClient`` (tests/conftest.py): no card but the
viewer's own outside settled-round records, no seed before the reveal, versions without gaps.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import pytest

from paigow.rules.house_way import house_way
from paigow.table.cardtext import cards_from_text
from paigow_server.store.tables import TableRepo

STARTING_BALANCE = 100_000
BUY_IN = 20_000
BET = 1_000
TOLERATED = {"WRONG_PHASE"}
"""A bet racing the betting deadline may arrive after the deal: refused, and the bot carries on."""


class Bot:
    """Plays from its view: accepts (or declines) the bank, bets, sets its hand (by hand or House Way)."""

    def __init__(self, client: Any, *, own_split: bool, accept_bank: bool, bonus_cents: int = 0) -> None:
        self.client = client
        self.own_split = own_split
        self.accept_bank = accept_bank
        self.bonus_cents = bonus_cents
        """A Fortune bonus placed with each bet (0: none)."""
        self.done: set[tuple[str, int]] = set()
        self.errors: list[dict[str, Any]] = []

    def settled(self) -> int:
        return sum(1 for e in self.client.events if e["kind"] == "round_settled")

    async def play(self, rounds: int) -> None:
        while self.settled() < rounds:
            action = self._next_action()
            if action is None:
                await self.client.recv(10)
                continue
            answer = await self.client.command(action)
            if answer["type"] == "error":
                assert answer["code"] in TOLERATED, answer
                self.errors.append(answer)

    def _next_action(self) -> dict[str, Any] | None:
        view = self.client.view
        you, rnd = view["you"], view["round"]
        if you is None or rnd is None:
            return None
        number = rnd["number"]
        if view["phase"] == "bank_offer" and you["offered_bank"] and self._once("bank", number):
            return {"type": "accept_bank" if self.accept_bank else "decline_bank"}
        if (view["phase"] == "betting" and not you["is_banker"] and you["bet_cents"] == 0
                and self._once("bet", number)):
            bet: dict[str, Any] = {"type": "place_bet", "amount_cents": BET}
            return {**bet, "bonus_cents": self.bonus_cents} if self.bonus_cents else bet
        if view["phase"] == "setting":
            mine = [h for h in rnd["hands"] if h["player_id"] == self.client.player_id]
            if mine and not mine[0]["is_set"] and self._once("set", number):
                if not self.own_split:
                    return {"type": "use_house_way"}
                split = house_way(cards_from_text(mine[0]["cards"]))
                return {"type": "set_hand", "low": [str(c) for c in split.low]}
        return None

    def _once(self, what: str, number: int) -> bool:
        if (what, number) in self.done:
            return False
        self.done.add((what, number))
        return True


async def _seated_bots(tables: Any, connect: Any, table_id: str, count: int,
                       stack: Any) -> list[Bot]:
    bots = []
    for seat in range(1, count + 1):
        player_id, token = await tables.player(f"Player {seat}")
        client = await stack.enter_async_context(connect(table_id, player_id=player_id))
        snapshot = await client.hello(token)
        assert snapshot["type"] == "snapshot"
        assert snapshot["role"] == "player"
        assert snapshot["player_id"] == player_id
        answer = await client.command({"type": "sit", "seat": seat, "buy_in_cents": BUY_IN})
        assert answer["type"] == "accepted", answer
        bots.append(Bot(client, own_split=seat % 2 == 1, accept_bank=True))
    return bots


async def _watch(client: Any, stop: asyncio.Event) -> None:
    while not stop.is_set():
        try:
            await client.recv(0.2)
        except TimeoutError:
            continue


async def test_three_players_play_a_house_banked_and_a_player_banked_round(
        tables: Any, connect: Any, redis: Any) -> None:
    table_id = await tables.table()

    async with contextlib.AsyncExitStack() as stack:
        spectator = await stack.enter_async_context(connect(table_id))
        first = await spectator.hello()
        assert first["type"] == "snapshot"
        assert first["role"] == "spectator"
        assert first["player_id"] is None
        stop = asyncio.Event()
        watching = asyncio.create_task(_watch(spectator, stop))
        bots = await _seated_bots(tables, connect, table_id, 3, stack)
        await asyncio.wait_for(asyncio.gather(*(b.play(2) for b in bots)), 30)
        stop.set()
        await watching
        while _settled(spectator) < 2:
            await spectator.recv(5)

        records = [e["record"] for e in bots[0].client.events if e["kind"] == "round_settled"]
        assert [r["banker_player_id"] for r in records[:2]] == [None, bots[0].client.player_id]
        assert records[1]["banker_position"] == 1
        for record in records[:2]:
            assert len(record["server_seed"]) == 64  # revealed with the settlement
            players = {h["player_id"] for h in record["hands"]}
            assert {b.client.player_id for b in bots[1:]} <= players
        # Every viewer saw the same settled rounds, spectator included.
        spectator_records = [e["record"] for e in spectator.events if e["kind"] == "round_settled"]
        assert spectator_records[:2] == records[:2]
        for bot in bots:
            assert [e["record"] for e in bot.client.events if e["kind"] == "round_settled"][:2] == records[:2]

    await _money_is_conserved(tables, redis, table_id, [b.client.player_id for b in bots])


def _settled(client: Any) -> int:
    return sum(1 for e in client.events if e["kind"] == "round_settled")


async def _money_is_conserved(tables: Any, redis: Any, table_id: str, players: list[str]) -> None:
    state = await TableRepo(redis).load(table_id)
    assert state is not None
    chips = {sp.player_id: sp.chips_cents for sp in state.seats if sp is not None}
    total = 0
    for player_id in players:
        total += await tables.balance(player_id) + chips.get(player_id, 0)
    assert total + state.ledger.house_net_cents == STARTING_BALANCE * len(players)


async def test_players_who_leave_get_their_chips_back(tables: Any, connect: Any, redis: Any) -> None:
    table_id = await tables.table()

    async with contextlib.AsyncExitStack() as stack:
        bots = await _seated_bots(tables, connect, table_id, 2, stack)
        await asyncio.wait_for(asyncio.gather(*(b.play(1) for b in bots)), 20)
        for seat, bot in enumerate(bots, start=1):
            answer = await bot.client.command({"type": "leave"})
            assert answer["type"] == "accepted", answer
            view = await bot.client.until_view(lambda v: v["you"] is None)
            assert view["seats"][seat] is None
    state = await TableRepo(redis).load(table_id)
    assert state is not None
    assert all(sp is None for sp in state.seats)
    balances = [await tables.balance(b.client.player_id) for b in bots]
    assert sum(balances) + state.ledger.house_net_cents == 2 * STARTING_BALANCE


def test_the_frame_check_catches_a_card_the_viewer_may_not_see(frame_checker: Any) -> None:
    """The guard every test above relies on: it must fail on a leaked card or seed, and pass the rest."""
    checker = frame_checker("p1")
    hand = {"position": 2, "player_id": "p2", "cards": ["As", "Kd"], "high": [], "low": [], "is_set": False,
            "fouled": False}
    with pytest.raises(AssertionError, match="not theirs"):
        checker._check({"type": "snapshot", "version": 3, "view": {"round": {"hands": [hand]}}})
    with pytest.raises(AssertionError, match="not theirs"):  # a view holds no settled round either
        checker._check({"type": "snapshot", "version": 3, "view": {"round": None, "recent": [
            {"hands": [{"dealt": ["2c", "3c"]}]}]}})
    mine = {**hand, "player_id": "p1"}
    checker._check({"type": "snapshot", "version": 3, "view": {"version": 3, "round": {"hands": [mine]}}})
    settled = {"kind": "round_settled", "record": {"hands": [{"dealt": ["2c", "3c"]}]}}
    checker._check({"type": "patch", "since": 3, "version": 4, "events": [settled],
                    "patch": [{"op": "replace", "path": "/version", "value": 4}]})  # public in its event
    seed = {"kind": "round_started", "server_seed": "ab" * 32}
    with pytest.raises(AssertionError, match="seed"):
        checker._check({"type": "patch", "since": 4, "version": 5, "events": [seed],
                        "patch": [{"op": "replace", "path": "/version", "value": 5}]})
    told = {"kind": "hand_set", "position": 2, "player_id": "p2", "high": [], "low": [], "set_by": "hidden",
            "fouled": False, "house_way_clause": "two pair, low + high: split"}
    with pytest.raises(AssertionError, match="House Way clause"):  # how another seat's hand was set
        checker._check({"type": "patch", "since": 4, "version": 5, "events": [told],
                        "patch": [{"op": "replace", "path": "/version", "value": 5}]})
    with pytest.raises(AssertionError, match="House Way clause"):
        checker._check({"type": "patch", "since": 4, "version": 5, "events": [
            {**told, "set_by": "timeout", "house_way_clause": None}],
            "patch": [{"op": "replace", "path": "/version", "value": 5}]})
    with pytest.raises(AssertionError, match="version gap"):
        checker._check({"type": "patch", "since": 6, "version": 7, "events": [], "patch": []})
    with pytest.raises(AssertionError, match="not theirs"):  # a card inside a patch
        checker._check({"type": "patch", "since": 4, "version": 5, "events": [], "patch": [
            {"op": "replace", "path": "/version", "value": 5},
            {"op": "replace", "path": "/round/hands/0", "value": {**hand, "cards": ["Qs", "Jd"]}}]})
