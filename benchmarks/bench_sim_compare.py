"""The simulator's speed against another tree's, as a ratio of process CPU time, in one interleaved run.

Run: ``python benchmarks/bench_sim_compare.py --before DIR [--hands N] [--rounds R]``. ``DIR`` is the
``shared`` folder of another checkout (``git worktree add /tmp/before <commit>``, then
``/tmp/before/shared``). Each round runs ``paigow.sim.simulate(N, seed)`` in a fresh interpreter for each
tree in turn (after a 2,000-hand warm-up in that interpreter), the same seed for both, and times it with
``time.process_time``; prints each tree's times, its median rate, and after/before of the medians. On a
shared, noisy machine the interleaving and the CPU clock keep the ratio honest where wall times are not.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
from pathlib import Path

CHILD = r'''
import sys, time
sys.path.insert(0, sys.argv[1])
from paigow.sim import simulate
simulate(2000, 1)
started = time.process_time()
simulate(int(sys.argv[2]), int(sys.argv[3]))
print(time.process_time() - started)
'''

HERE = Path(__file__).resolve().parent.parent / "shared"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", type=Path, required=True, help="the other tree's shared/ folder")
    parser.add_argument("--hands", type=int, default=40_000)
    parser.add_argument("--rounds", type=int, default=6)
    args = parser.parse_args()
    trees = {"before": args.before.resolve(), "after": HERE}
    times: dict[str, list[float]] = {name: [] for name in trees}
    for i in range(args.rounds):
        for name, path in trees.items():
            out = subprocess.run([sys.executable, "-c", CHILD, str(path), str(args.hands), str(100 + i)],
                                 capture_output=True, text=True, check=True)
            times[name].append(float(out.stdout))
    for name, spent in times.items():
        median = statistics.median(spent)
        print(f"{name}: {', '.join(f'{t:.3f}' for t in spent)} s; median {median:.3f} s, "
              f"{args.hands / median:,.0f} hands/s (CPU)")
    print(f"after/before: {statistics.median(times['after']) / statistics.median(times['before']):.3f}")


if __name__ == "__main__":
    main()
