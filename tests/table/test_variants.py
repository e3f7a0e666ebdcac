"""The casino variants at the table (issue 24; docs/rules.md §4a-§4c), table-driven: commission-free
tables (EZ, nine-high), the Queen's Dragon bet, the Dragon hand and co-banking. In every case the money
balances: the table's ledger, and each seat's ledger entries (``effects_of``) against its chips."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace

import pytest
from pydantic import TypeAdapter

from paigow.fair import deal
from paigow.ledger.accounts import HOUSE, seat_account
from paigow.ledger.effects import effects_of
from paigow.protocol.server import encode_view
from paigow.protocol.view_json import ViewJson
from paigow.rules.cards import parse_cards
from paigow.rules.house_rules import CommissionForm, DragonSetBy, FoulPolicy, HouseRules, HouseRulesError
from paigow.rules.house_way import house_way
from paigow.rules.nine_high import house_way_low_is_nine_high
from paigow.rules.queen_high import is_queen_high_pai_gow
from paigow.rules.showdown import Outcome
from paigow.table import Phase, RejectCode
from paigow.table import commands as c
from paigow.table import events as ev
from paigow.table.can import BetRange, can_of
from paigow.table.cardtext import cards_to_text
from paigow.table.records import RoundRecord, SetBy
from paigow.table.state import TableState
from paigow.table.views import OperatorViewer, PlayerViewer, SpectatorViewer, event_for, view_for
from support.forced import force_cards

EZ = HouseRules(commission_form=CommissionForm.EZ)
EZ_QD = HouseRules(commission_form=CommissionForm.EZ, queens_dragon_enabled=True)
NINE = HouseRules(commission_form=CommissionForm.NINE_HIGH)
DRAGON = HouseRules(dragon_enabled=True)
DRAGON_BUYER = HouseRules(dragon_enabled=True, dragon_set_by=DragonSetBy.BUYER)
COBANK = HouseRules(co_banking=True)

QUEEN_HIGH = "Qh Jd 9c 7s 5h 3d 2c"     # a queen-high pai gow: EZ bars it
KING_HIGH = "Kh Jd 9c 7s 5h 3d 2c"      # not barred
NINE_LOW = "Ah 9d 8c 6s 5h 3d 2c"       # the House Way's low hand is 9-8: nine-high bars it
ACES_KINGS = "As Ad Kc Kh 8d 6c 4s"     # two pair: wins both hands against the hands above
WEAK = "2s 3h 4c 6d 8s Tc 7d"           # ten-high pai gow: loses both to a king-high pai gow


def _money_class(base: type, chips_balanced) -> type:
    class Money(base):  # type: ignore[misc,valid-type]
        """A driver that checks every accepted command's money: the table's ledger balances, the commit's
        effects are consistent (``effects_of`` raises otherwise), and at a settlement each seat's ledger
        entries add up to its chips' change and the house account's to the round's ``house_net_cents``."""

        def do(self, cmd: c.Command) -> tuple[ev.Event, ...]:
            before = self.state
            events = super().do(cmd)
            if not events:
                return events
            effects = effects_of(before, self.state, events, now_ms=self.now)
            assert chips_balanced(self.state)
            if any(isinstance(e, ev.RoundSettled) for e in events):
                flow: dict[str, int] = defaultdict(int)
                for entry in effects.ledger:
                    flow[entry.from_account] -= entry.amount_cents
                    flow[entry.to_account] += entry.amount_cents
                record = next(e.record for e in events if isinstance(e, ev.RoundSettled))
                assert flow[HOUSE] == record.house_net_cents
                assert all(v == 0 for k, v in flow.items() if k.startswith("round:"))
                for pos, sp in enumerate(before.seats):
                    after = self.state.seats[pos]
                    if sp is not None and after is not None and after.player_id == sp.player_id:
                        assert flow[seat_account(self.state.table_id, sp.player_id)] == (
                            after.chips_cents - sp.chips_cents), sp.player_id
            return events
    return Money


@pytest.fixture
def money(driver, helpers):
    return _money_class(driver, helpers["chips_balanced"])


