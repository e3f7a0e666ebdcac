"""``POST /api/practice/deals`` and ``POST /api/practice/deals/{id}/set``: a practice hand against a House Way
dealer whose cards stay on the server until the hand is set, answered once, with the showdown and the
coach's analysis; every refusal changes nothing."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

import httpx
import pytest

from paigow.rules.cards import card_from_text
from paigow.rules.house_rules import HouseRules, HouseWayName
from paigow.rules.house_way import house_way, house_way_clause
from paigow.rules.house_way_text import clause_text
from paigow.rules.showdown import showdown
from paigow.rules.splits import all_splits, is_foul, legal_splits, split_from_low
from paigow_server.store import keys, practice
from paigow_server.store.practice import DEAL_TTL_MS
from paigow_server.web.rate_limits import Limit

_CARD = re.compile(r'"((?:[2-9TJQKA][cdhs])|JK)"')


async def call(tables: Any, token: str | None, path: str, body: Any = None) -> httpx.Response:
    headers = {"Authorization": f"Bearer {token}"} if token else None
    async with httpx.AsyncClient(base_url=tables.live.url, timeout=60) as client:
        return await client.post(path, json={} if body is None else body, headers=headers)


async def deal(tables: Any, token: str, body: Any = None) -> dict[str, Any]:
    response = await call(tables, token, "/api/practice/deals", body)
    assert response.status_code == 201, response.text
    return dict(response.json())


async def test_a_deal_keeps_the_dealers_cards_on_the_server(tables: Any) -> None:
    player_id, token = await tables.player("Ann")
    first = await deal(tables, token)
    assert set(first) == {"deal_id", "cards", "house_way", "house_way_hand", "expires_ms"}
    assert first["house_way"] == "trump_plaza"
    # The House Way's split of the player's cards, with its clause: what {"house_way": true} would set.
    seven = [card_from_text(c) for c in first["cards"]]
    split = house_way(seven, HouseRules())
    assert first["house_way_hand"] == {
        "high": [str(c) for c in split.high], "low": [str(c) for c in split.low],
        "clause": clause_text(house_way_clause(seven, HouseRules()), split)}
    assert len(set(first["cards"])) == 7
    assert set(_CARD.findall(json.dumps(first))) == set(first["cards"])  # no dealer's card in the answer
    key = keys.practice_deal(player_id)
    assert 0 < await tables.redis.pttl(key) <= DEAL_TTL_MS
    second = await deal(tables, token, {"house_way": "ballys_ac"})  # replaces the last deal
    stored = await tables.redis.hgetall(key)
    assert stored["deal_id"] == second["deal_id"] != first["deal_id"]
    dealer = stored["dealer"].split()
    assert len(dealer) == 7
    assert not set(dealer) & set(second["cards"])
    response = await call(tables, token, f"/api/practice/deals/{first['deal_id']}/set", {"house_way": True})
    assert (response.status_code, response.json()["error"]) == (404, "DEAL_NOT_FOUND")


@pytest.mark.parametrize("way", ["trump_plaza", "foxwoods"])
async def test_a_set_deal_answers_the_dealer_the_showdown_and_the_analysis(tables: Any, way: str) -> None:
    _, token = await tables.player("Ann")
    dealt = await deal(tables, token, {"house_way": way})
    rules = HouseRules(house_way=HouseWayName(way))
    cards = [card_from_text(c) for c in dealt["cards"]]
    mine = next(s for s in reversed(legal_splits(cards, rules)) if s != house_way(cards, rules))
    path = f"/api/practice/deals/{dealt['deal_id']}/set"
    response = await call(tables, token, path, {"low": [str(c) for c in mine.low]})
    assert response.status_code == 200, response.text
    doc = response.json()
    assert (doc["deal_id"], doc["cards"], doc["house_way"]) == (dealt["deal_id"], dealt["cards"], way)
    assert doc["you"]["set_by"] == "player"
    assert doc["you"]["house_way_clause"] is None
    assert split_from_low(cards, [card_from_text(c) for c in doc["you"]["low"]]) == mine
    dealer = [card_from_text(c) for c in doc["dealer"]["dealt"]]
    assert not set(dealer) & set(cards)
    dealer_split = house_way(dealer, rules)
    assert sorted(doc["dealer"]["low"]) == sorted(str(c) for c in dealer_split.low)
    assert doc["dealer"]["house_way_clause"] == clause_text(house_way_clause(dealer, rules), dealer_split)
    expected = showdown(mine, dealer_split, rules)
    assert doc["result"] == {"high": str(expected.high), "low": str(expected.low),
                             "outcome": str(expected.outcome)}
    analysis = doc["analysis"]
    assert analysis["cards"] == dealt["cards"]
    assert analysis["rules"]["house_way"] == way
    assert analysis["chosen"]["legal"] is True
    assert sorted(analysis["chosen"]["low"]) == sorted(str(c) for c in mine.low)
    assert analysis["ev_given_up"] == pytest.approx(analysis["best"]["ev"] - analysis["chosen"]["ev"])
    assert analysis["summary"].startswith("Your split")
    again = await call(tables, token, path, {"house_way": True})
    assert (again.status_code, again.json()["error"]) == (409, "DEAL_ANSWERED")


def _foul_low(cards: list[Any]) -> list[str]:
    foul = next(s for s in all_splits(cards) if is_foul(s))
    return [str(c) for c in foul.low]


class _Deals:
    """The practice store's random source, dealing these fourteen cards: the player's seven, the dealer's."""

    def __init__(self, cards: str) -> None:
        self.indices = [card_from_text(c).index for c in cards.split()]

    def sample(self, population: Sequence[int], k: int) -> list[int]:
        assert (len(population), k) == (53, len(self.indices))
        return list(self.indices)


