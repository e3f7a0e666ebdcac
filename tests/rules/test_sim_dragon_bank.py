"""paigow.sim_variants: the Dragon hand's wager and a player bank (alone and co-banked) in the simulator,
held to the table's own showdown and settlement on hand-built deals, and the runs to ``paigow.sim``'s."""

from __future__ import annotations

import math

import pytest

from paigow.rules.cards import parse_cards
from paigow.rules.commission_free import dealer_bars
from paigow.rules.house_rules import CommissionForm, HouseRules
from paigow.rules.house_way import house_way
from paigow.rules.payout import Wager, settle
from paigow.rules.showdown import Outcome, showdown
from paigow.sim import PUBLISHED, SimResult, chunk_seed, deals, merge, simulate
from paigow.sim_variants import (
    BankResult,
    DragonResult,
    bank_round_cents,
    dragon_outcomes,
    merge_bank,
    merge_dragon,
    opposing_balance,
    simulate_bank,
    simulate_dragon,
)
from paigow.table.cardtext import cards_to_text
from paigow.table.dragon_state import DragonHand
from paigow.table.records import SetBy
from paigow.table.state import Round
from paigow.table.variant_settlement import bank_result, dragon_key, dragon_wager

WIN, PUSH, LOSS = Outcome.WIN, Outcome.PUSH, Outcome.LOSS


def indexes(*packets: str) -> list[int]:
    cards = [c.index for packet in packets for c in parse_cards(packet)]
    assert len(set(cards)) == len(cards) == 7 * len(packets)
    return cards


# (form, player, dealer, Dragon, player's outcome, Dragon's outcome)
DRAGON_DEALS = [
    # The Dragon's full house (JJ in front) beats the dealer's king-high both ways; so do the player's aces.
    ("commissioned", "Ac Ad 7h 7s 3c 4d 9h", "Kc Qd 9s 6h 4s 3h 2d", "5c 5d 5h Jc Jd 8c 2s", WIN, WIN),
    # The same hands dealt round: the Dragon is any other hand (the player's cards win as the Dragon).
    ("commissioned", "5c 5d 5h Jc Jd 8c 2s", "Ac Ad 7h 7s 3c 4d 9h", "Kc Qd 9s 6h 4s 3h 2d", WIN, LOSS),
    # K-8 against K-8 in front is a copy, and copies go to the dealer: a loss with the high hand lost.
    ("commissioned", "Ah Kh 8d 6c 5d 3s 2c", "Ac Kd 8s 7c 5h 4h 2h", "Qs Jd 9c 7d 6s 4c 3d", LOSS, LOSS),
    # The Dragon's spade flush wins the high hand, its 3-2 front loses: a push.
    ("commissioned", "7s 7h Ad Ac 3c 4d 9h", "Kc Qd 9s 6h 4s 3h 2d", "As Ks Qs Js 8s 2c 3d", WIN, PUSH),
    # A queen-high pai gow dealer: barred under EZ, both wagers push; commissioned, both win.
    ("ez", "Ac Ad 7h 7s 3c 4d 9h", "Qc Jh 9d 7c 5c 3h 2s", "Kh Kd 8c 8h 6d 4s Tc", PUSH, PUSH),
    ("commissioned", "Ac Ad 7h 7s 3c 4d 9h", "Qc Jh 9d 7c 5c 3h 2s", "Kh Kd 8c 8h 6d 4s Tc", WIN, WIN),
    ("ez", "Ac Ad 7h 7s 3c 4d 9h", "Kc Qd 9s 6h 4s 3h 2d", "5c 5d 5h Jc Jd 8c 2s", WIN, WIN),
    # A nine-high House Way low hand (9-8 in front): barred, a would-be loss pushes like a would-be win.
    ("nine_high", "9h 8s 7c 6s 4d 3c 2d", "Th 9c 8d 6h 4c 3s 2h", "Kh Kd 8c 8h 6d 4s Tc", PUSH, PUSH),
    ("commissioned", "9h 8s 7c 6s 4d 3c 2d", "Th 9c 8d 6h 4c 3s 2h", "Kh Kd 8c 8h 6d 4s Tc", LOSS, WIN),
]


