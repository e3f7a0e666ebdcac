"""No live aid (docs/responsible-play.md): with ``no_live_aid`` in force (``responsible_play``, on by
default) ``POST /api/analyze`` refuses ``409 LIVE_HAND`` seven cards that are any seated player's hand in a
round still in play, counting nothing; the same cards are answered once the round is settled or voided; with
the setting off they are answered during the round too. The round's own coach and the House Way button are
not touched."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import httpx
import pytest

from paigow.table.commands import PlaceBet, Sit, UseHouseWay
from paigow.table.operator_commands import VoidRound
from paigow.table.state import Phase, Timers
from paigow_server.process.settings import Settings
from paigow_server.realtime.realtime import Realtime
from paigow_server.store import keys
from paigow_server.store.live_hands import fingerprint
from support.harness import wait_for_phase

TIMERS = Timers(bank_offer_ms=10_000, betting_ms=30_000, setting_ms=30_000, between_rounds_ms=60_000,
                reconnect_grace_ms=30_000)
"""Nothing times out while the test plays, and no second round starts."""


@pytest.fixture
def settings(settings: Settings) -> Settings:
    """One analysis per account per minute: a refused request that counted would leave none."""
    return dataclasses.replace(settings, analyses_per_minute=1)


async def _analyze(tables: Any, token: str, cards: list[str]) -> httpx.Response:
    async with httpx.AsyncClient(base_url=tables.live.url, timeout=60) as client:
        return await client.post("/api/analyze", json={"cards": cards},
                                 headers={"Authorization": f"Bearer {token}"})


async def _dealt(tables: Any) -> tuple[Realtime, str, dict[str, tuple[str, list[str]]]]:
    """A table in SETTING with Ann (seat 1) and Bob (seat 2) betting against the house: (the live side, the
    table, each name's (token, dealt cards))."""
    table_id = await tables.table(timers=TIMERS)
    rt: Realtime = tables.live.app.state.realtime
    players = {name: await tables.player(name) for name in ("Ann", "Bob")}
    for seat, (player_id, _) in enumerate(players.values(), start=1):
        await rt.service.execute(table_id, Sit(player_id, f"P{seat}", seat, 50_000))
    await wait_for_phase(rt, table_id, Phase.BETTING)
    for player_id, _ in players.values():
        await rt.service.execute(table_id, PlaceBet(player_id, 1_000))
    await wait_for_phase(rt, table_id, Phase.SETTING)
    state = await rt.store.load(table_id)
    assert state is not None
    assert state.round is not None
    dealt = {h.player_id: list(h.cards) for h in state.round.hands}
    assert len(dealt) == 3  # Ann, Bob and the house dealer
    return rt, table_id, {name: (token, dealt[player_id]) for name, (player_id, token) in players.items()}


def _shuffled(cards: list[str]) -> list[str]:
    """The same seven cards in another order (the index does not depend on it)."""
    return random.sample(cards, len(cards))


async def test_a_live_hand_is_refused_until_its_round_settles_and_nothing_is_counted(tables: Any) -> None:
    rt, table_id, hands = await _dealt(tables)
    (ann, ann_cards), (bob, bob_cards) = hands["Ann"], hands["Bob"]
    for token in (ann, bob):  # her own hand, and another player's: each refused, twice
        for cards in (ann_cards, _shuffled(bob_cards), _shuffled(ann_cards), bob_cards):
            response = await _analyze(tables, token, cards)
            assert response.status_code == 409, response.text
            body = response.json()
            assert body["error"] == "LIVE_HAND"
            assert "still being played" in body["message"]
    state = await rt.store.load(table_id)
    assert state is not None
    assert state.round is not None
    dealer = next(h.cards for h in state.round.hands if h.player_id is None)
    assert not await tables.redis.exists(keys.live_hand(fingerprint(dealer)))  # the dealer's: not indexed

    players = {p.player_id for p in state.seats if p is not None}
    for player_id in players:  # the House Way button is a command, never refused for this
        await rt.service.execute(table_id, UseHouseWay(player_id))
    await wait_for_phase(rt, table_id, Phase.IDLE)
    assert not await tables.redis.exists(keys.live_hand(fingerprint(ann_cards)))
    # Settled: her own hand, and Bob asks about hers. Each account's one analysis of the minute is left,
    # so none of the eight refusals counted.
    mine = await _analyze(tables, ann, ann_cards)
    assert mine.status_code == 200, mine.text
    assert sorted(mine.json()["cards"]) == sorted(ann_cards)
    other = await _analyze(tables, bob, _shuffled(ann_cards))
    assert other.status_code == 200, other.text


async def test_a_voided_rounds_hands_are_answered(tables: Any) -> None:
    rt, table_id, hands = await _dealt(tables)
    ann, ann_cards = hands["Ann"]
    assert (await _analyze(tables, ann, ann_cards)).status_code == 409
    await rt.service.execute(table_id, VoidRound())
    await wait_for_phase(rt, table_id, Phase.IDLE)
    assert not await tables.redis.exists(keys.live_hand(fingerprint(hands["Bob"][1])))
    response = await _analyze(tables, ann, ann_cards)
    assert response.status_code == 200, response.text


class TestNoLiveAidOff:
    """The responsible-play set off, or ``no_live_aid`` false beside it: live hands are answered (and
    indexed all the same)."""

    @pytest.fixture(params=[{"responsible_play": False}, {"no_live_aid": False}])
    def settings(self, request: pytest.FixtureRequest, settings: Settings) -> Settings:
        return dataclasses.replace(settings, **request.param)

    async def test_a_live_hand_is_answered(self, tables: Any) -> None:
        _, _, hands = await _dealt(tables)
        ann, bob_cards = hands["Ann"][0], hands["Bob"][1]
        assert await tables.redis.exists(keys.live_hand(fingerprint(bob_cards)))
        response = await _analyze(tables, ann, bob_cards)
        assert response.status_code == 200, response.text
