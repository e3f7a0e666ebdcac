"""A Hypothesis state machine plays a home game with its own chips: random sits (buy-ins in and out of
bounds), host answers, rebuys, cancels, corrections, setting changes, rounds, leaves, removals and the
close, and after every step checks the game's check (issue 31):

    buy-ins + rebuys + chips added - chips taken back
        == the stacks at the table + cash-outs + the house's line + the commission

with every player's net (stack + cash-outs - what they were issued) adding up to minus the house's line
and the commission, the table's money totals balanced, each request holding at most one free seat, one
request a player, and no stack below zero.
"""

from __future__ import annotations

import hashlib

from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from paigow.table import Phase, Rejection, Timers, apply, new_table, next_deadline
from paigow.table import commands as c
from paigow.table import home_commands as h
from paigow.table.home import Home
from paigow.table.home_chip_commands import AdjustChips, AnswerBuyIn, CancelBuyIn, ChangeChips, Rebuy
from paigow.table.home_chips import ChipLineKind, HomeChips, HomeCommission
from paigow.table.state import TableState

PLAYERS = ("p1", "p2", "p3", "p4", "p5", "p6", "p7")
AMOUNTS = (0, 19_99, 20_00, 55_55, 100_00, 300_00, 500_00, 500_01)
CORRECTIONS = (-200_00, -30_00, -1, 1, 12_34, 80_00, 600_00)
START = 1_700_000_000_000


def nets(state: TableState) -> dict[str, int]:
    """Every player's net at the game: stack + cash-outs - (buy-ins + rebuys + added - taken back)."""
    chips = state.home.chips
    out: dict[str, int] = {}
    signs = {ChipLineKind.BUY_IN: -1, ChipLineKind.REBUY: -1, ChipLineKind.ADD: -1,
             ChipLineKind.TAKE_BACK: 1, ChipLineKind.CASH_OUT: 1}
    for line in chips.lines:
        out[line.player_id] = out.get(line.player_id, 0) + signs[line.kind] * line.amount_cents
    for sp in state.seats:
        if sp is not None:
            out[sp.player_id] = out.get(sp.player_id, 0) + sp.chips_cents
    return out


