"""The commission on a small win (issue 29, item 2; docs/rules.md §4, §4c, §6): 5% of the win rounded up to
the table's step (25¢), but never more than the win, so a win is never turned into a loss by its commission.

Played at the table, whole rounds: a player-banker alone and a co-banker, each at a commissioned table and
at an EZ table (a player bank is commissioned there too, §4a rule 5), with the bank's win from 1¢ up; and a
player's own small win against the house. Each asserts the commission and the net the docs give, that the
round record, the banker's hand in it, the banker's history entry and the ledger's commission entry all say
the same figure, and that the round's money is conserved (chips and the house's result)."""

from __future__ import annotations

from collections import defaultdict

import pytest

from paigow.ledger.accounts import HOUSE, EntryKind, seat_account
from paigow.ledger.effects import effects_of
from paigow.rules.house_rules import CommissionForm, HouseRules
from paigow.table import Phase
from paigow.table import commands as c
from paigow.table import events as ev
from paigow.table.records import RoundRecord
from paigow.table.state import TableState
from support.forced import force_cards

COMMISSIONED = HouseRules(co_banking=True)
EZ = HouseRules(commission_form=CommissionForm.EZ, co_banking=True)

# Twenty-eight different cards: the banker's king-high beats both ten-highs and loses both hands to the
# two pair (aces in back, kings in front).
BANKER = "Kh Jd 9c 7s 5h 3d 2c"
LOSER = "Ts 8h 6c 4d 2s 3c 7d"
DEALER_LOSES = "9s 8d 6h 4c 2h 3s Td"
WINNER = "As Ad Kc Ks 8c 6s 4h"


def documented_commission(win_cents: int) -> int:
    """docs/rules.md §4 for a win under $5 at the default table (5%, 25¢ step): 5% of it is at most 25¢,
    so it rounds up to one step, 25¢; never more than the win itself."""
    assert 0 <= win_cents < 500
    return min(25, win_cents)


def _settle(d, players: tuple[str, ...]) -> tuple[TableState, tuple[ev.Event, ...]]:
    """Every player in ``players`` asks for the House Way; the last one settles the round. Returns the
    state before the settling command and its events."""
    for pid in players[:-1]:
        d.do(c.UseHouseWay(pid))
    before = d.state
    events = d.do(c.UseHouseWay(players[-1]))
    assert d.state.phase == Phase.IDLE
    return before, events


def _check_money(d, before: TableState, events: tuple[ev.Event, ...], banker: str) -> RoundRecord:
    """The round's record, its money conserved, and its banker's commission said alike everywhere."""
    record = next(e.record for e in events if isinstance(e, ev.RoundSettled))
    effects = effects_of(before, d.state, events, now_ms=d.now)
    moved = {sp.player_id: after.chips_cents - sp.chips_cents
             for sp, after in zip(before.seats, d.state.seats, strict=True)
             if sp is not None and after is not None}
    assert sum(moved.values()) + record.house_net_cents == 0
    assert d.state.ledger.house_net_cents - before.ledger.house_net_cents == record.house_net_cents
    flow: dict[str, int] = defaultdict(int)
    for entry in effects.ledger:
        flow[entry.from_account] -= entry.amount_cents
        flow[entry.to_account] += entry.amount_cents
    assert flow[HOUSE] == record.house_net_cents
    for pid, delta in moved.items():
        assert flow[seat_account(d.state.table_id, pid)] == delta, pid
    hand = next(h for h in record.hands if h.is_banker)
    assert (hand.player_id, hand.gross_cents, hand.commission_cents, hand.net_cents) == (
        banker, record.banker_gross_cents, record.banker_commission_cents, record.banker_net_cents)
    assert moved[banker] == record.banker_net_cents
    history = next(h.record for h in effects.history if h.player_id == banker)
    assert (history["commission_cents"], history["net_cents"]) == (
        record.banker_commission_cents, record.banker_net_cents)
    charged = [e.amount_cents for e in effects.ledger
               if e.kind == EntryKind.COMMISSION and e.from_account == seat_account(d.state.table_id, banker)]
    assert charged == ([record.banker_commission_cents] if record.banker_commission_cents else [])
    return record


