"""The shuffle and the dice are unbiased: chi-square tests over a fixed set of seeds (deterministic)."""

from __future__ import annotations

import hashlib
import math
from collections import Counter
from itertools import product

from paigow import fair

ROUNDS = 3000


def _seed(i: int) -> bytes:
    return hashlib.sha256(f"stats-{i}".encode()).digest()


def _critical(df: int, z: float = 3.719) -> float:
    """Upper critical value of chi-square with ``df`` degrees of freedom at one-sided p = 1e-4
    (Wilson-Hilferty approximation)."""
    a = 2 / (9 * df)
    return df * (1 - a + z * math.sqrt(a)) ** 3


def _chi2(observed: list[int], expected: list[float]) -> float:
    return sum((o - e) ** 2 / e for o, e in zip(observed, expected, strict=True))


def test_every_card_is_equally_likely_in_every_position() -> None:
    counts = [[0] * 53 for _ in range(53)]
    for i in range(ROUNDS):
        for pos, card in enumerate(fair.deck_order(_seed(i), f"stats-{i}")):
            counts[pos][card.index] += 1
    expected = ROUNDS / 53
    chi2 = sum((o - expected) ** 2 / expected for row in counts for o in row)
    # 53 x 53 table with every row and column summing to ROUNDS: (53 - 1)^2 degrees of freedom.
    assert chi2 < _critical(52 * 52), chi2
    # And position by position (the first and last positions are where a biased shuffle shows most).
    for pos in (0, 26, 52):
        assert _chi2(counts[pos], [expected] * 53) < _critical(52), pos


def test_dice_totals_follow_three_fair_dice() -> None:
    n = 20_000
    totals = Counter(sum(fair.roll_dice(_seed(i), f"dice-{i}")) for i in range(n))
    ways = Counter(a + b + c for a, b, c in product(range(1, 7), repeat=3))
    observed = [totals[t] for t in range(3, 19)]
    expected = [n * ways[t] / 216 for t in range(3, 19)]
    assert sum(observed) == n
    assert _chi2(observed, expected) < _critical(15)


def test_each_die_is_uniform_and_first_positions_follow_the_totals() -> None:
    n = 20_000
    faces = Counter(f for i in range(n) for f in fair.roll_dice(_seed(i), f"faces-{i}"))
    assert _chi2([faces[f] for f in range(1, 7)], [3 * n / 6] * 6) < _critical(5)
    firsts = Counter(fair.deal(_seed(i), f"first-{i}", 0).first_position for i in range(2000))
    ways = Counter((a + b + c - 1) % 7 for a, b, c in product(range(1, 7), repeat=3))
    assert _chi2([firsts[p] for p in range(7)], [2000 * ways[p] / 216 for p in range(7)]) < _critical(6)
