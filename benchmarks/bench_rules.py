"""Speed of the rules core: hand evaluation, fouls, splits and showdown, per call, in CPython.

Run: ``python benchmarks/bench_rules.py [--hands N] [--repeat R]``. Prints a Markdown table (CPU time,
``time.process_time``, best of R runs over the same N random hands) and the import cost of the lookup
tables (CPU time in a fresh interpreter, and the memory they hold by tracemalloc).
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
from collections.abc import Sequence

from paigow.rules.cards import DECK, Card
from paigow.rules.hand_value import evaluate_high, evaluate_low, high_key, low_key
from paigow.rules.house_rules import DEFAULT_RULES
from paigow.rules.showdown import resolve
from paigow.rules.splits import Split, all_splits, is_foul, legal_splits
from timing import best_per_call

IMPORT_PROBE = """
import time, tracemalloc
tracemalloc.start()
import paigow.rules.hand_value
current, peak = tracemalloc.get_traced_memory()
tracemalloc.stop()
import sys
for name in [m for m in sys.modules if m.startswith("paigow")]:
    del sys.modules[name]
t = time.process_time()
import paigow.rules.hand_value
untraced = time.process_time() - t
print(untraced, current, peak)
"""



def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    rng = random.Random(2)
    n, r = args.hands, args.repeat
    fives = [rng.sample(range(53), 5) for _ in range(n)]
    five_cards = [[DECK[i] for i in h] for h in fives]
    twos = [rng.sample(range(53), 2) for _ in range(n)]
    two_cards = [[DECK[i] for i in h] for h in twos]
    sevens: list[list[Card]] = [rng.sample(DECK, 7) for _ in range(n // 10)]
    splits: list[Split] = [rng.choice(all_splits(s)) for s in sevens]
    duels: list[tuple[Split, Split]] = []
    for _ in range(n // 10):
        cards = rng.sample(DECK, 14)
        duels.append((rng.choice(legal_splits(cards[:7])), rng.choice(legal_splits(cards[7:]))))

    def run_high_key() -> None:
        for h in fives:
            high_key(h)

    def run_evaluate_high() -> None:
        for h in five_cards:
            evaluate_high(h)

    def run_low_key() -> None:
        for i, j in twos:
            low_key(i, j)

    def run_evaluate_low() -> None:
        for h in two_cards:
            evaluate_low(h)

    def run_is_foul() -> None:
        for s in splits:
            is_foul(s)

    def run_all_splits() -> None:
        for s in sevens:
            all_splits(s)

    def run_legal_splits() -> None:
        for s in sevens:
            legal_splits(s)

    def run_resolve() -> None:
        for p, b in duels:
            resolve(p, b, DEFAULT_RULES)

    rows = [
        ("`high_key(indexes)` (fast int API), random 5-card hand", run_high_key, n),
        ("`evaluate_high(cards5)` -> `HandValue`, random 5-card hand", run_evaluate_high, n),
        ("`low_key(i, j)` (fast int API)", run_low_key, n),
        ("`evaluate_low(cards2)` -> `HandValue`", run_evaluate_low, n),
        ("`is_foul(split)` (the literal clauses, via `HandValue`s)", run_is_foul, len(splits)),
        ("`all_splits(cards7)` (21 `Split`s)", run_all_splits, len(sevens)),
        ("`legal_splits(cards7)` (keys for 21 splits, `Split`s for the legal ones)", run_legal_splits,
         len(sevens)),
        ("`resolve(player, banker)` (two legal splits)", run_resolve, len(duels)),
    ]
    print(f"Python {sys.version.split()[0]}, CPU time, best of {r} runs\n")
    print("| Operation | µs per call |")
    print("|---|---|")
    for label, fn, calls in rows:
        print(f"| {label} | {best_per_call(fn, calls, r):.2f} |")
    probe = subprocess.run([sys.executable, "-c", IMPORT_PROBE], capture_output=True, text=True, check=True)
    untraced, current, peak = (float(x) for x in probe.stdout.split())
    print(f"\nImport of `paigow.rules` (builds the default wheel's table): {untraced * 1000:.0f} ms CPU; "
          f"memory held {current / 1e6:.1f} MB (peak {peak / 1e6:.1f} MB, tracemalloc).")


if __name__ == "__main__":
    main()
