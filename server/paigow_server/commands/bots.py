"""``paigow bots``: bot players over real WebSockets against a running server, with a live display.

    paigow bots --url http://127.0.0.1:8000 --operator-token T --tables 10 --players-per-table 6 \\
        --spectators 2 --rounds 5 [--also-url http://127.0.0.1:8001] [--private] [--json]

Opens the tables (operator API), makes a session per bot player, plays the rounds (House Way, sometimes
banking, declining, dropping and reconnecting, sending bad input), then has every bot leave and prints a
summary: rounds, commands, errors by code, command-to-push latency p50/p95/p99, and whether every balance
and the house add up. ``--chip-dump`` plants a chip-dumping pair at the first table (``bots.chip_dump``).
Exit status: 0 all good, 1 the money does not add up, a hidden card leaked or a
table did not finish, 2 bad arguments or the server refused the set-up.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from rich.console import Console

from paigow_server.bots.api import ApiError
from paigow_server.bots.player import Behaviour
from paigow_server.bots.run import BotsConfig, RunResult, run_bots
from paigow_server.process import event_loop

__all__ = ["register", "run"]


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: must be at least 1")
    return value


def _count(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text!r}: must not be negative")
    return value


def _rate(text: str) -> float:
    value = float(text)
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"{text!r}: must be a probability from 0 to 1")
    return value


def think_ms(text: str) -> tuple[int, int]:
    """``LO,HI`` milliseconds, 0 <= LO <= HI (also the load benchmark's ``--think-ms``)."""
    try:
        low, high = (int(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: give LO,HI in milliseconds, e.g. 1000,4000") from None
    if not 0 <= low <= high:
        raise argparse.ArgumentTypeError(f"{text!r}: need 0 <= LO <= HI")
    return low, high


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "bots", help="bot players over WebSockets against a running server (load and soak runs)",
        description="Open tables and play them with bot players and spectators over real WebSockets; "
                    "print rounds, commands, errors by code, command-to-push latency and a money check.")
    parser.add_argument("--url", default="http://127.0.0.1:8000", help="the server (default %(default)s)")
    parser.add_argument("--also-url", action="append", default=[], metavar="URL",
                        help="another server process of the same Redis: bots are spread over all of them")
    parser.add_argument("--operator-token", default=os.environ.get("PAIGOW_OPERATOR_TOKEN"),
                        help="the operator token (default: $PAIGOW_OPERATOR_TOKEN)")
    parser.add_argument("--tables", type=_positive, default=2)
    parser.add_argument("--players-per-table", type=int, choices=range(1, 7), default=6, metavar="1..6")
    parser.add_argument("--spectators", type=_count, default=1, help="spectators per table")
    parser.add_argument("--rounds", type=_positive, default=3, help="rounds each table plays")
    parser.add_argument("--timeout", type=float, default=300.0, help="stop after this many seconds")
    parser.add_argument("--seed", type=int, help="seed of the bots' choices (not of the deal)")
    parser.add_argument("--bank-rate", type=_rate, default=0.3)
    parser.add_argument("--drop-rate", type=_rate, default=0.03)
    parser.add_argument("--bad-input-rate", type=_rate, default=0.05)
    parser.add_argument("--think-ms", type=think_ms, default=(0, 0), metavar="LO,HI",
                        help="each bot pauses uniformly LO..HI ms before each decision, as people do "
                             "(default 0,0: every bot acts the instant it can)")
    parser.add_argument("--private", action="store_true",
                        help="private tables (home games) with their own chips: a bot account hosts each "
                             "and answers the buy-in and rebuy requests, the others join by its invite (the "
                             "bots register accounts instead of guests); every game must sum to zero")
    parser.add_argument("--variants", action="store_true",
                        help="open each table with one of the casino variants in turn: EZ with the Queen's "
                             "Dragon, nine-high, the Dragon hand (set by the House Way, by its buyer), "
                             "co-banking (docs/rules.md §4a-§4c)")
    parser.add_argument("--chip-dump", action="store_true",
                        help="plant a chip-dumping pair among the honest bots, for the operator's second "
                             "looks (docs/floor.md): the first table is opened with a foul losing the hand; "
                             "its seat-1 bot banks whenever the bank reaches it (a round in seven), and its "
                             "seat-2 bot, which never banks, bets the most it may and fouls (or sets the "
                             "weakest split) whenever seat 1 banks. The summary names the pair (chip_dump). "
                             "Needs --players-per-table 2 or more; not with --private")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON, no live display")
    parser.set_defaults(run=run)


def _print_summary(result: RunResult, console: Console) -> None:
    s = result.summary()
    lat = s["latency_ms"]
    console.print(f"[bold]{s['rounds']} rounds[/] on {s['tables']} tables "
                  f"({s['tables_completed']} completed) in {s['duration_s']} s; "
                  f"{s['commands']} commands ({s['commands_per_s']}/s), "
                  f"{s['accepted']} accepted; {s['messages_received']} messages received")
    console.print(f"command-to-push latency: p50 {lat['p50']} ms, p95 {lat['p95']} ms, p99 {lat['p99']} ms, "
                  f"max {lat['max']} ms over {int(lat['count'])} commands")
    warm = s["latency_ms_after_warm_up"]
    console.print(f"  after the warm-up (every bot connected and seated): p50 {warm['p50']} ms, "
                  f"p95 {warm['p95']} ms, p99 {warm['p99']} ms, max {warm['max']} ms over "
                  f"{int(warm['count'])} commands")
    console.print(f"connections: peak {s['connections_peak']}, reconnects {s['reconnects']}")
    console.print(f"errors by code: {s['errors'] or 'none'}")
    console.print(f"bad frames sent on purpose: {s['bad_frames_sent']}, answered {s['bad_input_errors']}")
    console.print(f"hidden cards seen by the wrong viewer: {s['hidden_card_leaks']}")
    if s["variants"]:
        console.print(f"casino variants: {s['variants']}")
    if result.planted is not None:
        console.print(f"planted chip-dumping pair: banker {result.planted[0]}, dumper {result.planted[1]}")
    console.print(("[green]money adds up[/]: " if result.money_ok else "[red]MONEY DOES NOT ADD UP[/]: ")
                  + result.money_message)


def run(args: argparse.Namespace) -> int:
    urls = [args.url, *args.also_url]
    config = BotsConfig(
        url=args.url, operator_token=args.operator_token, tables=args.tables,
        players_per_table=args.players_per_table, spectators=args.spectators, rounds=args.rounds,
        seed=args.seed, timeout_s=args.timeout, private=args.private,
        behaviour=Behaviour(bank_rate=args.bank_rate, drop_rate=args.drop_rate,
                            bad_input_rate=args.bad_input_rate, think_ms=args.think_ms),
        table_urls=tuple("ws" + u.rstrip("/").removeprefix("http") for u in urls) if args.also_url else (),
        variants=args.variants, chip_dump=args.chip_dump,
    )
    if args.chip_dump and (args.private or args.players_per_table < 2):
        print("paigow bots: --chip-dump needs --players-per-table 2 or more and no --private",
              file=sys.stderr)
        return 2
    console = Console(stderr=args.json)
    try:
        result = event_loop.run(run_bots(config, console=None if args.json else console))
    except ApiError as exc:
        print(f"paigow bots: {exc.message}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(result.summary(), indent=2))
    else:
        console.print()
        _print_summary(result, console)
    ok = result.money_ok and result.stats.hidden_card_leaks == 0 and result.completed_tables == args.tables
    return 0 if ok else 1
