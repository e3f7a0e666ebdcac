"""paigow.rules.dealer_hands: every hand of a class is set alike, and the counts match brute force."""

from __future__ import annotations

import math
import random
from collections import Counter
from itertools import combinations

import pytest

from paigow.rules.dealer_hands import canonical_hand, class_key, dealer_keys, exact_classes, sample_classes
from paigow.rules.hand_value import high_key, low_key
from paigow.rules.house_rules import HouseRules, HouseWayName, WheelRank
from paigow.rules.house_way import set_front

ALL_RULES = [HouseRules(house_way=way, wheel=wheel) for way in HouseWayName for wheel in WheelRank]


def set_directly(hand: list[int], rules: HouseRules) -> tuple[int, int]:
    """The House Way's (high key, low key) of this very hand."""
    _, i, j = set_front(hand, rules)
    return high_key([c for c in hand if c not in (i, j)], rules), low_key(i, j)


@pytest.mark.parametrize("rules", ALL_RULES, ids=lambda r: f"{r.house_way}-{r.wheel}")
def test_a_class_is_set_as_each_of_its_hands(rules: HouseRules) -> None:
    rng = random.Random(f"classes-{rules.house_way}-{rules.wheel}")
    hands = [rng.sample(range(53), 7) for _ in range(4000)]
    # Hands that can make a flush are rare at random: add some with five or six of a suit, joker or not.
    for _ in range(2000):
        suit = rng.randrange(4)
        suited = rng.sample([r * 4 + suit for r in range(13)], rng.choice((4, 5, 6)))
        rest = [c for c in range(53) if c not in suited]
        hands.append(suited + rng.sample(rest, 7 - len(suited)))
    keys = dealer_keys({class_key(h) for h in hands}, rules)
    for hand in hands:
        assert keys[class_key(hand)] == set_directly(hand, rules), hand


def test_canonical_hands_are_of_their_class() -> None:
    rng = random.Random(5)
    for _ in range(3000):
        key = class_key(rng.sample(range(53), 7))
        hand = canonical_hand(key)
        assert len(set(hand)) == 7
        assert class_key(hand) == key


def brute_counts(available: list[int], rules: HouseRules) -> Counter[tuple[int, int]]:
    return Counter(set_directly(list(h), rules) for h in combinations(available, 7))


def class_counts(available: list[int], rules: HouseRules) -> Counter[tuple[int, int]]:
    classes = exact_classes(available)
    assert all(n > 0 for n in classes.values())
    keys = dealer_keys(classes, rules)
    counts: Counter[tuple[int, int]] = Counter()
    for key, n in classes.items():
        counts[keys[key]] += n
    return counts


@pytest.mark.parametrize("deck", ["random", "random-joker", "clubs", "clubs-joker", "two-suits"])
def test_exact_counts_match_brute_force_on_small_decks(deck: str) -> None:
    rng = random.Random(deck)
    if deck.startswith("random"):
        available = rng.sample(range(52), 15) + ([52] if deck.endswith("joker") else [])
    elif deck.startswith("clubs"):  # flushes everywhere
        available = [r * 4 for r in range(13)] + [5, 9] + ([52] if deck.endswith("joker") else [])
    else:
        available = [r * 4 for r in range(0, 13, 2)] + [r * 4 + 3 for r in range(1, 13, 2)] + [52]
    rules = HouseRules(house_way=rng.choice(list(HouseWayName)))
    assert class_counts(available, rules) == brute_counts(available, rules)


def test_exact_classes_count_every_dealer_hand_of_46_cards() -> None:
    held = {48, 45, 42, 52, 31, 13, 0}  # As Kd Qh JK 9s 5d 2c
    classes = exact_classes([i for i in range(53) if i not in held])
    assert sum(classes.values()) == math.comb(46, 7) == 53_524_680
    assert min(classes.values()) > 0


def test_samples_are_counted_by_class_and_repeat_with_the_seed() -> None:
    available = list(range(7, 53))
    counts = sample_classes(available, 5000, random.Random(1))
    assert sum(counts.values()) == 5000
    assert counts == sample_classes(available, 5000, random.Random(1))
    assert counts != sample_classes(available, 5000, random.Random(2))
    with pytest.raises(ValueError, match="only 6 are left"):
        sample_classes(available[:6], 10, random.Random(1))


def test_samples_are_uniform_over_the_classes() -> None:
    """Sampled frequencies of the commonest classes sit near their exact shares (4.5 standard errors;
    seeded, so this never flickers)."""
    available = list(range(7, 53))
    n = 200_000
    counts = sample_classes(available, n, random.Random("uniform"))
    exact = exact_classes(available)
    assert set(counts) <= set(exact)
    total = sum(exact.values())
    for key, hands in sorted(exact.items(), key=lambda kv: -kv[1])[:50]:
        p = hands / total
        assert abs(counts.get(key, 0) / n - p) <= 4.5 * math.sqrt(p * (1 - p) / n), key
