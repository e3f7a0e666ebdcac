"""A home game's chips as ``view.home.chips`` shows them (docs/protocol.md), for the ledger download.

(A stand-in for the core's view of the chips, read off the same state fields: the downloads use it until
the core's own view is merged, and must show exactly what the view shows.)
"""

from __future__ import annotations

from typing import Any

from paigow.table.home_chips import ChipLineKind
from paigow.table.settle_up import Party, settle_up
from paigow.table.state import Phase, TableState

__all__ = ["chips_view"]


def chips_view(state: TableState) -> dict[str, Any] | None:
    home = state.home
    chips = None if home is None else home.chips
    if home is None or chips is None:
        return None
    stacks = {seat.player_id: seat.chips_cents for seat in state.seats if seat is not None}
    players: dict[str, dict[str, Any]] = {}
    field = {ChipLineKind.BUY_IN: "buy_ins_cents", ChipLineKind.REBUY: "buy_ins_cents",
             ChipLineKind.ADD: "added_cents", ChipLineKind.TAKE_BACK: "taken_cents",
             ChipLineKind.CASH_OUT: "cashed_out_cents"}
    for line in chips.lines:
        player = players.setdefault(line.player_id, {
            "player_id": line.player_id, "name": line.name, "buy_ins_cents": 0, "added_cents": 0,
            "taken_cents": 0, "cashed_out_cents": 0})
        player["name"] = line.name
        player[field[line.kind]] += line.amount_cents
    for player in players.values():
        stack = stacks.get(player["player_id"])
        player["stack_cents"] = stack
        player["net_cents"] = ((stack or 0) + player["cashed_out_cents"]
                               - (player["buy_ins_cents"] + player["added_cents"] - player["taken_cents"]))
    issued = sum(p["buy_ins_cents"] + p["added_cents"] - p["taken_cents"] for p in players.values())
    cashed = sum(p["cashed_out_cents"] for p in players.values())
    stacked = sum(stacks.values())
    house = state.ledger.house_net_cents - chips.commission_cents
    payments = None
    if state.phase == Phase.CLOSED:
        parties = [Party(p["player_id"], p["name"], p["net_cents"]) for p in players.values()]
        parties += [Party(pid, name, net) for pid, name, net in
                    (("house", "House", house), ("commission", "Commission pot", chips.commission_cents))
                    if net != 0]
        payments = [{"from_id": p.from_id, "from_name": p.from_name, "to_id": p.to_id, "to_name": p.to_name,
                     "amount_cents": p.amount_cents} for p in settle_up(parties)]
    return {
        "default_buy_in_cents": chips.default_buy_in_cents, "min_buy_in_cents": chips.min_buy_in_cents,
        "max_buy_in_cents": chips.max_buy_in_cents, "max_buy_in_cap_cents": home.max_buy_in_cap_cents,
        "rebuys": chips.rebuys, "auto_approve": chips.auto_approve, "commission": str(chips.commission),
        "players_bank_in_turn": state.rules.players_bank_in_turn,
        "requests": [{"request_id": r.request_id, "player_id": r.player_id, "name": r.name,
                      "amount_cents": r.amount_cents, "rebuy": r.rebuy, "position": r.position,
                      "approved_cents": r.approved_cents} for r in chips.requests],
        "lines": [{"line": x.line, "kind": str(x.kind), "player_id": x.player_id, "name": x.name,
                   "amount_cents": x.amount_cents, "by_player_id": x.by_player_id, "by_name": x.by_name,
                   "automatic": x.automatic, "reason": x.reason, "round_number": x.round_number,
                   "at_ms": x.at_ms} for x in chips.lines],
        "players": list(players.values()),
        "issued_cents": issued, "stacks_cents": stacked, "cashed_out_cents": cashed, "house_cents": house,
        "commission_cents": chips.commission_cents,
        "balanced": issued == stacked + cashed + house + chips.commission_cents,
        "settle_up": payments,
    }
