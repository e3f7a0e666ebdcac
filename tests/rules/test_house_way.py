"""The House Way: every example of RULES.md, then each clause with hand-built examples (joker cases too)."""

from __future__ import annotations

import pytest

from paigow.rules.cards import DECK, Card, parse_cards
from paigow.rules.house_rules import DEFAULT_RULES, HouseRules
from paigow.rules.house_way import HouseWayClause, house_way, house_way_clause
from paigow.rules.splits import Split, is_foul

C = HouseWayClause


def ranks(cards: tuple[Card, ...]) -> list[str]:
    """Rank text of the cards, sorted (the joker as ``JK``), to compare with RULES.md's rank-only examples."""
    return sorted("JK" if c.is_joker else str(c)[:-1] for c in cards)


def check(
    seven: str, front: str, back: str, clause: HouseWayClause, rules: HouseRules = DEFAULT_RULES
) -> Split:
    cards = parse_cards(seven)
    split = house_way(cards, rules)
    assert ranks(split.low) == ranks(parse_cards_ranks(front)), f"{seven}: front {split}"
    assert ranks(split.high) == ranks(parse_cards_ranks(back)), f"{seven}: back {split}"
    assert sorted(split.cards) == sorted(cards)
    assert not is_foul(split, rules)
    assert house_way_clause(cards, rules) is clause
    return split


def parse_cards_ranks(text: str) -> tuple[Card, ...]:
    """Rank-only text such as ``"K 9"`` or ``"JK 7 5"`` as cards of arbitrary distinct suits."""
    used: dict[str, int] = {}
    out = []
    for token in text.split():
        if token == "JK":
            out.append(DECK[52])
            continue
        n = used.get(token, 0)
        used[token] = n + 1
        out.append(parse_cards(token + "cdhs"[n])[0])
    return tuple(out)


# RULES.md "The House Way": the examples table, verbatim (seven cards, front, back).
RULES_EXAMPLES = [
    ("Ac Kd 9h 7s 5c 3d 2h", "K 9", "A 7 5 3 2", C.NO_PAIR),
    ("JK Kd 9h 7s 5c 3d 2h", "K 9", "JK 7 5 3 2", C.NO_PAIR),
    ("6c 6d 3h 3s Kc 9d 2h", "K 9", "6 6 3 3 2", C.TWO_PAIR),
    ("6c 6d 3h 3s Qc 9d 2h", "3 3", "6 6 Q 9 2", C.TWO_PAIR),
    ("Jc Jd 7h 7s Ac 5d 3h", "7 7", "J J A 5 3", C.TWO_PAIR),
    ("Ac Ad Ah Ks 9c 5d 2h", "A K", "A A 9 5 2", C.THREE_OF_A_KIND),
    ("8c 8d 8h 2s 2c Ad Kh", "A K", "8 8 8 2 2", C.FULL_HOUSE),
    ("9c 9d 9h 9s Qc 7d 2h", "9 9", "9 9 Q 7 2", C.FOUR_OF_A_KIND),
    ("Ac Ad Ah As JK Kd Kh", "K K", "A A A A JK", C.FIVE_ACES),
    ("4c 5d 6h 7s 8c 9d Kh", "K 9", "4 5 6 7 8", C.STRAIGHT_OR_FLUSH),
    ("5c 5d 6h 6s 7c 8d 9h", "5 5", "6 6 9 8 7", C.TWO_PAIR),
    ("JK Qd Jh Ts 9c 3d 2h", "3 2", "JK Q J T 9", C.STRAIGHT_OR_FLUSH),
]


@pytest.mark.parametrize(("seven", "front", "back", "clause"), RULES_EXAMPLES)
def test_rules_md_examples(seven: str, front: str, back: str, clause: HouseWayClause) -> None:
    check(seven, front, back, clause)


@pytest.mark.parametrize(("seven", "front", "back", "clause"), RULES_EXAMPLES)
def test_rules_md_examples_in_any_card_order(
    seven: str, front: str, back: str, clause: HouseWayClause
) -> None:
    check(" ".join(reversed(seven.split())), front, back, clause)
    check(" ".join(seven.split()[3:] + seven.split()[:3]), front, back, clause)