def _force(d, cards: dict[int, str]) -> None:
    """Test set-up, after the deal: give the live hands at these positions these seven cards."""
    d.state = force_cards(d.state, cards)


def _house_way_all(d) -> None:
    rnd = d.state.round
    assert rnd is not None
    for h in rnd.hands:
        if h.player_id is not None and h.set_by is None and d.state.phase == Phase.SETTING:
            d.do(c.UseHouseWay(h.player_id))


def _player_banks(d, rules_first_round: bool = True, co_bank: bool = False) -> None:
    """Play a first (house-banked) round, then have p1 take the bank of the next one."""
    if rules_first_round:
        d.start_round()
        d.bet_all()
        _house_way_all(d)
    d.start_round()
    assert d.state.phase == Phase.BANK_OFFER
    d.do(c.AcceptBank("p1", co_bank=co_bank))


# --- commission-free tables -------------------------------------------------------------------------
@pytest.mark.parametrize(("rules", "dealer", "barred"), [
    (EZ, QUEEN_HIGH, True),
    (EZ, KING_HIGH, False),
    (EZ, NINE_LOW, False),
    (NINE, NINE_LOW, True),
    (NINE, QUEEN_HIGH, False),
    (HouseRules(), QUEEN_HIGH, False),
])
def test_a_barred_dealer_pushes_every_wager_and_wins_pay_no_commission(money, rules, dealer, barred) -> None:
    assert is_queen_high_pai_gow(parse_cards(QUEEN_HIGH))
    assert house_way_low_is_nine_high(parse_cards(NINE_LOW))
    d = money(rules)
    d.sit(2)
    d.start_round()
    d.bet_all(20_00)
    _force(d, {0: dealer, 1: ACES_KINGS, 2: WEAK})
    _house_way_all(d)
    rec = d.last_record
    assert rec.dealer_barred is barred
    assert rec.commission_form == str(rules.commission_form)
    by_pos = {h.position: h for h in rec.hands}
    if barred:
        assert [by_pos[p].outcome for p in (1, 2)] == [Outcome.PUSH, Outcome.PUSH]
        assert rec.house_net_cents == 0
    else:
        assert by_pos[1].outcome is Outcome.WIN
        commission = 0 if rules.commission_form.is_commission_free else 1_00
        assert (by_pos[1].gross_cents, by_pos[1].commission_cents) == (20_00, commission)


def test_a_queen_high_dealer_against_a_player_banker_plays_the_normal_rules(money) -> None:
    d = money(EZ)
    d.sit(3)
    _player_banks(d)
    rnd = d.state.round
    assert rnd is not None
    assert rnd.dealer_wager_cents > 0  # the house dealer wagers against p1
    d.bet_all(10_00)
    _force(d, {0: QUEEN_HIGH, 1: ACES_KINGS, 2: WEAK, 3: WEAK})
    _house_way_all(d)
    rec = d.last_record
    assert rec.dealer_barred is False
    dealer = next(h for h in rec.hands if h.position == 0)
    assert dealer.outcome is Outcome.LOSS  # beaten by the banker's aces and kings, no push
    assert rec.banker_commission_cents > 0  # commissioned: the player-banker pays on the net win


# --- the Queen's Dragon -----------------------------------------------------------------------------
def test_the_queens_dragon_is_only_for_ez_tables_and_has_limits(money) -> None:
    with pytest.raises(HouseRulesError, match="only on EZ tables"):
        HouseRules(queens_dragon_enabled=True)
    with pytest.raises(HouseRulesError, match="queens_dragon_max_bet_cents"):
        HouseRules(commission_form="ez", queens_dragon_enabled=True, queens_dragon_max_bet_cents=50)
    d = money(EZ)
    d.sit(1)
    d.start_round()
    refused = d.refuse(c.PlaceBet("p1", 10_00, queens_dragon_cents=1_00), RejectCode.QUEENS_DRAGON_OFF)
    assert refused.message == "table 't1' does not offer the Queen's Dragon"


