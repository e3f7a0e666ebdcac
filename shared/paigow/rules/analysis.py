"""How well each legal split of seven cards does against a house dealer who sets by the House Way.

The dealer's seven cards are any seven of the 46 cards the player does not hold (the other seats' cards
are unknown). High hand against high hand, low against low, copies to the banker (the dealer), as in
``showdown``: both hands won is a win, one won a push, none a loss. For each split that is not foul
(``splits.legal_splits``) the analysis gives the probability of a win, a push and a loss and the expected
value per unit bet, ``(1 - commission) * P(win) - P(loss)``: ``0.95 * P(win) - P(loss)`` with the 5%
commission unrounded (``rules.commission_bps``), with its standard error.

* ``analyze(cards7, rules, samples=N, seed=S)``: Monte Carlo. ``N`` dealer hands drawn independently
  (each seven distinct cards of the 46) from ``random.Random(S)``: an estimate, not play, so a seeded
  generator makes every run repeatable (play shuffles from ``secrets`` through ``paigow.fair``). Every
  split is compared with the same dealer hands, so the differences between splits are precise. Without
  ``samples`` it draws 30,000 dealer hands, then 10,000 more at a time until every split's ``ev_se`` is at
  most 0.003 (``TARGET_EV_SE``): a result is -1, 0 or 0.95, whose variance is at most 0.9506 whatever the
  odds, so 110,000 (``DEFAULT_SAMPLES``, the most it draws) always get there; most hands need 50,000 to
  80,000. The draws are one stream: the result is the same as ``samples=`` the number drawn.
* ``analyze_exact(cards7, rules)``: all C(46, 7) = 53,524,680 dealer hands, each counted once (by class,
  ``dealer_hands.exact_classes``), ``ev_se`` 0.

Both set each class of dealer hands once by the House Way (``dealer_hands``) and compare every split's
keys against the dealer's (``hand_value``'s int keys: larger is better, equal is a copy), the comparison
``showdown`` makes (the tests check the two agree).
"""

from __future__ import annotations

import math
import random
from bisect import bisect_left
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import accumulate

from .cards import Card
from .dealer_hands import dealer_keys, exact_classes, sample_classes
from .house_rules import DEFAULT_RULES, HouseRules
from .house_way import house_way
from .splits import Split, legal_splits, split_keys

__all__ = [
    "DEALER_HANDS",
    "DEFAULT_SAMPLES",
    "MIN_SAMPLES",
    "SAMPLE_CHUNK",
    "TARGET_EV_SE",
    "Analysis",
    "SplitOdds",
    "analysis_of_classes",
    "analyze",
    "analyze_exact",
]

TARGET_EV_SE = 0.003
"""By default a Monte Carlo draws dealer hands until every split's ``ev_se`` is at most this."""
MIN_SAMPLES, SAMPLE_CHUNK = 30_000, 10_000
"""By default: the first draw, and each further one until the target is met."""
DEFAULT_SAMPLES = 110_000
"""The most dealer hands a default Monte Carlo draws: ``ev_se`` <= sqrt(0.950625 / 109,999) = 0.00294 for
every split of every hand, so the target is always met by then."""
DEALER_HANDS = math.comb(46, 7)
"""The dealer hands an exact analysis counts: 53,524,680."""


@dataclass(frozen=True, slots=True)
class SplitOdds:
    """One split's results over ``hands`` dealer hands (counts; exact or sampled) and its figures."""

    split: Split
    wins: int
    pushes: int
    losses: int
    paid: float
    """What a win pays per unit bet after the commission (0.95)."""
    exact: bool

    @property
    def hands(self) -> int:
        return self.wins + self.pushes + self.losses

    @property
    def win(self) -> float:
        return self.wins / self.hands

    @property
    def push(self) -> float:
        return self.pushes / self.hands

    @property
    def loss(self) -> float:
        return self.losses / self.hands

    @property
    def ev(self) -> float:
        """Expected value per unit bet: ``paid * P(win) - P(loss)``."""
        return (self.paid * self.wins - self.losses) / self.hands

    @property
    def ev_se(self) -> float:
        """Standard error of ``ev`` (0 when exact): the sample standard deviation over sqrt(hands)."""
        n = self.hands
        if self.exact or n < 2:
            return 0.0
        second = (self.paid * self.paid * self.wins + self.losses) / n
        return math.sqrt(max(second - self.ev * self.ev, 0.0) / (n - 1))


@dataclass(frozen=True, slots=True)
class Analysis:
    """Every legal split's odds (in ``legal_splits`` order), the best and the House Way's."""

    cards: tuple[Card, ...]
    rules: HouseRules
    splits: tuple[SplitOdds, ...]
    best: SplitOdds
    """The highest ``ev``; among equal ones the House Way's split, else the first."""
    house_way: SplitOdds
    samples: int
    """Dealer hands compared: the sample size, or 53,524,680 when exact."""
    exact: bool
    seed: int | str | None
    """The Monte Carlo seed (None when exact)."""

    def odds_of(self, split: Split) -> SplitOdds | None:
        """The odds of ``split`` (any card order), or None when it is not a legal split of these cards."""
        return next((o for o in self.splits if o.split == split), None)


