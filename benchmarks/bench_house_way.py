"""Speed of the House Way and of the simulator, in CPython.

Run: ``python benchmarks/bench_house_way.py [--hands N] [--repeat R] [--sim-hands S]``. Prints a Markdown
table: ``house_way`` (Card values in, ``Split`` out) and ``set_front`` (card indexes in, front indexes
out) per call, best of R runs over the same N random seven-card hands from the 53-card deck, for each
House Way (``HouseRules.house_way``), split by the clause that set them; then ``paigow.sim`` hands per
second in one process and over two worker processes (the ``paigow sim --workers 2`` path: spawned
workers, 20,000-hand chunks; wall time with start-up, and the rate two dedicated cores would give, from
the busiest worker's CPU time); then what importing the House Way engine's precomputed tables costs (a
fresh interpreter, ``hand_value`` already loaded).
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context

from paigow.rules.cards import DECK, Card
from paigow.rules.house_rules import DEFAULT_RULES, HouseRules, HouseWayName
from paigow.rules.house_way import Clause, house_way, set_front
from paigow.sim import chunk_seed, chunk_sizes, simulate
from timing import best_per_call

IMPORT_PROBE = """
import sys, time, tracemalloc, types
import paigow.rules  # loads every rules module, the House Way engine included
path = sys.modules["paigow.rules.house_ways.engine"].__file__
with open(path, encoding="utf-8") as f:
    code = compile(f.read(), path, "exec")

def fresh_copy(name):  # run the module body again: the engine's own tables (its imports are loaded)
    module = types.ModuleType("paigow.rules.house_ways." + name)
    module.__package__ = "paigow.rules.house_ways"
    sys.modules[module.__name__] = module  # dataclasses look their module up there
    exec(code, module.__dict__)
    return module

fresh_copy("_warm")
elapsed = float("inf")
for k in range(5):  # best CPU time of five fresh copies
    t = time.process_time()
    fresh_copy(f"_timed{k}")
    elapsed = min(elapsed, time.process_time() - t)
tracemalloc.start()
traced = fresh_copy("_traced")
current, peak = tracemalloc.get_traced_memory()
print(elapsed, current, peak)
"""



def bench_house_way(hands: int, repeat: int, rules: HouseRules = DEFAULT_RULES) -> list[tuple[str, float]]:
    rng = random.Random(3)
    indexes = [rng.sample(range(53), 7) for _ in range(hands)]
    cards: list[list[Card]] = [[DECK[i] for i in h] for h in indexes]
    way = rules.house_way

    def run_house_way() -> None:
        for h in cards:
            house_way(h, rules)

    def run_set_front() -> None:
        for h in indexes:
            set_front(h, rules)

    rows = [(f"{way}: house_way(cards7), random hands", best_per_call(run_house_way, hands, repeat)),
            (f"{way}: set_front(indexes7), random hands", best_per_call(run_set_front, hands, repeat))]
    by_clause: dict[Clause, list[list[int]]] = {}
    for h in indexes:
        by_clause.setdefault(set_front(h, rules)[0], []).append(h)
    for clause in sorted(by_clause):
        group = by_clause[clause]
        if len(group) < 50:
            continue

        def run_group(group: list[list[int]] = group) -> None:
            for h in group:
                set_front(h, rules)

        share = len(group) / hands
        rows.append((f"{way}: set_front, clause {int(clause)} ({clause.name.lower()}, {share:.1%} of hands)",
                     best_per_call(run_group, len(group), repeat)))
    return rows


def timed_simulate(hands: int, seed: str) -> tuple[int, float]:
    """One chunk in a worker: (the worker's pid, the CPU seconds the chunk took)."""
    t = time.process_time()
    simulate(hands, seed)
    return os.getpid(), time.process_time() - t


def bench_sim(hands: int) -> list[tuple[str, float]]:
    t = time.process_time()
    simulate(hands, 1)
    one = hands / (time.process_time() - t)
    sizes = chunk_sizes(hands * 2, 20_000)
    busy: dict[int, float] = {}
    t = time.perf_counter()
    with ProcessPoolExecutor(max_workers=2, mp_context=get_context("spawn")) as pool:
        for pid, cpu in pool.map(timed_simulate, sizes, [chunk_seed(1, k) for k in range(len(sizes))]):
            busy[pid] = busy.get(pid, 0.0) + cpu
    two = hands * 2 / (time.perf_counter() - t)
    # What two dedicated cores would do: the busiest worker's CPU time bounds the run.
    two_cpu = hands * 2 / max(busy.values())
    return [(f"paigow.sim, 1 process, CPU time ({hands:,} hands)", one),
            (f"paigow.sim, 2 worker processes, wall time ({hands * 2:,} hands, start-up included)", two),
            ("paigow.sim, 2 worker processes, by the busiest worker's CPU time", two_cpu)]


def import_cost() -> tuple[float, float, float]:
    out = subprocess.run([sys.executable, "-c", IMPORT_PROBE], capture_output=True, text=True, check=True)
    elapsed, current, peak = out.stdout.split()
    return float(elapsed), float(current), float(peak)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=50_000, help="random hands for the House Way timing")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--sim-hands", type=int, default=100_000, help="hands per process for the sim")
    args = parser.parse_args(argv)
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} cores, load average {load}; "
          f"{args.hands:,} random hands, best of {args.repeat}\n")
    print("| measure | µs per call |\n|---|---:|")
    for way in HouseWayName:
        for name, us in bench_house_way(args.hands, args.repeat, HouseRules(house_way=way)):
            print(f"| {name} | {us:.2f} |")
    print("\n| simulation | hands/s |\n|---|---:|")
    for name, rate in bench_sim(args.sim_hands):
        print(f"| {name} | {rate:,.0f} |")
    elapsed, current, peak = import_cost()
    print(f"\nthe House Way engine's module body (its tables; compiled code and imports excluded): "
          f"{elapsed * 1e3:.2f} ms of CPU, "
          f"{current / 1024:.0f} KiB held ({peak / 1024:.0f} KiB peak, tracemalloc)")


if __name__ == "__main__":
    main()
