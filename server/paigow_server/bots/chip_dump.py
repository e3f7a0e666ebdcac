"""A planted chip-dumping bot (``paigow bots --chip-dump``): when its partner banks it bets the most the
table and the bank allow and throws the hand (a foul where the table counts a foul as a loss, else the
weakest legal split); under any other banker it plays as the honest bots do. The second looks
(docs/floor.md) must flag the pair; the test and the false-alarm measurement plant one."""

from __future__ import annotations

from typing import Any

from paigow.rules.cards import parse_card
from paigow.rules.house_rules import FoulPolicy, HouseRules, HouseWayName
from paigow.rules.splits import Split, all_splits, is_foul, legal_splits, split_keys

__all__ = ["DUMP_RULES", "dump_action", "thrown_low"]

Json = dict[str, Any]

DUMP_RULES: Json = {"foul_policy": "lose"}
"""The planted table's rules: a foul loses the hand (the partner banks whenever the marker reaches it, one
round in seven)."""


def thrown_low(cards: list[str], rules: HouseRules) -> list[str]:
    """The low hand of the split that most likely loses: a foul if the rules let one stand (a loss), else
    the legal split whose high and low hands are together the weakest."""
    parsed = [parse_card(text) for text in cards]
    if rules.foul_policy is FoulPolicy.LOSE:
        for split in all_splits(parsed):
            if is_foul(split, rules):
                return [str(card) for card in split.low]
    legal = legal_splits(parsed, rules)
    highs = sorted({split_keys(s, rules)[0] for s in legal})
    lows = sorted({split_keys(s, rules)[1] for s in legal})

    def weakness(split: Split) -> tuple[int, int]:
        high, low = split_keys(split, rules)
        return highs.index(high) + lows.index(low), high

    return [str(card) for card in min(legal, key=weakness).low]


def dump_action(view: Json, partner: str | None) -> Json | None:
    """The dumper's command in this view while ``partner`` banks (None: play as usual)."""
    rnd, you = view.get("round"), view.get("you")
    if partner is None or rnd is None or you is None or rnd.get("banker_player_id") != partner:
        return None
    rules = view["rules"]
    if view["phase"] == "betting" and not you["is_banker"] and you["bet_cents"] == 0:
        high = min(rules["max_bet_cents"], you["chips_cents"], you.get("own_max_bet_cents") or 10**12)
        if rnd.get("coverage_left_cents") is not None:
            high = min(high, rnd["coverage_left_cents"])
        return {"type": "place_bet", "amount_cents": high} if high >= rules["min_bet_cents"] else None
    if view["phase"] == "setting":
        mine = next((h for h in rnd["hands"] if h["position"] == you["position"]), None)
        if mine is None or mine["is_set"] or len(mine["cards"]) != 7 or not you["can"]["set_hand"]:
            return None
        house = HouseRules(house_way=HouseWayName(rules.get("house_way", HouseWayName.TRUMP_PLAZA)),
                           foul_policy=FoulPolicy(rules.get("foul_policy", FoulPolicy.REJECT)))
        return {"type": "set_hand", "low": thrown_low(list(mine["cards"]), house)}
    return None