def _table_dragon_wager(dragon: str, dealer: str, rules: HouseRules) -> tuple[Wager, bool]:
    """The Dragon's wager as the table settles it (``variant_settlement.dragon_wager``), the House Way
    setting it and the house banking."""
    cards = parse_cards(dragon)
    split = house_way(cards, rules)
    hand = DragonHand(position=4, buyer_position=1, buyer_player_id="p1", wager_cents=500,
                      cards=cards_to_text(cards), high=cards_to_text(split.high),
                      low=cards_to_text(split.low), set_by=SetBy.HOUSE_WAY)
    rnd = Round(round_id="r1", number=1, commitment="c", server_seed="s", dragon=hand)
    barred = dealer_bars(parse_cards(dealer), rules)
    wager = dragon_wager(rnd, house_way(parse_cards(dealer), rules), rules, barred)
    assert wager is not None
    return wager, barred


@pytest.mark.parametrize(("form", "player", "dealer", "dragon", "player_outcome", "dragon_outcome"),
                         DRAGON_DEALS)
def test_the_dragon_of_a_deal_settles_as_the_table_settles_it_and_as_a_player_with_its_cards(
        form: str, player: str, dealer: str, dragon: str, player_outcome: Outcome,
        dragon_outcome: Outcome) -> None:
    rules = HouseRules(commission_form=CommissionForm(form))
    assert dragon_outcomes(indexes(player, dealer, dragon), rules) == (player_outcome, dragon_outcome)
    # The table's Dragon wager against the same dealer, and a player who holds the Dragon's cards.
    table_wager, barred = _table_dragon_wager(dragon, dealer, rules)
    assert table_wager.key == dragon_key("p1")
    assert table_wager.outcome is dragon_outcome
    banker = house_way(parse_cards(dealer), rules)
    as_player = showdown(house_way(parse_cards(dragon), rules), banker, rules, banker_barred=barred).outcome
    assert as_player is dragon_outcome
    # Swapped with the player's packet, the Dragon's cards play as the player's.
    assert dragon_outcomes(indexes(dragon, dealer, player), rules) == (dragon_outcome, player_outcome)
    # Settled beside a player's wager of the same size and outcome, the two results are the same.
    result = settle([table_wager, Wager("p2", 500, as_player)], rules)
    result.check_conserved()
    dragon_result, player_result = result.players
    assert (dragon_result.gross_cents, dragon_result.commission_cents, dragon_result.net_cents) == \
        (player_result.gross_cents, player_result.commission_cents, player_result.net_cents)
    if dragon_outcome is WIN:
        assert dragon_result.commission_cents == (0 if rules.commission_form.is_commission_free else 25)


@pytest.mark.parametrize("form", list(CommissionForm))
def test_a_dragon_run_plays_the_plain_runs_deals_and_counts_the_dragon_apart(form: CommissionForm) -> None:
    rules = HouseRules(commission_form=form)
    result = simulate_dragon(3000, "d", rules)
    assert result.player == simulate(3000, "d", rules)  # the same player and dealer hands, to the count
    assert result.hands == result.dragon.hands == 3000
    assert sum(result.dragon.clauses) == 3000  # the Dragon's own hands
    assert result.dragon.barred == result.player.barred  # the bar pushes both
    assert (result.player.barred > 0) is form.is_commission_free
    assert (result.dragon.win, result.dragon.loss) != (result.player.win, result.player.loss)
    assert sum(result.joint) == 3000
    chunks = [simulate_dragon(1000, chunk_seed(4, k), rules) for k in range(3)]
    assert merge_dragon(chunks).player == merge(simulate(1000, chunk_seed(4, k), rules) for k in range(3))
    assert merge_dragon(reversed(chunks)) == merge_dragon(chunks)


