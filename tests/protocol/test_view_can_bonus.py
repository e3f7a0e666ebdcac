"""``view.you.can.bonus`` says exactly which Fortune bonus the table accepts now: on every betting state of
rounds played at a table with the bonus (a player-banker's included, small stacks included), each seated
player's bonus range is held against ``decide``: by ``place_bonus`` when they have a bet or bank, else as
``place_bet``'s ``bonus_cents`` beside the minimum bet."""

from __future__ import annotations

import hashlib

from paigow.rules.house_rules import HouseRules
from paigow.table import commands as c
from paigow.table.can import can_of
from paigow.table.machine import apply, decide, next_deadline
from paigow.table.rejections import Rejection
from paigow.table.state import Phase, TableState, new_table

RULES = HouseRules(fortune_enabled=True, fortune_max_bet_cents=200_00)


def _accepted(state: TableState, command: c.Command) -> bool:
    try:
        return bool(decide(state, command, seed=hashlib.sha256(b"can-bonus").digest()))
    except Rejection:
        return False


def _betting_states() -> list[TableState]:
    state = new_table("t1", "Main", RULES)
    out: list[TableState] = []
    count, now = 0, 1_000_000

    def do(command: c.Command) -> None:
        nonlocal state, count
        count += 1
        try:
            state, _ = apply(state, command, seed=hashlib.sha256(f"b-{count}".encode()).digest())
        except Rejection:
            return
        if state.phase == Phase.BETTING:
            out.append(state)

    for i, chips in enumerate((300_00, 40_00, 12_00, 7_00), start=1):
        do(c.Sit(f"p{i}", f"P{i}", i, chips))
    for n in range(8):
        for _ in range(6):
            if state.phase in (Phase.BANK_OFFER, Phase.BETTING):
                break
            now = max(now, next_deadline(state) or now)
            do(c.Tick(now))
        rnd = state.round
        if state.phase == Phase.BANK_OFFER and rnd is not None and rnd.offer_player_id is not None:
            offered = rnd.offer_player_id
            do(c.AcceptBank(offered, bonus_cents=5_00) if n % 2 else c.DeclineBank(offered))
        for sp in state.seats:
            if sp is not None and state.phase == Phase.BETTING:
                do(c.PlaceBet(sp.player_id, 5_00, bonus_cents=2_00 if n % 3 else None))
        rnd = state.round
        for h in rnd.hands if rnd is not None and state.phase == Phase.SETTING else ():
            if h.player_id is not None:
                do(c.UseHouseWay(h.player_id))
    return out


def test_can_bonus_is_what_decide_accepts() -> None:
    states = _betting_states()
    checked = {"placed": 0, "with_bet": 0, "banker": 0, "none": 0}
    for state in states:
        rnd = state.round
        assert rnd is not None
        for pos, sp in enumerate(state.seats):
            if sp is None:
                continue
            can = can_of(state, pos)
            has_bet = any(b.position == pos for b in rnd.bets)
            banker = rnd.banker_position == pos
            if can.bonus is None:
                if banker or has_bet:
                    assert not _accepted(state, c.PlaceBonus(sp.player_id, RULES.fortune_min_bet_cents))
                else:
                    assert not _accepted(state, c.PlaceBet(sp.player_id, RULES.min_bet_cents,
                                                           bonus_cents=RULES.fortune_min_bet_cents))
                checked["none"] += 1
                continue
            lo, hi = can.bonus.min_cents, can.bonus.max_cents
            if banker or has_bet:
                def bonus(amount: int, pid: str = sp.player_id) -> c.Command:
                    return c.PlaceBonus(pid, amount)
                checked["banker" if banker else "with_bet"] += 1
            else:
                assert can.bet is not None

                def bonus(amount: int, pid: str = sp.player_id, bet: int = can.bet.min_cents) -> c.Command:
                    return c.PlaceBet(pid, bet, bonus_cents=amount)
                checked["placed"] += 1
            assert _accepted(state, bonus(lo))
            assert _accepted(state, bonus(hi))
            assert not _accepted(state, bonus(lo - 1))
            assert not _accepted(state, bonus(hi + 1))
    assert all(n > 0 for n in checked.values()), checked