async def test_refusals_change_nothing(tables: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    # A random deal has no foul split about one time in twenty (seven cards of one suit, say): this one has.
    monkeypatch.setattr(practice, "_RANDOM", _Deals("As Kd 9c 7h 5s 3d 2c  Qh Jh 8s 6d 4c 4h Tc"))
    player_id, token = await tables.player("Ann")
    _, bob = await tables.player("Bob")
    dealt = await deal(tables, token)
    cards = [card_from_text(c) for c in dealt["cards"]]
    other = next(c for c in ("As", "Kd", "2c", "7h", "JK", "9s", "4d", "Qc") if c not in dealt["cards"])
    path = f"/api/practice/deals/{dealt['deal_id']}/set"
    key = keys.practice_deal(player_id)
    stored = await tables.redis.hgetall(key)
    refusals: list[tuple[str | None, str, Any, int, str, str]] = [
        (token, path, {"low": dealt["cards"][:2], "house_way": True}, 400, "INVALID_FIELD", "not both"),
        (token, path, {}, 400, "INVALID_FIELD", "nor neither"),
        (token, path, {"house_way": False}, 400, "INVALID_FIELD", "house_way must be true"),
        (token, path, {"low": dealt["cards"][:3]}, 400, "INVALID_CARDS", "two cards of your low hand"),
        (token, path, {"low": [dealt["cards"][0], "10h"]}, 400, "INVALID_CARDS", "bad card '10h'"),
        (token, path, {"low": [dealt["cards"][0]] * 2}, 400, "INVALID_CARDS", "duplicate card"),
        (token, path, {"low": [dealt["cards"][0], other]}, 400, "NOT_YOUR_CARDS",
         f"{other} is not in your hand"),
        (token, path, {"low": _foul_low(cards)}, 400, "FOUL", "outranks high hand"),
        (token, path, {"low": dealt["cards"][:2], "samples": 5}, 400, "UNKNOWN_FIELD", "samples"),
        (bob, path, {"house_way": True}, 404, "DEAL_NOT_FOUND", dealt["deal_id"]),
        (token, "/api/practice/deals/d_nope/set", {"house_way": True}, 404, "DEAL_NOT_FOUND", "d_nope"),
        (None, path, {"house_way": True}, 401, "UNAUTHORIZED", ""),
        (token, "/api/practice/deals", {"house_way": "caesars"}, 400, "INVALID_FIELD",
         "house_way must be one of"),
        (token, "/api/practice/deals", {"rules": {}}, 400, "UNKNOWN_FIELD", "rules"),
    ]
    for who, where, body, status, code, message in refusals:
        response = await call(tables, who, where, body)
        assert (response.status_code, response.json()["error"]) == (status, code), (body, response.text)
        assert message in response.json()["message"]
        assert await tables.redis.hgetall(key) == stored
    # Ten analyses a minute: the eleventh set is refused, and the deal stays open.
    rate_limits = tables.live.app.state.ctx.rate_limits
    for _ in range(10):
        await rate_limits.check_account(Limit.ANALYSES, player_id)
    refused = await call(tables, token, path, {"house_way": True})
    assert (refused.status_code, refused.json()["error"]) == (429, "RATE_LIMITED")
    assert int(refused.headers["Retry-After"]) >= 1
    assert await tables.redis.hgetall(key) == stored
