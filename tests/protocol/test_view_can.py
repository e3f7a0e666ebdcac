"""``view.you.can`` says exactly what the table would accept from that player now: on every state of played
rounds (player-banked ones and own limits included), each seated player's bet range, bank answer, hand
setting and bet removal are held against ``decide``."""

from __future__ import annotations

import hashlib

from paigow.rules.cards import parse_cards
from paigow.rules.house_way import house_way
from paigow.table import commands as c
from paigow.table.can import can_of
from paigow.table.cardtext import cards_to_text
from paigow.table.machine import decide
from paigow.table.rejections import Rejection
from paigow.table.state import TableState
from paigow.table.views import PlayerViewer, view_for

from .test_view_json import Table


def _accepted(state: TableState, command: c.Command) -> bool:
    try:
        return bool(decide(state, command, seed=hashlib.sha256(b"can").digest()))
    except Rejection:
        return False


def _played() -> Table:
    table = Table()
    for i in range(1, 6):
        table.do(c.Sit(f"p{i}", f"Player {i}", i, 3_000 + 4_000 * i))
    table.do(c.SetOwnLimit("p2", 1_500, table.now))
    for n in range(6):
        table.play_round(bank=n % 2 == 1, own_hand=n % 3 == 0)
    return table


def test_can_is_what_decide_accepts_for_every_seated_player_in_every_state() -> None:
    table = _played()
    checked = {"bet": 0, "no_bet": 0, "bank": 0, "set": 0, "remove": 0}
    for state in table.states:
        for sp in state.seats:
            if sp is None:
                continue
            pid = sp.player_id
            pos = state.seat_of(pid)
            assert pos is not None
            can = can_of(state, pos)
            you = view_for(state, PlayerViewer(pid)).you
            assert you is not None
            assert you.can == can, "the view carries can_of"
            if can.bet is not None:
                lo, hi = can.bet.min_cents, can.bet.max_cents
                assert _accepted(state, c.PlaceBet(pid, lo))
                assert _accepted(state, c.PlaceBet(pid, hi))
                assert not _accepted(state, c.PlaceBet(pid, lo - 1))
                assert not _accepted(state, c.PlaceBet(pid, hi + 1))
                checked["bet"] += 1
            else:
                assert not _accepted(state, c.PlaceBet(pid, state.rules.min_bet_cents))
                checked["no_bet"] += 1
            assert _accepted(state, c.RemoveBet(pid)) is can.remove_bet
            checked["remove"] += can.remove_bet
            assert _accepted(state, c.AcceptBank(pid)) is can.answer_bank
            assert _accepted(state, c.DeclineBank(pid)) is can.answer_bank
            checked["bank"] += can.answer_bank
            assert _accepted(state, c.UseHouseWay(pid)) is can.set_hand
            if can.set_hand:
                assert state.round is not None
                hand = next(h for h in state.round.hands if h.position == pos)
                split = house_way(parse_cards(" ".join(hand.cards)), state.rules)
                assert _accepted(state, c.SetHand(pid, cards_to_text(split.low)))
                checked["set"] += 1
    assert all(n > 0 for n in checked.values()), checked


def test_the_bet_range_stops_at_the_players_chips() -> None:
    table = Table()
    table.do(c.Sit("p1", "Ann", 1, 600))
    table.do(c.Sit("p2", "Bo", 2, 50_000))
    table.start_round()
    state = table.state
    if state.phase.value == "bank_offer":
        assert state.round is not None
        offered = state.round.offer_player_id
        assert offered is not None
        table.do(c.DeclineBank(offered))
        state = table.state
    assert state.phase.value == "betting"
    can = can_of(state, 1)
    assert can.bet is not None
    assert (can.bet.min_cents, can.bet.max_cents) == (state.rules.min_bet_cents, 600)
