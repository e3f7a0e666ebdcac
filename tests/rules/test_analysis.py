"""paigow.rules.analysis: Monte Carlo against the exact figures kept in data/analysis_exact.json (made by
``python tests/rules/data/make_analysis_exact.py``, i.e. ``paigow analyze --exact --json`` per hand), the
comparison against ``showdown``, the best and House Way splits, standard errors and seeds."""

from __future__ import annotations

import json
import math
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from paigow.rules.analysis import (
    DEALER_HANDS,
    DEFAULT_SAMPLES,
    MIN_SAMPLES,
    SAMPLE_CHUNK,
    TARGET_EV_SE,
    Analysis,
    analysis_of_classes,
    analyze,
    analyze_exact,
)
from paigow.rules.cards import DECK, InvalidCardError, card_from_text, parse_cards
from paigow.rules.dealer_hands import class_key
from paigow.rules.house_rules import HouseRules, HouseWayName
from paigow.rules.house_way import house_way, set_front
from paigow.rules.showdown import Outcome, resolve
from paigow.rules.splits import Split, legal_splits

DATA = json.loads((Path(__file__).parent / "data" / "analysis_exact.json").read_text())
HANDS: list[dict[str, Any]] = DATA["hands"]
MC_SAMPLES = 40_000


def cards_of(texts: list[str]) -> list[Any]:
    return [card_from_text(t) for t in texts]


def split_of(entry: dict[str, Any]) -> Split:
    return Split(tuple(cards_of(entry["high"])), tuple(cards_of(entry["low"])))


def rules_of(hand: dict[str, Any]) -> HouseRules:
    return HouseRules(house_way=HouseWayName(hand["rules"]["house_way"]))


def test_the_kept_data_covers_every_shape_with_and_without_the_joker() -> None:
    shapes = {h["shape"] for h in HANDS}
    for shape in ("no pair", "one pair", "two pair", "three pair", "trips", "straight", "flush",
                  "full house", "quads"):
        assert shape in shapes
        assert f"{shape}, joker" in shapes
    assert {h["rules"]["house_way"] for h in HANDS} == set(HouseWayName)
    for hand in HANDS:
        assert hand["exact"] is True
        assert hand["samples"] == DEALER_HANDS
        assert hand["seed"] is None


@pytest.mark.parametrize("hand", HANDS, ids=lambda h: f"{h['shape']}-{h['rules']['house_way']}")
def test_monte_carlo_agrees_with_the_exact_figures(hand: dict[str, Any]) -> None:
    """Every split's EV within 4.5 standard errors of the exact one, and each rate within 4.5 of its
    binomial standard error (seeded: the same draw every run)."""
    cards = cards_of(hand["cards"])
    mc = analyze(cards, rules_of(hand), samples=MC_SAMPLES, seed=f"test-{hand['cards']}")
    assert mc.samples == MC_SAMPLES
    assert len(mc.splits) == len(hand["splits"])
    for odds, exact in zip(mc.splits, hand["splits"], strict=True):
        assert odds.split == split_of(exact)
        assert 0 < odds.ev_se <= 0.975 / math.sqrt(MC_SAMPLES - 1)
        assert abs(odds.ev - exact["ev"]) <= 4.5 * odds.ev_se + 1e-12, odds.split
        for rate in ("win", "push", "loss"):
            p = exact[rate]
            assert abs(getattr(odds, rate) - p) <= 4.5 * math.sqrt(p * (1 - p) / MC_SAMPLES) + 1e-12


@pytest.mark.parametrize("index", [13, 22])
def test_the_kept_exact_figures_are_what_the_code_computes(index: int) -> None:
    hand = HANDS[index]
    exact = analyze_exact(cards_of(hand["cards"]), rules_of(hand))
    assert exact.exact
    assert exact.samples == DEALER_HANDS
    assert exact.seed is None
    for odds, kept in zip(exact.splits, hand["splits"], strict=True):
        assert odds.split == split_of(kept)
        assert odds.hands == DEALER_HANDS
        assert odds.ev_se == 0.0
        for name in ("win", "push", "loss", "ev"):
            assert math.isclose(getattr(odds, name), kept[name], rel_tol=1e-12, abs_tol=1e-15)
    assert exact.best.split == split_of(hand["best"])
    assert exact.house_way.split == split_of(hand["house_way"])


@pytest.mark.parametrize("hand", HANDS, ids=lambda h: f"{h['shape']}-{h['rules']['house_way']}")
def test_best_is_the_highest_ev_and_house_way_is_the_house_way(hand: dict[str, Any]) -> None:
    cards = cards_of(hand["cards"])
    rules = rules_of(hand)
    assert hand["best"]["ev"] == max(s["ev"] for s in hand["splits"])
    assert split_of(hand["house_way"]) == house_way(cards, rules)
    assert len(hand["splits"]) == len(legal_splits(cards, rules))
    mc = analyze(cards, rules, samples=5_000, seed=1)
    assert mc.best.ev == max(o.ev for o in mc.splits)
    assert mc.house_way.split == house_way(cards, rules)
    assert mc.odds_of(house_way(cards, rules)) is mc.house_way


