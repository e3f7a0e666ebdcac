"""Speed of the fanout: the CPU a server process spends to push one commit to a table's viewers.

Run: ``python benchmarks/bench_fanout.py [--rounds N] [--repeat R]``. One full round with six players (the
house banks: the Tick that starts it, six bets — the sixth deals — the Tick that stamps the setting
deadline, six hand sets, the last one settles) is recorded with the table machine, each commit with what
it looks like to each kind of viewer (``paigow.protocol.projection``, as the writing process stores it;
the commits are read back through the codec as a feed receives them); then every commit is pushed through
``TableFeed`` exactly as the server does on a pub/sub message: ``evolve_all`` of the published events, then
for each kind of viewer the ``patch`` message made of its stored update (all spectators share one
message). Subscribers only collect the text, so the figure is CPU time (``time.process_time``) without
sockets: per commit, and per commit and viewer, best of R runs, for six players and 0, 10 or 100
spectators. The writing process's share, the projection of a commit for every kind of viewer and the JSON
of the commit it stores, is its own row.

Those rounds start from a table that has settled none. The steady row is a table in its steady state: N
rounds played one after the other after ten settled ones, the bank offered and declined when the marker
reaches a player, pushed to six players and one spectator. Then the bytes of a fresh spectator's and a
player's snapshot and of the state JSON at that table; for the states of those commits, the CPU of the
state JSON the commit writes (``state_to_json``, what ``TableRepo.commit`` stores), beside pydantic's
``dump_json`` of the whole state, and for the settlements among them the effects and the JSON of the
outbox entry ``TableRepo.commit`` writes with them (``effects_of``, ``writes_of``, the entry's JSON).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Sequence
from itertools import accumulate

from pydantic import TypeAdapter

from paigow.ledger.effects import effects_of
from paigow.protocol.projection import project_commit
from paigow.protocol.server import Role, encode_snapshot_message
from paigow.protocol.view_json import ViewJson
from paigow.table import commands as c
from paigow.table.commit import VersionedEvents
from paigow.table.events import RoundSettled
from paigow.table.machine import apply, evolve_all
from paigow.table.state import Phase, TableState, Timers, new_table
from paigow.table.ticks import next_deadline
from paigow.table.views import PlayerViewer, SpectatorViewer, Viewer, view_for
from paigow_server.realtime.table_feed import TableFeed
from paigow_server.store.codec import commit_from_json, commit_to_json, state_to_json
from paigow_server.store.outbox_commit import writes_of

START = 1_700_000_000_000
SETTLED_BEFORE = 10
"""Rounds a steady table has settled before the measured ones."""


class _Sink:
    __slots__ = ("bytes", "viewer")

    def __init__(self, viewer: Viewer) -> None:
        self.viewer = viewer
        self.bytes = 0

    def deliver(self, text: str) -> None:
        self.bytes += len(text)


def _seated() -> TableState:
    state = new_table("bench", "Bench", timers=Timers(betting_ms=60_000))
    for i in range(1, 7):
        state, _ = apply(state, c.Sit(f"p{i}", f"Player {i}", i, 100_000), seed=bytes(32))
    return state


def _round(seed: int) -> tuple[TableState, list[VersionedEvents]]:
    """A table with six seated players, and the commits of one whole round."""
    state = start = _seated()
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


def _play_on(state: TableState, seed: int, now: int) -> tuple[TableState, list[VersionedEvents], int]:
    """One more round at ``state``'s table (the clock moved to each deadline, the bank declined, everyone
    bets and takes the House Way): the state after it, its commits and the clock."""
    commits: list[VersionedEvents] = []

    def do(before: TableState, command: c.Command) -> TableState:
        after, events = apply(before, command, seed=seed.to_bytes(32, "big"))
        if events:
            commits.append(VersionedEvents(after.version, events))
        return after

    while state.phase not in (Phase.BANK_OFFER, Phase.BETTING):
        due = next_deadline(state)
        assert due is not None
        now = max(now, due)
        state = do(state, c.Tick(now))
    rnd = state.round
    assert rnd is not None
    if state.phase == Phase.BANK_OFFER and rnd.offer_player_id is not None:
        state = do(state, c.DeclineBank(rnd.offer_player_id))
    for i in range(1, 7):
        state = do(state, c.PlaceBet(f"p{i}", 1_000))
    state = do(state, c.Tick(now))  # stamps the setting deadline
    assert state.phase == Phase.SETTING, state.phase
    for i in range(1, 7):
        state = do(state, c.UseHouseWay(f"p{i}"))
    assert state.phase == Phase.IDLE, state.phase
    return state, commits, now


def _with_views(start: TableState, commits: Sequence[VersionedEvents]) -> list[VersionedEvents]:
    """The commits as the writing process stores them (each with every kind of viewer's update) and a
    feed reads them back."""
    out: list[VersionedEvents] = []
    state, views = start, None
    for commit in commits:
        after = evolve_all(state, commit.events)
        projection = project_commit(state, after, commit.events, views)
        out.append(commit_from_json(commit_to_json(commit.version, commit.events, views=projection.texts)))
        state, views = after, projection.seen
    return out


def measure_projection(rounds: int, repeat: int) -> tuple[float, int]:
    """At the writing process, per commit of a table with ten settled rounds and six players: µs of
    ``project_commit`` (with the previous commit's views, as the process keeps them) and ``commit_to_json``
    of the commit with its updates, best of ``repeat``; and the bytes of that JSON."""
    start, commits = _steady(rounds)
    states = list(accumulate((c.events for c in commits), evolve_all, initial=start))
    best, size = float("inf"), 0
    for _ in range(repeat):
        views = None
        size = 0
        t0 = time.process_time()
        for before, after, commit in zip(states[:-1], states[1:], commits, strict=True):
            projection = project_commit(before, after, commit.events, views)
            views = projection.seen
            size += len(commit_to_json(commit.version, commit.events, views=projection.texts))
        best = min(best, time.process_time() - t0)
    return best / len(commits) * 1e6, size // len(commits)


def _push_round(start: TableState, commits: Sequence[VersionedEvents], sinks: Sequence[_Sink]) -> None:
    feed = TableFeed("bench", source=None)  # type: ignore[arg-type]  # no Redis: commits come in order
    feed.state = start
    feed.members = {sink: start.version for sink in sinks}
    for commit in commits:
        feed._advance(commit)


def measure(spectators: int, rounds: int, repeat: int) -> tuple[float, float, int]:
    """(µs per commit, µs per commit and viewer, bytes per commit and viewer), best of ``repeat``."""
    recorded = [(start, _with_views(start, commits)) for start, commits in map(_round, range(rounds))]
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


def _steady(rounds: int) -> tuple[TableState, list[VersionedEvents]]:
    """A table with ten settled rounds behind it, and the commits of ``rounds`` more rounds."""
    state, now = _seated(), START
    for seed in range(SETTLED_BEFORE):
        state, _, now = _play_on(state, 1_000 + seed, now)
    start = state
    commits: list[VersionedEvents] = []
    for seed in range(rounds):
        state, round_commits, now = _play_on(state, seed, now)
        commits += round_commits
    return start, commits


def measure_steady(rounds: int, repeat: int) -> tuple[float, float, int]:
    """As ``measure``, for six players and one spectator of a table with ten settled rounds behind it."""
    start, plain = _steady(rounds)
    commits = _with_views(start, plain)
    best = float("inf")
    sent = 0
    for _ in range(repeat):
        sinks = [_Sink(PlayerViewer(f"p{i}")) for i in range(1, 7)] + [_Sink(SpectatorViewer())]
        t0 = time.process_time()
        _push_round(start, commits, sinks)
        best = min(best, time.process_time() - t0)
        sent = sum(s.bytes for s in sinks)
    per_commit = best / len(commits) * 1e6
    return per_commit, per_commit / len(sinks), sent // (len(commits) * len(sinks))


class _Recorder(_Sink):
    """A sink that keeps the size of every push, and whether it carried a settlement."""

    __slots__ = ("pushes",)

    def __init__(self, viewer: Viewer) -> None:
        super().__init__(viewer)
        self.pushes: list[tuple[int, bool]] = []

    def deliver(self, text: str) -> None:
        super().deliver(text)
        self.pushes.append((len(text.encode()), '"kind":"round_settled"' in text))


def measure_pushes(rounds: int) -> dict[str, float]:
    """The pushes of ``rounds`` rounds at a table with ten settled rounds, six players and a spectator, as
    each viewer receives them (bytes, UTF-8): the median push, the largest one without a settlement, the
    largest settlement, and the bytes per round per viewer."""
    start, plain = _steady(rounds)
    sinks = [_Recorder(PlayerViewer(f"p{i}")) for i in range(1, 7)] + [_Recorder(SpectatorViewer())]
    _push_round(start, _with_views(start, plain), sinks)
    sizes = sorted(size for sink in sinks for size, _ in sink.pushes)
    return {
        "median": float(statistics.median(sizes)),
        "largest_not_settlement": float(max(size for sink in sinks for size, settled in sink.pushes
                                            if not settled)),
        "largest_settlement": float(max(size for sink in sinks for size, settled in sink.pushes if settled)),
        "pushes_per_round_per_viewer": len(sizes) / rounds / len(sinks),
        "bytes_per_round_per_viewer": sum(sizes) / rounds / len(sinks),
    }


def measure_sizes() -> tuple[int, int, int]:
    """Bytes, at a table with ten settled rounds (idle, after the last settlement): a fresh spectator's
    ``snapshot`` message, a seated player's, and the state JSON its commit wrote (``state_to_json``)."""
    start, _ = _steady(0)
    spectator = encode_snapshot_message(start.table_id, start.version, Role.SPECTATOR, None,
                                        ViewJson().encode(view_for(start, SpectatorViewer())))
    player = encode_snapshot_message(start.table_id, start.version, Role.PLAYER, "p1",
                                     ViewJson().encode(view_for(start, PlayerViewer("p1"))))
    return len(spectator.encode()), len(player.encode()), len(state_to_json(start).encode())


def measure_state_json(rounds: int, repeat: int) -> tuple[float, float, int]:
    """The state JSON the commit of each of those states writes (``TableRepo.commit``): µs per commit of
    ``state_to_json`` and of pydantic's ``dump_json`` of the whole state, and its size, best of ``repeat``."""
    start, commits = _steady(rounds)
    states = list(accumulate((c.events for c in commits), evolve_all, initial=start))[1:]
    whole: TypeAdapter[TableState] = TypeAdapter(TableState)

    def whole_json(state: TableState) -> str:
        return whole.dump_json(state).decode()

    best = [float("inf"), float("inf")]
    for _ in range(repeat):
        for i, write in enumerate((state_to_json, whole_json)):
            t0 = time.process_time()
            for state in states:
                write(state)
            best[i] = min(best[i], time.process_time() - t0)
    size = sum(len(state_to_json(s)) for s in states) // len(states)
    return best[0] / len(states) * 1e6, best[1] / len(states) * 1e6, size


def measure_settlement_ops(rounds: int, repeat: int) -> float:
    """µs per settlement of those commits for ``effects_of`` and the JSON of its script operations (the
    ledger entries, six history entries and the export entry), best of ``repeat``."""
    start, commits = _steady(rounds)
    states = list(accumulate((c.events for c in commits), evolve_all, initial=start))
    settlements = [(before, after, commit.events)
                   for before, after, commit in zip(states[:-1], states[1:], commits, strict=True)
                   if any(isinstance(e, RoundSettled) for e in commit.events)]
    best = float("inf")
    for _ in range(repeat):
        t0 = time.process_time()
        for before, after, events in settlements:
            writes_of("t1", effects_of(before, after, events, now_ms=START)).outbox.body_json()
        best = min(best, time.process_time() - t0)
    return best / len(settlements) * 1e6


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
    per_commit, per_viewer, size = measure_steady(args.rounds, args.repeat)
    label = "10 settled, 6 + 1 spect."
    print(f"{label:>22} | {per_commit:13.0f} | {per_viewer:13.1f} | {size:14d}")
    per_commit, size = measure_projection(args.rounds, args.repeat)
    print(f"the writing process, per commit at that table: the projection for every kind of viewer and the "
          f"commit's JSON {per_commit:.0f} µs ({size} bytes)")
    pushes = measure_pushes(args.rounds)
    print(f"pushes at that table, each viewer: median {pushes['median']:.0f} bytes, largest without a "
          f"settlement {pushes['largest_not_settlement']:.0f}, largest settlement "
          f"{pushes['largest_settlement']:.0f}; {pushes['pushes_per_round_per_viewer']:.1f} pushes and "
          f"{pushes['bytes_per_round_per_viewer']:.0f} bytes per round per viewer")
    spectator, player, state = measure_sizes()
    print(f"at a table with ten settled rounds: a fresh spectator's snapshot {spectator} bytes, a player's "
          f"{player} bytes, the state JSON {state} bytes")
    fast, whole, size = measure_state_json(args.rounds, args.repeat)
    print(f"state JSON of each commit at that table ({size} bytes): state_to_json {fast:.0f} µs, "
          f"pydantic's dump_json of the whole state {whole:.0f} µs")
    print(f"a settlement's effects and the JSON of its script operations: "
          f"{measure_settlement_ops(args.rounds, args.repeat * 3):.0f} µs")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
