"""Speed and accuracy of ``paigow analyze`` (``paigow.rules.analysis``), in CPython on one core.

Run: ``python benchmarks/bench_analyze.py [--repeat R] [--exact-hand "CARDS"]``. For each hand of a set (every
shape, with and without the joker) it prints, as a Markdown table, the CPU time (``time.process_time``) of the
default Monte Carlo (dealer hands until every ``ev_se`` <= 0.003: 30,000 to 110,000): **cold**, the first
analysis in a fresh interpreter (what one ``paigow analyze`` pays after its imports: every class of dealer
hand it meets is set by the House Way for the first time), and **warm**, the best of R more in the same
process (what a server's analysis worker pays once it has set most classes); and the largest ``ev_se`` over
the hand's splits. Then ``--exact`` (all 53,524,680 dealer hands) for one hand, cold and warm, and the import
cost of ``paigow.rules.analysis``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time

from paigow.rules.analysis import analyze, analyze_exact
from paigow.rules.cards import parse_cards

HANDS = [
    "As Kd Qh 9c 7d 5s 2h", "JK Kd Qh 9c 7d 5s 2h", "8s 8d Kh Qc 7d 4s 2h", "JK As Kh Qc 7d 4s 2h",
    "Js Jd 4h 4c Ad 9s 2h", "Ks Kd 8h 8c 5d 5s 2h", "7s 7d 7h Kc Jd 4s 2h", "9s 8d 7h 6c 5d Ks 2h",
    "Ah Jh 8h 5h 3h Kc 9d", "JK Jh 8h 5h 3h Kc 9d", "Qs Qd Qh 6c 6d As 3h", "9s 9d 9h 9c Ad Ks 2h",
]

COLD = """
import json, sys, time
t = time.process_time()
from paigow.rules.analysis import analyze, analyze_exact
from paigow.rules.cards import parse_cards
imported = time.process_time() - t
cards = parse_cards(sys.argv[1])
t = time.process_time()
result = analyze_exact(cards) if sys.argv[2] == "exact" else analyze(cards, seed=1)
print(json.dumps({"cpu": time.process_time() - t, "import": imported, "samples": result.samples,
                  "max_se": max(o.ev_se for o in result.splits)}))
"""


def _cold(cards: str, how: str) -> dict[str, float]:
    out = subprocess.run([sys.executable, "-c", COLD, cards, how], check=True, capture_output=True,
                         text=True).stdout
    result: dict[str, float] = json.loads(out)
    return result


def _warm(fn: object, repeat: int) -> float:
    assert callable(fn)
    fn()
    best = float("inf")
    for _ in range(repeat):
        t = time.process_time()
        fn()
        best = min(best, time.process_time() - t)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--exact-hand", default="As Kd Qh JK 9c 5d 2s")
    args = parser.parse_args()
    print("| hand | dealer hands | cold, s CPU | warm, s CPU | largest ev_se |")
    print("|---|---:|---:|---:|---:|")
    colds, warms, ses, imports = [], [], [], []
    for k, text in enumerate(HANDS):
        cold = _cold(text, "mc")
        cards = parse_cards(text)
        warm = _warm(lambda c=cards, s=k: analyze(c, seed=s), args.repeat)
        colds.append(cold["cpu"])
        warms.append(warm)
        ses.append(cold["max_se"])
        imports.append(cold["import"])
        print(f"| `{text}` | {cold['samples']:,} | {cold['cpu']:.2f} | {warm:.2f} | {cold['max_se']:.5f} |",
              flush=True)
    print(f"| **largest** | | **{max(colds):.2f}** | **{max(warms):.2f}** | **{max(ses):.5f}** |")
    exact_cold = _cold(args.exact_hand, "exact")
    cards = parse_cards(args.exact_hand)
    exact_warm = _warm(lambda: analyze_exact(cards), 1)
    print(f"\n`--exact` on `{args.exact_hand}`: {exact_cold['cpu']:.2f} s CPU cold, {exact_warm:.2f} s warm; "
          f"importing paigow.rules.analysis: {min(imports):.2f}–{max(imports):.2f} s CPU")


if __name__ == "__main__":
    main()