@pytest.mark.parametrize("rules", [HouseRules(), NINE])
def test_a_table_that_is_not_ez_refuses_the_queens_dragon_with_its_own_code(money, rules) -> None:
    d = money(rules)
    d.sit(2)
    d.start_round()
    d.do(c.PlaceBet("p1", 10_00))
    refused = d.refuse(c.PlaceQueensDragon("p1", 1_00), RejectCode.QUEENS_DRAGON_OFF)
    assert refused.message == ("table 't1' does not offer the Queen's Dragon: it is a bet of EZ tables, and "
                               f"this table's commission form is {rules.commission_form}")


@pytest.mark.parametrize(("dealer", "win"), [(QUEEN_HIGH, 50 * 2_00), (KING_HIGH, -2_00)])
def test_the_queens_dragon_pays_50_to_1_on_a_queen_high_dealer(money, dealer, win) -> None:
    d = money(EZ_QD)
    d.sit(2)
    d.start_round()
    assert can_of(d.state, 1).queens_dragon == BetRange(100, 95_00)  # beside the minimum bet
    d.refuse(c.PlaceBet("p1", 10_00, queens_dragon_cents=50), RejectCode.BELOW_MINIMUM)
    d.refuse(c.PlaceBet("p1", 10_00, queens_dragon_cents=100_01), RejectCode.ABOVE_MAXIMUM)
    d.refuse(c.PlaceQueensDragon("p1", 2_00), RejectCode.NO_BET)
    events = d.do(c.PlaceBet("p1", 10_00, queens_dragon_cents=2_00))
    assert events[-1] == ev.QueensDragonPlaced("p1", 1, 2_00)
    spectator = view_for(d.state, SpectatorViewer())
    assert spectator.seats[1].queens_dragon_cents == 2_00
    assert view_for(d.state, PlayerViewer("p1")).you.queens_dragon_cents == 2_00
    d.do(c.PlaceBet("p2", 10_00))
    _force(d, {0: dealer})
    _house_way_all(d)
    rec = d.last_record
    hand = next(h for h in rec.hands if h.position == 1)
    assert (hand.queens_dragon_cents, hand.queens_dragon_win_cents) == (2_00, win)
    assert rec.queens_dragon_house_net_cents == -win
    assert rec.dealer_queen_high is (dealer == QUEEN_HIGH)
    assert d.state.ledger.queens_dragon_house_net_cents == -win


def test_the_queens_dragon_is_taken_back_with_the_bet_and_refused_when_a_player_banks(money) -> None:
    d = money(EZ_QD)
    d.sit(3)
    d.start_round()
    d.do(c.PlaceBet("p1", 10_00, queens_dragon_cents=2_00))
    d.do(c.PlaceQueensDragon("p1", 0))
    assert d.state.round.queens_dragon_bets == ()
    d.do(c.PlaceQueensDragon("p1", 3_00))
    d.do(c.RemoveBet("p1"))
    assert d.state.round.queens_dragon_bets == ()
    d.bet_all()
    _house_way_all(d)
    _player_banks(d, rules_first_round=False)
    refused = d.refuse(c.PlaceBet("p2", 10_00, queens_dragon_cents=1_00),
                       RejectCode.QUEENS_DRAGON_HOUSE_BANK_ONLY)
    assert refused.message == ("the Queen's Dragon is a bet on the house dealer's hand: it is offered only "
                               "when the house banks, and Player 1 banks this round")
    d.do(c.PlaceBet("p2", 10_00))
    d.refuse(c.PlaceQueensDragon("p2", 1_00), RejectCode.QUEENS_DRAGON_HOUSE_BANK_ONLY)
    assert can_of(d.state, 2).queens_dragon is None


# --- the Dragon hand --------------------------------------------------------------------------------
def _dragon_offered(d, n: int = 3, bet: int = 10_00) -> None:
    d.sit(n)
    d.start_round()
    d.bet_all(bet)
    assert d.state.phase == Phase.DRAGON_OFFER


