"""``paigow split "As Ks Qs Js Ts 2c 3d" [--house-way NAME]``: the House Way split of seven cards, both hands
named, and the House Way and clause that set them.

``--json`` prints ``{"high": [...], "low": [...], "high_name": ..., "low_name": ..., "house_way": "foxwoods",
"clause": n, "clause_name": "two_pair"}`` (``clause`` is the clause's number in that way's section of
docs/rules.md). Bad cards (or not exactly seven distinct ones) exit with status 2 and the reason on
standard error, no traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from paigow.rules.house_rules import HouseWayName

__all__ = ["add_house_way_option", "house_way_name", "register", "run"]


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "split", help="set seven cards the House Way",
        description="Set seven cards by a House Way (Trump Plaza by default) and name both hands and the "
                    "clause. Cards: rank 2-9 T (or 10) J Q K A and suit c d h s, or JK for the joker, e.g. "
                    "\"As Ks Qs Js Ts 2c 3d\".")
    parser.add_argument("cards", nargs="+", help="the seven cards (one quoted argument or seven)")
    add_house_way_option(parser)
    parser.add_argument("--json", action="store_true", help="print the split as JSON")
    parser.set_defaults(run=run)


def house_way_name(text: str) -> HouseWayName:
    """A ``--house-way`` argument: one of ``HouseWayName``, or an argparse error naming the choices."""
    try:
        return HouseWayName(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a House Way (choose from {', '.join(HouseWayName)})") from None


def add_house_way_option(parser: argparse.ArgumentParser) -> None:
    """``--house-way NAME`` (``paigow split`` and ``paigow sim``): one of ``HouseWayName``."""
    parser.add_argument("--house-way", type=house_way_name, default=HouseWayName.TRUMP_PLAZA, metavar="NAME",
                        help="the House Way: " + ", ".join(HouseWayName) + " (default trump_plaza)")


def run(args: argparse.Namespace) -> int:
    from paigow.rules.cards import parse_cards
    from paigow.rules.hand_value import evaluate_high, evaluate_low
    from paigow.rules.house_rules import HouseRules
    from paigow.rules.house_way import house_way, house_way_clause

    text = " ".join(args.cards)
    rules = HouseRules(house_way=args.house_way)
    try:
        cards = parse_cards(text)
        split = house_way(cards, rules)
    except ValueError as exc:
        print(f"paigow split: {exc}", file=sys.stderr)
        return 2
    high, low = evaluate_high(split.high, rules), evaluate_low(split.low)
    clause = house_way_clause(cards, rules)
    if args.json:
        print(json.dumps({
            "high": [str(c) for c in split.high],
            "low": [str(c) for c in split.low],
            "high_name": high.name,
            "low_name": low.name,
            "house_way": str(rules.house_way),
            "clause": int(clause),
            "clause_name": clause.name.lower(),
        }))
        return 0
    high_text = " ".join(str(c) for c in split.high)
    low_text = " ".join(str(c) for c in split.low)
    width = max(len(high_text), len(low_text))
    print(f"high hand: {high_text:<{width}}  {high.name}")
    print(f"low hand:  {low_text:<{width}}  {low.name}")
    print(f"({rules.house_way.display_name} House Way, clause {int(clause)}: "
          f"{clause.name.lower().replace('_', ' ')})")
    return 0
