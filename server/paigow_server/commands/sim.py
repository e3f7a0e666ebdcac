"""``paigow sim --hands N [--seed S] [--workers W] [--house-way NAME] [--commission FORM] [--fortune |
--dragon | --bank K] [--json]``: player against dealer, both by the House Way (``--house-way``:
trump_plaza, the default, foxwoods or ballys_ac).

Deals ``N`` rounds from fresh 53-card shuffles (``paigow.sim``) in chunks, over ``W`` processes, and
reports win / push / loss from the player's side with standard errors, the house edge with the 5%
commission (exact, and rounded up to the quarter for one bet size, ``--bet-cents``, default the $5 table
minimum) and the published figures beside them. With ``--fortune`` it also reports, for every Fortune pay
table, the side bet's house edge and the Envy bonus per other seat from the player's hands, with standard
errors, beside the exact figures (``paigow fortune``); in the JSON under ``"fortune"``: ``{"counts":
{category: hands}, "pay_tables": {name: {"house_edge", "house_edge_se", "exact_house_edge",
"envy_per_seat_cents", "envy_per_seat_cents_se", "exact_envy_per_seat_cents"}}}``. A progress bar is
shown on a terminal (not with ``--json``). Without ``--seed`` a random seed is drawn and printed, so any
run can be repeated.

``--commission ez`` or ``--commission nine-high`` (docs/rules.md §4a) plays the commission-free forms: no
commission, and every round pushes when the dealer's hand is barred (a queen-high pai gow; a nine-high
House Way low hand). The house edge is then ``loss - win``, the published figures are that form's, and the
report adds ``commission``, ``barred`` (the rate of barred rounds, with ``barred_se`` and ``barred_exact``,
the exact rate from ``paigow odds``) and ``barred_wins`` (the rate of rounds the bar took from a player's
win, with ``barred_wins_se``).

``--dragon`` (docs/rules.md §4b) deals a third hand from each shuffle, the Dragon, set by the House Way and
played against the same dealer, under any ``--commission``: the report is the plain run's (the same deals,
the same figures for the same seed) and ``"dragon"``, its wager's figures under the same keys beside the
difference of the two edges and their correlation. ``--bank K`` (§4c, §6; K from 1 to 6) plays a player
bank against K opposing wagers of ``--bet-cents``, every hand by the House Way, and reports the banker's
net per unit of opposing wager, banking alone and co-banked with the house, the commission exact and
rounded as the table rounds it. A player bank is commissioned on every table, so ``--bank`` with
``--commission ez`` or ``nine-high`` exits with status 2; ``--fortune``, ``--dragon`` and ``--bank`` go
one at a time. The keys: ``paigow_server.commands.sim_variants``.
"""

from __future__ import annotations

import argparse
import json
import secrets
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from functools import partial
from multiprocessing import get_context
from typing import Any, TypeVar

from paigow.rules.fortune import PAY_TABLES, FortuneHand
from paigow.rules.fortune_count import FORTUNE_COUNTS
from paigow.rules.house_rules import DEFAULT_RULES, CommissionForm, HouseRules, HouseWayName
from paigow.rules.house_way import clause_enum
from paigow.sim import PUBLISHED_BY_FORM, SimResult, chunk_seed, chunk_sizes, merge, simulate
from paigow.sim_variants import MAX_WAGERS, merge_bank, merge_dragon, simulate_bank, simulate_dragon
from paigow_server.commands.arguments import seed_number, whole_number
from paigow_server.commands.sim_variants import (
    bank_report,
    bank_text,
    dragon_figures,
    dragon_lines,
    heading,
    wager_figures,
)
from paigow_server.commands.split import add_house_way_option

__all__ = ["register", "report", "run"]

DEFAULT_CHUNK = 20_000


