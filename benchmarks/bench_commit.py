"""CPU per commit of the pure commit path: ``paigow.table.commit.decide_commit`` (the machine, every kind
of viewer's update and its JSON text, the ledger effects), against the path it replaced, interleaved.

Run: ``python benchmarks/bench_commit.py [--rounds N] [--repeat R]``. The rounds are ``bench_table``'s:
six seated players, each round from the bank offer to settlement (14 commands), a different seed each.
Each repetition replays every round through both paths, one after the other, each with the previous
commit's views as the writing process keeps them:

- ``before``: the path of the server before issue 22, kept here as it was (``_old_project_commit``):
  ``apply``, ``project_commit`` building all eight views (six players, the spectators, the operator) of
  the state after and diffing them, ``store.codec.commit_views``, ``effects_of``;
- ``after``: ``decide_commit``.

Then the projection alone (every kind of viewer's update and its text, from the states and events
recorded once), the old ``project_commit`` + ``commit_views`` against the new ``project_commit``.

Process CPU time (``time.process_time``: the machine is shared), best of R repetitions, per commit. Both
paths' update texts are checked equal per viewer, commit by commit, before anything is timed.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic_core import to_jsonable_python

from bench_table import Round, _record_round, _start_state
from paigow.ledger.effects import effects_of
from paigow.protocol.patch import PatchOp
from paigow.protocol.projection import SPECTATOR, Seen, ViewerUpdate, project_commit, viewer_keys, viewer_of
from paigow.protocol.view_patch import Memo, view_patch
from paigow.table import TableState, apply
from paigow.table.commit import decide_commit
from paigow.table.events import Event
from paigow.table.views import TableView, event_for, view_for
from paigow_server.store.codec import commit_views

NOW = 1_700_000_000_000


def _old_project_commit(before: TableState, after: TableState, events: Sequence[Event],
                        before_views: Mapping[str, TableView] | None
                        ) -> tuple[dict[str, ViewerUpdate], dict[str, TableView]]:
    """``paigow.protocol.projection.project_commit`` as it was before issue 22 (commit d97658f)."""
    keys = viewer_keys(before, after)
    known = before_views or {}
    viewers = {key: viewer_of(key) for key in keys}
    olds = {key: known.get(key) or view_for(before, viewers[key]) for key in keys}
    news = {key: view_for(after, viewers[key]) for key in keys}
    memo: Memo = {}
    encoded: dict[int, tuple[Event, Any]] = {}
    public = view_patch(olds[SPECTATOR], news[SPECTATOR], memo)
    updates = {}
    for key, viewer in viewers.items():
        seen = []
        for event in events:
            projected = event_for(event, viewer)
            if projected is None:
                continue
            if projected is event:
                found = encoded.get(id(event))
                if found is None:
                    found = encoded[id(event)] = (event, to_jsonable_python(event))
                seen.append(found[1])
            else:
                seen.append(to_jsonable_python(projected))
        patch = public if key == SPECTATOR else _old_layered_patch(public, olds[key], news[key], memo)
        updates[key] = ViewerUpdate(tuple(seen), tuple(patch))
    return updates, news


def _own_hand(view: TableView) -> int | None:
    if view.you is None or view.round is None:
        return None
    own = view.you.position
    return next((i for i, h in enumerate(view.round.hands) if h.position == own), None)


def _old_layered_patch(public: list[PatchOp], old: TableView, new: TableView, memo: Memo) -> list[PatchOp]:
    index = _own_hand(old)
    if index != _own_hand(new):
        return view_patch(old, new, memo)
    ops: list[PatchOp] = []
    if index is not None:
        hand = f"/round/hands/{index}"
        inside = hand + "/"
        for op in public:
            path = op["path"]
            if path.startswith(inside):
                continue
            if hand.startswith(path) and (len(path) == len(hand) or hand[len(path)] == "/"):
                return view_patch(old, new, memo)
            ops.append(op)
        assert old.round is not None
        assert new.round is not None
        ops.extend(view_patch(old.round.hands[index], new.round.hands[index], memo, hand))
    else:
        ops.extend(public)
    if old.you is not new.you:
        ops.extend(view_patch(old.you, new.you, memo, "/you"))
    if old.admin is not new.admin:
        ops.extend(view_patch(old.admin, new.admin, memo, "/admin"))
    return ops


def _old_round(start: TableState, cmds: Round) -> list[dict[str, str]]:
    s, views, texts = start, None, []
    for cmd, seed in cmds:
        after, events = apply(s, cmd, seed=seed)
        updates, views = _old_project_commit(s, after, events, views)
        texts.append(commit_views(updates))
        effects_of(s, after, events, now_ms=NOW)
        s = after
    return texts


def _new_round(start: TableState, cmds: Round) -> list[dict[str, str]]:
    s, texts = start, []
    seen: Seen | None = None
    for cmd, seed in cmds:
        commit = decide_commit(s, cmd, seed=seed, now_ms=NOW, seen=seen)
        assert commit is not None
        texts.append(dict(commit.views))
        s, seen = commit.after, commit.seen
    return texts


Triple = tuple[TableState, TableState, tuple[Event, ...]]


def _old_views(triples: list[list[Triple]]) -> None:
    for commits in triples:
        views = None
        for before, after, events in commits:
            updates, views = _old_project_commit(before, after, events, views)
            commit_views(updates)


def _new_views(triples: list[list[Triple]]) -> None:
    for commits in triples:
        seen = None
        for before, after, events in commits:
            seen = project_commit(before, after, events, seen).seen


def _triples(start: TableState, cmds: Round) -> list[Triple]:
    out, s = [], start
    for cmd, seed in cmds:
        after, events = apply(s, cmd, seed=seed)
        out.append((s, after, events))
        s = after
    return out


def _time(path: Any, start: TableState, rounds: list[Round]) -> float:
    t = time.process_time()
    for cmds in rounds:
        path(start, cmds)
    return time.process_time() - t


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    start, now = _start_state()
    rounds = [_record_round(start, now, k) for k in range(args.rounds)]
    commits = sum(len(r) for r in rounds)
    for cmds in rounds[:20]:
        assert _old_round(start, cmds) == _new_round(start, cmds), "the same update texts"
    old, new = float("inf"), float("inf")
    for _ in range(args.repeat):
        old = min(old, _time(_old_round, start, rounds))
        new = min(new, _time(_new_round, start, rounds))
    triples = [_triples(start, cmds) for cmds in rounds]
    old_views, new_views = float("inf"), float("inf")
    for _ in range(args.repeat):
        t = time.process_time()
        _old_views(triples)
        old_views = min(old_views, time.process_time() - t)
        t = time.process_time()
        _new_views(triples)
        new_views = min(new_views, time.process_time() - t)
    machine = min(_time(lambda s, cmds: [s := apply(s, c, seed=x)[0] for c, x in cmds], start, rounds)
                  for _ in range(args.repeat))
    print(f"Python {sys.version.split()[0]}, {len(rounds)} rounds of six players, {commits} commits, "
          f"best of {args.repeat} interleaved runs, process CPU time\n")
    print("| Path | µs of CPU per commit |")
    print("|---|---|")
    print(f"| `apply` alone (the machine) | {machine / commits * 1e6:.0f} |")
    print(f"| before: `apply` + `project_commit` (8 views diffed) + `commit_views` + `effects_of` | "
          f"{old / commits * 1e6:.0f} |")
    print(f"| after: `decide_commit` (the same, pure, one spectators' view) | {new / commits * 1e6:.0f} |")
    print("| the projection alone, before: `project_commit` + `commit_views` | "
          f"{old_views / commits * 1e6:.0f} |")
    print("| the projection alone, after: `project_commit` (texts included) | "
          f"{new_views / commits * 1e6:.0f} |")
    print(f"\nafter / before: {new / old:.2f} (the projection alone: {new_views / old_views:.2f})")


if __name__ == "__main__":
    main()
