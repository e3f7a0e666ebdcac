"""``paigow.sim`` with the Fortune: the sampled edge and Envy agree with the exact ones within errors."""

from __future__ import annotations

import math

import pytest

from paigow.rules import DEFAULT_PAY_TABLE, FORTUNE_COUNTS, PAY_TABLES, FortuneHand
from paigow.sim import SimResult, chunk_seed, chunk_sizes, merge, simulate


def fortune_counts(**by_name: int) -> tuple[int, ...]:
    counts = [0] * len(FortuneHand)
    for name, n in by_name.items():
        counts[FortuneHand[name.upper()]] = n
    return tuple(counts)


def test_the_fortune_does_not_change_the_deals() -> None:
    plain, with_fortune = simulate(400, 5), simulate(400, 5, fortune=True)
    assert (plain.win, plain.push, plain.loss, plain.clauses) == (
        with_fortune.win, with_fortune.push, with_fortune.loss, with_fortune.clauses)
    assert plain.fortune == ()
    assert plain.fortune_counts == {}
    assert sum(with_fortune.fortune) == 400
    assert list(with_fortune.fortune_counts) == list(FortuneHand)


def test_the_edge_and_envy_formulas() -> None:
    r = SimResult(10, 3, 4, 3, fortune=fortune_counts(straight=1, nothing=9))
    # One straight (+2) and nine losses (-1): the house keeps 7 of 10 units; per hand -0.7 for the
    # player with E[x^2] = (4 + 9) / 10, so the standard error is sqrt(1.3 - 0.49) / sqrt(10).
    assert math.isclose(r.fortune_house_edge(), 0.7)
    assert math.isclose(r.fortune_house_edge_se(), 0.9 / math.sqrt(10))
    assert r.fortune_envy_cents() == 0.0
    assert r.fortune_envy_cents_se() == 0.0
    quads = SimResult(4, 1, 2, 1, fortune=fortune_counts(four_of_a_kind=1, nothing=3))
    assert math.isclose(quads.fortune_envy_cents(DEFAULT_PAY_TABLE), 125.0)  # $5 in one hand of four
    assert math.isclose(quads.fortune_envy_cents_se(), math.sqrt(500 ** 2 / 4 - 125 ** 2) / 2)


def test_fortune_counts_must_add_up() -> None:
    with pytest.raises(ValueError, match="Fortune category"):
        SimResult(10, 3, 4, 3, fortune=fortune_counts(nothing=9))
    with pytest.raises(ValueError, match="Fortune category"):
        SimResult(10, 3, 4, 3, fortune=(10,))


def test_merge_adds_the_fortune_counts() -> None:
    chunks = [simulate(size, chunk_seed(3, k), fortune=True) for k, size in enumerate(chunk_sizes(500, 200))]
    total = merge(chunks)
    assert total.fortune == tuple(sum(c.fortune[h] for c in chunks) for h in range(len(FortuneHand)))
    assert merge([*chunks, simulate(100, 4)]).fortune == ()  # not every chunk counted it


def test_a_seeded_run_agrees_with_the_exact_figures() -> None:
    result = simulate(20_000, "fortune-check", fortune=True)
    for table in PAY_TABLES.values():
        edge, edge_se = result.fortune_house_edge(table), result.fortune_house_edge_se(table)
        envy, envy_se = result.fortune_envy_cents(table), result.fortune_envy_cents_se(table)
        assert 0 < edge_se < 0.05
        assert abs(edge - table.house_edge(FORTUNE_COUNTS)) < 4 * edge_se
        assert 0 < envy_se < 3
        assert abs(envy - table.envy_per_seat_cents(FORTUNE_COUNTS)) < 4 * envy_se
    # The common categories come out near their exact frequencies too (binomial, 4 standard errors).
    total = sum(FORTUNE_COUNTS.values())
    for hand in (FortuneHand.NOTHING, FortuneHand.STRAIGHT, FortuneHand.FLUSH, FortuneHand.FULL_HOUSE):
        p = FORTUNE_COUNTS[hand] / total
        assert abs(result.fortune[hand] / result.hands - p) < 4 * math.sqrt(p * (1 - p) / result.hands)
