"""Practice against a House Way dealer, with the coach on and no money at stake (docs/http-api.md,
"Practice (players)").

``POST /api/practice/deals {"house_way"?}`` -> 201 a new deal: its id and the player's seven cards, with the
House Way's split of them (the dealer's seven stay in Redis, ``store.practice``).
``POST /api/practice/deals/{id}/set {"low": [2 cards]}`` or ``{"house_way": true}`` -> the dealer's hand set
by the House Way with its clause, the showdown of the two (``paigow.rules.showdown``) and the analysis of the
player's split, counted against the account's ``analyses_per_minute`` like any analysis. A deal is answered
once. Deals are limited per account and per address network (``practice_deals_per_minute``:
``429 RATE_LIMITED``). A refused request changes nothing.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from paigow.rules.cards import Card, InvalidCardError, card_from_text, check_distinct, format_cards
from paigow.rules.hand_value import evaluate_high, evaluate_low
from paigow.rules.house_rules import HouseRules, HouseWayName
from paigow.rules.house_way import house_way, house_way_clause
from paigow.rules.house_way_text import clause_text
from paigow.rules.showdown import showdown
from paigow.rules.splits import FoulError, Split, check_split, split_from_low
from paigow_server.store.practice import Claim
from paigow_server.web.analysis_routes import parse_house_way, played_analysis, run_analysis
from paigow_server.web.api import ApiError, json_body, only_fields
from paigow_server.web.context import context_of
from paigow_server.web.rate_limits import Limit
from paigow_server.web.session_routes import current_player

__all__ = ["routes"]


def _hand(cards: list[Card], split: Split, rules: HouseRules, by_house_way: bool) -> dict[str, Any]:
    return {"dealt": [str(c) for c in cards], "high": [str(c) for c in split.high],
            "low": [str(c) for c in split.low], "high_name": evaluate_high(split.high, rules).name,
            "low_name": evaluate_low(split.low).name,
            "house_way_clause": clause_text(house_way_clause(cards, rules), split) if by_house_way else None}


def _low(value: Any, cards: list[Card]) -> list[Card]:
    """The two low-hand cards of a ``set``, checked like the table's ``set_hand``."""
    if not isinstance(value, list) or len(value) != 2:
        raise ApiError(400, "INVALID_CARDS", f"low must be a list of the two cards of your low hand, "
                                             f"not {value!r}"[:300])
    try:
        low = [card_from_text(v) for v in value]
        check_distinct(low)
    except (InvalidCardError, TypeError) as exc:
        raise ApiError(400, "INVALID_CARDS", f"low hand {value!r}: {exc}"[:300]) from None
    for c in low:
        if c not in cards:
            raise ApiError(400, "NOT_YOUR_CARDS", f"{c} is not in your hand {format_cards(cards)!r}")
    return low


def _answered(deal_id: str) -> ApiError:
    return ApiError(409, "DEAL_ANSWERED", f"practice deal {deal_id!r} has been set already: deal again")


async def new_deal(request: Request) -> Response:
    data = await json_body(request)
    player = await current_player(request)
    only_fields(data, {"house_way"})
    way = parse_house_way(data.get("house_way", HouseWayName.TRUMP_PLAZA))
    ctx = context_of(request)
    await ctx.rate_limits.check_account(Limit.PRACTICE_DEALS, player.player_id)
    await ctx.rate_limits.check(request, Limit.PRACTICE_DEALS)
    deal = await ctx.practice.deal(player.player_id, str(way), int(time.time() * 1000))
    return JSONResponse({"deal_id": deal.deal_id, "cards": list(deal.cards), "house_way": deal.house_way,
                         "house_way_hand": _house_way_hand(deal.cards, HouseRules(house_way=way)),
                         "expires_ms": deal.expires_ms}, status_code=201)


def _house_way_hand(dealt: Sequence[str], rules: HouseRules) -> dict[str, Any]:
    """The player's seven cards as the deal's House Way sets them, with its clause in words (as the table's
    ``you.house_way``): what ``{"house_way": true}`` would set, for the page to show before sending it."""
    cards = [card_from_text(c) for c in dealt]
    split = house_way(cards, rules)
    return {"high": [str(c) for c in split.high], "low": [str(c) for c in split.low],
            "clause": clause_text(house_way_clause(cards, rules), split)}


async def set_deal(request: Request) -> Response:
    data = await json_body(request)
    player = await current_player(request)
    only_fields(data, {"low", "house_way"})
    if ("low" in data) == ("house_way" in data):
        raise ApiError(400, "INVALID_FIELD", "send either low (the two cards of your low hand) or "
                                             "\"house_way\": true, not both nor neither")
    if "house_way" in data and data["house_way"] is not True:
        raise ApiError(400, "INVALID_FIELD", f"house_way must be true, not {data['house_way']!r}"[:300])
    ctx = context_of(request)
    deal_id = request.path_params["deal_id"]
    deal = await ctx.practice.load(player.player_id, deal_id)
    if deal is None:
        raise ApiError(404, "DEAL_NOT_FOUND", f"no open practice deal {deal_id!r} of yours (a deal lasts an "
                                              "hour, and a new deal replaces the last)"[:300])
    if deal.answered:
        raise _answered(deal_id)
    rules = HouseRules(house_way=HouseWayName(deal.house_way))
    cards = [card_from_text(c) for c in deal.cards]
    by_house_way = "house_way" in data
    split = house_way(cards, rules) if by_house_way else split_from_low(cards, _low(data["low"], cards))
    try:
        check_split(split, rules)
    except FoulError as exc:
        raise ApiError(400, "FOUL", str(exc)[:300]) from None
    you = _hand(cards, split, rules, by_house_way)

    async def claimed() -> None:
        claim = await ctx.practice.claim(player.player_id, deal_id)
        if claim is Claim.ANSWERED:
            raise _answered(deal_id)
        if claim is Claim.NOT_FOUND:
            raise ApiError(404, "DEAL_NOT_FOUND", f"practice deal {deal_id!r} was replaced by a new deal")

    doc = played_analysis(await run_analysis(request, player.player_id, list(deal.cards), rules,
                                             before=claimed), you)
    dealer_cards = [card_from_text(c) for c in deal.dealer]
    dealer_split = house_way(dealer_cards, rules)
    result = showdown(split, dealer_split, rules)
    return JSONResponse({
        "deal_id": deal_id, "cards": list(deal.cards), "house_way": deal.house_way,
        "you": {**you, "set_by": "house_way" if by_house_way else "player"},
        "dealer": _hand(dealer_cards, dealer_split, rules, True),
        "result": {"high": str(result.high), "low": str(result.low), "outcome": str(result.outcome)},
        "analysis": doc})


def routes() -> list[BaseRoute]:
    return [
        Route("/api/practice/deals", new_deal, methods=["POST"]),
        Route("/api/practice/deals/{deal_id}/set", set_deal, methods=["POST"]),
    ]