def _no_cards_leak(d, events: tuple[ev.Event, ...], buyer: str | None, shown: bool) -> None:
    """Nobody but a buyer who sets it sees the Dragon's cards, in a view or an event."""
    for viewer in (SpectatorViewer(), OperatorViewer(), PlayerViewer("p1"), PlayerViewer("p2"),
                   PlayerViewer("p3")):
        mine = isinstance(viewer, PlayerViewer) and viewer.player_id == buyer and shown
        view = view_for(d.state, viewer)
        assert (view.you is not None and view.you.dragon is not None) is (mine and d.state.round is not None
                                                                        and d.state.phase == Phase.SETTING)
        for e in events:
            seen = event_for(e, viewer)
            if isinstance(seen, ev.DragonDealt):
                assert bool(seen.cards) is mine
            if isinstance(seen, ev.DragonSet):
                assert bool(seen.high) is mine


def test_a_dragon_offered_with_no_buyer_stays_a_dead_hand(money) -> None:
    d = money(DRAGON)
    _dragon_offered(d)
    rnd = d.state.round
    first = rnd.first_position
    assert rnd.dragon.position not in (1, 2, 3)
    order = [p for p in ((first + k) % 7 for k in range(7)) if p in (1, 2, 3)]
    assert rnd.dragon.offered_seat == order[0]
    assert rnd.hands == ()  # nobody's cards are dealt yet
    assert view_for(d.state, SpectatorViewer()).round.dragon.offered_seat == order[0]
    d.refuse(c.TakeDragon(f"p{order[1]}", 10_00), RejectCode.NOT_YOUR_SEAT)
    d.do(c.PassDragon(f"p{order[0]}"))
    assert d.state.round.dragon.offered_seat == order[1]
    d.expire()  # the second lets the time run out: a pass
    assert d.state.round.dragon.passed[:2] == (order[0], order[1])
    events = d.do(c.PassDragon(f"p{order[2]}"))
    assert d.state.phase == Phase.SETTING
    assert not any(isinstance(e, ev.DragonDealt) for e in events)
    assert d.state.round.dragon.cards == ()
    _house_way_all(d)
    assert all(h.dragon_of is None for h in d.last_record.hands)
    assert d.last_record.dragon_set_by is None  # no Dragon was bought


def test_two_buyers_in_turn_the_first_passes_the_second_takes(money) -> None:
    d = money(DRAGON)
    _dragon_offered(d)
    rnd = d.state.round
    order = [p for p in ((rnd.first_position + k) % 7 for k in range(7)) if p in (1, 2, 3)]
    first, second = (f"p{p}" for p in order[:2])
    d.do(c.PassDragon(first))
    assert can_of(d.state, order[1]).dragon == BetRange(5_00, 10_00)  # at most the main wager
    d.refuse(c.TakeDragon(second, 10_01), RejectCode.ABOVE_MAXIMUM)
    d.refuse(c.TakeDragon(second, 4_99), RejectCode.BELOW_MINIMUM)
    events = d.do(c.TakeDragon(second, 8_00))
    assert d.state.phase == Phase.SETTING
    _no_cards_leak(d, events, second, shown=False)
    dragon = d.state.round.dragon
    dealt = deal(bytes.fromhex(d.state.round.server_seed), d.state.round.round_id, 0)
    assert dragon.cards == cards_to_text(dealt.hands[dragon.position])
    assert dragon.set_by is SetBy.HOUSE_WAY
    assert view_for(d.state, PlayerViewer(second)).round.dragon.wager_cents == 8_00
    _house_way_all(d)
    rec = d.last_record
    hand = next(h for h in rec.hands if h.dragon_of is not None)
    assert (hand.player_id, hand.dragon_of, hand.position, hand.wager_cents) == (
        second, order[1], dragon.position, 8_00)
    assert hand.outcome in set(Outcome)
    assert (hand.set_by, rec.dragon_set_by) == (SetBy.HOUSE_WAY, DragonSetBy.HOUSE_WAY)  # the table's rule


