"""Server messages: the fanout's fast encoders write exactly what the models would, and every message
reads back through the closed ``ServerMessage`` union."""

from __future__ import annotations

import json

import pytest

from paigow.protocol.codes import ErrorCode
from paigow.protocol.patch import apply_patch
from paigow.protocol.projection import key_of, project_commit, update_text
from paigow.protocol.server import (
    Accepted,
    ErrorMessage,
    Patch,
    PatchOperation,
    Pong,
    Role,
    Snapshot,
    decode_server_message,
    encode_patch_message,
    encode_server_message,
    encode_snapshot_message,
    encode_view,
)
from paigow.protocol.version import PROTOCOL_VERSION
from paigow.protocol.view_patch import jsonable_view
from paigow.table.commands import PlaceBet, SetHand, Sit, Tick
from paigow.table.machine import apply
from paigow.table.rejections import RejectCode
from paigow.table.state import TableState, new_table
from paigow.table.views import OperatorViewer, PlayerViewer, SpectatorViewer, Viewer, event_for, view_for


def _dealt_table() -> tuple[TableState, TableState, tuple[object, ...]]:
    state = new_table("t1", "Main \"quoted\" table")
    for seat, name in ((1, "Ann"), (2, "Bo")):
        state, _ = apply(state, Sit(f"p{seat}", name, seat, 20_000), seed=bytes(32))
    state, _ = apply(state, Tick(1_800_000_000_000), seed=bytes(range(32)))
    state, _ = apply(state, PlaceBet("p1", 1_000), seed=bytes(32))
    before = state
    state, events = apply(state, PlaceBet("p2", 2_500), seed=bytes(32))
    return before, state, events


@pytest.mark.parametrize("viewer", [PlayerViewer("p1"), PlayerViewer("p2"), SpectatorViewer(),
                                    OperatorViewer()])
def test_the_fast_patch_encoding_is_the_models_encoding(viewer: Viewer) -> None:
    before, after, events = _dealt_table()
    projection = project_commit(before, after, events)
    update = projection.updates[key_of(viewer, projection.updates)]
    projected = tuple(p for e in events if (p := event_for(e, viewer)) is not None)
    model = Patch(since=before.version, version=after.version, events=projected,
                  patch=tuple(PatchOperation.model_validate(op) for op in update.patch))
    fast = encode_patch_message(before.version, after.version, update_text(update))
    assert json.loads(fast) == json.loads(model.model_dump_json(exclude_defaults=False)) | {
        "patch": list(update.patch)}
    decoded = decode_server_message(fast)
    assert decoded == model
    assert apply_patch(jsonable_view(view_for(before, viewer)), list(update.patch)) == jsonable_view(
        view_for(after, viewer))


def test_a_patch_message_is_made_only_of_an_updates_text() -> None:
    with pytest.raises(ValueError, match="not the text of an update"):
        encode_patch_message(1, 2, '{"view": {}}')


@pytest.mark.parametrize(("viewer", "role", "player_id"), [
    (PlayerViewer("p1"), Role.PLAYER, "p1"), (SpectatorViewer(), Role.SPECTATOR, None)])
def test_the_fast_snapshot_encoding_is_the_models_encoding(viewer: Viewer, role: Role,
                                                           player_id: str | None) -> None:
    _, after, _ = _dealt_table()
    view = view_for(after, viewer)
    model = Snapshot(protocol=PROTOCOL_VERSION, table_id="t1", version=after.version, role=role,
                     player_id=player_id, view=view)
    fast = encode_snapshot_message("t1", after.version, role, player_id, encode_view(view))
    assert fast == model.model_dump_json()
    assert decode_server_message(fast) == model


def test_a_hand_set_by_another_player_reaches_a_viewer_without_its_cards() -> None:
    _, after, _ = _dealt_table()
    hand = next(h for h in after.round.hands if h.player_id == "p2")
    set_after, events = apply(after, SetHand("p2", hand.cards[:2]), seed=bytes(32))
    projection = project_commit(after, set_after, events)
    update = projection.updates[key_of(PlayerViewer("p1"), projection.updates)]
    text = encode_patch_message(after.version, set_after.version, update_text(update))
    frame = json.loads(text)
    hand_set = next(e for e in frame["events"] if e["kind"] == "hand_set" and e["player_id"] == "p2")
    assert (hand_set["high"], hand_set["low"]) == ([], [])
    assert not set(hand.cards) & set(text.replace('"', " ").split())


@pytest.mark.parametrize("message", [
    Accepted(id="c1", version=7),
    ErrorMessage(id="c2", code=ErrorCode.RATE_LIMITED, message="slow down"),
    ErrorMessage(id=None, code=RejectCode.FOUL, message="low hand K-Q outranks high hand K-J-8-5-3: foul"),
    Pong(id=None),
])
def test_small_messages_round_trip(message: Accepted | ErrorMessage | Pong) -> None:
    assert decode_server_message(encode_server_message(message)) == message
