"""Foxwoods and Bally's Atlantic City against reference models written from their published wording
(docs/rules.md §7a, §7b), on generated hands of every shape; and the rule that no House Way sets a foul.

Like ``test_house_way_shapes`` (Trump Plaza), each model works on ``Card`` values and ``HandValue``s, not
on the engine's indexes and keys, and is written clause by clause from the text, with the decisions of
docs/rules.md where the text is open.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from paigow.rules.cards import DECK, JOKER, Card, card
from paigow.rules.hand_value import HandCategory, evaluate_high, evaluate_low, high_key, low_key
from paigow.rules.house_rules import HouseRules, HouseWayName, WheelRank
from paigow.rules.house_way import (
    BallysClause,
    Clause,
    FoxwoodsClause,
    house_way,
    house_way_clause,
    set_front,
)
from paigow.rules.splits import Split, all_splits, is_foul

from .test_house_way_shapes import (
    SHAPES,
    group,
    rank,
    split_quads,
    straight_or_flush,
    straight_or_flush_hand,
    values,
)

F, B = FoxwoodsClause, BallysClause
Model = Callable[[tuple[Card, ...], HouseRules], tuple[Clause, tuple[Card, ...]]]


def _parts(cards: tuple[Card, ...]) -> tuple[list[list[Card]], list[int], list[Card], list[list[Card]]]:
    groups = group(cards)
    return groups, [len(g) for g in groups], [g[0] for g in groups if len(g) == 1], \
        [g for g in groups if len(g) == 2]


def foxwoods(cards: tuple[Card, ...], rules: HouseRules) -> tuple[Clause, tuple[Card, ...]]:
    """(clause, front) by the Foxwoods text, clause by clause."""
    groups, sizes, singles, pairs = _parts(cards)
    if sizes[0] == 5:  # 11
        kings = [g for g in pairs if rank(g[0]) == 13]
        return F.FIVE_ACES, tuple(kings[0]) if kings else tuple(groups[0][:2])
    if sizes[0] == 4:  # 10
        if sizes[1] >= 2:
            return F.FOUR_OF_A_KIND, tuple(groups[1][:2])
        q, top = rank(groups[0][0]), rank(singles[0])
        together = q <= 6 or (q <= 10 and top >= 13)
        return F.FOUR_OF_A_KIND, (singles[0], singles[1]) if together else \
            split_quads(cards, groups[0], rules)
    if sizes[:2] == [3, 3]:  # 6
        return F.TWO_SETS, tuple(groups[0][:2])
    if sizes[:2] == [3, 2]:  # 9: the highest of the hand's pairs
        return F.FULL_HOUSE, tuple(pairs[0])
    if sizes[:2] != [2, 2]:  # 7 and 8: no pair, one pair, trips
        best = straight_or_flush(cards, rules)
        if best is not None:
            if sizes[0] == 2 and 10 <= rank(pairs[0][0]) <= 13 and rank(singles[0]) == 14:
                ace_front = (singles[0], singles[1])
                if evaluate_low(ace_front) > evaluate_low(best.low):
                    return F.ACE_FRONT_EXCEPTION, ace_front
            return F.STRAIGHT_OR_FLUSH, best.low
    return _trips_and_below(F, cards, _foxwoods_two_pair)


def _foxwoods_two_pair(big: int, small: int, top: int) -> bool:
    """Clause 3, by the big pair: together with an ace for 10s-7s, with a king or ace for 6s-3s."""
    return (7 <= big <= 10 and top == 14) or (big <= 6 and top >= 13)


def _trips_and_below(clauses: type[Clause], cards: tuple[Card, ...], together: Callable[[int, int, int], bool]
                     ) -> tuple[Clause, tuple[Card, ...]]:
    """The clauses both texts word alike (Bally's: "the same as Trump Plaza"): trips (aces: an ace and
    the next card in front), three pair, two pair (``together(big, small, top singleton)``), one pair, no
    pair."""
    groups, sizes, singles, pairs = _parts(cards)
    if sizes[0] == 3:
        trips = groups[0]
        if rank(trips[0]) == 14:
            return clauses["THREE_OF_A_KIND"], (trips[0], singles[0])
        return clauses["THREE_OF_A_KIND"], (singles[0], singles[1])
    if len(pairs) == 3:
        return clauses["THREE_PAIR"], tuple(pairs[0])
    if len(pairs) == 2:
        keep = together(rank(pairs[0][0]), rank(pairs[1][0]), rank(singles[0]))
        return clauses["TWO_PAIR"], (singles[0], singles[1]) if keep else tuple(pairs[1])
    if len(pairs) == 1:
        return clauses["ONE_PAIR"], (singles[0], singles[1])
    return clauses["NO_PAIR"], (singles[1], singles[2])


def _joker_ace_high_only(cards: tuple[Card, ...], rules: HouseRules) -> bool:
    """Bally's clause 8's test: a natural ace and the joker, and every straight / flush back is an ace-high
    straight or straight flush holding both."""
    if JOKER not in cards or not any(c.rank == 14 and not c.is_joker for c in cards):
        return False
    for split in all_splits(cards):
        value = evaluate_high(split.high, rules)
        if value.category < HandCategory.STRAIGHT:
            continue
        ace_high = value.category is HandCategory.ROYAL_FLUSH or (
            value.category in (HandCategory.STRAIGHT, HandCategory.STRAIGHT_FLUSH) and value.ranks == (14,))
        both = JOKER in split.high and any(c.rank == 14 and not c.is_joker for c in split.high)
        if not (ace_high and both):
            return False
    return True


def ballys(cards: tuple[Card, ...], rules: HouseRules) -> tuple[Clause, tuple[Card, ...]]:
    """(clause, front) by the Bally's Atlantic City text, clause by clause."""
    groups, sizes, singles, pairs = _parts(cards)
    if sizes[0] == 5:  # 11
        kings = [g for g in pairs if rank(g[0]) == 13]
        return B.FIVE_ACES, tuple(kings[0]) if kings else tuple(groups[0][:2])
    if sizes[0] == 4:  # 10
        q = rank(groups[0][0])
        if sizes[1] >= 2:
            if q == 14 and rank(groups[1][0]) != 13:
                return B.FOUR_OF_A_KIND, split_quads(cards, groups[0], rules)  # four aces always split
            return B.FOUR_OF_A_KIND, tuple(groups[1][:2])
        top = rank(singles[0])
        together = q <= 9 or (q <= 13 and top == 14)
        return B.FOUR_OF_A_KIND, (singles[0], singles[1]) if together else \
            split_quads(cards, groups[0], rules)
    if sizes[:2] == [3, 3]:  # 6
        return B.TWO_THREE_OF_A_KINDS, tuple(groups[0][:2])
    if sizes[:2] == [3, 2]:  # 9
        if sizes[2] == 1 and rank(pairs[0][0]) == 2 and [rank(s) for s in singles] == [14, 13]:
            return B.FULL_HOUSE, tuple(singles)
        return B.FULL_HOUSE, tuple(pairs[0])
    if sizes[:2] != [2, 2]:  # 7 and 8
        best = straight_or_flush(cards, rules)
        if best is not None:
            if _joker_ace_high_only(cards, rules):
                aces = groups[0]  # one pair (the ace and the joker) or three aces
                return B.JOKER_STRAIGHT_EXCEPTION, (aces[0], singles[0]) if len(aces) == 3 else \
                    (singles[0], singles[1])
            return B.STRAIGHT_OR_FLUSH, best.low
    return _trips_and_below(B, cards, _trump_plaza_two_pair)