def test_a_buyer_who_sets_the_dragon_sees_it_and_sets_it_like_their_own(money) -> None:
    d = money(DRAGON_BUYER)
    _dragon_offered(d)
    offered = d.state.round.dragon.offered_seat
    buyer = f"p{offered}"
    events = d.do(c.TakeDragon(buyer, 5_00))
    _no_cards_leak(d, events, buyer, shown=True)
    you = view_for(d.state, PlayerViewer(buyer)).you
    assert you.dragon is not None
    assert len(you.dragon.cards) == 7
    assert can_of(d.state, offered).set_dragon
    others = [f"p{p}" for p in (1, 2, 3) if p != offered]
    d.refuse(c.SetDragon(others[0], ()), RejectCode.NOT_IN_ROUND)
    _house_way_all(d)
    assert d.state.phase == Phase.SETTING  # the showdown waits for the Dragon
    cards = parse_cards(" ".join(d.state.round.dragon.cards))
    split = house_way(cards, d.state.rules)
    swapped = tuple(str(x) for x in split.high[:2])  # the two best high cards as the low: a foul
    d.refuse(c.SetDragon(buyer, swapped), RejectCode.FOUL)
    d.expire()  # the setting deadline: the House Way sets it
    rec = d.last_record
    hand = next(h for h in rec.hands if h.dragon_of is not None)
    assert hand.set_by is SetBy.TIMEOUT
    assert rec.dragon_set_by is DragonSetBy.BUYER


def test_a_record_says_who_the_table_let_set_the_dragon_and_an_older_one_reads_none(money) -> None:
    """``dragon_set_by`` tells a buyer's own House Way (``set_by`` house_way under ``"buyer"``) from the
    table's (under ``"house_way"``); a record stored before the field reads back with None."""
    d = money(DRAGON_BUYER)
    _dragon_offered(d)
    buyer = f"p{d.state.round.dragon.offered_seat}"
    d.do(c.TakeDragon(buyer, 5_00))
    d.do(c.SetDragon(buyer, ()))  # the buyer asks for the House Way
    _house_way_all(d)
    rec = d.last_record
    hand = next(h for h in rec.hands if h.dragon_of is not None)
    assert (hand.set_by, rec.dragon_set_by) == (SetBy.HOUSE_WAY, DragonSetBy.BUYER)
    adapter = TypeAdapter(RoundRecord)
    stored = adapter.dump_python(rec, mode="json")
    assert stored["dragon_set_by"] == "buyer"
    del stored["dragon_set_by"]  # as a record settled before the field was stored
    assert adapter.validate_python(stored) == replace(rec, dragon_set_by=None)


def test_a_buyer_sets_the_dragon_under_foul_lose(money) -> None:
    d = money(replace(DRAGON_BUYER, foul_policy=FoulPolicy.LOSE))
    _dragon_offered(d)
    buyer = f"p{d.state.round.dragon.offered_seat}"
    d.do(c.TakeDragon(buyer, 5_00))
    cards = parse_cards(" ".join(d.state.round.dragon.cards))
    split = house_way(cards, d.state.rules)
    d.do(c.SetDragon(buyer, tuple(str(x) for x in split.high[:2])))
    assert d.state.round.dragon.fouled or d.state.round.dragon.set_by is SetBy.PLAYER
    _house_way_all(d)
    hand = next(h for h in d.last_record.hands if h.dragon_of is not None)
    if hand.fouled:
        assert hand.outcome is Outcome.LOSS


def _a_dragon_round_passed_then_a_player_banks(money):
    """Three players: a house-banked round whose Dragon everyone passes, then p1 takes the bank."""
    d = money(DRAGON)
    d.sit(3)
    d.start_round()
    d.bet_all()
    while d.state.phase == Phase.DRAGON_OFFER:
        d.do(c.PassDragon(f"p{d.state.round.dragon.offered_seat}"))
    _house_way_all(d)
    _player_banks(d, rules_first_round=False)
    return d


def test_a_dragon_with_a_player_banker_never_goes_to_the_banker_who_must_cover_it(money) -> None:
    d = _a_dragon_round_passed_then_a_player_banks(money)
    d.with_chips(1, 40_00)
    rnd = d.state.round
    d.do(c.PlaceBet("p2", 10_00))
    d.do(c.PlaceBet("p3", 10_00))
    assert d.state.phase == Phase.DRAGON_OFFER
    seen: list[int] = []
    while d.state.phase == Phase.DRAGON_OFFER:
        seat = d.state.round.dragon.offered_seat
        seen.append(seat)
        left = 40_00 - rnd.dealer_wager_cents - 20_00
        assert can_of(d.state, seat).dragon == BetRange(5_00, min(10_00, left))
        d.do(c.PassDragon(f"p{seat}"))
    assert 1 not in seen
    assert sorted(seen) == [2, 3]


