"""``paigow analyze "As Kd Qh JK 9c 5d 2s" [--samples N | --exact] [--seed S] [--house-way NAME]
[--rules JSON] [--json]``: every legal split of seven cards against a house dealer who sets by the House
Way (``paigow.rules.analysis``): the probability of a win, a push and a loss, the expected value per unit
bet ``0.95 * P(win) - P(loss)`` (commission unrounded) with its standard error, the best split and the
House Way's.

The default is a Monte Carlo that draws dealer hands until every split's ``ev_se`` is at most 0.003 (30,000,
then 10,000 at a time; never more than 110,000, which always get there), from ``random.Random(seed)``;
``--samples N`` draws exactly N; without ``--seed`` a seed is drawn from ``secrets`` and printed, so any run
can be repeated. ``--exact`` counts all 53,524,680 dealer hands (``ev_se`` 0) and says how long it took.
``--rules`` takes a JSON object of ``HouseRules`` fields, as the operator API does (``{"wheel": "low"}``);
what changes the analysis is ``house_way``, ``wheel`` and ``commission_bps`` (a foul split is never
analysed, whatever ``foul_policy``). ``--house-way NAME`` is the same as ``--rules '{"house_way": NAME}'``.

``--json`` prints ``{"cards": [...], "splits": [{"low": [...], "high": [...], "win", "push", "loss", "ev",
"ev_se"}, ...], "best": {...}, "house_way": {...}, "samples": N, "exact", "seed", "rules": {"house_way",
"wheel", "commission_bps"}, "seconds"}``: legal splits only, in the order of the low hand's positions in
the cards as given; ``best`` and ``house_way`` are entries of ``splits``; ``samples`` is the dealer hands
compared (53,524,680 when exact); ``seed`` is null when exact. Bad cards, bad rules or a bad number exit
with status 2 and the reason on standard error, no traceback.
"""

from __future__ import annotations

import argparse
import json
import secrets
import sys
import time
from typing import Any

from paigow.rules.analysis import DEFAULT_SAMPLES, MIN_SAMPLES, Analysis, SplitOdds
from paigow.rules.house_rules import HouseRules, HouseRulesError
from paigow_server.commands.arguments import seed_number, whole_number
from paigow_server.commands.split import house_way_name
from paigow_server.process.analysis_pool import analysis_json

__all__ = ["register", "run"]

MAX_SAMPLES = 100_000_000


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "analyze", help="every legal split of seven cards against the House Way dealer",
        description="For each legal split of seven cards: the odds of a win, a push and a loss against a "
                    "house dealer who sets by the House Way (the dealer's seven cards any seven of the 46 "
                    "others; copies to the banker), the expected value per unit bet 0.95*P(win) - P(loss) "
                    "with its standard error, the best split and the House Way's. Cards: rank 2-9 T (or "
                    "10) J Q K A and suit c d h s, or JK for the joker.")
    parser.add_argument("cards", nargs="+", help="the seven cards (one quoted argument or seven)")
    how = parser.add_mutually_exclusive_group()
    how.add_argument("--samples", type=whole_number(2, MAX_SAMPLES), default=None,
                     help=f"Monte Carlo dealer hands (default: until every ev_se <= 0.003, "
                          f"{MIN_SAMPLES:,} to {DEFAULT_SAMPLES:,})")
    how.add_argument("--exact", action="store_true", help="count all 53,524,680 dealer hands")
    parser.add_argument("--seed", type=seed_number, default=None,
                        help="Monte Carlo seed (default: a random one)")
    parser.add_argument("--house-way", type=house_way_name, default=None, metavar="NAME",
                        help="the dealer's House Way: trump_plaza (the default), foxwoods or ballys_ac")
    parser.add_argument("--rules", default=None, metavar="JSON",
                        help='HouseRules fields as a JSON object, e.g. \'{"wheel": "low"}\'')
    parser.add_argument("--json", action="store_true", help="print the analysis as JSON")
    parser.set_defaults(run=run)


def _rules(args: argparse.Namespace) -> HouseRules:
    fields: dict[str, Any] = {}
    if args.rules is not None:
        try:
            fields = json.loads(args.rules)
        except ValueError:
            raise HouseRulesError(f"--rules is not JSON: {args.rules!r}") from None
        if not isinstance(fields, dict):
            raise HouseRulesError(f"--rules must be a JSON object of HouseRules fields, not {args.rules!r}")
        known = set(HouseRules.__dataclass_fields__)
        unknown = sorted(set(fields) - known)
        if unknown:
            raise HouseRulesError(
                f"--rules: unknown field {unknown[0]!r}; allowed: {', '.join(sorted(known))}")
    if args.house_way is not None:
        if "house_way" in fields and fields["house_way"] != args.house_way:
            raise HouseRulesError(f"--house-way {args.house_way} and --rules house_way "
                                  f"{fields['house_way']!r} disagree")
        fields["house_way"] = args.house_way
    return HouseRules(**fields)


def _text(analysis: Analysis, seconds: float) -> str:
    from paigow.rules.hand_value import evaluate_high, evaluate_low

    rules = analysis.rules
    how = (f"all {analysis.samples:,} dealer hands, exact" if analysis.exact else
           f"{analysis.samples:,} dealer hands (Monte Carlo, seed {analysis.seed})")
    lines = [f"{' '.join(str(c) for c in analysis.cards)} against a house dealer "
             f"({rules.house_way.display_name} House Way): {how}, {seconds:.2f} s",
             f"{'high hand':16}{'low hand':8}{'win':>8}{'push':>8}{'loss':>8}{'EV':>9}{'± s.e.':>8}"]
    for o in sorted(analysis.splits, key=lambda o: -o.ev):
        marks = [m for m, on in (("best", o is analysis.best), ("House Way", o is analysis.house_way)) if on]
        lines.append(f"{' '.join(map(str, o.split.high)):16}{' '.join(map(str, o.split.low)):8}"
                     f"{o.win:8.2%}{o.push:8.2%}{o.loss:8.2%}{o.ev:+9.4f}{o.ev_se:8.4f}"
                     + (f"  {', '.join(marks)}" if marks else ""))

    def named(o: SplitOdds) -> str:
        return (f"{o.split} ({evaluate_high(o.split.high, rules).name} / "
                f"{evaluate_low(o.split.low).name}): EV {o.ev:+.4f}")

    best, house = analysis.best, analysis.house_way
    lines.append(f"best split:      {named(best)}")
    if house is best:
        lines.append("House Way split: the same")
    else:
        lines.append(f"House Way split: {named(house)}, {best.ev - house.ev:.4f} below the best")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    from paigow.rules.analysis import analyze, analyze_exact
    from paigow.rules.cards import parse_cards

    started = time.perf_counter()
    try:
        rules = _rules(args)
        cards = parse_cards(" ".join(args.cards))
        if args.exact:
            analysis = analyze_exact(cards, rules)
        else:
            seed = args.seed if args.seed is not None else secrets.randbits(53)
            analysis = analyze(cards, rules, samples=args.samples, seed=seed)
    except (ValueError, TypeError) as exc:
        print(f"paigow analyze: {exc}", file=sys.stderr)
        return 2
    seconds = time.perf_counter() - started
    if args.json:
        print(json.dumps({**analysis_json(analysis), "seconds": round(seconds, 3)}))
    else:
        print(_text(analysis, seconds))
    return 0
