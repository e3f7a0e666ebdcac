"""Split analyses over HTTP (docs/http-api.md, "Split analysis"), for a player's session token.

``POST /api/analyze {"cards": [7 card texts], "house_way"?}`` -> every legal split's odds against the
House Way dealer, the best and the House Way's (``process.analysis_pool``'s JSON, with hand names and a
``summary``). ``GET /api/tables/{id}/rounds/{round_id}/analysis`` -> the same for the caller's own hand of
a settled round, with the split they set, its EV and the EV it gave up, which is then kept with the hand in
the player's history and the export (``store.hand_analyses``); at a private table only for a caller who may
see it (``private_access``: anyone else gets the unknown table's 404). Both run in the analysis process
pool (never on the event loop), waiting their turn in its fair queue (a seated player's hand of the table's
last settled round first; accounts and address networks in turn, each with at most
``analysis_queue_per_client`` places: ``429 ANALYSIS_QUEUE_FULL`` past them), and count against the account's
``analyses_per_minute``; a refused request (400, 401, 404, 409, 429, 503) counts nothing and runs nothing.

No live aid: where the deployment's ``no_live_aid`` is in force (``Settings.refuses_live_aid``), seven cards
that are a seated player's hand in a round still in play (``store.live_hands``: anyone's, the caller's own
included) are refused ``409 LIVE_HAND`` until the round is over; the played hand's analysis is of settled
rounds only anyway, and the House Way button at the table is a command, not an analysis.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from paigow.rules.cards import InvalidCardError, card_from_text, check_distinct
from paigow.rules.house_rules import HouseRules, HouseWayName
from paigow.table.state import TableState
from paigow_server.process.analysis_pool import AnalysisBusy, AnalysisQueueFull, Priority
from paigow_server.store.hand_analyses import stored_analysis
from paigow_server.store.history import TABLE_ROUNDS_KEPT
from paigow_server.web.api import ApiError, json_body, only_fields, retry_after
from paigow_server.web.context import context_of
from paigow_server.web.private_access import no_table, require_access
from paigow_server.web.rate_limits import Limit
from paigow_server.web.session_routes import current_player

__all__ = ["parse_house_way", "played_analysis", "routes", "run_analysis"]

_CARDS_HINT = "a list of the seven cards as texts such as \"As\", \"Td\" or \"JK\""


def _cards(value: Any) -> list[str]:
    """Seven distinct cards in their wire form (``card_from_text``), or a 400 ``INVALID_CARDS``."""
    if not isinstance(value, list):
        raise ApiError(400, "INVALID_CARDS", f"cards must be {_CARDS_HINT}, not {value!r}"[:300])
    if len(value) != 7:
        raise ApiError(400, "INVALID_CARDS", f"cards must be seven cards, not {len(value)}")
    try:
        cards = [card_from_text(v) for v in value]
        check_distinct(cards)
    except InvalidCardError as exc:
        raise ApiError(400, "INVALID_CARDS", str(exc)[:300]) from None
    return [str(c) for c in cards]


def parse_house_way(value: Any) -> HouseWayName:
    """A House Way by its name, or a 400 ``INVALID_FIELD`` naming the choices."""
    try:
        return HouseWayName(value)
    except ValueError:
        choices = ", ".join(repr(str(w)) for w in HouseWayName)
        message = f"house_way must be one of {choices}, not {value!r}"
        raise ApiError(400, "INVALID_FIELD", message[:300]) from None


def _named(entry: dict[str, Any]) -> str:
    return (f"{' '.join(entry['high'])} | {' '.join(entry['low'])} ({entry['high_name']} / "
            f"{entry['low_name']}): EV {entry['ev']:+.4f}")


def _summary(doc: dict[str, Any]) -> str:
    best, house = doc["best"], doc["house_way"]
    text = f"Best split: {_named(best)} per unit bet."
    if best == house:
        return text + " It is the House Way's split."
    return text + f" The House Way's split, {_named(house)}, is {best['ev'] - house['ev']:.4f} below it."


async def run_analysis(request: Request, player_id: str, cards: list[str], rules: HouseRules, *,
                       before: Callable[[], Awaitable[None]] | None = None,
                       priority: Priority = Priority.OTHER) -> dict[str, Any]:
    """The analysis in the pool, once its turn comes and the account's limit allows it (and ``before``,
    if given, has not raised)."""
    ctx = context_of(request)
    network = ctx.rate_limits.client_network(request)
    try:
        async with ctx.analyses.turn(player_id, network, priority):
            await ctx.rate_limits.check_account(Limit.ANALYSES, player_id)
            if before is not None:
                await before()
            # A seed below 2**53 survives a browser's JSON numbers, so the page can show a repeatable one.
            doc = await ctx.analyses.analyze(cards, rules, secrets.randbits(53))
    except AnalysisQueueFull as exc:
        raise retry_after(429, "ANALYSIS_QUEUE_FULL",
                          f"{exc.places} analyses of yours (this account, or your address network {network}) "
                          "are waiting or running already; ask again once one is answered", 1) from None
    except AnalysisBusy:
        raise retry_after(503, "ANALYSIS_BUSY", "every analysis place is taken; try again in a second",
                          1) from None
    doc["summary"] = _summary(doc)
    return doc


async def analyze_cards(request: Request) -> Response:
    data = await json_body(request)
    player = await current_player(request)
    only_fields(data, {"cards", "house_way"})
    if "cards" not in data:
        raise ApiError(400, "INVALID_CARDS", f"cards is required: {_CARDS_HINT}")
    cards = _cards(data["cards"])
    rules = HouseRules(house_way=parse_house_way(data.get("house_way", HouseWayName.TRUMP_PLAZA)))
    ctx = context_of(request)
    if ctx.settings.refuses_live_aid and await ctx.live_hands.is_live(cards):
        raise ApiError(409, "LIVE_HAND", "these seven cards are a hand in a round still being played at a "
                                         "table; no analysis of a live hand here: ask again once its round "
                                         "is over")
    return JSONResponse(await run_analysis(request, player.player_id, cards, rules))


def _chosen(doc: dict[str, Any], hand: dict[str, Any]) -> dict[str, Any]:
    """The split the player set, as an entry of ``doc["splits"]``; a foul (an automatic loss) is not
    among them, and is shown with EV -1."""
    for entry in doc["splits"]:
        if sorted(entry["low"]) == sorted(hand["low"]):
            return {**entry, "legal": True}
    return {"low": hand["low"], "high": hand["high"], "win": 0.0, "push": 0.0, "loss": 1.0, "ev": -1.0,
            "ev_se": 0.0, "high_name": hand["high_name"], "low_name": hand["low_name"], "legal": False}


def played_analysis(doc: dict[str, Any], hand: dict[str, Any]) -> dict[str, Any]:
    """The analysis of a hand as it was set (``hand``: its ``high``, ``low`` and their names): the analysis
    JSON with ``chosen``, ``ev_given_up`` and a ``summary`` naming both splits."""
    doc["chosen"] = _chosen(doc, hand)
    doc["ev_given_up"] = doc["best"]["ev"] - doc["chosen"]["ev"]
    doc["summary"] = _round_summary(doc)
    return doc


def _round_summary(doc: dict[str, Any]) -> str:
    chosen, best = doc["chosen"], doc["best"]
    if not chosen["legal"]:
        split = f"{' '.join(chosen['high'])} | {' '.join(chosen['low'])}"
        text = f"Your split {split} was foul: an automatic loss."
    else:
        text = f"Your split: {_named(chosen)}."
    if doc["ev_given_up"] <= 0:
        return text + " That is the best split."
    return text + f" The best: {_named(best)}; you gave up {doc['ev_given_up']:.4f} per unit bet."


async def _round_record(state: TableState, request: Request, round_id: str) -> tuple[dict[str, Any], bool]:
    """The settled round's record, and whether it is the table's newest."""
    ctx = context_of(request)
    for index, record in enumerate(await ctx.tables.shown.table_rounds(state.table_id, TABLE_ROUNDS_KEPT)):
        if record["round_id"] == round_id:
            return record, index == 0
    if state.round is not None and state.round.round_id == round_id:
        raise ApiError(409, "ROUND_NOT_SETTLED",
                       f"round {round_id!r} is still being played: its analysis is ready once it is settled")
    raise ApiError(404, "ROUND_NOT_FOUND",
                   f"no settled round {round_id!r} among the last {TABLE_ROUNDS_KEPT} of table "
                   f"{state.table_id!r}")


def _priority(state: TableState, newest: bool, player_id: str) -> Priority:
    """``PLAYED`` for a player seated at the table asking about its newest settled round, else ``OTHER``
    (an older hand, or one asked about from elsewhere: the history's back-fill)."""
    return Priority.PLAYED if newest and state.seat_of(player_id) is not None else Priority.OTHER


async def analyze_round_hand(request: Request) -> Response:
    player = await current_player(request)
    ctx = context_of(request)
    table_id, round_id = request.path_params["table_id"], request.path_params["round_id"]
    await require_access(ctx, table_id, player.player_id)  # else the round's answers would count its rounds
    state = await ctx.tables.shown.load(table_id)
    if state is None:
        raise no_table(table_id)
    record, newest = await _round_record(state, request, round_id)
    hand = next((h for h in record["hands"] if h["player_id"] == player.player_id), None)
    if hand is None:
        raise ApiError(404, "HAND_NOT_FOUND", f"you had no hand in round {round_id!r}")
    if hand["is_banker"]:
        raise ApiError(409, "BANKER_HAND", f"you were the banker in round {round_id!r}: the analysis is of a "
                                           "player's hand against the house dealer")
    rules = HouseRules(house_way=state.rules.house_way, wheel=state.rules.wheel,
                       commission_bps=state.rules.commission_bps)
    doc = played_analysis(await run_analysis(request, player.player_id, list(hand["dealt"]), rules,
                                             priority=_priority(state, newest, player.player_id)), hand)
    await ctx.hand_analyses.keep(player.player_id, round_id, stored_analysis(doc, int(time.time() * 1000)))
    return JSONResponse({"table_id": table_id, "round_id": round_id, "number": record["number"],
                         "position": hand["position"], "set_by": hand["set_by"], "fouled": hand["fouled"],
                         "outcome": hand["outcome"], **doc})


def routes() -> list[BaseRoute]:
    return [
        Route("/api/analyze", analyze_cards, methods=["POST"]),
        Route("/api/tables/{table_id}/rounds/{round_id}/analysis", analyze_round_hand, methods=["GET"]),
    ]
