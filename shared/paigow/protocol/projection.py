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
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic_core import to_jsonable_python

from paigow.protocol.patch import PatchOp
from paigow.protocol.view_patch import Memo, view_patch
from paigow.table.events import Event
from paigow.table.state import TableState
from paigow.table.views import (
    AdminView,
    HandView,
    OperatorViewer,
    OwnView,
    PlayerViewer,
    SpectatorViewer,
    TableView,
    Viewer,
    admin_view,
    event_for,
    own_view,
    shown_apart,
    spectator_view,
    with_admin,
    with_own,
)

__all__ = [
    "OPERATOR",
    "SPECTATOR",
    "Projection",
    "Seen",
    "ViewerUpdate",
    "key_of",
    "project_commit",
    "seen_of",
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
class Seen:
    """Every kind of viewer's view of one state, in parts: the spectators' view, the operator's ``admin``
    and each seated player's ``OwnView`` (a player's view is ``with_own(spectator, own)``). A commit's
    projection leaves the views after it here (``Projection.seen``), for the next commit's."""

    table_id: str
    version: int
    spectator: TableView
    admin: AdminView
    players: dict[str, OwnView]
    """Per seated player, their own part of their view (a player without a seat sees the spectator's)."""

    def view(self, key: str) -> TableView:
        """The whole view of the viewer ``key`` (as ``view_for`` makes it of this state)."""
        if key == SPECTATOR:
            return self.spectator
        if key == OPERATOR:
            return with_admin(self.spectator, self.admin)
        return with_own(self.spectator, self.players.get(key))


def seen_of(state: TableState) -> Seen:
    """Every kind of viewer's view of ``state`` (``Seen``)."""
    players = {}
    for seat in state.seats:
        if seat is not None:
            own = own_view(state, seat.player_id)
            assert own is not None
            players[seat.player_id] = own
    return Seen(state.table_id, state.version, spectator_view(state), admin_view(state), players)


@dataclass(frozen=True, slots=True)
class Projection:
    updates: dict[str, ViewerUpdate]
    """Per viewer key, what the commit looks like to that viewer."""
    texts: dict[str, str]
    """Per viewer key, the JSON text of its update (``update_text``); viewers with the same update share
    one text object (most commits look alike to most players)."""
    seen: Seen
    """Every viewer's view after the commit (the next commit's ``before``)."""


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
                   seen: Seen | None = None) -> Projection:
    """Every viewer key's update for the commit ``before`` → ``after`` with ``events``. ``seen``: the
    views of ``before`` that the previous commit's projection left (``Projection.seen``), when this
    process has them (else, or when they are of another state, they are made from ``before``).

    The views of ``after`` are made once in parts (``seen_of``: the spectators' view, the operator's
    ``admin``, each player's ``you`` and own hand), and the spectators' patch is worked out once. The
    others are made from it (``_layered_patch``): the operator's patch is the spectators' with the
    operations of ``admin``, and a player's the spectators' with those of their own hand and ``you``.
    Likewise the events: each is projected and written as JSON once for the spectators, and again only
    for the viewers that ``event_for`` shows it to otherwise (``shown_apart``: a player's own cards).
    The update texts are joined from the JSON of these shared parts, each written once."""
    keys = viewer_keys(before, after)
    if seen is None or seen.version != before.version or seen.table_id != before.table_id:
        seen = seen_of(before)
    new = seen_of(after)
    memo: Memo = {}
    public = view_patch(seen.spectator, new.spectator, memo)
    op_texts = [_compact(op) for op in public]
    public_texts = {id(op): text for op, text in zip(public, op_texts, strict=True)}
    # The spectators' events, each once as JSON data and text; the personal ones again per viewer.
    shared: list[tuple[Any, str] | None] = []
    spectator_events: list[Any] = []
    spectator_texts: list[str] = []
    for event in events:
        projected = event_for(event, _SPECTATOR)
        entry = None if projected is None else _event_json(projected)
        shared.append(entry)
        if entry is not None:
            spectator_events.append(entry[0])
            spectator_texts.append(entry[1])
    apart = [shown_apart(event) for event in events]
    personal = [(i, a) for i, a in enumerate(apart) if a is not None and (a[0] or a[1])]
    spectator_update = ViewerUpdate(tuple(spectator_events), tuple(public))
    spectator_text = _text(spectator_texts, op_texts)
    updates: dict[str, ViewerUpdate] = {}
    texts: dict[str, str] = {}
    distinct: dict[str, str] = {spectator_text: spectator_text}
    for key in keys:
        if key == SPECTATOR:
            updates[key], texts[key] = spectator_update, spectator_text
            continue
        viewer = viewer_of(key)
        mine = [i for i, (players, operator) in personal if key in players or (operator and key == OPERATOR)]
        if mine:
            seen_events, seen_texts = _events_for(events, shared, mine, viewer)
        else:
            seen_events, seen_texts = spectator_events, spectator_texts
        layered = _layered_patch(key, public, seen, new, memo)
        if layered is None:
            ops, ops_texts = public, op_texts
        else:
            ops = layered
            ops_texts = [public_texts.get(id(op)) or _compact(op) for op in layered]
        if ops is public and seen_events is spectator_events:
            updates[key], texts[key] = spectator_update, spectator_text
            continue
        text = _text(seen_texts, ops_texts)
        texts[key] = distinct.setdefault(text, text)
        updates[key] = ViewerUpdate(tuple(seen_events), tuple(ops))
    return Projection(updates, texts, new)