class ChipsGame(RuleBasedStateMachine):
    state: TableState

    def __init__(self) -> None:
        super().__init__()
        self.now = START
        self.count = 0
        self.refusals: list[str] = []

    def do(self, cmd: c.Command) -> bool:
        self.count += 1
        seed = hashlib.sha256(f"chips-{self.count}".encode()).digest()
        try:
            state, _ = apply(self.state, cmd, seed=seed)
        except Rejection as refused:
            self.refusals.append(refused.message)
            return False
        self.state = state
        return True

    def host(self, action: object) -> bool:
        assert self.state.home is not None
        return self.do(h.HostAct(self.state.home.host_player_id, action))  # type: ignore[arg-type]

    @initialize(auto=st.booleans(), rebuys=st.booleans(), commission=st.sampled_from(HomeCommission))
    def start(self, auto: bool, rebuys: bool, commission: HomeCommission) -> None:
        chips = HomeChips(auto_approve=auto, rebuys=rebuys, commission=commission)
        self.state = new_table("h1", "Home", timers=Timers(between_rounds_ms=1_000),
                               home=Home("p1", "Player 1", chips=chips))
        for i in range(3):  # a game under way: the host and two players, each approved
            self.do(c.Sit(PLAYERS[i], f"Player {i + 1}", i + 1, 100_00))
            mine = self.state.home.chips.request_of(PLAYERS[i])
            if mine is not None:
                self.host(AnswerBuyIn(mine.request_id, True))

    @rule(i=st.integers(0, 6), seat=st.integers(1, 6), amount=st.sampled_from(AMOUNTS))
    def sit(self, i: int, seat: int, amount: int) -> None:
        self.do(c.Sit(PLAYERS[i], f"Player {i + 1}", seat, amount))

    @rule(k=st.integers(0, 5), approve=st.booleans(), amount=st.sampled_from((None, *AMOUNTS)),
          by=st.integers(0, 6))
    def answer(self, k: int, approve: bool, amount: int | None, by: int) -> None:
        requests = self.state.home.chips.requests
        request_id = requests[k].request_id if k < len(requests) else f"b{k}"
        self.do(h.HostAct(PLAYERS[by], AnswerBuyIn(request_id, approve, amount)))

    @rule(i=st.integers(0, 6), amount=st.sampled_from(AMOUNTS))
    def waitlist(self, i: int, amount: int) -> None:
        """Join the waiting list, or take the seat it offers (a buy-in like a sit)."""
        if not self.do(h.JoinWaitlist(PLAYERS[i], f"Player {i + 1}")):
            self.do(h.TakeSeat(PLAYERS[i], f"Player {i + 1}", amount))

    @rule(i=st.integers(0, 6), amount=st.sampled_from(AMOUNTS))
    def rebuy(self, i: int, amount: int) -> None:
        self.do(Rebuy(PLAYERS[i], amount))

    @rule(i=st.integers(0, 6))
    def cancel(self, i: int) -> None:
        mine = self.state.home.chips.request_of(PLAYERS[i])
        self.do(CancelBuyIn(PLAYERS[i], mine.request_id if mine is not None else "b1"))

    @rule(i=st.integers(0, 6), amount=st.sampled_from(CORRECTIONS))
    def adjust(self, i: int, amount: int) -> None:
        self.host(AdjustChips(PLAYERS[i], amount, "a correction"))

    @rule(auto=st.sampled_from((None, True, False)), low=st.sampled_from((None, 10_00, 20_00, 60_00)),
          high=st.sampled_from((None, 150_00, 500_00)), rebuys=st.sampled_from((None, True, False)))
    def settings(self, auto: bool | None, low: int | None, high: int | None, rebuys: bool | None) -> None:
        self.host(ChangeChips(min_buy_in_cents=low, max_buy_in_cents=high, rebuys=rebuys, auto_approve=auto))

    @rule(i=st.integers(0, 6), how=st.sampled_from(("leave", "kick", "remove", "hand_over")))
    def depart(self, i: int, how: str) -> None:
        player = PLAYERS[i]
        if how == "leave":
            self.do(c.Leave(player))
        elif how == "kick":
            self.do(c.Kick(player))
        elif how == "remove":
            self.host(h.RemovePlayer(player, None))
        else:
            self.host(h.HandOver(player))

    @rule(step=st.sampled_from((0, 1_000, 20_000, 60_000)))
    def clock(self, step: int) -> None:
        self.now += step
        for _ in range(10):
            due = next_deadline(self.state)
            if due is None or due > self.now:
                return
            self.do(c.Tick(self.now))

    @rule(amount=st.sampled_from((5_00, 20_00, 60_00)), accept=st.booleans())
    def play(self, amount: int, accept: bool) -> None:
        """Whatever the round in play waits for: the bank's answer, the bets, the hands."""
        rnd = self.state.round
        if rnd is None:
            return
        if self.state.phase == Phase.BANK_OFFER and rnd.offer_player_id is not None:
            player = rnd.offer_player_id
            self.do(c.AcceptBank(player) if accept else c.DeclineBank(player))
        elif self.state.phase == Phase.BETTING:
            for pos, sp in enumerate(self.state.seats):
                if sp is not None and pos != rnd.banker_position:
                    self.do(c.PlaceBet(sp.player_id, amount))
        elif self.state.phase == Phase.SETTING:
            for hand in rnd.hands:
                if hand.player_id is not None:
                    self.do(c.UseHouseWay(hand.player_id))

    @precondition(lambda self: self.count > 120)
    @rule()
    def close(self) -> None:
        self.host(c.CloseTable())

    @invariant()
    def the_game_balances(self) -> None:
        state = self.state
        chips = state.home.chips
        by_kind = {k: sum(x.amount_cents for x in chips.lines if x.kind == k) for k in ChipLineKind}
        issued = (by_kind[ChipLineKind.BUY_IN] + by_kind[ChipLineKind.REBUY] + by_kind[ChipLineKind.ADD]
                  - by_kind[ChipLineKind.TAKE_BACK])
        stacks = sum(sp.chips_cents for sp in state.seats if sp is not None)
        house_line = state.ledger.house_net_cents - chips.commission_cents
        assert issued == stacks + by_kind[ChipLineKind.CASH_OUT] + house_line + chips.commission_cents
        assert sum(nets(state).values()) == -(house_line + chips.commission_cents)
        assert stacks + state.ledger.house_net_cents == (state.ledger.bought_in_cents
                                                          - state.ledger.returned_cents)
        assert all(sp is None or sp.chips_cents >= 0 for sp in state.seats)
        assert chips.commission_cents >= 0
        assert all(self.refusals)  # each refusal says what was wrong

    def teardown(self) -> None:
        chips = self.state.home.chips
        event(f"rounds started: {min(self.state.rounds_started, 3)}+")
        event(f"lines: {min(len(chips.lines) // 5 * 5, 20)}+")
        event(f"kinds: {sorted({x.kind.value for x in chips.lines})}")

    @invariant()
    def requests_hold_free_seats_one_a_player(self) -> None:
        state = self.state
        chips = state.home.chips
        players = [r.player_id for r in chips.requests]
        assert len(players) == len(set(players))
        held = [r.position for r in chips.requests if r.position is not None]
        assert len(held) == len(set(held))
        assert all(state.seats[p] is None for p in held)
        for r in chips.requests:
            seated = state.seat_of(r.player_id) is not None
            assert seated == r.rebuy
            assert r.approved_cents is None or (r.rebuy and state.round is not None)
        if state.phase == Phase.CLOSED:
            assert chips.requests == ()
        assert [x.line for x in chips.lines] == list(range(1, len(chips.lines) + 1))


ChipsGame.TestCase.settings = settings(
    max_examples=150, stateful_step_count=80, deadline=None, derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
TestChipsGame = ChipsGame.TestCase
