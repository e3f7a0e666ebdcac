"""Properties of hand values against a slow, obviously correct reference evaluator.

The reference knows nothing of the lookup tables: it ranks five natural cards the textbook way, and for a
hand with the joker it tries the joker as an ace (any suit, even one already in the hand) and as every
card not in the hand, keeping a substitution other than an ace only when the result is a straight, flush,
straight flush or royal flush (docs/rules.md §1: the joker is an ace or completes one),
and takes the best.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

from paigow.rules.cards import DECK, JOKER, Card
from paigow.rules.hand_value import HandCategory, evaluate_high, evaluate_low
from paigow.rules.house_rules import HouseRules, WheelRank

Strength = tuple[int, tuple[float, ...]]
"""(category, comparable tie-break): compares like the rules rank hands."""

WHEELS = (HouseRules(wheel=WheelRank.SECOND), HouseRules(wheel=WheelRank.LOW))
COMPLETES = {HandCategory.STRAIGHT, HandCategory.FLUSH, HandCategory.STRAIGHT_FLUSH, HandCategory.ROYAL_FLUSH}


Natural = tuple[int, tuple[int, ...], float]


def ref_natural(cards: Sequence[tuple[int, str | None]], wheel: WheelRank) -> Natural:
    """(category, tie-break ranks, straight strength) of five (rank, suit) pairs, no joker."""
    ranks = sorted((r for r, _ in cards), reverse=True)
    suits = {s for _, s in cards}
    flush = len(suits) == 1 and None not in suits and len(set(ranks)) == 5
    top = 0
    if len(set(ranks)) == 5 and ranks[0] - ranks[4] == 4:
        top = ranks[0]
    elif ranks == [14, 5, 4, 3, 2]:
        top = 5
    if top:
        strength: float = top
        if top == 5 and wheel is WheelRank.SECOND:
            strength = 14
        elif top == 14 and wheel is WheelRank.SECOND:
            strength = 15
        if flush:
            if top == 14:
                return HandCategory.ROYAL_FLUSH, (), 0
            return HandCategory.STRAIGHT_FLUSH, (top,), strength
        return HandCategory.STRAIGHT, (top,), strength
    if flush:
        return HandCategory.FLUSH, tuple(ranks), 0
    counts = Counter(ranks)
    ordered = tuple(sorted(counts, key=lambda r: (counts[r], r), reverse=True))
    shape = sorted(counts.values(), reverse=True)
    if shape == [5]:
        return HandCategory.FIVE_ACES, (), 0
    category = {
        (4, 1): HandCategory.FOUR_OF_A_KIND,
        (3, 2): HandCategory.FULL_HOUSE,
        (3, 1, 1): HandCategory.THREE_OF_A_KIND,
        (2, 2, 1): HandCategory.TWO_PAIR,
        (2, 1, 1, 1): HandCategory.ONE_PAIR,
        (1, 1, 1, 1, 1): HandCategory.HIGH_CARD,
    }[tuple(shape)]
    return category, ordered, 0


def ref_strength(cat: int, ranks: tuple[int, ...], straight: float) -> Strength:
    if cat in (HandCategory.STRAIGHT, HandCategory.STRAIGHT_FLUSH):
        return cat, (straight,)
    return cat, tuple(float(r) for r in ranks)


def reference(hand: Sequence[Card], wheel: WheelRank) -> tuple[int, tuple[int, ...], Strength]:
    """Best (category, tie-break ranks, strength) of five cards, trying the joker every allowed way."""
    naturals = [(c.rank, c.suit.value if c.suit else None) for c in hand if not c.is_joker]
    if len(naturals) == 5:
        cat, ranks, s = ref_natural(naturals, wheel)
        return cat, ranks, ref_strength(cat, ranks, s)
    options = [ref_natural([*naturals, (14, None)], wheel)]  # the joker as an ace
    for sub in DECK[:52]:
        if sub in hand:
            continue
        cat, ranks, s = ref_natural([*naturals, (sub.rank, sub.suit.value if sub.suit else None)], wheel)
        if cat in COMPLETES or sub.rank == 14:
            options.append((cat, ranks, s))
    best = max(options, key=lambda o: ref_strength(*o))
    return best[0], best[1], ref_strength(*best)


def sign(x: float) -> int:
    return (x > 0) - (x < 0)


def cmp(a: Strength, b: Strength) -> int:
    return (a > b) - (a < b)


hands = st.lists(st.sampled_from(DECK), min_size=5, max_size=5, unique=True)
joker_hands = st.lists(st.sampled_from(DECK[:52]), min_size=4, max_size=4, unique=True).map(
    lambda cs: [*cs, JOKER])
# Four or five cards of one suit (with the joker or not): flushes and straight flushes.
suited_hands = st.builds(
    lambda suit, ranks, joker: [DECK[(r - 2) * 4 + suit] for r in ranks[: 4 if joker else 5]]
    + ([JOKER] if joker else []),
    st.integers(0, 3), st.lists(st.integers(2, 14), min_size=5, max_size=5, unique=True), st.booleans())
# Ranks close together: straights and near-straights with and without the joker.
straightish = st.builds(
    lambda low, cards: [c for c in cards if c.is_joker or low <= c.rank <= low + 5][:5],
    st.integers(2, 10), st.permutations(DECK)).filter(lambda cs: len(cs) == 5)
any_hand = st.one_of(hands, joker_hands, suited_hands)


@settings(max_examples=400, deadline=None)
@given(hand=any_hand, rules=st.sampled_from(WHEELS))
def test_matches_reference(hand: list[Card], rules: HouseRules) -> None:
    value = evaluate_high(hand, rules)
    cat, ranks, _ = reference(hand, rules.wheel)
    assert (value.category, value.ranks) == (cat, ranks)


@settings(max_examples=300, deadline=None)
@given(a=any_hand, b=st.one_of(any_hand, joker_hands), rules=st.sampled_from(WHEELS))
def test_order_matches_reference(a: list[Card], b: list[Card], rules: HouseRules) -> None:
    assert cmp(reference(a, rules.wheel)[2], reference(b, rules.wheel)[2]) == sign(
        evaluate_high(a, rules).key - evaluate_high(b, rules).key)


@settings(max_examples=100, deadline=None)
@given(hand=straightish, rules=st.sampled_from(WHEELS))
def test_straights_match_reference(hand: list[Card], rules: HouseRules) -> None:
    value = evaluate_high(hand, rules)
    assert (value.category, value.ranks) == reference(hand, rules.wheel)[:2]


@settings(max_examples=200, deadline=None)
@given(data=st.data(), hand=any_hand, rules=st.sampled_from(WHEELS))
def test_independent_of_card_order(data: st.DataObject, hand: list[Card], rules: HouseRules) -> None:
    shuffled = data.draw(st.permutations(hand))
    assert evaluate_high(shuffled, rules) == evaluate_high(hand, rules)
    assert hash(evaluate_high(shuffled, rules)) == hash(evaluate_high(hand, rules))


@settings(max_examples=200, deadline=None)
@given(a=any_hand, b=any_hand, c=any_hand)
def test_order_is_total_and_consistent(a: list[Card], b: list[Card], c: list[Card]) -> None:
    x, y, z = (evaluate_high(h) for h in (a, b, c))
    assert (x < y) + (x == y) + (x > y) == 1
    assert (x <= y) == (x < y or x == y)
    assert (x >= y) == (x > y or x == y)
    if x <= y <= z:
        assert x <= z
    if x == y:
        assert (x.category, x.ranks, x.name) == (y.category, y.ranks, y.name)


def ref_low(a: Card, b: Card) -> tuple[int, ...]:
    ra, rb = sorted((14 if c.is_joker else c.rank for c in (a, b)), reverse=True)
    return (1, ra) if ra == rb else (0, ra, rb)


@settings(max_examples=300, deadline=None)
@given(a=st.lists(st.sampled_from(DECK), min_size=2, max_size=2, unique=True),
       b=st.lists(st.sampled_from(DECK), min_size=2, max_size=2, unique=True))
def test_low_order_matches_reference(a: list[Card], b: list[Card]) -> None:
    ra, rb = ref_low(*a), ref_low(*b)
    va, vb = evaluate_low(a), evaluate_low(b)
    assert ((ra > rb) - (ra < rb)) == sign(va.key - vb.key)
    assert evaluate_low(a[::-1]) == va


def test_low_exhaustive_against_reference() -> None:
    pairs = [(a, b) for i, a in enumerate(DECK) for b in DECK[i + 1:]]
    assert len(pairs) == 1378
    ordered = sorted(pairs, key=lambda p: evaluate_low(p).key)
    refs = [ref_low(*p) for p in ordered]
    assert refs == sorted(refs)
    for p, q in pairwise(ordered):
        assert (ref_low(*p) == ref_low(*q)) == (evaluate_low(p) == evaluate_low(q))
