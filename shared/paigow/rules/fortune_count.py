"""The exact Fortune count: every seven-card hand of the 53-card deck by ``FortuneHand``, in a few seconds.

Not a loop over the 154,143,080 hands. A hand is a multiset of ranks (each rank 0..4 times; seven ranks, or
six and the joker) and a suit for each card. Every category but the suited ones (flush and up) depends on
the ranks alone, so each rank multiset is taken once and weighted by the number of ways to give its cards
suits, ``prod C(4, c_r)``. The suited categories need a suit holding five or more cards (four with the
joker); two suits never can at once (5 + 5 > 7, 4 + 4 > 6), so those suitings are counted exactly by
choosing that suit (4 ways) and the set S of ranks it holds: the other cards of each rank r then go to the
three other suits in ``C(3, c_r - [r in S])`` ways. Whatever is left of the weight is flush-free and pays
on the ranks alone. The royal match is the one category that also looks at the other two cards: a royal
with K and Q left over is a royal match in the 3 of the 3 x 3 suitings where the K and Q share a suit.

``count_fortune(suits)`` takes the deck of the first ``suits`` suits (1..4) and the joker, so that the tests
can check the method hand by hand against ``fortune_of_indexes`` on the 14- and 27-card decks; the same
argument shows that at most one suit holds a flush in every such deck. ``count_rank_multiset`` is the part
for one rank multiset, for checking against its suitings one by one.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from itertools import combinations
from math import comb
from types import MappingProxyType

from .fortune import FortuneHand, is_royal_match, lookup_tables

__all__ = [
    "FORTUNE_COUNTS",
    "FORTUNE_TOTAL",
    "count_fortune",
    "count_rank_multiset",
    "rank_multisets",
]

FORTUNE_TOTAL = 154_143_080
"""C(53, 7): the seven-card hands of the 53-card deck."""

FORTUNE_COUNTS: Mapping[FortuneHand, int] = MappingProxyType({
    FortuneHand.SEVEN_CARD_STRAIGHT_FLUSH: 32,
    FortuneHand.ROYAL_PLUS_ROYAL_MATCH: 72,
    FortuneHand.SEVEN_CARD_STRAIGHT_FLUSH_WITH_JOKER: 196,
    FortuneHand.FIVE_ACES: 1_128,
    FortuneHand.ROYAL_FLUSH: 26_020,
    FortuneHand.STRAIGHT_FLUSH: 184_644,
    FortuneHand.FOUR_OF_A_KIND: 307_472,
    FortuneHand.FULL_HOUSE: 4_188_528,
    FortuneHand.FLUSH: 6_172_088,
    FortuneHand.THREE_OF_A_KIND: 7_672_500,
    FortuneHand.STRAIGHT: 11_034_204,
    FortuneHand.NOTHING: 124_556_196,
})
"""The published exhaustive counts (Wizard of Odds' Fortune analysis); ``count_fortune()`` reproduces them."""


def rank_multisets(size: int, most: int) -> Iterator[tuple[int, ...]]:
    """Every way to hold ``size`` cards over the 13 ranks, at most ``most`` of a rank: ``counts[r - 2]``."""
    counts = [0] * 13

    def place(rank: int, left: int) -> Iterator[tuple[int, ...]]:
        if rank == 12:
            if left <= most:
                counts[12] = left
                yield tuple(counts)
            return
        for n in range(min(most, left) + 1):
            counts[rank] = n
            yield from place(rank + 1, left - n)
        counts[rank] = 0

    return place(0, size)


def _rank_category(counts: Sequence[int], joker: int, rank_mask: int) -> FortuneHand:
    """The best category the ranks alone make: five aces down to a straight, the joker as an ace except
    in a straight. ``counts[r - 2]`` cards of rank r; ``rank_mask`` their 13-bit mask. (The evaluator
    reads the same from suit masks; the tests hold the two to each other hand by hand.)"""
    aces = counts[12] + joker
    if aces == 5:
        return FortuneHand.FIVE_ACES
    most, second = sorted((*counts[:12], aces))[-1:-3:-1]
    if most == 4:
        return FortuneHand.FOUR_OF_A_KIND
    if most == 3:
        return FortuneHand.FULL_HOUSE if second >= 2 else FortuneHand.THREE_OF_A_KIND
    if lookup_tables()[1][rank_mask] <= joker:
        return FortuneHand.STRAIGHT
    return FortuneHand.NOTHING


def _add_multiset(counts: Sequence[int], joker: int, suits: int, out: list[int]) -> None:
    """Add the hands of this rank multiset (and the joker if ``joker``), by category, to ``out``."""
    support = [r for r in range(13) if counts[r]]
    rank_mask = 0
    weight = 1
    for r in support:
        rank_mask |= 1 << r
        weight *= comb(suits, counts[r])
    base = _rank_category(counts, joker, rank_mask)
    suited_ways = 0
    if len(support) + joker >= 5:
        # Ways for the other suits to take what one suit does not: rank r not in S, or in S.
        rest_out = {r: comb(suits - 1, counts[r]) for r in support}
        rest_in = {r: comb(suits - 1, counts[r] - 1) for r in support}
        table = lookup_tables()[0][joker]
        for k in range(5 - joker, len(support) + 1):
            for chosen in combinations(support, k):
                ways = 1
                mask = 0
                for r in support:
                    if r in chosen:
                        ways *= rest_in[r]
                        mask |= 1 << r
                    else:
                        ways *= rest_out[r]
                if not ways:
                    continue
                suited_ways += ways
                category = table[mask]
                if category is FortuneHand.ROYAL_FLUSH:
                    left = [r for r in support if counts[r] > (r in chosen)]
                    left_mask = sum(1 << r for r in left)
                    if (sum(counts[r] - (r in chosen) for r in left) == 2
                            and is_royal_match(mask, joker, (left_mask,))):
                        # K and Q one each over suits - 1 other suits: suited in suits - 1 of the ways.
                        out[FortuneHand.ROYAL_PLUS_ROYAL_MATCH] += suits * (suits - 1)
                        ways -= suits - 1
                out[max(base, category)] += suits * ways
    out[base] += weight - suits * suited_ways


def count_rank_multiset(counts: Sequence[int], joker: bool, suits: int = 4) -> dict[FortuneHand, int]:
    """The hands with exactly these ranks (``counts[r - 2]`` of rank r) and the joker or not, by category,
    from the deck of the first ``suits`` suits. Categories with no hands are left out."""
    if len(counts) != 13 or not 1 <= suits <= 4 or any(not 0 <= n <= suits for n in counts) \
            or sum(counts) + joker != 7:
        raise ValueError(f"need 13 rank counts in 0..{suits} making seven cards, not {list(counts)}")
    out = [0] * len(FortuneHand)
    _add_multiset(counts, int(joker), suits, out)
    return {h: out[h] for h in FortuneHand if out[h]}


def count_fortune(suits: int = 4) -> dict[FortuneHand, int]:
    """Every seven-card hand of the first ``suits`` suits (13 cards each) and the joker, by category (all
    twelve, best first). With the full deck: ``FORTUNE_COUNTS``, summing to C(53, 7)."""
    if not 1 <= suits <= 4:
        raise ValueError(f"suits must be 1..4, not {suits}")
    out = [0] * len(FortuneHand)
    for joker in (0, 1):
        for counts in rank_multisets(7 - joker, suits):
            _add_multiset(counts, joker, suits, out)
    return {h: out[h] for h in FortuneHand}
