"""``POST /api/analyze`` and ``GET /api/tables/{id}/rounds/{round_id}/analysis``: a player's split analysis,
run in the analysis process pool, limited per account; a played hand only after its round settled, only
the caller's own cards."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import re
import time
from typing import Any

import httpx
import pytest

from paigow.rules.cards import card_from_text
from paigow.rules.house_rules import HouseRules, HouseWayName
from paigow.rules.house_way import house_way
from paigow.rules.splits import legal_splits
from paigow.table.commands import Leave, PlaceBet, SetHand, Sit, Tick, UseHouseWay
from paigow.table.state import Phase, Round, Timers
from paigow_server.process.analysis_pool import AnalysisBusy, AnalysisPool, Priority
from paigow_server.process.settings import Settings
from paigow_server.realtime.realtime import Realtime
from support.harness import wait_for_phase

CARDS = ["As", "Kd", "Qh", "JK", "9c", "5d", "2s"]
TIMERS = Timers(bank_offer_ms=10_000, betting_ms=30_000, setting_ms=30_000, between_rounds_ms=60_000,
                reconnect_grace_ms=30_000)
"""Nothing times out while the test plays, and no second round starts."""
_CARD = re.compile(r'"((?:[2-9TJQKA][cdhs])|JK)"')


@pytest.fixture
def settings(settings: Settings) -> Settings:
    """One analysis per account per minute: a second within the minute is refused, however long the first
    took (each test here asks at most one per account)."""
    return dataclasses.replace(settings, analyses_per_minute=1)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def post(tables: Any, token: str | None, body: Any) -> httpx.Response:
    async with httpx.AsyncClient(base_url=tables.live.url, timeout=60) as client:
        return await client.post("/api/analyze", json=body, headers=bearer(token) if token else None)


async def get(tables: Any, token: str, path: str) -> httpx.Response:
    async with httpx.AsyncClient(base_url=tables.live.url, timeout=60) as client:
        return await client.get(path, headers=bearer(token))


def check_analysis(doc: dict[str, Any], cards: list[str], rules: HouseRules) -> None:
    assert doc["cards"] == cards
    assert 30_000 <= doc["samples"] <= 110_000
    assert doc["exact"] is False
    assert isinstance(doc["seed"], int)
    assert doc["rules"]["house_way"] == str(rules.house_way)
    for entry in doc["splits"]:
        assert set(entry) == {"low", "high", "win", "push", "loss", "ev", "ev_se", "high_name", "low_name"}
        assert sorted(entry["low"] + entry["high"]) == sorted(cards)
        assert entry["ev_se"] <= 0.003
    assert doc["best"]["ev"] == max(e["ev"] for e in doc["splits"])
    expected = house_way([card_from_text(c) for c in cards], rules)
    assert sorted(doc["house_way"]["low"]) == sorted(str(c) for c in expected.low)
    assert doc["best"] in doc["splits"]
    assert doc["house_way"] in doc["splits"]


async def test_analyze_seven_cards(tables: Any) -> None:
    _, ann = await tables.player("Ann")
    _, bob = await tables.player("Bob")
    response = await post(tables, ann, {"cards": CARDS})
    assert response.status_code == 200, response.text
    doc = response.json()
    check_analysis(doc, CARDS, HouseRules())
    assert doc["best"]["high_name"] == "pair of aces"
    assert doc["best"]["low_name"] == "king-queen"
    assert doc["summary"].startswith("Best split: As JK 9c 5d 2s | Kd Qh (pair of aces / king-queen): EV +")
    assert doc["summary"].endswith("It is the House Way's split.")
    response = await post(tables, bob, {"cards": CARDS, "house_way": "foxwoods"})
    assert response.status_code == 200, response.text
    check_analysis(response.json(), CARDS, HouseRules(house_way=HouseWayName.FOXWOODS))


async def test_the_analysis_runs_off_the_event_loop(tables: Any) -> None:
    _, token = await tables.player("Ann")
    analysis = asyncio.create_task(post(tables, token, {"cards": CARDS}))
    await asyncio.sleep(0)
    async with httpx.AsyncClient(base_url=tables.live.url) as client:
        for _ in range(3):  # the server keeps answering while the analysis runs in a worker process
            assert (await client.get("/healthz")).status_code == 200
    assert not analysis.done()
    assert (await analysis).status_code == 200


@pytest.mark.parametrize(("body", "code", "message"), [
    ({"cards": CARDS[:6]}, "INVALID_CARDS", "cards must be seven cards, not 6"),
    ({"cards": [*CARDS, "3c"]}, "INVALID_CARDS", "cards must be seven cards, not 8"),
    ({"cards": [*CARDS[:6], "As"]}, "INVALID_CARDS", "duplicate card As"),
    ({"cards": [*CARDS[:6], "10h"]}, "INVALID_CARDS", "bad card '10h'"),
    ({"cards": [*CARDS[:6], "Xx"]}, "INVALID_CARDS", "bad card 'Xx'"),
    ({"cards": [*CARDS[:6], 7]}, "INVALID_CARDS", "bad card 7"),
    ({"cards": " ".join(CARDS)}, "INVALID_CARDS", "cards must be a list of the seven cards"),
    ({}, "INVALID_CARDS", "cards is required"),
    ({"cards": CARDS, "house_way": "caesars"}, "INVALID_FIELD", "house_way must be one of"),
    ({"cards": CARDS, "samples": 5}, "UNKNOWN_FIELD", "unknown field 'samples'"),
    ([CARDS], "INVALID_FIELD", "the body must be a JSON object"),
])
async def test_bad_input_is_a_400_naming_it(tables: Any, body: Any, code: str, message: str) -> None:
    _, token = await tables.player("Ann")
    response = await post(tables, token, body)
    assert response.status_code == 400
    assert response.json()["error"] == code
    assert message in response.json()["message"]


async def test_a_session_token_is_needed(tables: Any) -> None:
    response = await post(tables, None, {"cards": CARDS})
    assert (response.status_code, response.json()["error"]) == (401, "UNAUTHORIZED")
    response = await post(tables, "not-a-token", {"cards": CARDS})
    assert (response.status_code, response.json()["error"]) == (401, "UNKNOWN_SESSION")


async def test_analyses_are_limited_per_account(tables: Any) -> None:
    _, ann = await tables.player("Ann")
    _, bob = await tables.player("Bob")
    for _ in range(4):  # refused requests count nothing
        assert (await post(tables, ann, {"cards": CARDS[:6]})).status_code == 400
    assert (await post(tables, ann, {"cards": CARDS})).status_code == 200
    refused = await post(tables, ann, {"cards": CARDS})
    assert refused.status_code == 429
    body = refused.json()
    assert body["error"] == "RATE_LIMITED"
    assert "at most 1 a minute" in body["message"]
    assert int(refused.headers["Retry-After"]) == body["retry_after_s"] >= 1
    assert (await post(tables, bob, {"cards": CARDS})).status_code == 200  # another account's own limit


async def test_the_pool_refuses_past_its_places() -> None:
    """One worker: two places (one running, one ready), one waiting place, then ``AnalysisBusy`` (503)."""
    pool = AnalysisPool(1, max_pending=1)
    try:
        async with pool.turn("p_a", "198.51.100.0/24", Priority.OTHER), \
                pool.turn("p_b", "198.51.101.0/24", Priority.OTHER):
            waiting = asyncio.create_task(_hold(pool.turn("p_c", "203.0.113.0/24", Priority.OTHER)))
            await asyncio.sleep(0)
            with pytest.raises(AnalysisBusy, match="all 1 waiting places are taken"):
                async with pool.turn("p_d", "192.0.2.0/24", Priority.OTHER):
                    pass
        await waiting
        async with pool.turn("p_d", "192.0.2.0/24", Priority.OTHER):  # the places are free again
            pass
    finally:
        pool.stop()


async def _hold(turn: contextlib.AbstractAsyncContextManager[None]) -> None:
    async with turn:
        pass


async def _seated_round(tables: Any) -> tuple[Realtime, str, list[tuple[str, str]]]:
    """A table in SETTING with Ann (seat 1) and Bob (seat 2) betting against the house."""
    table_id = await tables.table(timers=TIMERS)
    rt = tables.live.app.state.realtime
    players = [await tables.player(name) for name in ("Ann", "Bob")]
    for seat, (player_id, _) in enumerate(players, start=1):
        await rt.service.execute(table_id, Sit(player_id, f"P{seat}", seat, 50_000))
    await wait_for_phase(rt, table_id, Phase.BETTING)
    for player_id, _ in players:
        await rt.service.execute(table_id, PlaceBet(player_id, 1_000))
    await wait_for_phase(rt, table_id, Phase.SETTING)
    return rt, table_id, players


async def _round_in_play(rt: Realtime, table_id: str) -> Round:
    state = await rt.store.load(table_id)
    assert state is not None
    assert state.round is not None
    return state.round


async def test_a_played_hand_after_its_round_settled(tables: Any) -> None:
    rt, table_id, [(ann, ann_token), (bob, bob_token)] = await _seated_round(tables)
    live = await _round_in_play(rt, table_id)
    round_id = live.round_id
    path = f"/api/tables/{table_id}/rounds/{round_id}/analysis"
    before = await get(tables, ann_token, path)  # Ann's hand is not even set yet
    assert before.status_code == 409
    assert before.json()["error"] == "ROUND_NOT_SETTLED"

    dealt = {h.player_id: list(h.cards) for h in live.hands}
    hand = [card_from_text(c) for c in dealt[ann]]
    mine = next(s for s in reversed(legal_splits(hand)) if s != house_way(hand))  # not the House Way's
    await rt.service.execute(table_id, SetHand(ann, tuple(str(c) for c in mine.low)))
    after_one = await get(tables, ann_token, path)  # Bob has not set: still not settled
    assert after_one.json()["error"] == "ROUND_NOT_SETTLED"
    await rt.service.execute(table_id, UseHouseWay(bob))

    response = await get(tables, ann_token, path)
    assert response.status_code == 200, response.text
    doc = response.json()
    check_analysis(doc, dealt[ann], HouseRules())
    assert (doc["table_id"], doc["round_id"], doc["position"]) == (table_id, round_id, 1)
    assert doc["outcome"] in ("win", "push", "loss")
    assert doc["set_by"] == "player"
    chosen = doc["chosen"]
    assert chosen["legal"] is True
    assert sorted(chosen["low"]) == sorted(str(c) for c in mine.low)
    assert chosen in [{**e, "legal": True} for e in doc["splits"]]
    assert doc["ev_given_up"] == pytest.approx(doc["best"]["ev"] - chosen["ev"])
    assert doc["ev_given_up"] >= 0
    assert doc["summary"].startswith("Your split")
    # Only Ann's own seven cards appear anywhere in the answer: never Bob's nor the dealer's.
    assert set(_CARD.findall(json.dumps(doc))) == set(dealt[ann])

    bobs = (await get(tables, bob_token, path)).json()
    assert bobs["chosen"]["legal"] is True
    assert bobs["ev_given_up"] == pytest.approx(bobs["best"]["ev"] - bobs["house_way"]["ev"])
    assert sorted(bobs["chosen"]["low"]) == sorted(bobs["house_way"]["low"])


async def test_a_played_hand_is_only_the_callers(tables: Any) -> None:
    rt, table_id, players = await _seated_round(tables)
    live = await _round_in_play(rt, table_id)
    round_id = live.round_id
    for player_id, _ in players:
        await rt.service.execute(table_id, UseHouseWay(player_id))
    _, carol = await tables.player("Carol")
    path = f"/api/tables/{table_id}/rounds/{round_id}/analysis"
    response = await get(tables, carol, path)
    assert (response.status_code, response.json()["error"]) == (404, "HAND_NOT_FOUND")
    response = await get(tables, carol, f"/api/tables/{table_id}/rounds/r-none/analysis")
    assert (response.status_code, response.json()["error"]) == (404, "ROUND_NOT_FOUND")
    response = await get(tables, carol, f"/api/tables/nope/rounds/{round_id}/analysis")
    assert (response.status_code, response.json()["error"]) == (404, "TABLE_NOT_FOUND")
    async with httpx.AsyncClient(base_url=tables.live.url) as client:
        response = await client.get(path)
    assert (response.status_code, response.json()["error"]) == (401, "UNAUTHORIZED")


async def test_a_played_hands_analysis_is_kept_in_the_history_and_the_export(tables: Any) -> None:
    rt, table_id, [(ann, ann_token), (bob, bob_token)] = await _seated_round(tables)
    live = await _round_in_play(rt, table_id)
    round_id = live.round_id
    dealt = {h.player_id: [card_from_text(c) for c in h.cards] for h in live.hands}
    mine = next(s for s in legal_splits(dealt[ann]) if s != house_way(dealt[ann]))
    await rt.service.execute(table_id, SetHand(ann, tuple(str(c) for c in mine.low)))
    await rt.service.execute(table_id, UseHouseWay(bob))

    before = (await get(tables, ann_token, "/api/players/me/history")).json()
    assert [h["analysis"] for h in before["hands"]] == [None]
    assert before["sessions"] == [{
        "table_id": table_id, "table_name": f"Table {table_id}", "hands": 1, "played": 1, "analysed": 0,
        "timed_out": 0, "best_splits": 0, "ev_given_up_total": 0, "ev_given_up_mean": None,
        "first_settled_ms": before["hands"][0]["settled_ms"],
        "last_settled_ms": before["hands"][0]["settled_ms"]}]

    doc = (await get(tables, ann_token, f"/api/tables/{table_id}/rounds/{round_id}/analysis")).json()
    history = (await get(tables, ann_token, "/api/players/me/history")).json()
    [hand] = history["hands"]
    kept = hand["analysis"]
    assert kept == {
        "ev_given_up": doc["ev_given_up"], "chosen_ev": doc["chosen"]["ev"], "best_ev": doc["best"]["ev"],
        "house_way_ev": doc["house_way"]["ev"], "legal": True,
        "best": {k: doc["best"][k] for k in ("high", "low", "high_name", "low_name")},
        "samples": doc["samples"], "exact": False, "house_way": "trump_plaza",
        "analysed_ms": kept["analysed_ms"]}
    assert abs(kept["analysed_ms"] - hand["settled_ms"]) < 60_000
    assert {k: hand[k] for k in before["hands"][0]} == before["hands"][0] | {"analysis": kept}
    [session] = history["sessions"]
    assert (session["played"], session["analysed"]) == (1, 1)
    assert session["ev_given_up_total"] == session["ev_given_up_mean"] == doc["ev_given_up"]
    assert session["best_splits"] == (1 if doc["ev_given_up"] <= 0 else 0)

    refused = await get(tables, ann_token, f"/api/tables/{table_id}/rounds/{round_id}/analysis")
    assert refused.status_code == 429  # one a minute here: the history keeps the first
    assert (await get(tables, ann_token, "/api/players/me/history")).json() == history
    bobs = (await get(tables, bob_token, "/api/players/me/history")).json()
    assert [h["analysis"] for h in bobs["hands"]] == [None]

    async with httpx.AsyncClient(base_url=tables.live.url) as client:
        export = await client.get("/api/operator/history/export", params={"table_id": table_id},
                                  headers=bearer(tables.live.operator_token))
    [exported] = export.json()["rounds"]
    assert {h["player_id"]: h["analysis"] for h in exported["round"]["hands"]} == {None: None, ann: kept,
                                                                                  bob: None}


async def test_a_hand_the_house_way_set_after_a_time_out_is_marked_and_left_out_of_the_score(
        tables: Any) -> None:
    rt, table_id, [(ann, ann_token), (bob, bob_token)] = await _seated_round(tables)
    round_id = (await _round_in_play(rt, table_id)).round_id
    await rt.service.execute(table_id, UseHouseWay(ann))  # Ann's own choice: the House Way button
    # Bob never sets: the setting deadline passes and the House Way sets his hand.
    await rt.service.execute(table_id, Tick(int(time.time() * 1000) + TIMERS.setting_ms + 60_000))

    bobs = (await get(tables, bob_token, "/api/players/me/history")).json()
    [hand] = bobs["hands"]
    assert (hand["round_id"], hand["hand"]["set_by"]) == (round_id, "timeout")
    assert hand["round"]["hands"][[h["player_id"] for h in hand["round"]["hands"]].index(bob)]["set_by"] \
        == "timeout"
    doc = (await get(tables, bob_token, f"/api/tables/{table_id}/rounds/{round_id}/analysis")).json()
    assert doc["set_by"] == "timeout"
    assert doc["ev_given_up"] == pytest.approx(doc["best"]["ev"] - doc["house_way"]["ev"])
    after = (await get(tables, bob_token, "/api/players/me/history")).json()
    assert after["hands"][0]["analysis"] is not None  # kept with the hand, but not scored
    [session] = after["sessions"]
    assert (session["hands"], session["played"], session["timed_out"], session["analysed"]) == (1, 0, 1, 0)
    assert (session["best_splits"], session["ev_given_up_total"], session["ev_given_up_mean"]) == (0, 0, None)

    anns = (await get(tables, ann_token, "/api/players/me/history")).json()
    assert anns["hands"][0]["hand"]["set_by"] == "house_way"
    await get(tables, ann_token, f"/api/tables/{table_id}/rounds/{round_id}/analysis")
    [session] = (await get(tables, ann_token, "/api/players/me/history")).json()["sessions"]
    assert (session["played"], session["timed_out"], session["analysed"]) == (1, 0, 1)  # hers: scored


async def test_a_seated_players_newest_hand_goes_before_the_others(tables: Any,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The fair queue's classes (``process.fair_queue``): the hand of the table's newest settled round, for a
    player still seated there, is ``PLAYED``; the same hand once the player left is ``OTHER`` (a back-fill
    from the history), as is an analysis of seven cards."""
    rt, table_id, players = await _seated_round(tables)
    round_id = (await _round_in_play(rt, table_id)).round_id
    for player_id, _ in players:
        await rt.service.execute(table_id, UseHouseWay(player_id))
    pool = tables.live.app.state.ctx.analyses
    asked: list[tuple[str, Priority]] = []
    real_turn = pool.turn

    def spy(account: str, network: str, priority: Priority) -> contextlib.AbstractAsyncContextManager[None]:
        asked.append((account, priority))
        return real_turn(account, network, priority)

    monkeypatch.setattr(pool, "turn", spy)
    (ann, ann_token), (bob, bob_token) = players
    await rt.service.execute(table_id, Leave(bob))
    path = f"/api/tables/{table_id}/rounds/{round_id}/analysis"
    assert (await get(tables, ann_token, path)).status_code == 200
    assert (await get(tables, bob_token, path)).status_code == 200
    _, carl = await tables.player("Carl")
    assert (await post(tables, carl, {"cards": CARDS})).status_code == 200
    assert [priority for _, priority in asked] == [Priority.PLAYED, Priority.OTHER, Priority.OTHER]
    assert [account for account, _ in asked][:2] == [ann, bob]
