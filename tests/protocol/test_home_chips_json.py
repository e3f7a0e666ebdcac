"""``view.home.chips`` on the wire (issue 31): the fields docs/protocol.md lists, null at a game without
chips, written by ``ViewJson`` as ``encode_view`` writes it, and carried by a commit's patch."""

from __future__ import annotations

import hashlib
import json

from paigow.protocol.patch import apply_patch
from paigow.protocol.projection import SPECTATOR, project_commit
from paigow.protocol.server import encode_view
from paigow.protocol.view_json import ViewJson
from paigow.table import commands as c
from paigow.table import home_commands as h
from paigow.table.home import Home
from paigow.table.home_chip_commands import AnswerBuyIn, Rebuy
from paigow.table.home_chips import HomeChips
from paigow.table.machine import apply
from paigow.table.state import TableState, new_table
from paigow.table.views import PlayerViewer, SpectatorViewer, view_for

CHIPS_KEYS = ["default_buy_in_cents", "min_buy_in_cents", "max_buy_in_cents", "max_buy_in_cap_cents",
              "rebuys", "auto_approve", "commission", "players_bank_in_turn", "requests", "lines", "players",
              "issued_cents", "stacks_cents", "cashed_out_cents", "house_cents", "commission_cents",
              "balanced", "settle_up"]
REQUEST_KEYS = ["request_id", "player_id", "name", "amount_cents", "rebuy", "position", "approved_cents"]
LINE_KEYS = ["line", "kind", "player_id", "name", "amount_cents", "by_player_id", "by_name", "automatic",
             "reason", "round_number", "at_ms"]
PLAYER_KEYS = ["player_id", "name", "buy_ins_cents", "added_cents", "taken_cents", "cashed_out_cents",
               "stack_cents", "net_cents"]
PAYMENT_KEYS = ["from_id", "from_name", "to_id", "to_name", "amount_cents"]


def _apply(state: TableState, cmd: c.Command, n: int) -> TableState:
    after, _ = apply(state, cmd, seed=hashlib.sha256(f"chips-json-{n}".encode()).digest())
    return after


def _game() -> TableState:
    state = new_table("h1", "Home", home=Home("p1", "Ann", chips=HomeChips()))
    for n, cmd in enumerate((c.Sit("p1", "Ann", 1, 100_00), c.Sit("p2", "Maya", 2, 80_00),
                             h.HostAct("p1", AnswerBuyIn("b2", True)), c.Sit("p3", "Bob", 3, 50_00),
                             Rebuy("p2", 30_00))):
        state = _apply(state, cmd, n)
    return state


def test_the_view_carries_the_chips_with_the_documented_fields() -> None:
    state = _game()
    data = json.loads(encode_view(view_for(state, SpectatorViewer())))
    chips = data["home"]["chips"]
    assert list(chips) == CHIPS_KEYS
    assert [list(r) for r in chips["requests"]] == [REQUEST_KEYS, REQUEST_KEYS]
    assert chips["requests"][0] == {"request_id": "b3", "player_id": "p3", "name": "Bob",
                                    "amount_cents": 50_00, "rebuy": False, "position": 3,
                                    "approved_cents": None}
    assert all(list(x) == LINE_KEYS for x in chips["lines"])
    assert chips["lines"][1]["kind"] == "buy_in"
    assert [list(p) for p in chips["players"]] == [PLAYER_KEYS, PLAYER_KEYS]
    assert chips["commission"] == "none"
    assert chips["settle_up"] is None
    assert chips["balanced"] is True
    state = _apply(state, h.HostAct("p1", c.CloseTable()), 9)
    closed = json.loads(encode_view(view_for(state, SpectatorViewer())))["home"]["chips"]
    assert closed["settle_up"] == []
    assert [x["reason"] for x in closed["lines"] if x["kind"] == "cash_out"] == ["player_stood_up"] * 2


def test_a_game_without_chips_shows_null() -> None:
    state = new_table("h1", "Home", home=Home("p1", "Ann"))
    assert json.loads(encode_view(view_for(state, SpectatorViewer())))["home"]["chips"] is None


def test_view_json_writes_the_chips_as_encode_view_does_and_a_patch_carries_them() -> None:
    before = _game()
    after, events = apply(before, h.HostAct("p1", AnswerBuyIn("b4", True)), seed=b"\0" * 32)
    encoder = ViewJson()
    for state in (before, after):
        for viewer in (SpectatorViewer(), PlayerViewer("p2")):
            view = view_for(state, viewer)
            assert encoder.encode(view) == encode_view(view)
    update = project_commit(before, after, events).updates[SPECTATOR]
    assert any(op["path"].startswith("/home/chips") for op in update.patch)
    old = json.loads(encode_view(view_for(before, SpectatorViewer())))
    assert apply_patch(old, list(update.patch)) == json.loads(encode_view(view_for(after, SpectatorViewer())))