def test_the_dragon_minus_the_player_and_their_correlation() -> None:
    # Every deal the same for both: no difference, correlation 1.
    same = DragonResult(SimResult(10, 3, 4, 3), SimResult(10, 3, 4, 3), (3, 0, 0, 0, 4, 0, 0, 0, 3))
    assert same.minus_player() == (0.0, 0.0)
    assert math.isclose(same.correlation(), 1.0)
    # Opposite on every decided deal: the Dragon loses where the player wins.
    crossed = DragonResult(SimResult(10, 3, 4, 3), SimResult(10, 3, 4, 3), (0, 0, 3, 0, 4, 0, 3, 0, 0))
    assert crossed.minus_player()[0] == pytest.approx(0.0)
    assert crossed.minus_player()[1] > 0
    assert crossed.correlation() < -0.9
    with pytest.raises(ValueError, match="inconsistent"):
        DragonResult(SimResult(10, 3, 4, 3), SimResult(10, 3, 4, 3), (3, 0, 0, 0, 4, 0, 0, 3, 0))


def test_a_moderate_dragon_run_has_the_games_edge() -> None:
    """20,000 deals: the Dragon's edge within 4 standard errors of the published game's (it is one more
    House Way hand), and the paired difference from the player's within 4 of its own."""
    result = simulate_dragon(20_000, 2026)
    assert abs(result.dragon.house_edge() - PUBLISHED.house_edge) < 4 * result.dragon.house_edge_se()
    minus, minus_se = result.minus_player()
    assert abs(minus) < 4 * minus_se
    assert 0.2 < result.correlation() < 0.5  # one dealer hand against both


def test_extra_cards_leave_the_first_fourteen_as_they_were() -> None:
    plain = list(deals(200, "x"))
    more = list(deals(200, "x", 35))
    assert [d[:14] for d in more] == plain
    assert all(len(set(d)) == 49 for d in more)
    with pytest.raises(ValueError, match="extra"):
        list(deals(1, "x", 40))


# A bank (its hand the second packet) and six hands against it. A strong bank (kings and queens): the
# others lose, lose, push, lose, push, lose, so the bank wins 1, 2, 2, 3, 3 or 4 wagers as the first K play.
# A weak one (king-high): they win, win, win, lose, push, win.
BANK_DEALS = [
    ("Kc Qd 9s 6h 4s 3h 2d", "Kd Ks Qh Qc As 8s 7c", "Th 9d 8h 6d 4h Tc 2h", "Ac Ad 7h 7s 3c 4d 9h",
     "Ah Kh 8d 6c 5s 3s 2c", "5c 5d 5h Jc Jd 8c 2s", "Qs Js 9c 7d 6s 4c 3d"),
    ("Ac Ad 7h 7s 3c 4d 9h", "Kc Qd 9s 6h 4s 3h 2d", "5c 5d 5h Jc Jd 8c 2s", "Ah Kh 8d 6c 5s 3s 2c",
     "Qs Js 9c 7d 6s 4c 3d", "Th 9d 8h 6d 4h Tc 2h", "Kd Ks Qh Qc As 8s 7c"),
]
BALANCES = [[1, 2, 2, 3, 3, 4], [-1, -2, -3, -2, -2, -3]]


def _table_bank_net(packets: tuple[str, ...], bet_cents: int, rules: HouseRules) -> tuple[int, int]:
    """The banker's net alone and co-banked, as the table settles the round: each opposing hand's outcome
    by ``showdown`` against the bank's House Way hand, the wagers by ``payout.settle`` (the last one the
    house dealer's when six oppose a bank alone), the co-banker's half by ``variant_settlement``."""
    bank = house_way(parse_cards(packets[1]), rules)
    others = [p for k, p in enumerate(packets) if k != 1]
    wagers = [Wager(f"seat{k}", bet_cents, showdown(house_way(parse_cards(p), rules), bank, rules).outcome,
                    is_house=len(others) == 6 and k == 5) for k, p in enumerate(others)]
    alone = settle(wagers, rules, banker_key="banker")
    alone.check_conserved()
    co_banked = bank_result(Round("r1", 1, "c", "s", co_banked=True), alone, rules)
    return alone.banker_net_cents, co_banked[2]


