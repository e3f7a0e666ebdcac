"""``view_patch`` writes the JSON Patch between the JSON of two views, for every kind of viewer, through
played rounds: applying it to the old view's JSON gives the new view's JSON, with the same types."""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable

import pytest

from paigow.protocol.patch import PatchOp, apply_patch, diff
from paigow.protocol.projection import key_of, project_commit, seen_of, update_text, viewer_keys
from paigow.protocol.server import encode_event
from paigow.protocol.view_patch import jsonable_view, view_patch
from paigow.table import commands as c
from paigow.table.views import OperatorViewer, PlayerViewer, SpectatorViewer, event_for, shown_apart, view_for

from .test_patch import _typed
from .test_view_json import VIEWERS, Table
from .test_view_json import _played as _eventful


def _played() -> Table:
    table = Table()

    for i in range(1, 6):
        table.do(c.Sit(f"p{i}", f"Player {i}", i, 50_000))
    for n in range(4):
        table.play_round(bank=n % 2 == 1, own_hand=n % 3 == 0)
    return table


def test_the_patch_of_each_commit_turns_each_viewers_view_into_the_next() -> None:
    table = _played()
    assert len(table.states) > 40
    patched = 0
    for viewer in VIEWERS:
        views = [view_for(state, viewer) for state in table.states]
        doc = jsonable_view(views[0])
        for old, new in itertools.pairwise(views):
            ops = view_patch(old, new)
            expected = jsonable_view(new)
            assert ops == diff(jsonable_view(old), expected), "the same operations as the JSON diff"
            doc = apply_patch(doc, ops)
            assert _typed(doc) == _typed(expected)
            patched += len(ops)
    assert patched > 1_000


def test_a_view_has_no_patch_to_itself_or_to_an_equal_copy() -> None:
    table = _played()
    for viewer in VIEWERS:
        state = table.states[-1]
        assert view_patch(view_for(state, viewer), view_for(state, viewer)) == []


def test_a_seat_taken_or_left_is_one_replace_of_that_seat() -> None:
    table = Table()
    before = table.state
    table.do(c.Sit("p1", "Ann", 3, 50_000))
    spectator = VIEWERS[-2]
    ops = view_patch(view_for(before, spectator), view_for(table.state, spectator))
    paths = {op["path"] for op in ops}
    assert "/seats/3" in paths
    assert "/version" in paths
    assert all(not p.startswith("/seats/") or p == "/seats/3" for p in paths)


@pytest.mark.parametrize("played", [_played, _eventful], ids=["rounds", "eventful"])
def test_each_viewers_updates_replay_its_views_and_carry_its_events(played: Callable[[], Table]) -> None:
    """``project_commit`` for every commit of played rounds (each with the previous one's views, as the
    writing process keeps them): each viewer, a player who never sat included, finds its update under
    ``key_of``; its patches replay its views and its events are ``event_for``'s, as the wire writes them.
    ("eventful": twelve rounds with sits and leaves between and during them, a player-banker, sitting
    out, a void, a pause and a closing: the players' patches made from the spectators' meet every case.)"""
    table = played()
    docs = {viewer: jsonable_view(view_for(table.states[0], viewer)) for viewer in VIEWERS}
    views = None
    for before, after in itertools.pairwise(table.states):
        events = table.events[after.version]
        projection = project_commit(before, after, events, views)
        views = projection.seen
        assert set(projection.updates) == set(viewer_keys(before, after))
        assert set(projection.texts) == set(projection.updates)
        for viewer in VIEWERS:
            update = projection.updates[key_of(viewer, projection.updates)]
            docs[viewer] = apply_patch(docs[viewer], list(update.patch))
            assert _typed(docs[viewer]) == _typed(jsonable_view(view_for(after, viewer)))
            seen = [p for p in (event_for(e, viewer) for e in events) if p is not None]
            assert list(update.events) == [json.loads(encode_event(p)) for p in seen]
            assert json.loads(update_text(update)) == {"events": list(update.events),
                                                       "patch": list(update.patch)}
            assert projection.texts[key_of(viewer, projection.updates)] == update_text(update)




