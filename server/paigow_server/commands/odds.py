"""``paigow odds [--json]``: the exact odds of the commission-free forms and the Queen's Dragon (§4a).

Counts, over all 154,143,080 seven-card hands of the 53-card deck, the queen-high pai gows (the hand EZ Pai
Gow bars and the Queen's Dragon pays 50 to 1 on: combinatorially, ``paigow.rules.queens_dragon``, and
again over the classes of hands as a check) and, for each House Way, the hands whose House Way low hand is
nine-high (the hand the 9-high form bars: ``paigow.rules.commission_free_count``, about two seconds a
way). ``--json`` prints one object::

    {"total": 154143080,
     "queens_dragon": {"hands": 2719500, "pays": 50, "house_edge": 0.100222},
     "nine_high_low": {"trump_plaza": 3853596, "foxwoods": 3853596, "ballys_ac": 3855516},
     "queen_high_by_class": 2719500,
     "probabilities": {"queen_high_pai_gow": 0.017643, "nine_high_low": {"trump_plaza": ..., ...}},
     "published": {"queens_dragon_hands": 2719500, "queens_dragon_house_edge": 0.100222,
                   "tiger_9_probability_trump_plaza": 0.025007},
     "seconds": 7.9}

``house_edge`` and the probabilities are fractions rounded to 6 places; ``published`` holds the figures
docs/rules.md §4a cites (Wizard of Odds), beside which the counts are set.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from paigow.rules.house_rules import HouseWayName

__all__ = ["PUBLISHED", "register", "report", "run"]

PUBLISHED = {"queens_dragon_hands": 2_719_500, "queens_dragon_house_edge": 0.100222,
             "tiger_9_probability_trump_plaza": 0.025007}
"""The published figures (docs/rules.md §4a): the Queen's Dragon's count and house edge, and Wizard of
Odds' probability of a nine-high dealer low hand under its Trump Plaza House Way (its Tiger 9 bet)."""


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "odds", help="exact odds of the commission-free forms and the Queen's Dragon",
        description="Count every seven-card hand of the 53-card deck: the queen-high pai gows (EZ Pai Gow's "
                    "push, the Queen's Dragon's win at 50 to 1) and, under each House Way, the nine-high "
                    "low hands (the 9-high commission-free form's push).",
        epilog="--json prints {\"total\": N, \"queens_dragon\": {\"hands\", \"pays\", \"house_edge\"}, "
               "\"nine_high_low\": {house_way: hands}, \"queen_high_by_class\": N, \"probabilities\", "
               "\"published\", \"seconds\"}.")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.set_defaults(run=run)


def report() -> dict[str, Any]:
    """The exact figures (computed here: a few seconds)."""
    from paigow.rules.commission_free_count import count_queen_high_by_class, nine_high_low_counts
    from paigow.rules.queens_dragon import (
        QUEENS_DRAGON_PAYS,
        SEVEN_CARD_HANDS,
        count_queen_high_pai_gow,
        queens_dragon_house_edge,
    )

    queen_high = count_queen_high_pai_gow()
    nine_high = {str(way): n for way, n in nine_high_low_counts().items()}
    return {
        "total": SEVEN_CARD_HANDS,
        "queens_dragon": {"hands": queen_high, "pays": QUEENS_DRAGON_PAYS,
                          "house_edge": round(float(queens_dragon_house_edge(queen_high)), 6)},
        "nine_high_low": nine_high,
        "queen_high_by_class": count_queen_high_by_class(),
        "probabilities": {"queen_high_pai_gow": round(queen_high / SEVEN_CARD_HANDS, 6),
                          "nine_high_low": {way: round(n / SEVEN_CARD_HANDS, 6)
                                            for way, n in nine_high.items()}},
        "published": dict(PUBLISHED),
    }


def _text(data: dict[str, Any], seconds: float) -> str:
    total = data["total"]
    dragon = data["queens_dragon"]
    tiger = data["published"]["tiger_9_probability_trump_plaza"]
    lines = [
        f"all {total:,} seven-card hands of 53 cards ({seconds:.1f} s)",
        f"queen-high pai gow (EZ push, Queen's Dragon win): {dragon['hands']:,} "
        f"({dragon['hands'] / total:.4%}; by class {data['queen_high_by_class']:,}; published "
        f"{data['published']['queens_dragon_hands']:,})",
        f"Queen's Dragon at {dragon['pays']} to 1: house edge {dragon['house_edge']:.4%}",
        "nine-high House Way low hand (9-high push):",
    ]
    for way, n in data["nine_high_low"].items():
        lines.append(f"  {HouseWayName(way).display_name:24}{n:>12,}  {n / total:.6f}")
    lines.append(f"  {'published (Trump Plaza)':24}{round(tiger * total):>12,}  {tiger:.6f}  "
                 "(Wizard of Odds, Tiger 9)")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    started = time.perf_counter()
    data = report()
    seconds = time.perf_counter() - started
    if args.json:
        data["seconds"] = round(seconds, 3)
        print(json.dumps(data))
    else:
        print(_text(data, seconds))
    return 0