def test_the_bank_must_cover_the_dragon_a_bought_dragon_settles_against_the_player_banker(money) -> None:
    d = _a_dragon_round_passed_then_a_player_banks(money)
    d.do(c.PlaceBet("p2", 10_00))
    d.do(c.PlaceBet("p3", 10_00))
    seat = d.state.round.dragon.offered_seat
    d.do(c.TakeDragon(f"p{seat}", 10_00))
    _house_way_all(d)
    rec = d.last_record
    dragon = next(h for h in rec.hands if h.dragon_of is not None)
    banker = next(h for h in rec.hands if h.is_banker)
    assert banker.player_id == "p1"
    assert sum(h.gross_cents for h in rec.hands) == 0
    assert dragon.player_id == f"p{seat}"


def test_no_offer_when_nobody_can_buy_or_every_position_plays(money) -> None:
    d = money(DRAGON)
    d.sit(6)
    d.start_round()
    d.bet_all()
    assert d.state.phase == Phase.SETTING  # six bettors: no unplayed position
    d2 = money(DRAGON)
    d2.sit(2)
    d2.with_chips(1, 10_00)
    d2.with_chips(2, 10_00)
    d2.start_round()
    d2.bet_all(10_00)  # all their chips: no second wager
    assert d2.state.phase == Phase.SETTING


def test_a_void_during_the_dragon_offer_returns_everything(money) -> None:
    d = money(DRAGON)
    _dragon_offered(d)
    d.do(c.VoidRound())
    assert d.state.round is None


# --- co-banking -------------------------------------------------------------------------------------
def test_co_banking_splits_the_bank_half_each_with_the_commission_on_the_co_bankers_half(money) -> None:
    d = money(COBANK)
    d.sit(3)
    d.start_round()
    assert can_of(d.state, 1).co_bank is False  # the house banks the first round
    d.bet_all()
    _house_way_all(d)
    d.start_round()
    assert can_of(d.state, 1).co_bank
    d.do(c.AcceptBank("p1", co_bank=True))
    rnd = d.state.round
    assert (rnd.co_banked, rnd.dealer_wager_cents) == (True, 0)
    assert view_for(d.state, SpectatorViewer()).round.co_banked
    d.do(c.PlaceBet("p2", 10_00))
    d.do(c.PlaceBet("p3", 20_00))
    banker_hand = next(h for h in d.state.round.hands if h.position == 1)
    assert banker_hand.set_by is SetBy.HOUSE_WAY  # set by the House Way at the deal
    d.refuse(c.UseHouseWay("p1"), RejectCode.ALREADY_DONE)
    assert not can_of(d.state, 1).set_hand
    _force(d, {1: ACES_KINGS, 2: WEAK, 3: WEAK})
    _house_way_all(d)
    rec = d.last_record
    assert rec.co_banked
    # both lose: the bank wins 30.00, 15.00 each; the co-banker pays 5% of 15.00 rounded up to 0.25
    assert (rec.banker_gross_cents, rec.house_bank_gross_cents, rec.banker_commission_cents) == (
        15_00, 15_00, 75)
    assert rec.banker_net_cents == 14_25
    assert rec.house_net_cents == 15_75


def test_a_co_banker_who_loses_pays_the_larger_half_of_an_odd_cent(money) -> None:
    d = money(replace(COBANK, min_bet_cents=101))
    d.sit(2)
    d.start_round()
    d.bet_all(2_01)
    _house_way_all(d)
    _player_banks(d, rules_first_round=False, co_bank=True)
    d.do(c.PlaceBet("p2", 3_01))
    _force(d, {1: WEAK, 2: ACES_KINGS})
    _house_way_all(d)
    rec = d.last_record
    assert (rec.banker_gross_cents, rec.house_bank_gross_cents) == (-1_51, -1_50)
    assert rec.banker_commission_cents == 0


