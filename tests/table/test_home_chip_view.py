"""``view.home.chips`` (issue 31): the chip setting, the requests, the ledger's lines, each player's row in
first-sat order, the totals and the check, the same for every viewer, and the settle-up once the table is
closed (with the house's line and the commission pot as parties when not zero)."""

from __future__ import annotations

from dataclasses import replace

from paigow.table import Timers, new_table
from paigow.table import commands as c
from paigow.table import home_commands as h
from paigow.table.home import Home
from paigow.table.home_chip_commands import AdjustChips, AnswerBuyIn, Rebuy
from paigow.table.home_chip_view import ChipPlayerView, ChipRequestView
from paigow.table.home_chips import HomeChips, HomeCommission
from paigow.table.settle_up import Payment
from paigow.table.views import OperatorViewer, PlayerViewer, SpectatorViewer, view_for

HOST = "p1"


def chips_game(driver, **chips):
    d = driver()
    d.state = new_table("h1", "Home", d.state.rules, Timers(),
                        home=Home(HOST, "Ann", chips=HomeChips(**chips), max_buy_in_cap_cents=800_00))
    return d


def host(action, player: str = HOST) -> h.HostAct:
    return h.HostAct(player, action)


def chips_of(state, viewer=None):
    view = view_for(state, viewer or SpectatorViewer())
    assert view.home is not None
    return view.home.chips


def test_a_game_without_its_own_chips_and_a_public_table_show_none(driver) -> None:
    d = driver()
    assert view_for(d.state, SpectatorViewer()).home is None
    d.state = new_table("h1", "Home", home=Home(HOST, "Ann"))
    assert chips_of(d.state) is None


def test_every_viewer_sees_the_setting_requests_lines_players_and_totals(driver) -> None:
    d = chips_game(driver, commission=HomeCommission.FIVE_PERCENT)
    d.do(c.Sit(HOST, "Ann", 1, 100_00))
    d.do(c.Sit("p2", "Maya", 3, 80_00))
    d.do(c.Sit("p3", "Bob", 2, 60_00))
    d.do(host(AnswerBuyIn("b3", True)))  # Bob sits before Maya
    d.do(host(AnswerBuyIn("b2", True, 90_00)))
    d.do(host(AdjustChips("p3", 10_00, "short stack")))
    d.do(host(AdjustChips("p2", -5_00, "overpaid")))
    d.do(Rebuy("p3", 40_00))
    view = chips_of(d.state)
    assert view == chips_of(d.state, PlayerViewer("p2")) == chips_of(d.state, OperatorViewer())
    assert (view.default_buy_in_cents, view.min_buy_in_cents, view.max_buy_in_cents,
            view.max_buy_in_cap_cents, view.rebuys, view.auto_approve, view.commission,
            view.players_bank_in_turn) == (100_00, 20_00, 500_00, 800_00, True, False,
                                           HomeCommission.FIVE_PERCENT, False)
    assert view.requests == (ChipRequestView("b4", "p3", "Bob", 40_00, True, None, None),)
    assert view.lines == d.state.home.chips.lines
    assert view.players == (
        ChipPlayerView(HOST, "Ann", 100_00, 0, 0, 0, 100_00, 0),
        ChipPlayerView("p3", "Bob", 60_00, 10_00, 0, 0, 70_00, 0),
        ChipPlayerView("p2", "Maya", 90_00, 0, 5_00, 0, 85_00, 0),
    )
    assert (view.issued_cents, view.stacks_cents, view.cashed_out_cents, view.house_cents,
            view.commission_cents, view.balanced, view.settle_up) == (255_00, 255_00, 0, 0, 0, True, None)


def test_rows_follow_play_and_the_settle_up_squares_everyone_once_closed(driver) -> None:
    d = chips_game(driver, auto_approve=True)
    d.do(c.Sit(HOST, "Ann", 1, 100_00))
    d.do(c.Sit("p2", "Maya", 2, 100_00))
    d.do(c.Sit("p3", "Bob", 3, 100_00))
    for _ in range(4):
        d.play_round(amount_cents=25_00, accept=False)
    d.do(c.Leave("p3"))
    view = chips_of(d.state)
    bob = next(p for p in view.players if p.player_id == "p3")
    assert bob.stack_cents is None
    assert bob.net_cents == bob.cashed_out_cents - 100_00
    assert [p.player_id for p in view.players] == [HOST, "p2", "p3"]
    assert sum(p.net_cents for p in view.players) == -(view.house_cents + view.commission_cents)
    assert view.house_cents + view.commission_cents == d.state.ledger.house_net_cents
    assert view.settle_up is None
    d.do(host(c.CloseTable()))
    closed = chips_of(d.state)
    assert closed.balanced
    assert all(p.stack_cents is None for p in closed.players)
    paid: dict[str, int] = {}
    for payment in closed.settle_up:
        assert payment.amount_cents > 0
        paid[payment.from_id] = paid.get(payment.from_id, 0) - payment.amount_cents
        paid[payment.to_id] = paid.get(payment.to_id, 0) + payment.amount_cents
    expected = {p.player_id: p.net_cents for p in closed.players}
    expected["house"] = closed.house_cents
    expected["commission"] = closed.commission_cents
    assert {k: v for k, v in paid.items() if v} == {k: v for k, v in expected.items() if v}


def test_the_house_and_the_commission_pot_are_parties_only_when_not_zero(driver) -> None:
    d = chips_game(driver, auto_approve=True)
    d.do(c.Sit(HOST, "Ann", 1, 100_00))
    d.do(c.Sit("p2", "Maya", 2, 100_00))
    d.do(host(AdjustChips("p2", -30_00, "moved to Ann")))
    d.do(host(AdjustChips(HOST, 30_00, "moved from Maya")))
    d.do(host(c.CloseTable()))
    assert chips_of(d.state).settle_up == ()  # every net is 0: nobody pays
    d = chips_game(driver, auto_approve=True)
    d.do(c.Sit(HOST, "Ann", 1, 100_00))
    d.do(c.Sit("p2", "Maya", 2, 100_00))
    d.state = replace(d.state, ledger=replace(d.state.ledger, house_net_cents=12_00),
                      seats=tuple(replace(sp, chips_cents=sp.chips_cents - 12_00) if sp is not None
                                  and sp.player_id == "p2" else sp for sp in d.state.seats),
                      home=replace(d.state.home, chips=replace(d.state.home.chips, commission_cents=2_00)))
    d.do(host(c.CloseTable()))
    view = chips_of(d.state)
    assert view.balanced
    assert (view.house_cents, view.commission_cents) == (10_00, 2_00)
    assert view.settle_up == (Payment("p2", "Maya", "house", "House", 10_00),
                              Payment("p2", "Maya", "commission", "Commission pot", 2_00))
