"""paigow.sim: counting, merging, the edge formulas, and a moderate run against the published figures."""

from __future__ import annotations

import math

import pytest

from paigow.rules.house_rules import CommissionForm, HouseRules
from paigow.rules.house_way import HouseWayClause, clause_enum
from paigow.sim import (
    CLAUSE_SLOTS,
    PUBLISHED,
    PUBLISHED_BY_FORM,
    SimResult,
    chunk_seed,
    chunk_sizes,
    merge,
    simulate,
)


def test_a_small_seeded_run_counts_every_hand() -> None:
    result = simulate(500, 7)
    assert result.hands == 500
    assert result.win + result.push + result.loss == 500
    assert math.isclose(sum(result.rate(n) for n in (result.win, result.push, result.loss)), 1.0)
    assert sum(result.clauses) == 1000  # the player's and the dealer's hands
    assert result.clauses[0] == 0
    assert result.clauses[HouseWayClause.ONE_PAIR] > 0


def test_the_same_seed_gives_the_same_run() -> None:
    assert simulate(300, 11) == simulate(300, 11)
    assert simulate(300, "chunk-a") == simulate(300, "chunk-a")
    assert simulate(300, 11) != simulate(300, 12)


def test_merge_adds_chunks() -> None:
    chunks = [simulate(size, chunk_seed(5, k)) for k, size in enumerate(chunk_sizes(700, 300))]
    total = merge(chunks)
    assert total.hands == 700
    assert total.win == sum(c.win for c in chunks)
    assert total.clauses == tuple(sum(c.clauses[k] for c in chunks) for k in range(CLAUSE_SLOTS))
    assert merge(reversed(chunks)) == total
    assert merge([]) == SimResult(0, 0, 0, 0)


def test_chunk_sizes_and_seeds() -> None:
    assert chunk_sizes(25, 10) == [10, 10, 5]
    assert chunk_sizes(20, 10) == [10, 10]
    assert chunk_sizes(0, 10) == []
    assert chunk_seed(1, 0) != chunk_seed(1, 1) != chunk_seed(2, 1)
    with pytest.raises(ValueError, match="chunk"):
        chunk_sizes(10, 0)


def test_edge_formulas() -> None:
    r = SimResult(hands=100, win=30, push=40, loss=30)
    # The house keeps a loss (1) and pays a win less 5%: 30 - 30 * 0.95 = 1.5 per 100 hands.
    assert math.isclose(r.house_edge(), 0.015)
    assert math.isclose(r.banker_edge(), 0.0)
    # $5: 25 cents exactly, rounding changes nothing. $7: 35 cents rounds up to 50, a win pays 6.50/7.
    assert math.isclose(r.house_edge_rounded(500), r.house_edge())
    assert math.isclose(r.house_edge_rounded(700), (30 - 30 * 650 / 700) / 100)
    # Exact cents (no rounding) at $7 is the exact 5% again.
    assert math.isclose(r.house_edge_rounded(700, HouseRules(commission_round_cents=1)), 0.015)
    assert math.isclose(r.house_edge(HouseRules(commission_bps=0)), r.banker_edge())
    assert math.isclose(r.rate_se(r.win), math.sqrt(0.3 * 0.7 / 100))
    # Per-hand house result: +1 (30%), 0 (40%), -0.95 (30%).
    mean = 0.015
    variance = 0.3 * 1 + 0.3 * 0.95**2 - mean**2
    assert math.isclose(r.house_edge_se(), math.sqrt(variance / 100))


def test_inconsistent_counts_are_refused() -> None:
    with pytest.raises(ValueError, match="inconsistent"):
        SimResult(hands=10, win=5, push=5, loss=5)
    with pytest.raises(ValueError, match="positive"):
        SimResult(1, 1, 0, 0).house_edge_rounded(0)
    with pytest.raises(ValueError, match="hands"):
        simulate(-1, 0)


def test_a_moderate_run_agrees_with_the_published_figures() -> None:
    """20,000 deals (a couple of seconds): every figure within 4 standard errors of the published one."""
    result = simulate(20_000, 2026)
    for count, published in ((result.win, PUBLISHED.win), (result.push, PUBLISHED.push),
                             (result.loss, PUBLISHED.loss)):
        assert abs(result.rate(count) - published) < 4 * result.rate_se(count)
    assert abs(result.house_edge() - PUBLISHED.house_edge) < 4 * result.house_edge_se()


@pytest.mark.parametrize("way", ["foxwoods", "ballys_ac"])
def test_the_simulation_sets_both_hands_by_the_tables_house_way(way: str) -> None:
    rules = HouseRules(house_way=way)  # type: ignore[arg-type]
    result = simulate(2000, 5, rules)
    enum = clause_enum(rules.house_way)
    assert sum(result.clauses) == 4000
    assert sum(result.clauses[c] for c in enum) == 4000  # every count under one of the way's clauses
    # The same deals, Trump Plaza: the ways part on some hands, so the rounds' outcomes differ.
    trump = simulate(2000, 5)
    assert (result.win, result.loss) != (trump.win, trump.loss)


@pytest.mark.parametrize("form", [CommissionForm.EZ, CommissionForm.NINE_HIGH])
def test_a_commission_free_run_pushes_the_barred_rounds_of_the_same_deals(form: CommissionForm) -> None:
    """The deals do not depend on the form: the commission-free run is the commissioned one with every
    barred round made a push, and its house edge has no commission."""
    rules = HouseRules(commission_form=form)
    free, paid = simulate(6000, 31, rules), simulate(6000, 31)
    assert free.clauses == paid.clauses
    assert 0 < free.barred_wins < free.barred
    assert free.win == paid.win - free.barred_wins
    assert free.push >= free.barred
    assert free.win + free.push + free.loss == paid.hands
    assert free.house_edge(rules) == free.banker_edge() == (free.loss - free.win) / free.hands
    assert free.house_edge_rounded(700, rules) == free.house_edge(rules)  # no commission to round
    assert paid.barred == paid.barred_wins == 0


def test_the_barred_rounds_are_about_as_frequent_as_the_exact_count() -> None:
    """20,000 deals: the barred rate within 4 standard errors of the exact one (``paigow odds``)."""
    for form, exact in ((CommissionForm.EZ, 2_719_500), (CommissionForm.NINE_HIGH, 3_853_596)):
        result = simulate(20_000, 77, HouseRules(commission_form=form))
        assert abs(result.rate(result.barred) - exact / 154_143_080) < 4 * result.rate_se(result.barred)


def test_the_published_figures_of_each_form() -> None:
    assert PUBLISHED_BY_FORM[CommissionForm.COMMISSIONED] is PUBLISHED
    for rates in PUBLISHED_BY_FORM.values():
        assert math.isclose(rates.win + rates.push + rates.loss, 1.0, abs_tol=2e-4)
    ez = PUBLISHED_BY_FORM[CommissionForm.EZ]
    assert round(ez.loss - ez.win, 6) == ez.house_edge == 0.024694


def test_barred_counts_must_fit_the_pushes() -> None:
    with pytest.raises(ValueError, match="barred"):
        SimResult(10, 3, 4, 3, barred=5)
    with pytest.raises(ValueError, match="barred"):
        SimResult(10, 3, 4, 3, barred=2, barred_wins=3)
    assert merge([SimResult(10, 3, 4, 3, barred=2, barred_wins=1)] * 2).barred_wins == 2