def _p1_offered_the_bank(rules: HouseRules, driver) -> object:
    """A first, house-banked round ($5 each), then p1 is offered the bank of the second."""
    d = driver(rules)
    d.sit(3)
    d.start_round()
    d.bet_all(5_00)
    d.house_way_all()
    d.start_round()
    assert d.state.phase == Phase.BANK_OFFER
    return d


@pytest.mark.parametrize("rules", [COMMISSIONED, EZ], ids=["commissioned", "ez"])
@pytest.mark.parametrize("win", range(1, 50))
def test_a_player_bankers_small_net_win_pays_at_most_itself(driver, rules: HouseRules, win: int) -> None:
    d = _p1_offered_the_bank(rules, driver)
    d.do(c.AcceptBank("p1"))
    assert d.state.round.dealer_wager_cents == 5_00  # p1's last wager against the house
    d.do(c.PlaceBet("p2", 5_00))
    d.do(c.PlaceBet("p3", 10_00 - win))
    d.state = force_cards(d.state, {0: DEALER_LOSES, 1: BANKER, 2: LOSER, 3: WINNER})
    # the bank wins the dealer's 5.00 and p2's 5.00 and pays p3 10.00 less the win
    before, events = _settle(d, ("p1", "p2", "p3"))
    record = _check_money(d, before, events, "p1")
    assert not record.co_banked
    assert not record.dealer_barred
    assert record.banker_gross_cents == win
    assert record.banker_commission_cents == documented_commission(win)
    assert record.banker_net_cents == win - documented_commission(win) >= 0
    winner = next(h for h in record.hands if h.player_id == "p3")
    assert winner.commission_cents == 50  # 5% of 9.51..9.99 rounds up to 0.50
    assert record.house_net_cents == -5_00 + 50 + documented_commission(win)


@pytest.mark.parametrize("rules", [COMMISSIONED, EZ], ids=["commissioned", "ez"])
@pytest.mark.parametrize("bank_win", range(1, 100))
def test_a_co_bankers_small_half_pays_at_most_itself(driver, rules: HouseRules, bank_win: int) -> None:
    """The bank's gross win from 1¢ to 99¢: the co-banker's half (``bank_win // 2``) from 0¢ to 49¢.
    Issue 29's outside round: a 12¢ bank win at an EZ table, a 6¢ half."""
    d = _p1_offered_the_bank(rules, driver)
    d.do(c.AcceptBank("p1", co_bank=True))
    d.do(c.PlaceBet("p2", 5_00 + bank_win))
    d.do(c.PlaceBet("p3", 5_00))
    d.state = force_cards(d.state, {1: BANKER, 2: LOSER, 3: WINNER})
    before, events = _settle(d, ("p2", "p3"))  # the co-banker's hand is set by the House Way at the deal
    record = _check_money(d, before, events, "p1")
    half = bank_win // 2
    assert record.co_banked
    assert not record.dealer_barred
    assert (record.banker_gross_cents, record.house_bank_gross_cents) == (half, bank_win - half)
    assert record.banker_commission_cents == documented_commission(half)
    assert record.banker_net_cents == half - documented_commission(half) >= 0
    assert record.house_net_cents == 25 + documented_commission(half) + bank_win - half


@pytest.mark.parametrize("win", range(1, 50))
def test_a_players_small_win_against_the_house_pays_at_most_itself(driver, win: int) -> None:
    d = driver(HouseRules(min_bet_cents=1))
    d.sit(2)
    d.start_round()
    d.do(c.PlaceBet("p1", win))
    d.do(c.PlaceBet("p2", 5_00))
    d.state = force_cards(d.state, {0: BANKER, 1: WINNER, 2: LOSER})
    before, events = _settle(d, ("p1", "p2"))
    record = next(e.record for e in events if isinstance(e, ev.RoundSettled))
    hand = next(h for h in record.hands if h.player_id == "p1")
    assert (hand.gross_cents, hand.commission_cents, hand.net_cents) == (
        win, documented_commission(win), win - documented_commission(win))
    assert d.state.seats[1].chips_cents - before.seats[1].chips_cents == hand.net_cents >= 0
    assert record.house_net_cents == 5_00 - win + documented_commission(win)