def test_a_tie_for_best_goes_to_the_house_way() -> None:
    # 7-7 with suits that never matter: the two sevens' splits are alike, so some EVs tie exactly.
    cards = parse_cards("7s 7d Kh Qc 9d 4s 2h")
    result = analyze(cards, samples=20_000, seed=3)
    assert result.best.ev == max(o.ev for o in result.splits)
    if result.house_way.ev == result.best.ev:
        assert result.best is result.house_way


def test_the_comparison_is_the_showdowns() -> None:
    """Counting a few hundred dealer hands by class gives each split the outcomes ``resolve`` gives it
    against each of those hands set by the House Way."""
    rng = random.Random(9)
    for text in ("As Kd Qh JK 9c 5d 2s", "8s 8d 8h Kc Kd 4s 2h", "Ah Jh 8h 5h 3h Kc 9d"):
        cards = parse_cards(text)
        rules = HouseRules()
        rest = [i for i in range(53) if i not in {c.index for c in cards}]
        dealers = [rng.sample(rest, 7) for _ in range(400)]
        result = analysis_of_classes(cards, rules, Counter(class_key(d) for d in dealers), exact=False,
                                     seed=None)
        for odds in result.splits:
            outcomes: Counter[Outcome] = Counter()
            for d in dealers:
                _, i, j = set_front(d, rules)
                dealer = Split(tuple(DECK[x] for x in d if x not in (i, j)), (DECK[i], DECK[j]))
                outcomes[resolve(odds.split, dealer, rules)] += 1
            assert (odds.wins, odds.pushes, odds.losses) == (
                outcomes[Outcome.WIN], outcomes[Outcome.PUSH], outcomes[Outcome.LOSS])


def test_standard_errors_shrink_with_samples() -> None:
    cards = parse_cards("Js Jd 4h 4c Ad 9s 2h")
    small = analyze(cards, samples=10_000, seed=4)
    large = analyze(cards, samples=40_000, seed=4)
    for a, b in zip(small.splits, large.splits, strict=True):
        assert b.ev_se < a.ev_se
        assert 0.4 < b.ev_se / a.ev_se < 0.6  # about 1 / sqrt(4)


def test_by_default_every_standard_error_is_at_most_0_003() -> None:
    # A result is -1, 0 or 0.95: its variance is at most 0.950625, so the most it draws always get there.
    assert math.sqrt(0.950625 / (DEFAULT_SAMPLES - 1)) <= TARGET_EV_SE == 0.003
    for text in ("As Kd Qh 9c 7d 5s 2h", "Qs Qd Qh 6c 6d As 3h"):
        cards = parse_cards(text)
        result = analyze(cards, seed=8)
        assert max(o.ev_se for o in result.splits) <= 0.003
        assert MIN_SAMPLES <= result.samples <= DEFAULT_SAMPLES
        assert (result.samples - MIN_SAMPLES) % SAMPLE_CHUNK == 0
        # It stopped at the first draw that met the target, and is that fixed-size draw exactly.
        fewer = analyze(cards, samples=result.samples - SAMPLE_CHUNK, seed=8)
        assert result.samples == MIN_SAMPLES or max(o.ev_se for o in fewer.splits) > 0.003
        same = analyze(cards, samples=result.samples, seed=8)
        assert [(o.wins, o.pushes, o.losses) for o in same.splits] == [
            (o.wins, o.pushes, o.losses) for o in result.splits]


def test_a_seed_repeats_the_analysis() -> None:
    cards = parse_cards("Ks Kd 8h 8c 5d 5s 2h")

    def figures(a: Analysis) -> list[tuple[int, int, int]]:
        return [(o.wins, o.pushes, o.losses) for o in a.splits]

    assert figures(analyze(cards, samples=3_000, seed=12)) == figures(analyze(cards, samples=3_000, seed=12))
    assert figures(analyze(cards, samples=3_000, seed=12)) != figures(analyze(cards, samples=3_000, seed=13))
    assert analyze(cards, samples=3_000, seed=12).seed == 12


def test_ev_uses_the_commission_unrounded() -> None:
    result = analyze(parse_cards("9s 9d 9h 9c Ad Ks 2h"), samples=2_000, seed=1)
    for o in result.splits:
        assert math.isclose(o.ev, 0.95 * o.win - o.loss)
        assert o.wins + o.pushes + o.losses == 2_000
    free = analyze(parse_cards("9s 9d 9h 9c Ad Ks 2h"), HouseRules(commission_bps=0), samples=2_000, seed=1)
    assert all(math.isclose(o.ev, o.win - o.loss) for o in free.splits)


@pytest.mark.parametrize(("text", "message"), [
    ("As Kd Qh JK 9c 5d", "7 cards, not 6"),
    ("As Kd Qh JK 9c 5d 5d", "duplicate card 5d"),
])
def test_bad_cards_are_refused(text: str, message: str) -> None:
    cards = parse_cards(text) if "5d 5d" not in text else tuple(cards_of(text.split()))
    with pytest.raises(InvalidCardError, match=message):
        analyze(cards, samples=10, seed=1)
    with pytest.raises(InvalidCardError, match=message):
        analyze_exact(cards)


@pytest.mark.parametrize("samples", [1, 0, -5])
def test_too_few_samples_are_refused(samples: int) -> None:
    with pytest.raises(ValueError, match="samples must be a whole number of at least 2"):
        analyze(parse_cards("As Kd Qh JK 9c 5d 2s"), samples=samples, seed=1)
