"""The second looks' figures of one round (``paigow.ledger.pair_flows``), pure: per (banker, player) pair
the flow and its honest mean and variance from the published win/push/lose rates, and the fouls' z."""

from __future__ import annotations

import math
from statistics import NormalDist

import pytest

from paigow.ledger.pair_flows import (
    FOUL_PRIOR_RATE,
    P_LOSE,
    P_PUSH,
    P_WIN,
    PairFlow,
    PlayerHands,
    flow_z,
    foul_z,
    hand_moments,
    round_figures,
    smoothed_base_rate,
)
from paigow.rules.showdown import Outcome
from paigow.table.records import HandRecord, RoundRecord, SetBy


def _hand(position: int, player: str | None, wager: int, net: int, *, fouled: bool = False,
          banker: bool = False, dragon_of: int | None = None) -> HandRecord:
    outcome = None if banker else Outcome.WIN if net > 0 else Outcome.LOSS if net < 0 else Outcome.PUSH
    return HandRecord(position, player, (), (), (), SetBy.PLAYER, fouled, banker,
                      0 if banker else wager, outcome, net, 0, net, "", "", dragon_of=dragon_of)


def _record(banker: str | None, *hands: HandRecord, co_banked: bool = False,
            barred: bool = False) -> RoundRecord:
    return RoundRecord("t1-5", 5, "c", "s", (1, 1, 1), 1, 1, banker, hands, 0, 0, 0, 0,
                       co_banked=co_banked, dealer_barred=barred)


def test_the_published_rates_add_up_and_give_the_house_edge_and_the_flows_spread() -> None:
    assert math.isclose(P_WIN + P_PUSH + P_LOSE, 1.0)
    mean, var = hand_moments(10_000, 500)
    assert mean == pytest.approx(10_000 * (0.2991 - 0.95 * 0.2861))  # 2.73 % of the wager
    assert mean / 10_000 == pytest.approx(0.0273, abs=5e-5)
    assert var == pytest.approx(10_000**2 * (0.2991 + 0.95**2 * 0.2861) - mean**2)
    assert var / 10_000**2 == pytest.approx(0.5566, abs=5e-5)
    no_commission, _ = hand_moments(10_000, 0)
    assert no_commission / 10_000 == pytest.approx(0.0130, abs=5e-5)  # the banker's edge: 1.30 %


def test_a_player_banked_round_gives_each_player_their_flow_against_the_banker() -> None:
    record = _record("bank",
                     _hand(0, None, 1_000, -1_000),  # the house dealer's wager: no pair
                     _hand(1, "bank", 0, 0, banker=True),
                     _hand(2, "ann", 2_000, -2_000, fouled=True),
                     _hand(3, "bob", 1_000, 950),
                     _hand(4, "bob", 500, 0, dragon_of=3))  # bob's Dragon hand: his too
    figures = round_figures(record, 500)
    m2, v2 = hand_moments(2_000, 500)
    m1, v1 = hand_moments(1_000, 500)
    m5, v5 = hand_moments(500, 500)
    assert figures.pairs == (PairFlow("bank", "ann", 1, 1, 2_000, round(m2 * 1000), round(v2)),
                             PairFlow("bank", "bob", 2, 0, -950, round((m1 + m5) * 1000), round(v1 + v5)))
    assert figures.hands == (PlayerHands("ann", "bank", 1, 1), PlayerHands("bob", "bank", 2, 0))


def test_a_house_banked_round_counts_hands_and_fouls_only() -> None:
    record = _record(None, _hand(0, None, 0, 0, banker=True), _hand(2, "ann", 1_000, -1_000, fouled=True))
    figures = round_figures(record, 500)
    assert figures.pairs == ()
    assert figures.hands == (PlayerHands("ann", "house", 1, 1),)


def test_a_co_banked_round_moves_half_and_a_barred_one_nothing() -> None:
    hands = (_hand(1, "bank", 0, 0, banker=True), _hand(2, "ann", 1_001, -1_001))
    m, v = hand_moments(1_001, 500)
    half = round_figures(_record("bank", *hands, co_banked=True), 500).pairs[0]
    assert (half.flow_cents, half.expected_milli, half.variance) == (500, round(m * 500), round(v / 4))
    barred = round_figures(_record("bank", *hands, barred=True), 500).pairs[0]
    assert (barred.hands, barred.flow_cents, barred.expected_milli, barred.variance) == (1, 0, 0, 0)


def test_the_flows_z_is_its_distance_from_the_mean_in_standard_deviations() -> None:
    assert flow_z(1_000, 500_000, 250_000) == pytest.approx((1_000 - 500) / 500)
    assert flow_z(0, 0, 0) == 0.0
    # twelve maximum bets lost in a row: far beyond chance; six: not yet
    mean, var = hand_moments(30_000, 500)
    assert flow_z(12 * 30_000, round(12 * mean * 1000), round(12 * var)) > 4
    assert flow_z(6 * 30_000, round(6 * mean * 1000), round(6 * var)) < 4


def test_the_fouls_z_is_the_binomial_tail_against_the_smoothed_base_rate() -> None:
    assert smoothed_base_rate(0, 0) == pytest.approx(FOUL_PRIOR_RATE)
    assert smoothed_base_rate(900, 90) == pytest.approx(91 / 1000)
    assert foul_z(20, 0, 100, 0) == 0.0
    one_in_twenty = foul_z(20, 1, 1_000, 10)  # about the player's own rate: nothing to see
    assert one_in_twenty < 1.5
    p = smoothed_base_rate(1_000, 10)
    tail = 1 - sum(math.comb(20, k) * p**k * (1 - p) ** (20 - k) for k in range(3))
    assert foul_z(20, 3, 1_000, 10) == pytest.approx(-NormalDist().inv_cdf(tail))
    assert foul_z(20, 15, 1_000, 10) > 10  # fouling three hands in four under one banker
    assert foul_z(20, 15, 20, 15) < foul_z(20, 15, 1_000, 10)  # a player who fouls everywhere
