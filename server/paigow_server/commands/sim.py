"""``paigow sim --hands N [--seed S] [--workers W] [--house-way NAME] [--commission FORM] [--fortune]
[--json]``: player against dealer, both by the House Way (``--house-way``: trump_plaza, the default,
foxwoods or ballys_ac).

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
"""

from __future__ import annotations

import argparse
import json
import secrets
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from multiprocessing import get_context
from typing import Any

from paigow.rules.commission_free_count import NINE_HIGH_LOW_COUNTS
from paigow.rules.fortune import PAY_TABLES, FortuneHand
from paigow.rules.fortune_count import FORTUNE_COUNTS
from paigow.rules.house_rules import DEFAULT_RULES, CommissionForm, HouseRules, HouseWayName
from paigow.rules.house_way import clause_enum
from paigow.rules.queens_dragon import QUEENS_DRAGON_HANDS, SEVEN_CARD_HANDS
from paigow.sim import PUBLISHED_BY_FORM, SimResult, chunk_seed, chunk_sizes, merge, simulate
from paigow_server.commands.arguments import seed_number, whole_number
from paigow_server.commands.split import add_house_way_option

__all__ = ["register", "report", "run"]

DEFAULT_CHUNK = 20_000


_positive = whole_number(1)


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "sim", help="simulate player against dealer, both by the House Way",
        description="Monte Carlo of a player against the dealer, both hands set by the House Way, from "
                    "fresh 53-card shuffles; copies go to the dealer.")
    parser.add_argument("--hands", type=_positive, default=100_000, help="rounds to deal (default 100000)")
    parser.add_argument("--seed", type=seed_number, default=None,
                        help="seed of the run (default: a random one)")
    parser.add_argument("--workers", type=_positive, default=1, help="processes to use (default 1)")
    parser.add_argument("--chunk", type=_positive, default=DEFAULT_CHUNK,
                        help=f"hands per chunk of work (default {DEFAULT_CHUNK})")
    parser.add_argument("--bet-cents", type=_positive, default=DEFAULT_RULES.min_bet_cents,
                        help="bet size for the house edge with the commission rounded up to 25 cents "
                             f"(default {DEFAULT_RULES.min_bet_cents}, the table minimum)")
    parser.add_argument("--fortune", action="store_true",
                        help="also estimate the Fortune side bet's house edge and Envy per other seat")
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


def _chunks(hands: int, seed: int, chunk: int, workers: int, rules: HouseRules,
            fortune: bool) -> Iterator[SimResult]:
    """Each chunk's result as it completes (in order when there is one worker)."""
    jobs = [(size, chunk_seed(seed, k)) for k, size in enumerate(chunk_sizes(hands, chunk))]
    if workers == 1:
        for size, s in jobs:
            yield simulate(size, s, rules, fortune=fortune)
        return
    # "spawn": workers start clean (no forked threads or locks), whatever the parent holds.
    with ProcessPoolExecutor(max_workers=workers, mp_context=get_context("spawn")) as pool:
        futures = [pool.submit(simulate, size, s, rules, fortune=fortune) for size, s in jobs]
        for future in as_completed(futures):
            yield future.result()


def _run_chunks(args: argparse.Namespace, seed: int, on_chunk: Callable[[int], None]) -> SimResult:
    results = []
    rules = HouseRules(house_way=args.house_way, commission_form=args.commission)
    for result in _chunks(args.hands, seed, args.chunk, args.workers, rules, args.fortune):
        results.append(result)
        on_chunk(result.hands)
    return merge(results)


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


def _barred_exact(rules: HouseRules) -> float:
    """The exact rate of dealer hands the commission form bars (docs/rules.md §4a; ``paigow odds``)."""
    if rules.commission_form is CommissionForm.EZ:
        return QUEENS_DRAGON_HANDS / SEVEN_CARD_HANDS
    if rules.commission_form is CommissionForm.NINE_HIGH:
        return NINE_HIGH_LOW_COUNTS[rules.house_way] / SEVEN_CARD_HANDS
    return 0.0


def _barred_report(result: SimResult, rules: HouseRules) -> dict[str, Any]:
    if not rules.commission_form.is_commission_free:
        return {}
    return {"barred": result.rate(result.barred), "barred_se": result.rate_se(result.barred),
            "barred_exact": _barred_exact(rules), "barred_wins": result.rate(result.barred_wins),
            "barred_wins_se": result.rate_se(result.barred_wins)}


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
        "win": result.rate(result.win),
        "push": result.rate(result.push),
        "loss": result.rate(result.loss),
        "win_se": result.rate_se(result.win),
        "push_se": result.rate_se(result.push),
        "loss_se": result.rate_se(result.loss),
        "house_edge": result.house_edge(rules),
        "house_edge_se": result.house_edge_se(rules),
        "bet_cents": bet_cents,
        "house_edge_rounded": result.house_edge_rounded(bet_cents, rules),
        "house_edge_rounded_se": result.house_edge_rounded_se(bet_cents, rules),
        "banker_edge": result.banker_edge(),
        "banker_edge_se": result.banker_edge_se(),
        **_barred_report(result, rules),
        "counts": {"win": result.win, "push": result.push, "loss": result.loss},
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
    lines = [
        f"{data['hands']:,} hands, seed {seed}, {workers} worker{'s' * (workers > 1)}: {seconds:.1f} s "
        f"({data['hands'] / max(seconds, 1e-9):,.0f} hands/s)",
        f"{'':36}{'this run':>9}  {'± s.e.':>8}  {'published':>9}",
    ]
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
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    seed = args.seed if args.seed is not None else secrets.randbits(32)
    started = time.perf_counter()
    if not args.json and sys.stdout.isatty():
        from rich.progress import Progress

        with Progress(transient=True) as progress:
            task = progress.add_task("dealing", total=args.hands)
            result = _run_chunks(args, seed, lambda n: progress.advance(task, n))
    else:
        result = _run_chunks(args, seed, lambda n: None)
    seconds = time.perf_counter() - started
    data = report(result, args.bet_cents, args.house_way, args.commission)
    if args.json:
        data.update(seed=seed, workers=args.workers, seconds=round(seconds, 3))
        print(json.dumps(data))
    else:
        print(_text(data, seed, args.workers, seconds))
    return 0
