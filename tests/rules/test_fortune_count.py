"""The exact Fortune count: checked hand by hand on smaller decks and rank multisets, then the full deck
against the published counts, house edges and Envy."""

from __future__ import annotations

import time
from collections import Counter
from itertools import combinations, product
from math import comb
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paigow.rules import (
    DEFAULT_PAY_TABLE,
    FIVE_THOUSAND_PAY_TABLE,
    FORTUNE_COUNTS,
    FORTUNE_TOTAL,
    FortuneHand,
    count_fortune,
    count_rank_multiset,
    fortune_of_indexes,
    rank_multisets,
)

H = FortuneHand

PUBLISHED = {
    H.SEVEN_CARD_STRAIGHT_FLUSH: 32,
    H.ROYAL_PLUS_ROYAL_MATCH: 72,
    H.SEVEN_CARD_STRAIGHT_FLUSH_WITH_JOKER: 196,
    H.FIVE_ACES: 1_128,
    H.ROYAL_FLUSH: 26_020,
    H.STRAIGHT_FLUSH: 184_644,
    H.FOUR_OF_A_KIND: 307_472,
    H.FULL_HOUSE: 4_188_528,
    H.FLUSH: 6_172_088,
    H.THREE_OF_A_KIND: 7_672_500,
    H.STRAIGHT: 11_034_204,
    H.NOTHING: 124_556_196,
}
"""The published counts of all 154,143,080 seven-card hands."""


def deck_indexes(suits: int) -> list[int]:
    """The card indexes of the first ``suits`` suits and the joker (as ``count_fortune(suits)`` takes)."""
    return [i for i in range(52) if i % 4 < suits] + [52]


def brute_force(indexes: list[int]) -> Counter[FortuneHand]:
    return Counter(fortune_of_indexes(hand) for hand in combinations(indexes, 7))


def test_rank_multisets() -> None:
    for size, most in ((7, 4), (6, 4), (7, 1), (7, 2)):
        found = list(rank_multisets(size, most))
        assert len(found) == len(set(found))
        assert all(len(c) == 13 and sum(c) == size and max(c) <= most for c in found)
    assert len(list(rank_multisets(7, 1))) == comb(13, 7)
    # Seven cards from 13 ranks, each rank at most 4 times: all multisets of 7 (C(19, 7)) less those with
    # five or more of one rank (13 ranks x the multisets of the other two cards, C(14, 2)).
    assert len(list(rank_multisets(7, 4))) == comb(19, 7) - 13 * comb(14, 2)


def test_the_one_suit_deck_hand_by_hand() -> None:
    counts = count_fortune(1)
    assert sum(counts.values()) == comb(14, 7)
    hands = brute_force(deck_indexes(1))
    assert counts == {h: hands[h] for h in FortuneHand}
    assert counts[H.SEVEN_CARD_STRAIGHT_FLUSH] == 8  # one suit: A-7 up to 8-A


@pytest.mark.slow
def test_the_two_suit_deck_hand_by_hand() -> None:
    """All 888,030 hands of the 27-card deck: two suits make royal matches, trips and full houses."""
    counts = count_fortune(2)
    assert sum(counts.values()) == comb(27, 7)
    hands = brute_force(deck_indexes(2))
    assert counts == {h: hands[h] for h in FortuneHand}
    # Two suits and the joker hold at most three of a rank (aces: two and the joker).
    assert [h for h in FortuneHand if not counts[h]] == [H.FIVE_ACES, H.FOUR_OF_A_KIND]


def suitings(ranks: list[int], joker: bool) -> list[list[int]]:
    """Every hand of the full deck with these ranks (13-index counts) as card-index lists."""
    per_rank = [combinations(range(4), n) for n in ranks]
    hands = []
    for choice in product(*[list(c) for c in per_rank]):
        hand = [r * 4 + s for r, suits in enumerate(choice) for s in suits]
        hands.append(hand + [52] * joker)
    return hands


@st.composite
def multisets(draw: st.DrawFn) -> tuple[list[int], bool]:
    joker = draw(st.booleans())
    # Mostly distinct high ranks (where the suited categories live), sometimes anything.
    ranks = draw(st.lists(st.sampled_from(range(13) if draw(st.booleans()) else range(6, 13)),
                          min_size=7 - joker, max_size=7 - joker))
    counts = [ranks.count(r) for r in range(13)]
    if max(counts) > 4:
        counts = [min(n, 4) for n in counts]
        counts[next(r for r in range(13) if counts[r] < 4)] += 7 - joker - sum(counts)
    return counts, joker