_SPECTATOR = SpectatorViewer()


def _event_json(event: Event) -> tuple[Any, str]:
    data = to_jsonable_python(event)
    return data, _compact(data)


def _events_for(events: Sequence[Event], shared: Sequence[tuple[Any, str] | None], mine: Sequence[int],
                viewer: Viewer) -> tuple[list[Any], list[str]]:
    """The events as ``viewer`` sees them, as JSON data and texts: the spectators' (``shared``) but for
    those at the indexes ``mine``, which ``event_for`` shows the viewer otherwise (``shown_apart``)."""
    data: list[Any] = []
    texts: list[str] = []
    for index, (event, entry) in enumerate(zip(events, shared, strict=True)):
        if index in mine:
            projected = event_for(event, viewer)
            entry = None if projected is None else _event_json(projected)
        if entry is not None:
            data.append(entry[0])
            texts.append(entry[1])
    return data, texts


def _text(events: Sequence[str], ops: Sequence[str]) -> str:
    """``update_text`` of an update, joined from the texts of its events and operations (the same
    text: the compact encoder writes a list as its items' texts between brackets, comma-separated)."""
    return '{"events":[' + ",".join(events) + '],"patch":[' + ",".join(ops) + "]}"


def _layered_patch(key: str, public: list[PatchOp], old: Seen, new: Seen,
                   memo: Memo) -> list[PatchOp] | None:
    """The patch of the viewer ``key`` (the operator or a player) from ``old`` to ``new``, given
    ``public``, the spectators' patch between the same two states (None: that very patch).

    Such a view is the spectators' view of its state (the very same parts) but for ``admin`` (the
    operator's), ``you`` and the viewer's own hand in ``round.hands`` (a player's). Operations of the
    spectators' patch elsewhere apply to it as they are. Those inside the own hand are left out and the
    own hand's own operations added; one that writes a part holding the own hand whole (the round, its
    hands, the hand: as the deal does) writes it with the own hand in it. In the cases left, which the
    machine never makes (the own hand moves to another index, or comes or goes where the spectators'
    patch leaves the hand in place), the two whole views are walked."""
    if key == OPERATOR:
        if old.admin is new.admin or old.admin == new.admin:
            return None
        admin = view_patch(old.admin, new.admin, memo, "/admin")
        return [*public, *admin] if admin else None
    was, now = old.players.get(key), new.players.get(key)
    a = None if was is None else was.hand_index
    b = None if now is None else now.hand_index
    ops: list[PatchOp] | None = None
    if a is not None or b is not None:
        if a is not None and b is not None and a != b:
            return view_patch(old.view(key), new.view(key), memo)
        hand = f"/round/hands/{a if a is not None else b}"
        inside = hand + "/"
        ops = []
        covered = False
        """An operation of the spectators' wrote the own hand's place whole (or a part that holds it)."""
        for op in public:
            path = op["path"]
            if path.startswith(inside):
                continue
            if hand.startswith(path) and (len(path) == len(hand) or hand[len(path)] == "/"):
                covered = True
                if now is not None and now.hand is not None and "value" in op:
                    value = _with_hand(op["value"], hand[len(path):], now.hand)
                    if value is _MISSING:
                        return view_patch(old.view(key), new.view(key), memo)
                    op = {"op": op["op"], "path": path, "value": value}
                elif b is not None:
                    return view_patch(old.view(key), new.view(key), memo)
            ops.append(op)
        if not covered:
            if was is None or now is None or a is None or b is None:  # dealt or taken back in place
                return view_patch(old.view(key), new.view(key), memo)
            if was.hand != now.hand:
                ops.extend(view_patch(was.hand, now.hand, memo, hand))
    you_old, you_new = (None if was is None else was.you), (None if now is None else now.you)
    if you_old is not you_new and you_old != you_new:
        mine = view_patch(you_old, you_new, memo, "/you")
        if mine:
            ops = [*(public if ops is None else ops), *mine]
    if ops is not None and ops == public:
        return None
    return ops


_MISSING = object()


def _with_hand(value: Any, pointer: str, hand: HandView) -> Any:
    """The JSON ``value`` with the own ``hand`` at ``pointer`` in it (relative, ``"/hands/2"`` in a round;
    ``""``: the hand itself), copied along the way (``value`` is the spectators' and stays as it is);
    ``_MISSING`` when ``value`` has no such place."""
    if pointer == "":
        return to_jsonable_python(hand)
    token, _, rest = pointer[1:].partition("/")
    rest = "/" + rest if rest else ""
    if isinstance(value, dict) and token in value:
        inner = _with_hand(value[token], rest, hand)
        return _MISSING if inner is _MISSING else {**value, token: inner}
    if isinstance(value, list) and token.isdigit() and int(token) < len(value):
        inner = _with_hand(value[int(token)], rest, hand)
        if inner is _MISSING:
            return _MISSING
        copy = list(value)
        copy[int(token)] = inner
        return copy
    return _MISSING


_compact = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode


def update_text(update: ViewerUpdate) -> str:
    """``{"events":[...],"patch":[...]}``: the JSON of one update, the body of a push message."""
    return _compact({"events": update.events, "patch": update.patch})
