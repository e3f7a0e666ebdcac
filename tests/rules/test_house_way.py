"""The House Way: the examples of docs/rules.md §7, then each clause with hand-built examples (jokers too)."""

from __future__ import annotations

import pytest

from paigow.rules.cards import DECK, Card, DuplicateCardError, InvalidCardError, parse_cards
from paigow.rules.hand_value import HandCategory, evaluate_high
from paigow.rules.house_rules import DEFAULT_RULES, HouseRules, WheelRank
from paigow.rules.house_way import Clause, HouseWayClause, house_way, house_way_clause, set_front
from paigow.rules.splits import Split, is_foul

C = HouseWayClause


def ranks(cards: tuple[Card, ...]) -> list[str]:
    """Rank text of the cards, sorted (the joker as ``JK``), as in the rank-only examples of docs/rules.md."""
    return sorted("JK" if c.is_joker else str(c)[:-1] for c in cards)


def check(
    seven: str, front: str, back: str, clause: Clause, rules: HouseRules = DEFAULT_RULES
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


# docs/rules.md §7: the examples table, verbatim (seven cards, front, back).
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


# Hand-built examples, clause by clause (seven cards, front, back), joker cases included.
CLAUSE_EXAMPLES = [
    # 1. Five aces: two aces in front; with a pair of kings, the kings in front.
    ("Ac Ad Ah As JK 7d 2h", "A A", "A A JK 7 2", C.FIVE_ACES),
    ("Ac Ad Ah As JK Qd Qh", "A A", "A A JK Q Q", C.FIVE_ACES),
    ("Ac Ad Ah As JK Kd 2h", "A A", "A A JK K 2", C.FIVE_ACES),
    ("JK Kc Ac Kd Ad Ah As", "K K", "A A A A JK", C.FIVE_ACES),
    # 2. Four of a kind, with a pair or trips: that pair (or a pair from the trips) in front.
    ("5c 5d 5h 5s Kc Kd 2h", "K K", "5 5 5 5 2", C.FOUR_OF_A_KIND),
    ("5c 5d 5h 5s Kc Kd Kh", "K K", "5 5 5 5 K", C.FOUR_OF_A_KIND),
    ("Tc Td Th Ts JK Ad 2h", "JK A", "T T T T 2", C.FOUR_OF_A_KIND),  # joker with an ace: a pair of aces
    ("5c 5d 5h 5s Ac Ad JK", "A A", "5 5 5 5 JK", C.FOUR_OF_A_KIND),  # trips of aces with the joker
    ("Ac Ad Ah As 2c 2d 9h", "2 2", "A A A A 9", C.FOUR_OF_A_KIND),
    #    quads 2-6: together.
    ("6c 6d 6h 6s Ac Kd 2h", "A K", "6 6 6 6 2", C.FOUR_OF_A_KIND),
    ("2c 2d 2h 2s 9c 8d 3h", "9 8", "2 2 2 2 3", C.FOUR_OF_A_KIND),
    #    7-10: split unless a king or ace can go in front (the joker is an ace).
    ("8c 8d 8h 8s Kc Qd 2h", "K Q", "8 8 8 8 2", C.FOUR_OF_A_KIND),
    ("8c 8d 8h 8s JK Qd 2h", "JK Q", "8 8 8 8 2", C.FOUR_OF_A_KIND),
    ("Tc Td Th Ts Qc Jd 2h", "T T", "T T Q J 2", C.FOUR_OF_A_KIND),
    ("7c 7d 7h 7s Ac 3d 2h", "A 3", "7 7 7 7 2", C.FOUR_OF_A_KIND),
    #    J-K: split unless an ace can go in front.
    ("Jc Jd Jh Js Kc Qd 2h", "J J", "J J K Q 2", C.FOUR_OF_A_KIND),
    ("Kc Kd Kh Ks Ac Qd 2h", "A Q", "K K K K 2", C.FOUR_OF_A_KIND),
    ("Qc Qd Qh Qs JK 9d 2h", "JK 9", "Q Q Q Q 2", C.FOUR_OF_A_KIND),
    #    aces: split (three aces and the joker are four aces).
    ("Ac Ad Ah As Kc Qd 2h", "A A", "A A K Q 2", C.FOUR_OF_A_KIND),
    ("Ac Ad Ah JK Kc Qd 2h", "A A", "A JK K Q 2", C.FOUR_OF_A_KIND),
    # 3. Full houses. Two trips: a pair from the higher trips in front.
    ("Kc Kd Kh 4c 4d 4h 9s", "K K", "K 4 4 4 9", C.FULL_HOUSE),
    ("Ac Ad JK 4c 4d 4h 9s", "A A", "JK 4 4 4 9", C.FULL_HOUSE),
    #    Trips + two pairs: the higher pair in front.
    ("7c 7d 7h Qc Qd 3c 3d", "Q Q", "7 7 7 3 3", C.FULL_HOUSE),
    ("7c 7d 7h Ac JK 3c 3d", "A JK", "7 7 7 3 3", C.FULL_HOUSE),
    #    Trips + pair: the pair in front, except twos with an ace and a king: A-K in front.
    ("7c 7d 7h Qc Qd 3c 2d", "Q Q", "7 7 7 3 2", C.FULL_HOUSE),
    ("Ac Ad Ah 2c 2d Kc Qd", "2 2", "A A A K Q", C.FULL_HOUSE),
    ("8c 8d 8h 2s 2c JK Kh", "JK K", "8 8 8 2 2", C.FULL_HOUSE),
    ("8c 8d 8h 2s 2c Ad Qh", "2 2", "8 8 8 A Q", C.FULL_HOUSE),
    ("8c 8d 8h 3s 3c Ad Kh", "3 3", "8 8 8 A K", C.FULL_HOUSE),
    # 4. Straight, flush, straight flush: the straight/flush back leaving the highest front.
    ("Ah Kh 9h 5h 2h Kd 7c", "K 7", "A K 9 5 2", C.STRAIGHT_OR_FLUSH),   # one pair: the flush stays whole
    ("5c 6d 7h 8s 9c Kd Kh", "K K", "5 6 7 8 9", C.STRAIGHT_OR_FLUSH),   # the pair goes in front
    ("5c 6d 7h 8s 9c 9d 9h", "9 9", "5 6 7 8 9", C.STRAIGHT_OR_FLUSH),   # trips: a pair of them in front
    ("Ac Ad Ah 2c 3d 4h 5s", "A A", "A 2 3 4 5", C.STRAIGHT_OR_FLUSH),   # three aces and the wheel
    ("Th 9h 8h 4h 2h 7c 6d", "7 6", "T 9 8 4 2", C.STRAIGHT_OR_FLUSH),   # flush: 7-6 front, straight: 4-2
    ("Ah Qh 9h 5h JK Kd 3c", "K 3", "A Q 9 5 JK", C.STRAIGHT_OR_FLUSH),  # the joker completes the flush
    ("JK 5c 6d 7h 8s Ac Kd", "A K", "JK 5 6 7 8", C.STRAIGHT_OR_FLUSH),  # the joker completes the straight
    ("2c 3d 4h 5s 6c 7d Ah", "A 7", "2 3 4 5 6", C.STRAIGHT_OR_FLUSH),   # 2-6 leaves A-7; the wheel K-7
    # 5. Three of a kind: trips in back, two highest singletons in front.
    ("Qc Qd Qh 9s 7c 4d 2h", "9 7", "Q Q Q 4 2", C.THREE_OF_A_KIND),
    ("Qc Qd Qh JK 7c 4d 2h", "JK 7", "Q Q Q 4 2", C.THREE_OF_A_KIND),  # the lone joker is an ace
    #    Three aces: a pair of aces in back, an ace and the highest singleton in front.
    ("Ac Ad JK Ks 9c 5d 2h", "A K", "A JK 9 5 2", C.THREE_OF_A_KIND),
    # 6. Three pair: the highest pair in front.
    ("Kc Kd 8h 8s 3c 3d Ah", "K K", "8 8 3 3 A", C.THREE_PAIR),
    ("Ac JK 8h 8s 3c 3d Kh", "A JK", "8 8 3 3 K", C.THREE_PAIR),
    # 7. Two pair (never clause 4, even with a straight or flush).
    ("6c 6d 3h 3s JK 9d 2h", "JK 9", "6 6 3 3 2", C.TWO_PAIR),          # low + low, an ace: together
    ("9c 9d 4h 4s Kc 8d 2h", "K 8", "9 9 4 4 2", C.TWO_PAIR),           # low + medium, a king: together
    ("9c 9d 4h 4s Qc 8d 2h", "4 4", "9 9 Q 8 2", C.TWO_PAIR),           # low + medium: split
    ("Jc Jd 4h 4s Kc 8d 2h", "4 4", "J J K 8 2", C.TWO_PAIR),           # low + high, only a king: split
    ("Jc Jd 4h 4s Ac 8d 2h", "A 8", "J J 4 4 2", C.TWO_PAIR),           # low + high, an ace: together
    ("Tc Td 7h 7s Kc 8d 2h", "7 7", "T T K 8 2", C.TWO_PAIR),           # medium + medium: split
    ("Tc Td 7h 7s JK 8d 2h", "JK 8", "T T 7 7 2", C.TWO_PAIR),          # medium + medium, an ace: together
    ("Kc Kd Jh Js Ac 5d 3h", "J J", "K K A 5 3", C.TWO_PAIR),           # high + high: split
    ("Ac Ad 3h 3s Kc 9d 7h", "3 3", "A A K 9 7", C.TWO_PAIR),           # aces + any: split
    ("Ac JK 3h 3s Kc 9d 7h", "3 3", "A JK K 9 7", C.TWO_PAIR),          # the joker makes the aces
    ("Kh Kd 4h 4c 9h 7h 2h", "4 4", "K K 9 7 2", C.TWO_PAIR),           # a flush is there: still two pair
    # 8. One pair: the pair in back, the two highest singletons in front.
    ("Tc Td Ah 8s 6c 4d 2h", "A 8", "T T 6 4 2", C.ONE_PAIR),
    ("Ac JK Qh 8s 6c 4d 2h", "Q 8", "A JK 6 4 2", C.ONE_PAIR),
    ("Tc Td JK 8s 6c 4d 2h", "JK 8", "T T 6 4 2", C.ONE_PAIR),
    # 9. No pair: the highest card in back, the next two in front.
    ("Kc Qd 9h 7s 5c 3d 2h", "Q 9", "K 7 5 3 2", C.NO_PAIR),
    ("9c Td Jh Qs 2c 4d 6h", "J T", "Q 9 6 4 2", C.NO_PAIR),           # four to a straight is nothing
]


@pytest.mark.parametrize(("seven", "front", "back", "clause"), CLAUSE_EXAMPLES)
def test_clause_examples(seven: str, front: str, back: str, clause: HouseWayClause) -> None:
    check(seven, front, back, clause)


def test_clause_4_equal_fronts_take_the_higher_back() -> None:
    # 6h and 6c: either leaves K-6 in front; with 6h the back is a straight flush, with 6c a straight.
    split = check("Th 9h 8h 7h 6h 6c Kd", "K 6", "T 9 8 7 6", C.STRAIGHT_OR_FLUSH)
    assert evaluate_high(split.high).category is HandCategory.STRAIGHT_FLUSH


def test_clause_4_joker_wheel_follows_the_wheel_setting() -> None:
    # JK 2 3 4 5 + K Q: the joker makes A-2-3-4-5 (second-highest straight) or 2-3-4-5-6 (6 high); the
    # front is K-Q either way, and the back is the higher straight under each setting.
    for rules, top in ((DEFAULT_RULES, 5), (HouseRules(wheel=WheelRank.LOW), 6)):
        split = house_way(parse_cards("JK 2c 3d 4h 5s Kc Qd"), rules)
        assert ranks(split.low) == ["K", "Q"]
        value = evaluate_high(split.high, rules)
        assert value.category is HandCategory.STRAIGHT
        assert value.ranks == (top,)


@pytest.mark.parametrize("text", ["As Ks Qs Js Ts 2c", "As Ks Qs Js Ts 2c 3d 4d"])
def test_not_seven_cards_is_an_error(text: str) -> None:
    with pytest.raises(InvalidCardError, match="seven cards"):
        house_way(parse_cards(text))


def test_duplicate_cards_are_an_error() -> None:
    cards = parse_cards("As Ks Qs Js Ts 2c 3d")
    with pytest.raises(DuplicateCardError, match="As"):
        house_way((*cards[:6], cards[0]))


def test_set_front_names_the_front_cards_by_index() -> None:
    cards = parse_cards("Ac Kd 9h 7s 5c 3d 2h")
    clause, i, j = set_front([c.index for c in cards])
    assert clause is C.NO_PAIR
    assert {DECK[i], DECK[j]} == set(parse_cards("Kd 9h"))


def test_split_lists_groups_first() -> None:
    split = house_way(parse_cards("2h Qc 6d 9d 6c 3s 3h"))
    assert [str(c)[0] for c in split.high] == ["6", "6", "Q", "9", "2"]
    assert [str(c)[0] for c in split.low] == ["3", "3"]