def test_a_part_the_spectators_patch_writes_whole_carries_the_players_own_hand() -> None:
    """Should a spectators' patch write the round, its hands or the player's own hand whole (the deal
    does; the machine never does between two states where the player has the same hand), the player's
    patch writes it with their own hand in it, never the spectators' hidden one over it; the spectators'
    operation is left as it was."""
    from paigow.protocol.projection import _layered_patch

    table = _played()
    viewer = PlayerViewer("p1")
    pairs = [(a, b) for a, b in itertools.pairwise(table.states)
             if a.round is not None and b.round is not None and a.round.hands and b.round.hands
             and a.seat_of("p1") is not None and b.seat_of("p1") is not None]
    assert pairs
    checked = 0
    for before, after in pairs[:10]:
        old, new = view_for(before, viewer), view_for(after, viewer)
        seen_before, seen_after = seen_of(before), seen_of(after)
        real = view_patch(seen_before.spectator, seen_after.spectator)
        spectators = jsonable_view(view_for(after, SpectatorViewer()))
        index = next(i for i, h in enumerate(spectators["round"]["hands"]) if h["player_id"] == "p1")
        for path, value in (("/round", spectators["round"]),
                            ("/round/hands", spectators["round"]["hands"]),
                            (f"/round/hands/{index}", spectators["round"]["hands"][index])):
            kept = json.dumps(value, sort_keys=True)
            public: list[PatchOp] = [op for op in real if not (op["path"] + "/").startswith(path + "/")]
            public.append({"op": "replace", "path": path, "value": value})
            doc = apply_patch(jsonable_view(seen_before.spectator), public)
            assert _typed(doc) == _typed(spectators), "a patch the spectators' could be"
            ops = _layered_patch("p1", public, seen_before, seen_after, {})
            assert ops is not None
            assert _typed(apply_patch(jsonable_view(old), ops)) == _typed(jsonable_view(new))
            assert json.dumps(value, sort_keys=True) == kept
            checked += 1
    assert checked == 3 * min(len(pairs), 10)


def test_only_the_viewers_an_event_is_shown_apart_to_see_it_otherwise_than_a_spectator() -> None:
    """``shown_apart`` names every viewer to whom ``event_for`` shows an event otherwise than to a
    spectator (the projection writes the spectators' JSON for all the others), over eventful rounds."""
    table = _eventful()
    spectator = SpectatorViewer()
    apart_seen = 0
    for events in table.events.values():
        for event in events:
            apart = shown_apart(event)
            players, operator = apart if apart is not None else (frozenset(), False)
            for viewer in VIEWERS:
                named = (isinstance(viewer, PlayerViewer) and viewer.player_id in players) or (
                    operator and isinstance(viewer, OperatorViewer))
                if named:
                    apart_seen += 1
                else:
                    assert event_for(event, viewer) == event_for(event, spectator), (event, viewer)
    assert apart_seen > 20


def test_a_players_patch_walks_the_whole_views_when_their_hand_moves_or_comes_in_place() -> None:
    """The cases the machine never makes (the own hand at another index before; the own hand dealt
    where the spectators' patch leaves the hand in place): the player's two whole views are walked, and
    the patch still turns the one into the other."""
    from dataclasses import replace as copy

    from paigow.protocol.projection import _layered_patch

    table = _played()
    pairs = [(a, b) for a, b in itertools.pairwise(table.states)
             if a.round is not None and b.round is not None and len(a.round.hands) > 2
             and a.seat_of("p1") is not None and b.seat_of("p1") is not None]
    assert pairs
    before, after = pairs[0]
    old, new = seen_of(before), seen_of(after)
    own = old.players["p1"]
    assert own.hand_index is not None
    moved = (own.hand_index + 1) % len(old.spectator.round.hands)  # type: ignore[union-attr]
    for was in (copy(own, hand_index=moved), copy(own, hand_index=None, hand=None)):
        seen = copy(old, players={**old.players, "p1": was})
        public = view_patch(seen.spectator, new.spectator)
        ops = _layered_patch("p1", public, seen, new, {})
        assert ops is not None
        patched = apply_patch(jsonable_view(seen.view("p1")), ops)
        assert _typed(patched) == _typed(jsonable_view(new.view("p1")))
