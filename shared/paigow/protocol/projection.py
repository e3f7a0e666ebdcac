"""What one commit of a table looks like to each of its viewers: ``project_commit``.

Protocol 2 pushes every viewer, for each commit, the events it may see and the JSON Patch of its view.
These are worked out once per commit, by the process that writes it, for every *kind* of viewer the table
has (``viewer_keys``): the spectators (``SPECTATOR``), the operator (``OPERATOR``), and each player seated
before or after the commit (by player id). A player who is not seated sees exactly what a spectator sees
(``view_for`` gives them the spectator's view and ``event_for`` hides from them what it hides from a
spectator), so their key is ``SPECTATOR`` (``key_of``). The commit stores the result beside its events
(``paigow_server.store``), so every process can push it, and resume a viewer from the table's event log,
without working out a view of its own.

Each ``ViewerUpdate`` holds JSON data only: the projected events (as ``event_for`` leaves them) and the
operations of ``view_patch``. ``update_text`` writes it once as the JSON object ``{"events": [...],
"patch": [...]}`` that the push messages are made of.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic_core import to_jsonable_python

from paigow.protocol.patch import PatchOp
from paigow.protocol.view_patch import Memo, view_patch
from paigow.table.events import Event
from paigow.table.state import TableState
from paigow.table.views import (
    OperatorViewer,
    PlayerViewer,
    SpectatorViewer,
    TableView,
    Viewer,
    event_for,
    view_for,
)

__all__ = [
    "OPERATOR",
    "SPECTATOR",
    "Projection",
    "ViewerUpdate",
    "key_of",
    "project_commit",
    "update_text",
    "viewer_keys",
    "viewer_of",
]

SPECTATOR = "spectator"
OPERATOR = "operator"
"""The keys of the spectators' and the operator's updates (player ids start with ``p_``, never these)."""


@dataclass(frozen=True, slots=True)
class ViewerUpdate:
    events: tuple[Any, ...]
    """The commit's events as this viewer may see them (JSON data), in order; hidden ones left out."""
    patch: tuple[PatchOp, ...]
    """The JSON Patch from this viewer's view before the commit to its view after it."""


@dataclass(frozen=True, slots=True)
class Projection:
    updates: dict[str, ViewerUpdate]
    """Per viewer key, what the commit looks like to that viewer."""
    views: dict[str, TableView]
    """Per viewer key, its view after the commit (the next commit's ``before_views``)."""


def viewer_of(key: str) -> Viewer:
    if key == SPECTATOR:
        return SpectatorViewer()
    if key == OPERATOR:
        return OperatorViewer()
    return PlayerViewer(key)


def key_of(viewer: Viewer, keys: Iterable[str]) -> str:
    """The key of ``viewer``'s update among ``keys`` (a player without one of their own: a spectator's)."""
    if isinstance(viewer, OperatorViewer):
        return OPERATOR
    if isinstance(viewer, PlayerViewer) and viewer.player_id in keys:
        return viewer.player_id
    return SPECTATOR


def viewer_keys(*states: TableState) -> list[str]:
    """The spectators, the operator, and every player seated in any of ``states``, in seat order."""
    keys = [SPECTATOR, OPERATOR]
    for state in states:
        for seat in state.seats:
            if seat is not None and seat.player_id not in keys:
                keys.append(seat.player_id)
    return keys


def project_commit(before: TableState, after: TableState, events: Sequence[Event],
                   before_views: Mapping[str, TableView] | None = None) -> Projection:
    """Every viewer key's update for the commit ``before`` → ``after`` with ``events``. ``before_views``:
    the views of ``before`` that the previous commit's projection made (``Projection.views``), when this
    process has them; any missing one is made from ``before``.

    The spectators' patch is worked out once, and the others are made from it (``_layered_patch``): the
    operator's view is the spectators' with ``admin``, and a player's is the spectators' with their own hand
    and ``you``, so their patch is the spectators' with those parts' own operations."""
    keys = viewer_keys(before, after)
    known = before_views or {}
    # All views of one state before any of the next: view_for shares the public part of the last state.
    viewers = {key: viewer_of(key) for key in keys}
    olds = {key: known.get(key) or view_for(before, viewers[key]) for key in keys}
    news = {key: view_for(after, viewers[key]) for key in keys}
    memo: Memo = {}
    encoded: dict[int, tuple[Event, Any]] = {}  # an event several viewers see unchanged: JSON once
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
        patch = public if key == SPECTATOR else _layered_patch(public, olds[key], news[key], memo)
        updates[key] = ViewerUpdate(tuple(seen), tuple(patch))
    return Projection(updates, news)


def _own_hand(view: TableView) -> int | None:
    """The index in ``round.hands`` of the viewer's own hand (None: no round, no seat, or no hand in it)."""
    if view.you is None or view.round is None:
        return None
    own = view.you.position
    return next((i for i, h in enumerate(view.round.hands) if h.position == own), None)


def _layered_patch(public: list[PatchOp], old: TableView, new: TableView, memo: Memo) -> list[PatchOp]:
    """The patch from ``old`` to ``new`` (the operator's or a player's views of two states), given
    ``public``, the spectators' patch between the same two states.

    Such a view is the spectators' view of its state (the very same parts) but for ``admin`` (the
    operator's), ``you`` and the viewer's own hand in ``round.hands`` (a player's). Operations of the
    spectators' patch elsewhere apply to it as they are; those inside the own hand are replaced by the own
    hand's. When the spectators' patch writes a part that holds the own hand (the round, its hands) or the
    own hand moves, the whole views are walked instead."""
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
                return view_patch(old, new, memo)  # writes the round, its hands or the own hand whole
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


_compact = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode


def update_text(update: ViewerUpdate) -> str:
    """``{"events":[...],"patch":[...]}``: the JSON of one update, the body of a push message."""
    return _compact({"events": update.events, "patch": update.patch})
