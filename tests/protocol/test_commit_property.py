"""The pure commit's updates, for random play: the Hypothesis table machine of ``tests/table`` (random
legal and illegal commands over many rounds: sits and leaves at any time, banks, bonuses, voids, pauses,
closings) with every accepted command made into a ``Commit`` as the server makes it (with the previous
commit's views, and now and then without), and after each one, for every kind of viewer (each player,
seated or not, a spectator, the operator):

- the viewer's patch (under ``key_of``) turns its previous view's JSON into exactly its fresh ``view_for``
  view's JSON, with the same JSON types;
- its events are exactly ``event_for``'s, as the wire writes them;
- its update text is ``update_text`` of its update;
- no update holds a card its viewer may not see (their own hand's before and after the commit, and the
  dealt cards of a round settled in it) nor the seed of the round in play.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, settings

from paigow.protocol.patch import apply_patch
from paigow.protocol.projection import Seen, key_of, update_text
from paigow.protocol.server import encode_event
from paigow.protocol.view_patch import jsonable_view
from paigow.table import commands as c
from paigow.table import events as ev
from paigow.table.cardtext import CARD_TEXTS
from paigow.table.commit import commit_of
from paigow.table.state import TableState
from paigow.table.views import OperatorViewer, PlayerViewer, SpectatorViewer, Viewer, event_for, view_for
from table.test_stateful import PLAYERS, TableMachine

from .test_patch import _typed

VIEWERS: tuple[Viewer, ...] = (SpectatorViewer(), OperatorViewer(), *(PlayerViewer(p) for p in PLAYERS))


def _strings(value: Any) -> set[str]:
    found: set[str] = set()
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            found.add(v)
        elif isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    return found


def _own_cards(state: TableState, viewer: Viewer) -> set[str]:
    if not isinstance(viewer, PlayerViewer) or state.round is None:
        return set()
    return {x for h in state.round.hands if h.player_id == viewer.player_id for x in h.cards}


class CommittedTable(TableMachine):
    def __init__(self) -> None:
        super().__init__()
        self.seen: Seen | None = None
        self.docs = {viewer: jsonable_view(view_for(self.state, viewer)) for viewer in VIEWERS}
        self.commits = 0

    def do(self, cmd: c.Command) -> tuple[ev.Event, ...]:
        before = self.state
        events = super().do(cmd)
        if not events:
            return events
        after = self.state
        self.commits += 1
        seen = None if self.commits % 5 == 0 else self.seen  # now and then from the state alone
        commit = commit_of(before, after, events, now_ms=self.now, seen=seen)
        assert commit.seen.version == after.version
        self.seen = commit.seen
        rounds = [s.round for s in (after, before) if s.round is not None]
        secret = rounds[0].server_seed if rounds else None
        revealed = any(isinstance(e, ev.RoundSettled | ev.RoundVoided) for e in events)
        settled = {x for e in events if isinstance(e, ev.RoundSettled)
                   for h in e.record.hands for x in h.dealt}
        for viewer in VIEWERS:
            key = key_of(viewer, commit.updates)
            update = commit.updates[key]
            doc = apply_patch(self.docs[viewer], list(update.patch))
            assert _typed(doc) == _typed(jsonable_view(view_for(after, viewer))), (viewer, cmd)
            self.docs[viewer] = doc
            seen_events = [p for p in (event_for(e, viewer) for e in events) if p is not None]
            assert list(update.events) == [json.loads(encode_event(p)) for p in seen_events], (viewer, cmd)
            text = commit.views[key]
            assert text == update_text(update)
            strings = _strings(json.loads(text))
            allowed = _own_cards(before, viewer) | _own_cards(after, viewer) | settled
            assert {s for s in strings if s in CARD_TEXTS} <= allowed, (viewer, cmd)
            if secret is not None and not revealed:
                assert secret not in strings, (viewer, cmd)
        return events


CommittedTable.TestCase.settings = settings(
    max_examples=25, stateful_step_count=50, deadline=None, derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
test_each_viewers_commit_updates_replay_its_views = CommittedTable.TestCase
