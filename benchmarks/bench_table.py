"""Speed of the table state machine: one full round with six players, from the bank offer to settlement.

Run: ``python benchmarks/bench_table.py [--rounds N] [--repeat R]``. Each round starts from the same table
(six seated players who played a house-banked round, the next round due), with a different seed, and
applies the 14 commands of the round with ``paigow.table.apply``: the Tick that starts it (the marker
reaches seat 1, the bank is offered), AcceptBank, five bets (the fifth deals), the Tick that stamps the
setting deadline, three SetHand and three UseHouseWay (the last one exposes the banker's hand and
settles). The commands are recorded in a dry run first, so only the machine is timed. CPU time
(``time.process_time``), best of R runs, per round. A second line adds ``view_for`` for the eight
viewers a server would project after every command (six players, a spectator, the operator).
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from collections.abc import Sequence

from paigow.table import (
    OperatorViewer,
    Phase,
    PlayerViewer,
    SpectatorViewer,
    TableState,
    Viewer,
    apply,
    new_table,
    next_deadline,
    view_for,
)
from paigow.table import commands as c
from paigow.table.events import RoundSettled
from paigow.table.records import RoundRecord

START = 1_700_000_000_000
Round = list[tuple[c.Command, bytes]]


def _seed(label: str) -> bytes:
    return hashlib.sha256(label.encode()).digest()


def _start_state() -> tuple[TableState, int]:
    """Six players seated, one house-banked round played, the next round due at ``now``."""
    s = new_table("bench", "Bench")
    now = START
    for i in range(1, 7):
        s, _ = apply(s, c.Sit(f"p{i}", f"Player {i}", i, 1_000_00), seed=_seed("sit"))
    s, _ = apply(s, c.Tick(now), seed=_seed("round-1"))
    for i in range(1, 7):
        s, _ = apply(s, c.PlaceBet(f"p{i}", 10_00), seed=_seed("x"))
    for i in range(1, 7):
        s, _ = apply(s, c.UseHouseWay(f"p{i}"), seed=_seed("x"))
    s, _ = apply(s, c.Tick(now), seed=_seed("x"))
    due = next_deadline(s)
    assert due is not None
    return s, due


def _record_round(start: TableState, now: int, k: int) -> Round:
    """Play one round from ``start`` and return its commands with their seeds."""
    cmds: Round = []
    s = start
    settled: list[RoundRecord] = []

    def do(cmd: c.Command, seed: bytes = b"\0" * 32) -> None:
        nonlocal s
        s, events = apply(s, cmd, seed=seed)
        cmds.append((cmd, seed))
        settled.extend(e.record for e in events if isinstance(e, RoundSettled))

    do(c.Tick(now), _seed(f"bench-{k}"))
    assert s.phase == Phase.BANK_OFFER
    do(c.AcceptBank("p1"))
    for i in range(2, 7):
        do(c.PlaceBet(f"p{i}", 10_00 + 100 * i))
    assert s.phase == Phase.SETTING
    do(c.Tick(now))
    assert s.round is not None
    for h in s.round.hands[1:4]:
        assert h.player_id is not None
        do(c.SetHand(h.player_id, h.cards[5:7]) if not _foul(s, h.player_id, h.cards[5:7])
           else c.UseHouseWay(h.player_id))
    for h in s.round.hands[4:]:
        assert h.player_id is not None
        do(c.UseHouseWay(h.player_id))
    assert s.phase == Phase.IDLE
    assert [r.banker_player_id for r in settled] == ["p1"]
    return cmds


def _foul(s: TableState, player_id: str, low: Sequence[str]) -> bool:
    from paigow.table import Rejection

    try:
        apply(s, c.SetHand(player_id, tuple(low)), seed=b"\0" * 32)
    except Rejection:
        return True
    return False


def _replay(start: TableState, rounds: list[Round], viewers: Sequence[Viewer]) -> float:
    t = time.process_time()
    for cmds in rounds:
        s = start
        for cmd, seed in cmds:
            s, _ = apply(s, cmd, seed=seed)
            for v in viewers:
                view_for(s, v)
    return time.process_time() - t


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    start, now = _start_state()
    rounds = [_record_round(start, now, k) for k in range(args.rounds)]
    commands = sum(len(r) for r in rounds) / len(rounds)
    viewers: list[Viewer] = [PlayerViewer(f"p{i}") for i in range(1, 7)]
    viewers += [SpectatorViewer(), OperatorViewer()]
    machine = min(_replay(start, rounds, ()) for _ in range(args.repeat)) / len(rounds)
    with_views = min(_replay(start, rounds, viewers) for _ in range(args.repeat)) / len(rounds)
    print(f"Python {sys.version.split()[0]}, {len(rounds)} rounds, {commands:.0f} commands each, "
          f"best of {args.repeat} runs, CPU time\n")
    print("| Work | ms of CPU per round | µs per command |")
    print("|---|---|---|")
    print(f"| full round, six players, bank offer to settlement (`apply`) | {machine * 1e3:.2f} | "
          f"{machine / commands * 1e6:.0f} |")
    print(f"| the same + `view_for` for 8 viewers after every command | {with_views * 1e3:.2f} | "
          f"{with_views / commands * 1e6:.0f} |")


if __name__ == "__main__":
    main()