def test_a_co_banker_who_cannot_cover_their_half_is_refused_the_bet(money) -> None:
    d = money(COBANK)
    d.sit(3)
    d.start_round()
    d.bet_all()
    _house_way_all(d)
    d.start_round()
    d.with_chips(1, 20_00)
    d.do(c.AcceptBank("p1", co_bank=True))
    # 20.00 of chips cover half of 40.00 of wagers
    assert can_of(d.state, 2).bet == BetRange(5_00, 40_00)
    d.do(c.PlaceBet("p2", 30_00))
    assert can_of(d.state, 3).bet == BetRange(5_00, 10_00)
    d.refuse(c.PlaceBet("p3", 10_01), RejectCode.BET_OVER_COVERAGE)
    d.do(c.PlaceBet("p3", 10_00))
    _force(d, {1: WEAK, 2: ACES_KINGS, 3: ACES_KINGS})
    _house_way_all(d)
    rec = d.last_record
    assert rec.banker_gross_cents == -20_00  # all of the co-banker's chips, never more
    assert d.state.seats[1].chips_cents == 0


def test_a_table_without_co_banking_refuses_it(money) -> None:
    d = money()
    d.sit(2)
    d.start_round()
    d.bet_all()
    _house_way_all(d)
    d.start_round()
    refused = d.refuse(c.AcceptBank("p1", co_bank=True), RejectCode.CO_BANKING_OFF)
    assert refused.message == "table 't1' does not offer co-banking: accept the bank without co_bank"


# --- every variant's views are pydantic's JSON ------------------------------------------------------
def test_the_variants_views_encode_as_pydantic_does(money) -> None:
    states: list[TableState] = []
    for rules in (EZ_QD, DRAGON, DRAGON_BUYER, COBANK):
        d = money(rules)
        d.sit(3)
        d.start_round()
        d.bet_all()
        states.append(d.state)
        while d.state.phase == Phase.DRAGON_OFFER:
            d.do(c.TakeDragon(f"p{d.state.round.dragon.offered_seat}", 5_00))
            states.append(d.state)
        _house_way_all(d)
        states.append(d.state)
    encoder = ViewJson()
    for state in states:
        for viewer in (SpectatorViewer(), OperatorViewer(), PlayerViewer("p1"), PlayerViewer("p2")):
            view = view_for(state, viewer)
            assert encoder.encode(view) == encode_view(view)


def test_bet_fortune_bonus_and_queens_dragon_together_never_exceed_the_chips(money) -> None:
    d = money(replace(EZ_QD, fortune_enabled=True))
    d.sit(2)
    d.with_chips(1, 20_00)
    d.start_round()
    d.do(c.PlaceBet("p1", 10_00, queens_dragon_cents=5_00))
    d.refuse(c.PlaceBonus("p1", 6_00), RejectCode.INSUFFICIENT_CHIPS)
    d.do(c.PlaceBonus("p1", 5_00))
    d.refuse(c.PlaceQueensDragon("p1", 5_01), RejectCode.INSUFFICIENT_CHIPS)


def test_one_place_bet_moves_the_queens_dragon_to_the_fortune_bonus_within_the_chips(money) -> None:
    """A place_bet carries the bet and both side bets, and the table checks them as they will be: the
    Queen's Dragon taken back to 0 leaves room for a larger Fortune bonus in the same command (the bonus
    was checked beside the Queen's Dragon placed before)."""
    d = money(replace(EZ_QD, fortune_enabled=True))
    d.sit(2)
    d.with_chips(1, 20_00)
    d.start_round()
    d.do(c.PlaceBet("p1", 10_00, bonus_cents=0, queens_dragon_cents=10_00))
    d.do(c.PlaceBet("p1", 10_00, bonus_cents=10_00, queens_dragon_cents=0))
    rnd = d.state.round
    assert [(b.position, b.amount_cents) for b in rnd.bonuses] == [(1, 10_00)]
    assert rnd.queens_dragon_bets == ()
    refused = d.refuse(c.PlaceBet("p1", 10_00, bonus_cents=6_00, queens_dragon_cents=5_00),
                       RejectCode.INSUFFICIENT_CHIPS)
    assert refused.message == ("your bet of $10.00 and Fortune bonus of $6.00 and your Queen's Dragon of "
                               "$5.00 make $21.00; you have $20.00 at the table")