def _dealer_table(classes: Mapping[int, int], rules: HouseRules
                  ) -> list[tuple[int, list[int], list[int]]]:
    """The dealer hands by the dealer's low key: ``(low_key, sorted high keys, running totals of hands)``
    (``totals[k]``: the hands with one of the first k high keys)."""
    keys = dealer_keys(classes, rules)
    by_low: dict[int, dict[int, int]] = {}
    for key, hands in classes.items():
        high, low = keys[key]
        highs = by_low.setdefault(low, {})
        highs[high] = highs.get(high, 0) + hands
    table = []
    for low, highs in by_low.items():
        ordered = sorted(highs)
        table.append((low, ordered, [0, *accumulate(highs[h] for h in ordered)]))
    return table


def _counts(table: list[tuple[int, list[int], list[int]]], high: int, low: int) -> tuple[int, int, int]:
    """``(wins, pushes, losses)`` of a split with these keys: a hand is won only by outranking the
    dealer's (a copy goes to the banker)."""
    wins = losses = total = 0
    for dealer_low, highs, totals in table:
        all_hands = totals[-1]
        beaten = totals[bisect_left(highs, high)]  # dealer high keys below the player's
        total += all_hands
        if dealer_low < low:
            wins += beaten
        else:
            losses += all_hands - beaten
    return wins, total - wins - losses, losses


def _odds(splits: Sequence[Split], classes: Mapping[int, int], rules: HouseRules, exact: bool
          ) -> list[SplitOdds]:
    table = _dealer_table(classes, rules)
    paid = 1.0 - rules.commission_bps / 10_000
    return [SplitOdds(s, *_counts(table, *split_keys(s, rules)), paid, exact) for s in splits]


def _analysis(cards: Sequence[Card], rules: HouseRules, odds: Sequence[SplitOdds], exact: bool,
              seed: int | str | None) -> Analysis:
    house = house_way(cards, rules)
    house_odds = next(o for o in odds if o.split == house)
    won = 10_000 - rules.commission_bps
    score = {id(o): won * o.wins - 10_000 * o.losses for o in odds}  # exact integers: ties are ties
    top = max(score.values())
    best = house_odds if score[id(house_odds)] == top else next(o for o in odds if score[id(o)] == top)
    return Analysis(tuple(cards), rules, tuple(odds), best, house_odds, odds[0].hands, exact, seed)


def analysis_of_classes(cards: Sequence[Card], rules: HouseRules, classes: Mapping[int, int], *,
                        exact: bool, seed: int | str | None) -> Analysis:
    """The analysis of seven cards against dealer hands counted by class (``dealer_hands``)."""
    return _analysis(cards, rules, _odds(legal_splits(cards, rules), classes, rules, exact), exact, seed)


def _until_target(cards: Sequence[Card], rules: HouseRules, available: list[int], rng: random.Random
                  ) -> list[SplitOdds]:
    """Draw ``MIN_SAMPLES`` dealer hands, then ``SAMPLE_CHUNK`` more at a time until every split's
    ``ev_se`` is at most ``TARGET_EV_SE`` (``DEFAULT_SAMPLES`` always gets there)."""
    splits = legal_splits(cards, rules)
    odds = _odds(splits, sample_classes(available, MIN_SAMPLES, rng), rules, False)
    while odds[0].hands < DEFAULT_SAMPLES and max(o.ev_se for o in odds) > TARGET_EV_SE:
        size = min(SAMPLE_CHUNK, DEFAULT_SAMPLES - odds[0].hands)
        more = _odds(splits, sample_classes(available, size, rng), rules, False)
        odds = [SplitOdds(a.split, a.wins + b.wins, a.pushes + b.pushes, a.losses + b.losses, a.paid, False)
                for a, b in zip(odds, more, strict=True)]
    return odds


def _available(cards: Sequence[Card], rules: HouseRules) -> list[int]:
    legal_splits(cards, rules)  # seven distinct cards, or InvalidCardError naming what is wrong
    held = {c.index for c in cards}
    return [i for i in range(53) if i not in held]


def analyze(cards7: Sequence[Card], rules: HouseRules = DEFAULT_RULES, *, samples: int | None = None,
            seed: int | str) -> Analysis:
    """Monte Carlo over dealer hands drawn from ``random.Random(seed)`` (see the module doc): ``samples``
    of them, or by default as many as every split's ``ev_se`` needs to be at most 0.003.

    Raises ``InvalidCardError`` (a ``ValueError``) unless ``cards7`` is seven distinct cards, and
    ``ValueError`` when ``samples`` is below 2 (no standard error)."""
    if samples is not None and (type(samples) is not int or samples < 2):
        raise ValueError(f"samples must be a whole number of at least 2, not {samples!r}")
    available = _available(cards7, rules)
    rng = random.Random(seed)
    if samples is None:
        return _analysis(cards7, rules, _until_target(cards7, rules, available, rng), False, seed)
    return analysis_of_classes(cards7, rules, sample_classes(available, samples, rng), exact=False, seed=seed)


def analyze_exact(cards7: Sequence[Card], rules: HouseRules = DEFAULT_RULES) -> Analysis:
    """Every one of the 53,524,680 dealer hands, counted by class; ``ev_se`` is 0."""
    classes = exact_classes(_available(cards7, rules))
    return analysis_of_classes(cards7, rules, classes, exact=True, seed=None)