@settings(max_examples=300, deadline=None)
@given(multisets())
def test_one_rank_multiset_against_its_suitings(case: tuple[list[int], bool]) -> None:
    counts, joker = case
    hands = suitings(counts, joker)
    assert count_rank_multiset(counts, joker) == Counter(fortune_of_indexes(h) for h in hands)


@pytest.mark.parametrize(("counts", "joker", "expected"), [
    # A K K Q Q J T: the royal in one suit (4 ways), K and Q in two of the three others (9), suited in 3.
    ([0] * 8 + [1, 1, 2, 2, 1], False, {H.ROYAL_PLUS_ROYAL_MATCH: 12, H.ROYAL_FLUSH: 24}),
    # K K Q Q J T + joker: a royal match with the joker as the ace.
    ([0] * 8 + [1, 1, 2, 2, 0], True, {H.ROYAL_PLUS_ROYAL_MATCH: 12, H.ROYAL_FLUSH: 24}),
])
def test_royal_match_multisets(counts: list[int], joker: bool, expected: dict[FortuneHand, int]) -> None:
    found = count_rank_multiset(counts, joker)
    assert {h: found[h] for h in expected} == expected
    assert sum(found.values()) == comb(4, 2) ** 2 * 4 ** (3 - joker)


def test_bad_multisets_are_refused() -> None:
    with pytest.raises(ValueError, match="13 rank counts"):
        count_rank_multiset([1] * 7, False)
    with pytest.raises(ValueError, match="13 rank counts"):
        count_rank_multiset([5, 2] + [0] * 11, False)
    with pytest.raises(ValueError, match="13 rank counts"):
        count_rank_multiset([1] * 7 + [0] * 6, True)
    with pytest.raises(ValueError, match="suits must be"):
        count_fortune(5)


@pytest.mark.slow
def test_every_seven_card_hand_of_the_full_deck() -> None:
    started = time.perf_counter()
    counts = count_fortune()
    assert time.perf_counter() - started < 120
    assert counts == PUBLISHED
    assert list(counts) == list(FortuneHand)
    assert FORTUNE_COUNTS == PUBLISHED
    assert sum(counts.values()) == FORTUNE_TOTAL == comb(53, 7)
    # The published house edge of the default table and its Envy per other seat.
    assert round(DEFAULT_PAY_TABLE.house_edge(counts), 6) == 0.077656
    assert round(DEFAULT_PAY_TABLE.envy_per_seat_cents(counts) / 100, 4) == 0.0463


def test_published_edges_of_the_pay_tables() -> None:
    """From the published counts: 7.7656% (8,000 to 1) and 7.83% (5,000 to 1, "7.8%" as published), and
    Envy worth 0.93% and 0.92% of a $5 bet per other seat (published for the 5,000 table: 0.92%)."""
    assert round(DEFAULT_PAY_TABLE.house_edge(FORTUNE_COUNTS), 6) == 0.077656
    assert round(DEFAULT_PAY_TABLE.envy_per_seat_cents(FORTUNE_COUNTS), 2) == 4.63
    assert round(FIVE_THOUSAND_PAY_TABLE.house_edge(FORTUNE_COUNTS), 3) == 0.078
    envy = FIVE_THOUSAND_PAY_TABLE.envy_per_seat_cents(FORTUNE_COUNTS)
    assert round(envy / FIVE_THOUSAND_PAY_TABLE.envy_min_bet_cents, 4) == 0.0092


def test_the_figures_in_the_docs() -> None:
    """docs/fortune.md quotes the counts, each table's edge, and the edges with 1..5 other players."""
    text = (Path(__file__).parents[2] / "docs" / "fortune.md").read_text()
    total = sum(FORTUNE_COUNTS.values())
    for hand, n in FORTUNE_COUNTS.items():
        assert f"| {hand.label} | {n:,} | {n / total:.10f} |" in text
    for table in (DEFAULT_PAY_TABLE, FIVE_THOUSAND_PAY_TABLE):
        edge = table.house_edge(FORTUNE_COUNTS)
        envy = table.envy_per_seat_cents(FORTUNE_COUNTS)
        assert f"**{edge:.4%}**" in text
        assert f"**${envy / 100:.4f}**" in text
        edges = [f"{edge - k * envy / table.envy_min_bet_cents:.4%}" for k in range(6)]
        assert f"| `{table.name}` | " + " | ".join(edges) + " |" in text