_positive = whole_number(1)
T = TypeVar("T")


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "sim", help="simulate player against dealer, both by the House Way (a Dragon hand, a player bank)",
        description="Monte Carlo of a player against the dealer, both hands set by the House Way, from "
                    "fresh 53-card shuffles; copies go to the dealer. With --dragon, a Dragon hand beside "
                    "the player's; with --bank K, a player bank against K wagers, alone and co-banked.")
    parser.add_argument("--hands", type=_positive, default=100_000, help="rounds to deal (default 100000)")
    parser.add_argument("--seed", type=seed_number, default=None,
                        help="seed of the run (default: a random one)")
    parser.add_argument("--workers", type=_positive, default=1, help="processes to use (default 1)")
    parser.add_argument("--chunk", type=_positive, default=DEFAULT_CHUNK,
                        help=f"hands per chunk of work (default {DEFAULT_CHUNK})")
    parser.add_argument("--bet-cents", type=_positive, default=DEFAULT_RULES.min_bet_cents,
                        help="bet size for the house edge with the commission rounded up to 25 cents, "
                             "and the size of every wager against a --bank "
                             f"(default {DEFAULT_RULES.min_bet_cents}, the table minimum)")
    variant = parser.add_mutually_exclusive_group()
    variant.add_argument("--fortune", action="store_true",
                         help="also estimate the Fortune side bet's house edge and Envy per other seat")
    variant.add_argument("--dragon", action="store_true",
                         help="also deal a Dragon hand, set by the House Way, against the same dealer, and "
                              "report its wager beside the player's")
    variant.add_argument("--bank", type=whole_number(1, MAX_WAGERS), metavar="K",
                         help=f"instead, a player bank against K (1 to {MAX_WAGERS}) opposing wagers of "
                              "--bet-cents, all hands by the House Way: the banker's edge alone and "
                              "co-banked with the house (commissioned: not with --commission ez or "
                              "nine-high)")
    add_house_way_option(parser)
    parser.add_argument("--commission", type=commission_form, default=CommissionForm.COMMISSIONED,
                        metavar="FORM",
                        help="commissioned (the default: 5%% of a win), ez (no commission; a queen-high pai "
                             "gow dealer pushes) or nine-high (no commission; a 9-high dealer low pushes)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.set_defaults(run=run)


def commission_form(text: str) -> CommissionForm:
    """An argparse type: a commission form, ``nine-high`` or ``nine_high`` alike."""
    try:
        return CommissionForm(text.strip().lower().replace("-", "_"))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a commission form: commissioned, ez or nine-high") from None


def _chunks(work: Callable[[int, str], T], hands: int, seed: int, chunk: int,
            workers: int) -> Iterator[tuple[int, T]]:
    """Each chunk's size and result as it completes (in order when there is one worker)."""
    jobs = [(size, chunk_seed(seed, k)) for k, size in enumerate(chunk_sizes(hands, chunk))]
    if workers == 1:
        for size, s in jobs:
            yield size, work(size, s)
        return
    # "spawn": workers start clean (no forked threads or locks), whatever the parent holds.
    with ProcessPoolExecutor(max_workers=workers, mp_context=get_context("spawn")) as pool:
        futures = {pool.submit(work, size, s): size for size, s in jobs}
        for future in as_completed(futures):
            yield futures[future], future.result()


def _run_chunks(args: argparse.Namespace, seed: int, work: Callable[[int, str], T],
                on_chunk: Callable[[int], None]) -> list[T]:
    results = []
    for size, result in _chunks(work, args.hands, seed, args.chunk, args.workers):
        results.append(result)
        on_chunk(size)
    return results


def _figures(args: argparse.Namespace, seed: int, on_chunk: Callable[[int], None]) -> dict[str, Any]:
    """Run the chunks of the simulation the arguments ask for, and report it."""
    rules = HouseRules(house_way=args.house_way, commission_form=args.commission)
    if args.bank is not None:
        work = partial(simulate_bank, wagers=args.bank, rules=rules)
        bank = merge_bank(_run_chunks(args, seed, work, on_chunk))
        return bank_report(bank, args.bet_cents, args.house_way)
    if args.dragon:
        both = merge_dragon(_run_chunks(args, seed, partial(simulate_dragon, rules=rules), on_chunk))
        data = report(both.player, args.bet_cents, args.house_way, args.commission)
        return {**data, "dragon": dragon_figures(both, rules, args.bet_cents)}
    result = merge(_run_chunks(args, seed, partial(simulate, rules=rules, fortune=args.fortune), on_chunk))
    return report(result, args.bet_cents, args.house_way, args.commission)


def _fortune_report(result: SimResult) -> dict[str, Any]:
    return {
        "counts": {h.name.lower(): n for h, n in result.fortune_counts.items()},
        "pay_tables": {name: {
            "house_edge": result.fortune_house_edge(table),
            "house_edge_se": result.fortune_house_edge_se(table),
            "exact_house_edge": table.house_edge(FORTUNE_COUNTS),
            "envy_per_seat_cents": result.fortune_envy_cents(table),
            "envy_per_seat_cents_se": result.fortune_envy_cents_se(table),
            "exact_envy_per_seat_cents": table.envy_per_seat_cents(FORTUNE_COUNTS),
        } for name, table in PAY_TABLES.items()},
    }


def report(result: SimResult, bet_cents: int, house_way: HouseWayName = HouseWayName.TRUMP_PLAZA,
           commission: CommissionForm = CommissionForm.COMMISSIONED) -> dict[str, Any]:
    """The JSON figures of a run: rates as fractions (0.2861), each with its standard error; the Fortune
    figures under ``"fortune"`` when the run counted them, the barred rounds when ``commission`` is a
    commission-free form. The published figures are the form's (``PUBLISHED_BY_FORM``: Trump Plaza's
    House Way both sides, but EZ's, which is Wizard of Odds' own); ``clauses`` are by ``house_way``'s."""
    rules = HouseRules(house_way=house_way, commission_form=commission)
    published = PUBLISHED_BY_FORM[rules.commission_form]
    fortune = {"fortune": _fortune_report(result)} if result.fortune else {}
    return {
        "hands": result.hands,
        "house_way": str(house_way),
        "commission": str(rules.commission_form),
        **wager_figures(result, rules, bet_cents),
        "clauses": {clause.name.lower(): result.clauses[clause] for clause in clause_enum(house_way)},
        "published": {"win": published.win, "push": published.push, "loss": published.loss,
                      "house_edge": published.house_edge},
        **fortune,
    }


def _fortune_text(fortune: dict[str, Any]) -> list[str]:
    pct = "{:7.3%}".format
    lines = [f"{'Fortune bonus (player hands)':36}{'this run':>9}  {'± s.e.':>8}  {'exact':>9}"]
    for name, f in fortune["pay_tables"].items():
        lines.append(f"  {name + ' house edge':34}{pct(f['house_edge']):>9}  "
                     f"{pct(f['house_edge_se']):>8}  {pct(f['exact_house_edge']):>9}")
        lines.append(f"  {name + ' Envy per other seat':34}{f['envy_per_seat_cents']:>8.2f}¢  "
                     f"{f['envy_per_seat_cents_se']:>7.2f}¢  {f['exact_envy_per_seat_cents']:>8.2f}¢")
    hands = [f"{FortuneHand[k.upper()].label} {n:,}" for k, n in fortune["counts"].items() if n]
    return [*lines, "  hands: " + ", ".join(hands)]


def _text(data: dict[str, Any], seed: int, workers: int, seconds: float) -> str:
    pct = "{:7.3%}".format
    lines = [heading(data["hands"], seed, workers, seconds)]
    if "wagers" in data:
        return "\n".join([*lines, *bank_text(data)])
    lines.append(f"{'':36}{'this run':>9}  {'± s.e.':>8}  {'published':>9}")
    form = CommissionForm(data["commission"])
    free = form.is_commission_free
    if free:
        lines.insert(1, f"commission: {form.display_name}; the published figures are Wizard of Odds' for "
                        "this form")
    elif data["house_way"] != HouseWayName.TRUMP_PLAZA:
        lines.insert(1, f"both hands by the {HouseWayName(data['house_way']).display_name} House Way; the "
                        "published figures are Trump Plaza's")
    edge = "house edge (no commission)" if free else "house edge (5%, exact)"
    rows = (("win", "player wins"), ("push", "push"), ("loss", "dealer wins"), ("house_edge", edge))
    for key, label in rows:
        lines.append(f"{label:36}{pct(data[key]):>9}  {pct(data[key + '_se']):>8}  "
                     f"{pct(data['published'][key]):>9}")
    if free:
        lines.append(f"{'dealer hand barred (pushes)':36}{pct(data['barred']):>9}  "
                     f"{pct(data['barred_se']):>8}  {pct(data['barred_exact']):>9} exact")
        lines.append(f"{'  of them, player wins pushed':36}{pct(data['barred_wins']):>9}  "
                     f"{pct(data['barred_wins_se']):>8}")
    else:
        lines.append(f"{'house edge, $' + format(data['bet_cents'] / 100, '.2f') + ' bet, 25¢ rounding':36}"
                     f"{pct(data['house_edge_rounded']):>9}  {pct(data['house_edge_rounded_se']):>8}")
        lines.append(f"{'banker edge, no commission':36}{pct(data['banker_edge']):>9}  "
                     f"{pct(data['banker_edge_se']):>8}  {pct(0.013):>9}")
    total = 2 * data["hands"]
    way = HouseWayName(data["house_way"]).display_name
    lines.append(f"{way} House Way clauses (player and dealer hands):")
    for number, (name, count) in enumerate(data["clauses"].items(), start=1):
        lines.append(f" {number:>2} {name.replace('_', ' '):26}{count:>12,}  {count / total:7.3%}")
    if "fortune" in data:
        lines += _fortune_text(data["fortune"])
    if "dragon" in data:
        lines += dragon_lines(data)
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    if args.bank is not None and args.commission.is_commission_free:
        print(f"paigow sim: --bank plays a player bank, and a player bank is commissioned on every table "
              f"(docs/rules.md §4a, rule 5): --commission {args.commission.value.replace('_', '-')} does not "
              "apply to it", file=sys.stderr)
        return 2
    seed = args.seed if args.seed is not None else secrets.randbits(32)
    started = time.perf_counter()
    if not args.json and sys.stdout.isatty():
        from rich.progress import Progress

        with Progress(transient=True) as progress:
            task = progress.add_task("dealing", total=args.hands)
            data = _figures(args, seed, lambda n: progress.advance(task, n))
    else:
        data = _figures(args, seed, lambda n: None)
    seconds = time.perf_counter() - started
    if args.json:
        data.update(seed=seed, workers=args.workers, seconds=round(seconds, 3))
        print(json.dumps(data))
    else:
        print(_text(data, seed, args.workers, seconds))
    return 0
