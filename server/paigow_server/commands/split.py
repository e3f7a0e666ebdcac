"""``paigow split "As Ks Qs Js Ts 2c 3d"``: the House Way split of seven cards, both hands named.

``--json`` prints ``{"high": [...], "low": [...], "high_name": ..., "low_name": ..., "clause": n}``. Bad cards
(or not exactly seven distinct ones) exit with status 2 and the reason on standard error, no traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

__all__ = ["register", "run"]


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "split", help="set seven cards the House Way",
        description="Set seven cards by the Trump Plaza House Way and name both hands. Cards: rank 2-9 T "
                    "(or 10) J Q K A and suit c d h s, or JK for the joker, e.g. \"As Ks Qs Js Ts 2c 3d\".")
    parser.add_argument("cards", nargs="+", help="the seven cards (one quoted argument or seven)")
    parser.add_argument("--json", action="store_true", help="print the split as JSON")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from paigow.rules.cards import parse_cards
    from paigow.rules.hand_value import evaluate_high, evaluate_low
    from paigow.rules.house_way import house_way, house_way_clause

    text = " ".join(args.cards)
    try:
        cards = parse_cards(text)
        split = house_way(cards)
    except ValueError as exc:
        print(f"paigow split: {exc}", file=sys.stderr)
        return 2
    high, low = evaluate_high(split.high), evaluate_low(split.low)
    clause = house_way_clause(cards)
    if args.json:
        print(json.dumps({
            "high": [str(c) for c in split.high],
            "low": [str(c) for c in split.low],
            "high_name": high.name,
            "low_name": low.name,
            "clause": int(clause),
        }))
        return 0
    high_text = " ".join(str(c) for c in split.high)
    low_text = " ".join(str(c) for c in split.low)
    width = max(len(high_text), len(low_text))
    print(f"high hand: {high_text:<{width}}  {high.name}")
    print(f"low hand:  {low_text:<{width}}  {low.name}")
    print(f"(House Way clause {int(clause)}: {clause.name.lower().replace('_', ' ')})")
    return 0