def _trump_plaza_two_pair(big: int, small: int, top: int) -> bool:
    """Bally's clause 3 (Trump Plaza's groups): low 2-6, medium 7-10, high J-K, aces."""
    grade = [0 if r <= 6 else 1 if r <= 10 else 2 if r <= 13 else 3 for r in (big, small)]
    if grade[0] == 3 or grade in ([2, 1], [2, 2]):
        return False
    if grade[0] == 2 or grade == [1, 1]:
        return top == 14
    return top >= 13


WAYS: dict[str, tuple[HouseWayName, Model]] = {
    "foxwoods": (HouseWayName.FOXWOODS, foxwoods), "ballys": (HouseWayName.BALLYS_AC, ballys)}
WHEELS = [WheelRank.SECOND, WheelRank.LOW]


def agrees(cards: tuple[Card, ...], rules: HouseRules, model: Model) -> Clause:
    """house_way against the model (by hand values: suits never matter); never a foul."""
    split = house_way(cards, rules)
    assert sorted(split.cards) == sorted(cards), f"{split} is not the seven cards {cards}"
    assert not is_foul(split, rules), f"{rules.house_way} fouled: {split}"
    clause, front = model(cards, rules)
    expected = Split(tuple(c for c in cards if c not in front), front)
    assert house_way_clause(cards, rules) is clause, cards
    assert values(split, rules) == values(expected, rules), f"{cards}: got {split}, model {expected}"
    got, i, j = set_front([c.index for c in cards], rules)
    assert got is clause
    assert {i, j} == {c.index for c in split.low}
    return clause


