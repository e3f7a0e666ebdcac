"""The money ledger of a home game with its own chips (issue 31, ``paigow.ledger.home_entries``): no commit
of it moves a casino balance or the casino's house result; its buy-ins, rebuys, corrections and cash-outs
move chips between the game's bank (``home:{t}``) and the seats, and its settlements' house entries go to
the game's house line and commission pot, so the ledger's accounts agree with the table's state at every
version."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from paigow.ledger.accounts import EntryKind, LedgerEntry, seat_account
from paigow.ledger.effects import Effects, effects_of
from paigow.table import Timers, new_table
from paigow.table import commands as c
from paigow.table import home_commands as h
from paigow.table.home import Home
from paigow.table.home_chip_commands import AdjustChips, AnswerBuyIn, Rebuy
from paigow.table.home_chips import HomeChips, HomeCommission
from paigow.table.operator_commands import CloseTable
from paigow.table.state import TableState

HOST = "p1"
CASINO_KINDS = {EntryKind.BUY_IN, EntryKind.CASH_OUT, EntryKind.HOLD, EntryKind.RELEASE}


class LedgerDriver:
    """A driver whose every command's effects are worked out and summed, as the store writes them."""

    def __init__(self, driver, commission: HomeCommission) -> None:
        self.d = driver()
        bps = 500 if commission is HomeCommission.FIVE_PERCENT else 0
        rules = replace(self.d.state.rules, commission_bps=bps, commission_round_cents=1)
        home = Home(HOST, "Player 1", chips=HomeChips(commission=commission), max_buy_in_cap_cents=1_000_000)
        self.d.state = new_table("h1", "Home", rules, Timers(), home=home)
        self.entries: list[LedgerEntry] = []
        self.effects: list[Effects] = []
        original = self.d.do

        def do(cmd: c.Command):
            before = self.d.state
            events = original(cmd)
            effects = effects_of(before, self.d.state, events, now_ms=self.d.now)
            self.effects.append(effects)
            self.entries.extend(effects.ledger)
            return events

        self.d.do = do

    def balances(self) -> dict[str, int]:
        totals: Counter[str] = Counter()
        for entry in self.entries:
            totals[entry.from_account] -= entry.amount_cents
            totals[entry.to_account] += entry.amount_cents
        return {account: amount for account, amount in totals.items() if amount != 0}


def expected(state: TableState) -> dict[str, int]:
    """The accounts' balances the table's state says."""
    chips = state.home.chips
    out = {seat_account(state.table_id, sp.player_id): sp.chips_cents for sp in state.seats
           if sp is not None and sp.chips_cents}
    out["home:h1"] = -(state.ledger.bought_in_cents - state.ledger.returned_cents)
    out["home_house:h1"] = state.ledger.house_net_cents - chips.commission_cents
    out["home_commission:h1"] = chips.commission_cents
    return {account: amount for account, amount in out.items() if amount != 0}


def test_a_whole_game_moves_no_casino_money_and_its_ledger_agrees_with_the_table(driver) -> None:
    g = LedgerDriver(driver, HomeCommission.FIVE_PERCENT)
    d = g.d
    d.do(c.Sit(HOST, "Player 1", 1, 150_00))
    d.do(c.Sit("p2", "Player 2", 2, 100_00))
    d.do(h.HostAct(HOST, AnswerBuyIn(d.state.home.chips.request_of("p2").request_id, True, 80_00)))
    for _ in range(4):
        d.play_round(10_00)
        assert g.balances() == expected(d.state)
    d.do(Rebuy("p2", 50_00))
    d.do(h.HostAct(HOST, AnswerBuyIn(d.state.home.chips.request_of("p2").request_id, True)))
    d.do(h.HostAct(HOST, AdjustChips("p2", 7_00, "a chip fell")))
    d.do(h.HostAct(HOST, AdjustChips(HOST, -3_00, "counted twice")))
    d.play_round(10_00)
    d.do(c.Leave("p2"))
    assert g.balances() == expected(d.state)
    d.do(h.HostAct(HOST, CloseTable()))
    assert not any(s is not None for s in d.state.seats)
    assert g.balances() == expected(d.state)
    assert d.state.home.chips.commission_cents > 0  # the commission pot is its own account
    assert all(e.balances == () and e.house_delta_cents == 0 for e in g.effects)
    kinds = Counter((e.kind, e.reason) for e in g.entries if e.kind.value.startswith("home_"))
    assert kinds[(EntryKind.HOME_BUY_IN, "buy_in")] == 2
    assert kinds[(EntryKind.HOME_BUY_IN, "rebuy")] == 1
    assert kinds[(EntryKind.HOME_CHIPS_ADDED, "a chip fell")] == 1
    assert kinds[(EntryKind.HOME_CHIPS_TAKEN, "counted twice")] == 1
    assert sum(n for (kind, _), n in kinds.items() if kind is EntryKind.HOME_CASH_OUT) == 2
    assert not {e.kind for e in g.entries} & CASINO_KINDS
    accounts = {a for e in g.entries for a in (e.from_account, e.to_account)}
    assert "house" not in accounts
    assert not any(a.startswith("player:") for a in accounts)
    commissions = [e for e in g.entries if e.kind is EntryKind.COMMISSION]
    assert commissions
    assert {e.to_account for e in commissions} == {"home_commission:h1"}


def test_the_entries_name_what_moved(driver) -> None:
    g = LedgerDriver(driver, HomeCommission.NONE)
    g.d.do(c.Sit(HOST, "Player 1", 1, 150_00))
    g.d.do(h.HostAct(HOST, AdjustChips(HOST, -20_00, "too many")))
    g.d.do(c.Leave(HOST))
    sit, taken, cash_out = g.entries
    assert (sit.kind, sit.from_account, sit.to_account, sit.amount_cents, sit.reason, sit.player_id) == (
        EntryKind.HOME_BUY_IN, "home:h1", "seat:h1:p1", 150_00, "buy_in", HOST)
    assert (taken.kind, taken.from_account, taken.to_account, taken.amount_cents, taken.reason) == (
        EntryKind.HOME_CHIPS_TAKEN, "seat:h1:p1", "home:h1", 20_00, "too many")
    assert (cash_out.kind, cash_out.from_account, cash_out.to_account, cash_out.amount_cents) == (
        EntryKind.HOME_CASH_OUT, "seat:h1:p1", "home:h1", 130_00)
    assert cash_out.reason in {"player_left", "player_stood_up"}
    assert g.balances() == {}


def test_a_home_game_without_its_own_chips_keeps_the_casino_ledger(driver) -> None:
    d = driver()
    d.state = new_table("h1", "Home", d.state.rules, Timers(), home=Home(HOST, "Player 1"))
    before = d.state
    events = d.do(c.Sit(HOST, "Player 1", 1, 150_00))
    effects = effects_of(before, d.state, events, now_ms=d.now)
    assert [(b.player_id, b.delta_cents) for b in effects.balances] == [(HOST, -150_00)]
    assert [e.kind for e in effects.ledger] == [EntryKind.BUY_IN]
