"""One commit of a table, decided without I/O: ``decide_commit(state, command, seed=..., now_ms=...)``.

A command (a player's, the operator's, or the ``Tick`` of a deadline) on a table's state gives a
``Commit``: the state after it, its events, what it looks like to every kind of viewer
(``paigow.protocol.projection``: each viewer key's ``ViewerUpdate`` and its JSON text) and its money and
history effects (``paigow.ledger.effects``). The server only loads the state, writes the commit (if the
table is still at the version it was decided on; else it decides again on the new state) and pushes it.

``VersionedEvents`` is the record of a commit as the table's event log and channel carry it (the
server's codec writes and reads its JSON).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from paigow.ledger.effects import Effects, effects_of
from paigow.protocol.projection import Seen, ViewerUpdate, project_commit
from paigow.table.commands import Command
from paigow.table.events import Event
from paigow.table.machine import apply
from paigow.table.state import TableState

__all__ = ["Commit", "VersionedEvents", "commit_of", "decide_commit"]


@dataclass(frozen=True, slots=True)
class VersionedEvents:
    """The events of one commit and the table version they produced, and what the commit looks like to
    each kind of viewer (``paigow.protocol.projection``): per viewer key, the JSON text of its update
    ``{"events": [...], "patch": [...]}``. ``views`` is None for a commit written without them (by a
    version of the server before protocol 2, or straight to the store): its viewers get a snapshot."""

    version: int
    events: tuple[Event, ...]
    views: Mapping[str, str] | None = None


@dataclass(frozen=True, slots=True)
class Commit:
    """A decided commit: everything the store writes and the fan-out pushes, worked out once."""

    before: TableState
    after: TableState
    """The state after it (``before.version + 1``)."""
    events: tuple[Event, ...]
    """Never empty (a command that changes nothing is no commit)."""
    now_ms: int
    """The time it was decided at: the time of its ledger entries, history and rounds."""
    updates: Mapping[str, ViewerUpdate]
    """Per viewer key (``projection.viewer_keys``), what the commit looks like to that viewer."""
    views: Mapping[str, str]
    """Per viewer key, the JSON text of its update (equal updates share one text object)."""
    effects: Effects
    """Its money and history consequences (``effects_of``)."""
    seen: Seen
    """Every kind of viewer's view after it: the next commit's projection starts from it."""

    @property
    def table_id(self) -> str:
        return self.after.table_id

    @property
    def version(self) -> int:
        return self.after.version

    def record(self) -> VersionedEvents:
        """The commit as the event log and the table's channel carry it."""
        return VersionedEvents(self.after.version, self.events, self.views)


def commit_of(before: TableState, after: TableState, events: Sequence[Event], *, now_ms: int,
              seen: Seen | None = None) -> Commit:
    """The commit of ``events``, which took ``before`` to ``after`` (``paigow.table.apply``). ``seen``: the
    views of ``before`` the previous commit left (``Commit.seen``), if known. Raises
    ``paigow.ledger.effects.EffectsError`` when the events' money does not add up."""
    if after.table_id != before.table_id:
        raise ValueError(f"commit of table {after.table_id!r} over table {before.table_id!r}")
    if after.version <= before.version:
        raise ValueError(f"commit from version {before.version} to {after.version}: must go forward")
    if not events:
        raise ValueError("a commit without events")
    effects = effects_of(before, after, events, now_ms=now_ms)
    projection = project_commit(before, after, events, seen)
    return Commit(before, after, tuple(events), now_ms, projection.updates, projection.texts, effects,
                  projection.seen)


def decide_commit(state: TableState, command: Command, *, seed: bytes, now_ms: int,
                  seen: Seen | None = None) -> Commit | None:
    """``command`` decided on ``state`` (``seed``: 32 fresh random bytes, for a round it may start), as a
    ``Commit`` at ``now_ms``; None when it changes nothing (a ``Tick`` with nothing due). Raises
    ``paigow.table.Rejection`` when the table refuses it."""
    after, events = apply(state, command, seed=seed)
    if not events:
        return None
    return commit_of(state, after, events, now_ms=now_ms, seen=seen)
