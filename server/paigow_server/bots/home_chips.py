"""A home game's own chips for the bots (issue 31; docs/home-games.md, "The game's own chips"): the chip
setting of each table a ``--private`` run opens, the decisions a bot takes about buy-ins (the host answers
every request waiting, now and then with an edited amount or a denial; a player low on chips asks for a
rebuy between rounds), and the check that every game sums to zero at the end."""

from __future__ import annotations

import random
from typing import Any

__all__ = ["chip_action", "chip_setting", "game_problems", "waiting_for_buy_in"]

Json = dict[str, Any]

DENY_RATE = 0.1
"""How often the host denies a request (the player asks again)."""
EDIT_RATE = 0.3
"""How often the host approves another amount than the one asked."""


def chip_setting(table: int, buy_in_cents: int) -> Json:
    """The ``chips`` of the ``table``-th home game: buy-ins of ``buy_in_cents`` (half to twice it), rebuys
    on, the host approving each; every other table has the players bank in turn, with 5% commission on
    every third."""
    return {"default_buy_in_cents": buy_in_cents, "min_buy_in_cents": max(buy_in_cents // 2, 1),
            "max_buy_in_cents": buy_in_cents * 2, "rebuys": True, "auto_approve": False,
            "players_bank_in_turn": table % 2 == 0,
            "commission": "five_percent" if table % 3 == 2 else "none"}


def _chips(view: Json) -> Json | None:
    home = view.get("home")
    return None if home is None else home.get("chips")


def waiting_for_buy_in(view: Json, player_id: str | None) -> bool:
    """The bot's own buy-in or rebuy waits for the host."""
    chips = _chips(view)
    return chips is not None and any(r["player_id"] == player_id for r in chips["requests"])


def chip_action(view: Json, player_id: str | None, rng: random.Random) -> Json | None:
    """What a bot does about the game's chips now (None: nothing). The host answers the oldest request
    waiting; a seated player whose stack is below two minimum bets asks for a rebuy between rounds."""
    chips = _chips(view)
    if chips is None or player_id is None:
        return None
    home = view["home"]
    if home["host_player_id"] == player_id and chips["requests"]:
        request = next((r for r in chips["requests"] if r.get("approved_cents") is None), None)
        if request is not None:
            roll = rng.random()
            if roll < DENY_RATE:
                return {"type": "host_buy_in", "request_id": request["request_id"], "approve": False}
            answer: Json = {"type": "host_buy_in", "request_id": request["request_id"], "approve": True}
            if roll < DENY_RATE + EDIT_RATE:
                answer["amount_cents"] = rng.randint(chips["min_buy_in_cents"], chips["max_buy_in_cents"])
            return answer
    you = view.get("you")
    if (you is not None and chips["rebuys"] and view["phase"] == "idle"
            and you["chips_cents"] < 2 * view["rules"]["min_bet_cents"]
            and not waiting_for_buy_in(view, player_id)):
        return {"type": "rebuy", "amount_cents": chips["default_buy_in_cents"]}
    return None


def game_problems(games: list[Json], table_ids: list[str]) -> list[str]:
    """What does not add up in the home games ``table_ids`` of the operator's money check (``home_games``):
    each must be balanced, and with every bot gone, its chips issued must equal its cash-outs plus the
    house's and the commission's lines (nothing left at the table)."""
    problems: list[str] = []
    by_id = {g["table_id"]: g for g in games}
    for table_id in table_ids:
        game = by_id.get(table_id)
        if game is None:
            problems.append(f"home game {table_id} is not in the money check's home_games")
            continue
        parts = sum(game[k] for k in ("stacks_cents", "cashed_out_cents", "house_cents", "commission_cents"))
        if not game["balanced"] or parts != game["issued_cents"]:
            problems.append(f"home game {table_id}: {game['issued_cents']} cents issued, but stacks, "
                            f"cash-outs, house and commission make {parts}")
    return problems
