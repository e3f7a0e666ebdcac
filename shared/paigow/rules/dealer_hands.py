"""The dealer's seven cards in classes that the House Way sets alike, for ``analysis``.

A dealer hand of seven cards (indexes, joker 52) falls in one class:

* **no flush possible** (no suit holds five of the cards, or four with the joker): every five-card back
  then ranks by its ranks alone (``hand_value`` looks the hand up by the product of its rank primes), so
  the House Way's high and low keys depend only on the multiset of ranks. The class key is the product of
  the seven cards' ``CARD_PRIMES`` (the joker has its own prime), a positive int;
* **a flush possible** in suit s (only one suit can be: seven cards hold at most one suit of four or
  more): what matters is which ranks are of suit s and the ranks of the other cards (at most two natural
  cards, and the joker). The key is ``-(mask << 17 | other)``: ``mask`` has bit ``r`` for each rank r of
  suit s, ``other`` is the product of the other cards' primes (the joker's included), a negative int.

``dealer_keys(keys, rules)`` gives the House Way's ``(high_key, low_key)`` for classes, each set once on
a canonical hand of it and kept (per House Way and wheel setting: at most about 300,000 classes);
``tests/rules/test_analysis_classes.py`` checks against ``set_front`` that every hand of a class is set to
the same keys, and that the counts below match a brute-force enumeration.

Two ways to weigh the classes for a deck of ``available`` cards (the 46 the player does not hold):

* ``sample_classes(available, samples, rng)``: ``samples`` hands of seven distinct cards drawn
  independently and uniformly (a partial Fisher-Yates shuffle per hand, from ``rng.random()``; the float
  draw's bias is below 1e-14 per card, immaterial for an estimate), counted by class;
* ``exact_classes(available)``: how many of the C(n, 7) hands fall in each class, by counting: each
  rank multiset's hands are the product of binomials over its ranks, less those that make a flush
  possible, which are counted by their suited ranks and the other cards.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from itertools import combinations, combinations_with_replacement
from math import comb

from .hand_value import CARD_PRIMES, high_key, low_key
from .house_rules import HouseRules
from .house_way import set_front

__all__ = ["canonical_hand", "class_key", "dealer_keys", "exact_classes", "sample_classes"]

JOKER = 52
_JOKER_PRIME = CARD_PRIMES[JOKER]
_OTHER_BITS = 17  # the other cards' prime product in a flush key: at most 41 * 41 * 43 < 2**17
# Suit counters of one card: four 4-bit fields; the joker adds one to every field.
_SUIT_COUNT: tuple[int, ...] = (*[1 << 4 * (i % 4) for i in range(52)], 0x1111)
_FLUSH_BITS, _FLUSH_ADD = 0x8888, 0x3333  # a field reaches 8 once it holds 5 (the joker counted)
_PRIME_OF_RANK = {r: CARD_PRIMES[(r - 2) * 4] for r in range(2, 15)}


def _flush_key(hand: Sequence[int]) -> int:
    """The class key of a hand in which a flush is possible (see the module doc)."""
    counts = [0, 0, 0, 0]
    for c in hand:
        if c != JOKER:
            counts[c % 4] += 1
    suit = counts.index(max(counts))
    mask, other = 0, 1
    for c in hand:
        if c != JOKER and c % 4 == suit:
            mask |= 1 << (c // 4 + 2)
        else:
            other *= CARD_PRIMES[c]
    return -(mask << _OTHER_BITS | other)


def class_key(hand: Sequence[int]) -> int:
    """The class key of seven distinct card indexes."""
    code, suits = 1, _FLUSH_ADD
    for c in hand:
        code *= CARD_PRIMES[c]
        suits += _SUIT_COUNT[c]
    return _flush_key(hand) if suits & _FLUSH_BITS else code


def _ranks_of(code: int) -> list[int]:
    """The ranks (joker as 0) whose primes multiply to ``code``."""
    ranks = []
    if code % _JOKER_PRIME == 0:
        ranks.append(0)
        code //= _JOKER_PRIME
    for r, p in _PRIME_OF_RANK.items():
        while code % p == 0:
            ranks.append(r)
            code //= p
    return ranks


def canonical_hand(key: int) -> list[int]:
    """Seven card indexes of the class ``key``. No flush: the cards take the suits in turn (at most two of
    a suit); a flush class: its suited ranks in clubs, the other natural cards in diamonds, then hearts."""
    hand: list[int] = []
    if key > 0:
        turn = 0
        for r in _ranks_of(key):
            if r == 0:
                hand.append(JOKER)
            else:
                hand.append((r - 2) * 4 + turn % 4)
                turn += 1
        return hand
    mask, other = -key >> _OTHER_BITS, -key & ((1 << _OTHER_BITS) - 1)
    hand = [(r - 2) * 4 for r in range(2, 15) if mask >> r & 1]
    turn = 1
    for r in _ranks_of(other):
        if r == 0:
            hand.append(JOKER)
        else:
            hand.append((r - 2) * 4 + turn)
            turn += 1
    return hand


_KEYS: dict[tuple[str, str], dict[int, tuple[int, int]]] = {}


def dealer_keys(keys: Iterable[int], rules: HouseRules) -> dict[int, tuple[int, int]]:
    """The House Way's ``(high_key, low_key)`` for the dealer hands of each class in ``keys``, each class
    set once on its canonical hand and kept for the next call (per House Way and wheel setting)."""
    memo = _KEYS.setdefault((rules.house_way, rules.wheel), {})
    out = {}
    for key in keys:
        found = memo.get(key)
        if found is None:
            hand = canonical_hand(key)
            _, i, j = set_front(hand, rules)
            found = memo[key] = (high_key([c for c in hand if c != i and c != j], rules), low_key(i, j))
        out[key] = found
    return out


def sample_classes(available: Sequence[int], samples: int, rng: random.Random) -> dict[int, int]:
    """``samples`` independent uniform seven-card hands from ``available``, counted by class key."""
    deck = list(available)
    n = len(deck)
    if n < 7:
        raise ValueError(f"a dealer hand needs 7 cards, and only {n} are left")
    primes, suit_count, flush_key = CARD_PRIMES, _SUIT_COUNT, _flush_key
    rand = rng.random
    counts: dict[int, int] = {}
    get = counts.get
    tops = range(n - 1, n - 8, -1)
    for _ in range(samples):
        d = deck[:]
        code, suits = 1, _FLUSH_ADD
        for top in tops:  # a partial Fisher-Yates shuffle: the drawn cards end up in d[-7:]
            k = int(rand() * (top + 1))
            c = d[k]
            d[k] = d[top]
            d[top] = c
            code *= primes[c]
            suits += suit_count[c]
        key = flush_key(d[-7:]) if suits & _FLUSH_BITS else code
        counts[key] = get(key, 0) + 1
    return counts


def _rank_multisets(size: int, limits: dict[int, int]) -> list[tuple[int, int]]:
    """``(prime product, hands)`` of each multiset of ``size`` ranks, ``limits[r]`` cards of rank r
    available; multisets with no hand are left out."""
    out = []
    for ranks in combinations_with_replacement(sorted(limits), size):
        hands, code = 1, 1
        for r in set(ranks):
            hands *= comb(limits[r], ranks.count(r))
        if hands:
            for r in ranks:
                code *= _PRIME_OF_RANK[r]
            out.append((code, hands))
    return out


def exact_classes(available: Sequence[int]) -> dict[int, int]:
    """How many of the seven-card hands from ``available`` fall in each class (zero counts left out)."""
    cards = set(available)
    joker = JOKER in cards
    by_rank = {r: sum((r - 2) * 4 + s in cards for s in range(4)) for r in range(2, 15)}
    counts: dict[int, int] = {}
    for jokers in (0, 1) if joker else (0,):
        jp = _JOKER_PRIME if jokers else 1
        for code, hands in _rank_multisets(7 - jokers, by_rank):
            counts[code * jp] = hands
    for suit in range(4):
        suited = [r for r in range(2, 15) if (r - 2) * 4 + suit in cards]
        unsuited = {r: by_rank[r] - ((r - 2) * 4 + suit in cards) for r in range(2, 15)}
        others = {m: _rank_multisets(m, unsuited) for m in range(3)}
        for jokers in (0, 1) if joker else (0,):
            jp = _JOKER_PRIME if jokers else 1
            for size in range(5 - jokers, 8 - jokers):
                rest = others[7 - jokers - size]
                for ranks in combinations(suited, size):
                    mask, code = 0, jp
                    for r in ranks:
                        mask |= 1 << r
                        code *= _PRIME_OF_RANK[r]
                    mask <<= _OTHER_BITS
                    for other, hands in rest:
                        key = -(mask | other * jp)
                        counts[key] = counts.get(key, 0) + hands
                        counts[code * other] -= hands  # these hands are not in the no-flush class
    return {key: n for key, n in counts.items() if n}
