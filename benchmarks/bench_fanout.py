"""Speed of the fanout: the CPU a server process spends to push one commit to a table's viewers.

Run: ``python benchmarks/bench_fanout.py [--rounds N] [--repeat R]``. One full round with six players (the
house banks: the Tick that starts it, six bets — the sixth deals — the Tick that stamps the setting
deadline, six hand sets, the last one settles) is recorded with the table machine; then every commit is
pushed through ``TableFeed`` exactly as the server does on a pub/sub message: ``evolve_all`` of the
published events, then for each viewer ``event_for`` + ``view_for`` + the JSON of an ``events`` message
(shared events encoded once; all spectators share one message). Subscribers only collect the text, so
the figure is CPU time (``time.process_time``) of the projection and encoding, without sockets: per
commit, and per commit and viewer, best of R runs, for six players and 0, 10 or 100 spectators.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence

from paigow.table import commands as c
from paigow.table.machine import apply
from paigow.table.state import TableState, Timers, new_table
from paigow.table.views import PlayerViewer, SpectatorViewer, Viewer
from paigow_server.store.codec import VersionedEvents
from paigow_server.table_feed import TableFeed

START = 1_700_000_000_000


class _Sink:
    __slots__ = ("bytes", "viewer")

    def __init__(self, viewer: Viewer) -> None:
        self.viewer = viewer
        self.bytes = 0

    def deliver(self, text: str) -> None:
        self.bytes += len(text)


def _round(seed: int) -> tuple[TableState, list[VersionedEvents]]:
    """A table with six seated players, and the commits of one whole round."""
    state = new_table("bench", "Bench", timers=Timers(betting_ms=60_000))
    for i in range(1, 7):
        state, _ = apply(state, c.Sit(f"p{i}", f"Player {i}", i, 100_000), seed=bytes(32))
    start = state
    commits: list[VersionedEvents] = []
    commands: list[c.Command] = [c.Tick(START)]
    commands += [c.PlaceBet(f"p{i}", 1_000) for i in range(1, 7)]
    commands += [c.Tick(START + 1)]
    commands += [c.UseHouseWay(f"p{i}") for i in range(1, 7)]
    for command in commands:
        state, events = apply(state, command, seed=seed.to_bytes(32, "big"))
        if events:
            commits.append(VersionedEvents(state.version, events))
    return start, commits


def _push_round(start: TableState, commits: Sequence[VersionedEvents], sinks: Sequence[_Sink]) -> None:
    feed = TableFeed("bench", source=None)  # type: ignore[arg-type]  # no Redis: commits come in order
    feed.state = start
    feed.members = {sink: start.version for sink in sinks}
    for commit in commits:
        feed._advance(commit)


def measure(spectators: int, rounds: int, repeat: int) -> tuple[float, float, int]:
    """(µs per commit, µs per commit and viewer, bytes per commit and viewer), best of ``repeat``."""
    recorded = [_round(seed) for seed in range(rounds)]
    best = float("inf")
    sent = 0
    commits = sum(len(cs) for _, cs in recorded)
    for _ in range(repeat):
        sinks = [_Sink(PlayerViewer(f"p{i}")) for i in range(1, 7)]
        sinks += [_Sink(SpectatorViewer()) for _ in range(spectators)]
        t0 = time.process_time()
        for start, round_commits in recorded:
            _push_round(start, round_commits, sinks)
        best = min(best, time.process_time() - t0)
        sent = sum(s.bytes for s in sinks)
    viewers = 6 + spectators
    per_commit = best / commits * 1e6
    return per_commit, per_commit / viewers, sent // (commits * viewers)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    print(f"{'viewers':>22} | {'µs per commit':>13} | {'µs per viewer':>13} | {'bytes per push':>14}")
    for spectators in (0, 10, 100):
        per_commit, per_viewer, size = measure(spectators, args.rounds, args.repeat)
        label = f"6 players + {spectators} spect."
        print(f"{label:>22} | {per_commit:13.0f} | {per_viewer:13.1f} | {size:14d}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