@st.composite
def pair_and_ace_with_straight(draw: st.DrawFn) -> tuple[Card, ...]:
    """Foxwoods clause 8's ground: a pair of 10s-kings, an ace (or the joker) and a straight or flush."""
    p = draw(st.integers(10, 13))
    suit = draw(st.sampled_from("cdhs"))
    if draw(st.booleans()):  # a straight through p
        top = draw(st.integers(p, 14))
        core = [card(r, draw(st.sampled_from("cdhs"))) for r in range(top - 4, top + 1)]
    else:  # a flush holding p
        others = draw(st.lists(st.integers(2, 14).filter(lambda r: r != p), min_size=4, max_size=4,
                               unique=True))
        core = [card(r, suit) for r in [p, *others]]
    extra = [card(p, draw(st.sampled_from("cdhs"))), JOKER if draw(st.booleans()) else card(14, suit)]
    cards = core + extra
    assume(len(set(cards)) == 7)
    return tuple(draw(st.permutations(cards)))


@st.composite
def ace_joker_broadway(draw: st.DrawFn) -> tuple[Card, ...]:
    """Bally's clause 8's ground: a natural ace, the joker, three of K Q J T, and two cards more."""
    ace = card(14, draw(st.sampled_from("cdhs")))
    middle = draw(st.lists(st.integers(10, 13), min_size=3, max_size=3, unique=True))
    core = [ace, JOKER, *[card(r, draw(st.sampled_from("cdhs"))) for r in middle]]
    rest = [c for c in DECK if c not in core]
    extra = draw(st.lists(st.sampled_from(rest), min_size=2, max_size=2, unique=True))
    return tuple(draw(st.permutations(core + extra)))


STRATEGIES = {name: strategy for name, (strategy, _) in SHAPES.items()}
STRATEGIES["four aces + pair"] = st.integers(2, 13).map(
    lambda r: (*[card(14, x) for x in "cdhs"], card(r, "c"), card(r, "d"), card(3 if r == 2 else 2, "h")))
STRATEGIES["pair, ace and straight or flush"] = pair_and_ace_with_straight()
STRATEGIES["ace, joker and broadway cards"] = ace_joker_broadway()
STRATEGIES["straight or flush"] = straight_or_flush_hand()


@pytest.mark.parametrize("shape", sorted(STRATEGIES))
@pytest.mark.parametrize("way", sorted(WAYS))
def test_each_shape_agrees_with_the_model(way: str, shape: str) -> None:
    name, model = WAYS[way]

    @settings(max_examples=30, deadline=None)
    @given(STRATEGIES[shape], st.sampled_from(WHEELS))
    def run(cards: tuple[Card, ...], wheel: WheelRank) -> None:
        agrees(cards, HouseRules(house_way=name, wheel=wheel), model)

    run()


@pytest.mark.parametrize("way", sorted(WAYS))
def test_many_random_hands_agree_and_reach_every_clause(way: str) -> None:
    """A fixed sample of random hands (deterministic), plus the generated exception hands."""
    name, model = WAYS[way]
    rules = HouseRules(house_way=name)
    rng = random.Random(20261130)
    seen = {agrees(tuple(DECK[i] for i in rng.sample(range(53), 7)), rules, model) for _ in range(2000)}
    assert seen >= {c for c in type(next(iter(seen))) if c.name not in (
        "FIVE_ACES", "ACE_FRONT_EXCEPTION", "JOKER_STRAIGHT_EXCEPTION")}


@pytest.mark.parametrize("way", list(HouseWayName))
@pytest.mark.parametrize("wheel", WHEELS)
def test_no_house_way_sets_a_foul(way: HouseWayName, wheel: WheelRank) -> None:
    """20,000 random hands per way and wheel setting, by the fast layer: the back outranks the front."""
    rules = HouseRules(house_way=way, wheel=wheel)
    rng = random.Random(f"no-foul:{way}:{wheel}")
    for _ in range(20_000):
        hand = rng.sample(range(53), 7)
        _, i, j = set_front(hand, rules)
        back = [c for c in hand if c != i and c != j]
        assert len(back) == 5
        split = Split(tuple(DECK[c] for c in back), (DECK[i], DECK[j]))
        assert not is_foul(split, rules), (way, split, hex(high_key(back, rules)), hex(low_key(i, j)))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(DECK), min_size=7, max_size=7, unique=True))
def test_ballys_is_trump_plaza_outside_its_exceptions(cards: list[Card]) -> None:
    """"The same as Trump Plaza ... except": quads, and the ace-and-joker straights, are Bally's own."""
    hand = tuple(cards)
    groups = [len(g) for g in group(hand)]
    ballys_rules = HouseRules(house_way=HouseWayName.BALLYS_AC)
    if groups[0] == 4 or house_way_clause(hand, ballys_rules) is B.JOKER_STRAIGHT_EXCEPTION:
        return
    assert values(house_way(hand, ballys_rules), ballys_rules) == values(house_way(hand), ballys_rules)
    assert house_way_clause(hand, ballys_rules).name.replace("TWO_THREE_OF_A_KINDS", "FULL_HOUSE") \
        == house_way_clause(hand).name
