"""``decide_commit``: a command on a state as one pure ``Commit`` (the state after, the events, every kind of
viewer's update and its text, the ledger effects), or None when nothing changes."""

from __future__ import annotations

import pytest

from paigow.ledger.accounts import EntryKind, player_account, seat_account
from paigow.ledger.effects import BalanceChange, effects_of
from paigow.protocol.projection import OPERATOR, SPECTATOR, project_commit, seen_of, update_text
from paigow.table import Rejection, apply, new_table
from paigow.table import commands as c
from paigow.table.commit import VersionedEvents, commit_of, decide_commit
from paigow.table.events import PlayerSat

NOW = 1_700_000_000_000
SEED = bytes(range(32))


def test_a_command_is_one_commit_with_its_updates_and_its_money() -> None:
    state = new_table("t1", "Main")
    commit = decide_commit(state, c.Sit("p1", "Ann", 2, 50_000), seed=SEED, now_ms=NOW)
    assert commit is not None
    after, events = apply(state, c.Sit("p1", "Ann", 2, 50_000), seed=SEED)
    assert (commit.before, commit.after, commit.events) == (state, after, events)
    assert isinstance(commit.events[0], PlayerSat)
    assert commit.version == after.version == 1
    assert commit.effects == effects_of(state, after, events, now_ms=NOW)
    assert commit.effects.balances == (BalanceChange("p1", -50_000),)
    (entry,) = commit.effects.ledger
    assert (entry.kind, entry.from_account, entry.to_account, entry.ts_ms) == (
        EntryKind.BUY_IN, player_account("p1"), seat_account("t1", "p1"), NOW)
    assert set(commit.updates) == set(commit.views) == {SPECTATOR, OPERATOR, "p1"}
    assert all(commit.views[k] == update_text(u) for k, u in commit.updates.items())
    assert commit.record() == VersionedEvents(1, events, commit.views)
    assert commit.seen == seen_of(after)


def test_a_command_that_changes_nothing_is_no_commit_and_a_refused_one_raises() -> None:
    state = new_table("t1", "Main")
    assert decide_commit(state, c.Tick(NOW), seed=SEED, now_ms=NOW) is None
    with pytest.raises(Rejection):
        decide_commit(state, c.Leave("nobody"), seed=SEED, now_ms=NOW)


def test_views_of_another_state_are_not_used() -> None:
    """Views left by a commit of another version (or table) are ignored: the updates are made from the
    state the command was decided on."""
    state = new_table("t1", "Main")
    first = decide_commit(state, c.Sit("p1", "Ann", 2, 50_000), seed=SEED, now_ms=NOW)
    assert first is not None
    second = decide_commit(first.after, c.Sit("p2", "Bob", 3, 50_000), seed=SEED, now_ms=NOW)
    assert second is not None
    stale = commit_of(first.after, second.after, second.events, now_ms=NOW, seen=seen_of(state))
    other = seen_of(apply(new_table("t2", "Other"), c.Sit("p9", "Eve", 4, 50_000), seed=SEED)[0])
    assert other.version == first.after.version
    assert stale.updates == second.updates
    assert project_commit(first.after, second.after, second.events, other).updates == second.updates
    with_views = commit_of(first.after, second.after, second.events, now_ms=NOW, seen=first.seen)
    assert with_views.views == second.views


def test_a_commit_must_go_forward_with_events() -> None:
    state = new_table("t1", "Main")
    after, events = apply(state, c.Sit("p1", "Ann", 2, 50_000), seed=SEED)
    with pytest.raises(ValueError, match="forward"):
        commit_of(after, state, events, now_ms=NOW)
    with pytest.raises(ValueError, match="without events"):
        commit_of(state, after, (), now_ms=NOW)
    with pytest.raises(ValueError, match="table"):
        commit_of(new_table("t2", "Other"), after, events, now_ms=NOW)