@pytest.mark.parametrize("deal", [0, 1])
@pytest.mark.parametrize("wagers", [1, 2, 3, 4, 5, 6])
@pytest.mark.parametrize("bet_cents", [500, 700, 1000])
def test_a_bank_of_a_deal_settles_as_the_table_settles_it(deal: int, wagers: int, bet_cents: int) -> None:
    rules = HouseRules()
    packets = BANK_DEALS[deal][:wagers + 1]
    balance = opposing_balance(indexes(*packets), rules)
    assert balance == BALANCES[deal][wagers - 1]
    alone, co_banked = _table_bank_net(packets, bet_cents, rules)
    assert bank_round_cents(balance, wagers, bet_cents, rules) == alone
    assert bank_round_cents(balance, wagers, bet_cents, rules, co_bank=True) == co_banked
    if bet_cents == 500 and balance > 0:  # 5% of the net win; the co-banker's half owes 12.5 cents a wager
        assert alone == balance * 475
        assert co_banked == balance * 250 - 25 * math.ceil(balance / 2)


@pytest.mark.parametrize("wagers", [1, 2, 3, 4, 5, 6])
def test_co_banking_is_half_of_banking_alone_up_to_the_commissions_rounding(wagers: int) -> None:
    exact = HouseRules(commission_round_cents=1)
    for balance in range(-wagers, wagers + 1):
        # $10 wagers, exact cents: the half's commission (2.5% of the gross) is whole, so exactly half.
        assert 2 * bank_round_cents(balance, wagers, 1000, exact, co_bank=True) == \
            bank_round_cents(balance, wagers, 1000, exact)
        # $5 wagers, 25 cents: a winning half of an odd number of wagers owes 12.5 cents more, rounded to 25.
        alone = bank_round_cents(balance, wagers, 500)
        co_banked = bank_round_cents(balance, wagers, 500, co_bank=True)
        assert alone - 2 * co_banked == (25 if balance > 0 and balance % 2 else 0)
    for deal in deals(40, "bank", 7 * (wagers - 1)):
        balance = opposing_balance(deal)
        alone = bank_round_cents(balance, wagers, 700)
        assert 0 <= alone - 2 * bank_round_cents(balance, wagers, 700, co_bank=True) < 2 * 25


def test_a_bank_against_one_wager_is_the_plain_runs_dealer() -> None:
    """One wager: the bank's deals are ``simulate``'s, its gross the player's loss, its edge with the
    commission exact 0.95 of the losses less the wins."""
    plain = simulate(4000, 12)
    bank = simulate_bank(4000, 12, 1)
    assert bank.counts == (plain.win, plain.push, plain.loss)
    assert math.isclose(bank.edge(), (0.95 * plain.loss - plain.win) / 4000)
    assert math.isclose(bank.edge(500), bank.edge())  # $5: the commission is a whole quarter
    assert math.isclose(bank.edge(co_bank=True), bank.edge() / 2)
    assert bank.edge(500, co_bank=True) < bank.edge(co_bank=True)  # 12.5 cents charged 25
    assert math.isclose(bank.banker_edge()[0], plain.banker_edge())


@pytest.mark.parametrize("wagers", [2, 6])
def test_bank_runs_merge_and_halve(wagers: int) -> None:
    chunks = [simulate_bank(800, chunk_seed(6, k), wagers) for k in range(3)]
    total = merge_bank(chunks)
    assert total.hands == 2400
    assert total == merge_bank(reversed(chunks))
    assert total.edge(co_bank=True) == pytest.approx(total.edge() / 2, rel=1e-12)
    assert total.edge_se(co_bank=True) == pytest.approx(total.edge_se() / 2, rel=1e-12)
    assert simulate_bank(800, chunk_seed(6, 0), wagers) == chunks[0]


def test_bad_banks_are_refused() -> None:
    for wagers in (0, 7):
        with pytest.raises(ValueError, match="1 to 6"):
            simulate_bank(10, 1, wagers)
    for form in (CommissionForm.EZ, CommissionForm.NINE_HIGH):
        with pytest.raises(ValueError, match="commissioned on every table"):
            simulate_bank(10, 1, 2, HouseRules(commission_form=form))
    with pytest.raises(ValueError, match="balance"):
        bank_round_cents(3, 2, 500)
    with pytest.raises(ValueError, match="inconsistent"):
        BankResult(2, (1, 2, 3))
    with pytest.raises(ValueError, match="same number"):
        merge_bank([BankResult(1, (1, 1, 1)), BankResult(2, (1, 1, 1, 1, 1))])
    with pytest.raises(ValueError, match="one or more"):
        merge_bank([])
