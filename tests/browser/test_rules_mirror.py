"""The browser's hand evaluator (client_web/js/hand_eval.js) agrees with ``paigow.rules``: names, categories,
order (ties included) under both wheel rules, low hands, and the foul verdict of every split."""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from playwright.sync_api import Page

from paigow.rules import (
    DECK,
    HandCategory,
    HouseRules,
    WheelRank,
    all_splits,
    evaluate_high,
    evaluate_low,
    is_foul,
    parse_cards,
)
from paigow.rules.cards import Card

pytestmark = pytest.mark.browser

SPECIAL_HIGH = [
    "As Ad Ah Ac JK", "As Ks Qs Js Ts", "JK Ks Qs Js Ts", "As JK Qs Js Ts", "Ah Qh 9h 5h JK",
    "As 2d 3h 4c 5s", "JK 2d 3h 4c 5s", "As 2s 3s 4s 5s", "JK 2s 3s 4s 5s", "9c Tc Jd Qh JK",
    "Kc Kd Kh JK 2c", "Kc Kd Kh JK Ks", "Ac Ad Ah JK Kc", "Ac Ad JK Kc Kd", "2c 3d 4h 5s 6c",
    "JK 3d 4h 5s 6c", "Ac Kc Qc Jc JK", "2h 3h 4h 6h JK", "Ah Kh Qh Jh 9h", "JK Ah Kh Qh Jh",
    "7c 7d 2h 2s 9c", "JK 7d 7h 2s 2c", "JK 2d 5h 9s Kc", "As Ks Qd Jh 9c",
]
SPECIAL_LOW = ["As Ad", "JK Ac", "JK 4d", "Kc Qd", "2c 3d", "7h 7s", "JK Kd"]


def _random_hands(n: int, size: int, seed: int) -> list[tuple[Card, ...]]:
    rng = random.Random(seed)
    return [tuple(rng.sample(DECK, size)) for _ in range(n)]


def _js_eval(page: Page, hands: list[list[str]], wheel: str, low: bool) -> list[dict[str, object]]:
    result: list[dict[str, object]] = page.evaluate(
        """async ([hands, wheel, low]) => {
            const c = await import('/js/cards.js');
            const h = await import('/js/hand_eval.js');
            const values = hands.map((t) => low ? h.evaluateLow(t.map(c.parseCard))
                                             : h.evaluateHigh(t.map(c.parseCard), wheel));
            const order = values.slice(1).map((v, i) => Math.sign(h.compareValues(values[i], v)));
            return values.map((v, i) => ({name: v.name, category: v.category, order: i ? order[i - 1] : 0}));
        }""",
        [hands, wheel, low],
    )
    return result


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


@pytest.mark.parametrize("wheel", [WheelRank.SECOND, WheelRank.LOW])
def test_high_hands_named_and_ordered_like_python(module_page: Page, wheel: WheelRank) -> None:
    rules = HouseRules(wheel=wheel)
    hands = [parse_cards(t) for t in SPECIAL_HIGH] + _random_hands(1500, 5, seed=5)
    # Straights and flushes are rare in random hands: add every hand of a joker-rich 9-card pool.
    hands += list(combinations(parse_cards("JK As 2s 3s 4s 5d Ks Qs Ts"), 5))
    js = _js_eval(module_page, [[str(c) for c in h] for h in hands], wheel.value, low=False)
    py = [evaluate_high(h, rules) for h in hands]
    assert [v["name"] for v in js] == [v.name for v in py]
    assert [v["category"] for v in js] == [int(v.category) for v in py]
    py_order = [0] + [_sign(py[i].key - py[i + 1].key) for i in range(len(py) - 1)]
    assert [v["order"] for v in js] == py_order
    assert {v.category for v in py} == set(HandCategory)  # every category was exercised


def test_low_hands_named_and_ordered_like_python(module_page: Page) -> None:
    hands = [parse_cards(t) for t in SPECIAL_LOW] + _random_hands(400, 2, seed=7)
    js = _js_eval(module_page, [[str(c) for c in h] for h in hands], "second", low=True)
    py = [evaluate_low(h) for h in hands]
    assert [v["name"] for v in js] == [v.name for v in py]
    py_order = [0] + [_sign(py[i].key - py[i + 1].key) for i in range(len(py) - 1)]
    assert [v["order"] for v in js] == py_order


@pytest.mark.parametrize("wheel", [WheelRank.SECOND, WheelRank.LOW])
def test_foul_verdicts_match_python_for_every_split(module_page: Page, wheel: WheelRank) -> None:
    rules = HouseRules(wheel=wheel)
    sevens = [*_random_hands(150, 7, seed=11), parse_cards("JK Ac 2d 3h 4s 9c 9d"),
              parse_cards("Kc Qd 9h 7s 5c 3d 2h")]
    splits = [s for seven in sevens for s in all_splits(seven)]
    verdicts: list[bool] = module_page.evaluate(
        """async ([splits, wheel]) => {
            const c = await import('/js/cards.js');
            const h = await import('/js/hand_eval.js');
            return splits.map(([hi, lo]) => h.isFoul(hi.map(c.parseCard), lo.map(c.parseCard), wheel));
        }""",
        [[[[str(c) for c in s.high], [str(c) for c in s.low]] for s in splits], wheel.value],
    )
    expected = [is_foul(s, rules) for s in splits]
    assert verdicts == expected
    assert 0 < sum(expected) < len(expected)
