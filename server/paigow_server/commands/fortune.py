"""``paigow fortune [--json] [--pay-table NAME]``: the exact odds of the Fortune bonus side bet.

Counts every one of the 154,143,080 seven-card hands of the 53-card deck by Fortune category
(``paigow.rules.fortune_count``, a few seconds) and prints the counts, the total, whether they match the
published counts, and for each pay table (or only ``--pay-table NAME``) its pays, its house edge and the
Envy bonus a qualifying bettor collects on average from each other seat. ``--json`` prints one object::

    {"total": 154143080,
     "counts": {"seven_card_straight_flush": 32, ..., "nothing": 124556196},
     "matches_published": true,
     "pay_tables": {"fortune-8000": {"house_edge": 0.077656, "envy_per_seat_cents": 4.6342,
                                     "envy_min_bet_cents": 500,
                                     "pays": {"seven_card_straight_flush": 8000, ...},
                                     "envy_cents": {"seven_card_straight_flush": 500000, ...}}, ...},
     "seconds": 1.9}

``house_edge`` is a fraction of the bet (rounded to 6 places), ``envy_per_seat_cents`` cents per other
seat's hand (4 places); categories run from the best down, by their lower-case names.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Mapping
from typing import Any

from paigow.rules.fortune import PAY_TABLES, FortuneHand, FortunePayTable

__all__ = ["register", "report", "run"]


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "fortune", help="exact odds of the Fortune bonus side bet",
        description="Count every seven-card hand of the 53-card deck by Fortune category and print the "
                    "counts and, for each pay table, its house edge and the Envy bonus per other seat.",
        epilog="--json prints {\"total\": N, \"counts\": {category: hands, ...}, \"matches_published\": "
               "true, \"pay_tables\": {name: {\"house_edge\": fraction, \"envy_per_seat_cents\": cents, "
               "\"envy_min_bet_cents\": 500, \"pays\": {category: X (to 1)}, \"envy_cents\": {category: "
               "cents}}}, \"seconds\": s}; categories by lower-case name, best first.")
    parser.add_argument("--pay-table", choices=list(PAY_TABLES), default=None, metavar="NAME",
                        help=f"report only this pay table ({', '.join(PAY_TABLES)}; default: every one)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.set_defaults(run=run)


def _by_name(amounts: Mapping[FortuneHand, int]) -> dict[str, int]:
    return {h.name.lower(): amounts[h] for h in FortuneHand if h in amounts}


def report(counts: Mapping[FortuneHand, int], tables: list[FortunePayTable]) -> dict[str, Any]:
    """The JSON figures for these counts (by category) and pay tables."""
    from paigow.rules.fortune_count import FORTUNE_COUNTS

    return {
        "total": sum(counts.values()),
        "counts": _by_name(counts),
        "matches_published": dict(counts) == dict(FORTUNE_COUNTS),
        "pay_tables": {t.name: {
            "house_edge": round(t.house_edge(counts), 6),
            "envy_per_seat_cents": round(t.envy_per_seat_cents(counts), 4),
            "envy_min_bet_cents": t.envy_min_bet_cents,
            "pays": _by_name(t.pays),
            "envy_cents": _by_name(t.envy_cents),
        } for t in tables},
    }


def _print(data: dict[str, Any], tables: list[FortunePayTable], seconds: float) -> None:
    from rich import box
    from rich.console import Console
    from rich.table import Table

    console = Console(highlight=False)
    total = data["total"]
    counts = {h: data["counts"][h.name.lower()] for h in FortuneHand}
    hands = Table(title=f"all {total:,} seven-card hands of 53 cards ({seconds:.1f} s)", box=box.SIMPLE_HEAD)
    hands.add_column("Fortune hand")
    hands.add_column("hands", justify="right")
    hands.add_column("one in", justify="right")
    for h, n in counts.items():
        hands.add_row(h.label, f"{n:,}", f"{total / n:,.1f}")
    hands.add_row("total", f"{total:,}", "", style="bold")
    console.print(hands)
    console.print("the counts match the published ones" if data["matches_published"]
                  else "[red]the counts DO NOT match the published ones[/]")
    for t in tables:
        figures = data["pay_tables"][t.name]
        pays = Table(title=f"pay table {t.name}", box=box.SIMPLE_HEAD)
        pays.add_column("Fortune hand")
        pays.add_column("pays", justify="right")
        pays.add_column("Envy", justify="right")
        pays.add_column("returns", justify="right")
        for h, n in counts.items():
            pays.add_row(h.label, f"{t.pays[h]:,} to 1" if h in t.pays else "loses",
                         f"${t.envy(h) / 100:,.0f}" if t.envy(h) else "", f"{n * t.net(h) / total:+.6f}")
        console.print(pays)
        envy = figures["envy_per_seat_cents"]
        console.print(f"[bold]{t.name}[/]: house edge {figures['house_edge']:.4%}\n"
                      f"  Envy per other seat ${envy / 100:.4f} ({envy / t.envy_min_bet_cents:.2%} of a "
                      f"${t.envy_min_bet_cents / 100:.2f} bet, the Envy minimum)")


def run(args: argparse.Namespace) -> int:
    from paigow.rules.fortune_count import count_fortune

    tables = [PAY_TABLES[args.pay_table]] if args.pay_table else list(PAY_TABLES.values())
    started = time.perf_counter()
    counts = count_fortune()
    seconds = time.perf_counter() - started
    data = report(counts, tables)
    if args.json:
        data["seconds"] = round(seconds, 3)
        print(json.dumps(data))
    else:
        _print(data, tables, seconds)
    return 0
