"""The Foxwoods and Bally's Atlantic City House Ways (docs/rules.md §7a, §7b): examples built clause by
clause from the published wording (the Wizard of Odds pages give no worked examples), the choice of way
in ``HouseRules``, and the dispatch by ``rules.house_way``."""

from __future__ import annotations

import pytest

from paigow.rules.cards import parse_cards
from paigow.rules.house_rules import DEFAULT_RULES, HouseRules, HouseRulesError, HouseWayName, WheelRank
from paigow.rules.house_way import (
    BallysClause,
    Clause,
    FoxwoodsClause,
    HouseWayClause,
    clause_enum,
    house_way,
    house_way_clause,
    set_front,
)

from .test_house_way import check, ranks

FOXWOODS = HouseRules(house_way=HouseWayName.FOXWOODS)
BALLYS = HouseRules(house_way=HouseWayName.BALLYS_AC)
F, B = FoxwoodsClause, BallysClause

# docs/rules.md §7a: the Foxwoods examples table, verbatim (seven cards, front, back, clause).
FOXWOODS_EXAMPLES = [
    ("Ac Kd 9h 7s 5c 3d 2h", "K 9", "A 7 5 3 2", F.NO_PAIR),
    ("Tc Td Ah 8s 6c 4d 2h", "A 8", "T T 6 4 2", F.ONE_PAIR),
    ("Kc Kd 4h 4s Ac 8d 2h", "4 4", "K K A 8 2", F.TWO_PAIR),
    ("9c 9d 4h 4s Ac 8d 2h", "A 8", "9 9 4 4 2", F.TWO_PAIR),
    ("9c 9d 4h 4s Kc 8d 2h", "4 4", "9 9 K 8 2", F.TWO_PAIR),
    ("6c 6d 3h 3s Kc 9d 2h", "K 9", "6 6 3 3 2", F.TWO_PAIR),
    ("Kc Kd 8h 8s 3c 3d Ah", "K K", "8 8 3 3 A", F.THREE_PAIR),
    ("Ac Ad Ah Ks 9c 5d 2h", "A K", "A A 9 5 2", F.THREE_OF_A_KIND),
    ("Kc Kd Kh 4c 4d 4h 9s", "K K", "K 4 4 4 9", F.TWO_SETS),
    ("5c 6d 7h 8s 9c Kd Kh", "K K", "5 6 7 8 9", F.STRAIGHT_OR_FLUSH),
    ("Ac Kd Kh Qs Jc Td 3h", "A Q", "K K J T 3", F.ACE_FRONT_EXCEPTION),
    ("8c 8d 8h 2s 2c Ad Kh", "2 2", "8 8 8 A K", F.FULL_HOUSE),
    ("Kc Kd Kh Ks Ac Qd 2h", "K K", "K K A Q 2", F.FOUR_OF_A_KIND),
    ("Ac Ad Ah As JK Kd Kh", "K K", "A A A A JK", F.FIVE_ACES),
]

FOXWOODS_CLAUSE_EXAMPLES = [
    # 1. No pair: the 2nd and 3rd highest cards in front.
    ("JK Kd 9h 7s 5c 3d 2h", "K 9", "JK 7 5 3 2", F.NO_PAIR),
    # 2. One pair: the pair in back, the two highest others in front.
    ("Ac JK Qh 8s 6c 4d 2h", "Q 8", "A JK 6 4 2", F.ONE_PAIR),
    # 3. Two pair. Big pair A, K, Q, J: the small pair in front, whatever the singletons.
    ("Jc Jd 7h 7s Ac 5d 3h", "7 7", "J J A 5 3", F.TWO_PAIR),
    ("Ac JK 3h 3s Kc 9d 7h", "3 3", "A JK K 9 7", F.TWO_PAIR),
    #    Big pair 10-7: together with an ace (the joker is one), otherwise split.
    ("Tc Td 7h 7s JK 8d 2h", "JK 8", "T T 7 7 2", F.TWO_PAIR),
    ("Tc Td 7h 7s Kc 8d 2h", "7 7", "T T K 8 2", F.TWO_PAIR),
    #    Big pair 6-3: together with a king or an ace, otherwise split.
    ("6c 6d 3h 3s Ac 9d 2h", "A 9", "6 6 3 3 2", F.TWO_PAIR),
    ("6c 6d 3h 3s Qc 9d 2h", "3 3", "6 6 Q 9 2", F.TWO_PAIR),
    ("Kh Kd 4h 4c 9h 7h 2h", "4 4", "K K 9 7 2", F.TWO_PAIR),  # a flush is there: still two pair
    # 4. Three pair: the highest pair in front.
    ("Ac JK 8h 8s 3c 3d Kh", "A JK", "8 8 3 3 K", F.THREE_PAIR),
    # 5. Trips: kings and below in back, two highest others in front; aces: an ace and the next in front.
    ("Qc Qd Qh 9s 7c 4d 2h", "9 7", "Q Q Q 4 2", F.THREE_OF_A_KIND),
    ("Ac Ad JK Ks 9c 5d 2h", "A K", "A JK 9 5 2", F.THREE_OF_A_KIND),
    # 6. Two sets: a pair of the higher set in front.
    ("Ac Ad JK 4c 4d 4h 9s", "A A", "JK 4 4 4 9", F.TWO_SETS),
    # 7. Straights and flushes: no pair, the two highest cards that leave one in back.
    ("4c 5d 6h 7s 8c 9d Kh", "K 9", "4 5 6 7 8", F.STRAIGHT_OR_FLUSH),
    ("Th 9h 8h 4h 2h 7c 6d", "7 6", "T 9 8 4 2", F.STRAIGHT_OR_FLUSH),
    #    One pair: the highest two cards possible, pair or not.
    ("Qh Jh 9h 5h 2h Jd 7c", "J 7", "Q J 9 5 2", F.STRAIGHT_OR_FLUSH),
    ("5c 6d 7h 8s 9c 9d Ah", "A 9", "5 6 7 8 9", F.STRAIGHT_OR_FLUSH),
    #    Exception: an ace and a pair of 10s-kings: the ace in front and the pair in back when that front
    #    beats the straight's or flush's.
    ("Ah Kh 9h 5h 2h Kd 7c", "A 9", "K K 7 5 2", F.ACE_FRONT_EXCEPTION),
    #    An ace and a pair of 10s-kings, the front not improved by the ace: the straight stays.
    ("Ac Kd Kh Qs Jc Td 9h", "A K", "K Q J T 9", F.STRAIGHT_OR_FLUSH),
    ("Ah Qh Qd 9h 6h 3h 2c", "A 9", "Q Q 6 3 2", F.ACE_FRONT_EXCEPTION),  # A-9 beats the flush's Q-2
    ("JK Td Th 9s 8c 7d 2h", "JK 9", "T T 8 7 2", F.ACE_FRONT_EXCEPTION),  # the lone joker is the ace
    ("Ah 9h 9d 7h 5h 3h 2c", "9 2", "A 9 7 5 3", F.STRAIGHT_OR_FLUSH),    # nines: no exception
    #    Trips: the straight or flush in back, a pair in front.
    ("5c 6d 7h 8s 9c 9d 9h", "9 9", "5 6 7 8 9", F.STRAIGHT_OR_FLUSH),
    # 9. Full house: the highest pair allowed in front (a pair of the hand, never one broken from the trips).
    ("7c 7d 7h Qc Qd 3c 2d", "Q Q", "7 7 7 3 2", F.FULL_HOUSE),
    ("7c 7d 7h Qc Qd 3c 3d", "Q Q", "7 7 7 3 3", F.FULL_HOUSE),
    ("Ac Ad Ah Kc Kd 3c 3d", "K K", "A A A 3 3", F.FULL_HOUSE),
    # 10. Four of a kind: A, K, Q, J always split.
    ("Jc Jd Jh Js Ac Kd 2h", "J J", "J J A K 2", F.FOUR_OF_A_KIND),
    ("Ac Ad Ah JK Kc Qd 2h", "A A", "A JK K Q 2", F.FOUR_OF_A_KIND),
    #     10s-7s: in back if at least a king can go in front, otherwise split.
    ("8c 8d 8h 8s Kc Qd 2h", "K Q", "8 8 8 8 2", F.FOUR_OF_A_KIND),
    ("Tc Td Th Ts Qc Jd 2h", "T T", "T T Q J 2", F.FOUR_OF_A_KIND),
    #     6s and below never split.
    ("6c 6d 6h 6s Ac Kd 2h", "A K", "6 6 6 6 2", F.FOUR_OF_A_KIND),
    ("2c 2d 2h 2s 9c 8d 3h", "9 8", "2 2 2 2 3", F.FOUR_OF_A_KIND),
    #     With a pair or trips beside: that pair in front (four aces too).
    ("5c 5d 5h 5s Kc Kd Kh", "K K", "5 5 5 5 K", F.FOUR_OF_A_KIND),
    ("Ac Ad Ah As 2c 2d 9h", "2 2", "A A A A 9", F.FOUR_OF_A_KIND),
    # 11. Five aces: a pair of aces in front unless a pair of kings can go there.
    ("Ac Ad Ah As JK 7d 2h", "A A", "A A JK 7 2", F.FIVE_ACES),
]

# docs/rules.md §7b: the Bally's examples table, verbatim.
BALLYS_EXAMPLES = [
    ("Ac Kd 9h 7s 5c 3d 2h", "K 9", "A 7 5 3 2", B.NO_PAIR),
    ("Tc Td Ah 8s 6c 4d 2h", "A 8", "T T 6 4 2", B.ONE_PAIR),
    ("Jc Jd 4h 4s Ac 8d 2h", "A 8", "J J 4 4 2", B.TWO_PAIR),
    ("Kc Kd 8h 8s 3c 3d Ah", "K K", "8 8 3 3 A", B.THREE_PAIR),
    ("Ac Ad Ah Ks 9c 5d 2h", "A K", "A A 9 5 2", B.THREE_OF_A_KIND),
    ("Kc Kd Kh 4c 4d 4h 9s", "K K", "K 4 4 4 9", B.TWO_THREE_OF_A_KINDS),
    ("5c 6d 7h 8s 9c Kd Kh", "K K", "5 6 7 8 9", B.STRAIGHT_OR_FLUSH),
    ("Ac JK Kd Qh Js 5c 3d", "K Q", "A JK J 5 3", B.JOKER_STRAIGHT_EXCEPTION),
    ("8c 8d 8h 2s 2c Ad Kh", "A K", "8 8 8 2 2", B.FULL_HOUSE),
    ("9c 9d 9h 9s Qc Jd 2h", "Q J", "9 9 9 9 2", B.FOUR_OF_A_KIND),
    ("Ac Ad Ah As 2c 2d 9h", "A A", "A A 2 2 9", B.FOUR_OF_A_KIND),
    ("Ac Ad Ah As JK Kd Kh", "K K", "A A A A JK", B.FIVE_ACES),
]

BALLYS_CLAUSE_EXAMPLES = [
    # 1-6 are Trump Plaza's: no pair, one pair, two pair by the same groups, three pair, trips, two trips.
    ("JK Kd 9h 7s 5c 3d 2h", "K 9", "JK 7 5 3 2", B.NO_PAIR),
    ("Ac JK Qh 8s 6c 4d 2h", "Q 8", "A JK 6 4 2", B.ONE_PAIR),
    ("6c 6d 3h 3s Kc 9d 2h", "K 9", "6 6 3 3 2", B.TWO_PAIR),   # low + low, a king: together
    ("9c 9d 4h 4s Qc 8d 2h", "4 4", "9 9 Q 8 2", B.TWO_PAIR),   # low + medium: split
    ("Tc Td 7h 7s Kc 8d 2h", "7 7", "T T K 8 2", B.TWO_PAIR),   # medium + medium, no ace: split
    ("Kc Kd Jh Js Ac 5d 3h", "J J", "K K A 5 3", B.TWO_PAIR),   # high + high: split
    ("Ac Ad 3h 3s Kc 9d 7h", "3 3", "A A K 9 7", B.TWO_PAIR),   # aces + any: split
    ("Qc Qd Qh JK 7c 4d 2h", "JK 7", "Q Q Q 4 2", B.THREE_OF_A_KIND),
    ("Ac Ad JK 4c 4d 4h 9s", "A A", "JK 4 4 4 9", B.TWO_THREE_OF_A_KINDS),
    # 7. Straights and flushes: the highest two cards in front that keep one in back.
    ("4c 5d 6h 7s 8c 9d Kh", "K 9", "4 5 6 7 8", B.STRAIGHT_OR_FLUSH),
    ("5c 6d 7h 8s 9c 9d 9h", "9 9", "5 6 7 8 9", B.STRAIGHT_OR_FLUSH),  # trips: a pair in front
    ("Ah Kh 9h 5h 2h Kd 7c", "K 7", "A K 9 5 2", B.STRAIGHT_OR_FLUSH),  # the pair cannot go in front
    #    Not the exception: a lower straight (the pair of aces then goes in front), the joker's wheel, a
    #    flush, a straight without the joker.
    ("Ac JK Kd Qh Js Tc 9d", "A JK", "K Q J T 9", B.STRAIGHT_OR_FLUSH),
    ("Ac JK 2d 3h 4s Kc Qd", "K Q", "A JK 2 3 4", B.STRAIGHT_OR_FLUSH),
    ("Ah JK Kh Qd Jh 5h 2h", "JK Q", "A K J 5 2", B.STRAIGHT_OR_FLUSH),
    ("Ac JK Kd Qh Js Td 2c", "JK 2", "A K Q J T", B.STRAIGHT_OR_FLUSH),
    ("JK Kd Qh Js Tc 5d 3h", "5 3", "JK K Q J T", B.STRAIGHT_OR_FLUSH),  # no natural ace: no pair of aces
    # 8. An ace-high straight (or straight flush) needing the natural ace and the joker: the pair of aces
    #    in back, the next two cards in front; three aces: an ace and the next card in front.
    ("Ac Ad JK Kd Qh Js 3c", "A K", "A JK Q J 3", B.JOKER_STRAIGHT_EXCEPTION),
    ("Ah Kh Qh Jh JK 3c 2d", "K Q", "A JK J 3 2", B.JOKER_STRAIGHT_EXCEPTION),
    # 9. Full house: the pair in front; twos with an ace and a king: A-K; trips + two pairs: the higher pair.
    ("7c 7d 7h Qc Qd 3c 2d", "Q Q", "7 7 7 3 2", B.FULL_HOUSE),
    ("8c 8d 8h 2s 2c Ad Qh", "2 2", "8 8 8 A Q", B.FULL_HOUSE),
    ("7c 7d 7h Qc Qd 3c 3d", "Q Q", "7 7 7 3 3", B.FULL_HOUSE),
    # 10. Four of a kind: 2s-9s never split.
    ("2c 2d 2h 2s 9c 8d 3h", "9 8", "2 2 2 2 3", B.FOUR_OF_A_KIND),
    #     10s-kings split unless an ace can go in front.
    ("Tc Td Th Ts Kc Qd 2h", "T T", "T T K Q 2", B.FOUR_OF_A_KIND),
    ("Kc Kd Kh Ks Ac Qd 2h", "A Q", "K K K K 2", B.FOUR_OF_A_KIND),
    ("Qc Qd Qh Qs JK 9d 2h", "JK 9", "Q Q Q Q 2", B.FOUR_OF_A_KIND),
    #     Four aces always split, beside a pair or trips too, unless kings can go in front.
    ("Ac Ad Ah As Kc Qd 2h", "A A", "A A K Q 2", B.FOUR_OF_A_KIND),
    ("Ac Ad Ah As Qc Qd Qh", "A A", "A A Q Q Q", B.FOUR_OF_A_KIND),
    ("Ac Ad Ah As Kc Kd 2h", "K K", "A A A A 2", B.FOUR_OF_A_KIND),
    ("Ac Ad Ah JK Kc Kd Kh", "K K", "A A A JK K", B.FOUR_OF_A_KIND),
    #     Other quads with a pair or trips beside: the pair in front.
    ("5c 5d 5h 5s Kc Kd 2h", "K K", "5 5 5 5 2", B.FOUR_OF_A_KIND),
    ("Tc Td Th Ts 3c 3d 3h", "3 3", "T T T T 3", B.FOUR_OF_A_KIND),
    # 11. Five aces: two aces in front; with a pair of kings, the kings.
    ("Ac Ad Ah As JK 7d 2h", "A A", "A A JK 7 2", B.FIVE_ACES),
]


@pytest.mark.parametrize(("seven", "front", "back", "clause"), FOXWOODS_EXAMPLES + FOXWOODS_CLAUSE_EXAMPLES)
def test_foxwoods_examples(seven: str, front: str, back: str, clause: FoxwoodsClause) -> None:
    check(seven, front, back, clause, FOXWOODS)
    check(" ".join(reversed(seven.split())), front, back, clause, FOXWOODS)


@pytest.mark.parametrize(("seven", "front", "back", "clause"), BALLYS_EXAMPLES + BALLYS_CLAUSE_EXAMPLES)
def test_ballys_examples(seven: str, front: str, back: str, clause: BallysClause) -> None:
    check(seven, front, back, clause, BALLYS)
    check(" ".join(reversed(seven.split())), front, back, clause, BALLYS)


def test_every_clause_of_each_way_has_an_example() -> None:
    assert {c for *_, c in FOXWOODS_EXAMPLES + FOXWOODS_CLAUSE_EXAMPLES} == set(FoxwoodsClause)
    assert {c for *_, c in BALLYS_EXAMPLES + BALLYS_CLAUSE_EXAMPLES} == set(BallysClause)
    assert {c for *_, c in FOXWOODS_EXAMPLES} == set(FoxwoodsClause)
    assert {c for *_, c in BALLYS_EXAMPLES} == set(BallysClause)


@pytest.mark.parametrize(("seven", "trump", "foxwoods", "ballys"), [
    # Where the ways part (front of each): two pair, quads, the twos full house, the exceptions.
    ("Kc Kd 4h 4s Ac 8d 2h", "A 8", "4 4", "A 8"),
    ("9c 9d 4h 4s Kc 8d 2h", "K 8", "4 4", "K 8"),
    ("Kc Kd Kh Ks Ac Qd 2h", "A Q", "K K", "A Q"),
    ("9c 9d 9h 9s Qc Jd 2h", "9 9", "9 9", "Q J"),
    ("Tc Td Th Ts Kc Qd 2h", "K Q", "K Q", "T T"),
    ("8c 8d 8h 2s 2c Ad Kh", "A K", "2 2", "A K"),
    ("Ac Ad Ah As 2c 2d 9h", "2 2", "2 2", "A A"),
    ("Ac Kd Kh Qs Jc Td 3h", "K 3", "A Q", "K 3"),
    ("Ac JK Kd Qh Js 5c 3d", "5 3", "5 3", "K Q"),
])
def test_the_ways_differ_where_their_texts_do(seven: str, trump: str, foxwoods: str, ballys: str) -> None:
    cards = parse_cards(seven)
    for rules, front in ((DEFAULT_RULES, trump), (FOXWOODS, foxwoods), (BALLYS, ballys)):
        assert ranks(house_way(cards, rules).low) == sorted(front.split()), rules.house_way


def test_house_rules_default_is_trump_plaza() -> None:
    assert HouseRules().house_way is HouseWayName.TRUMP_PLAZA
    assert HouseRules(house_way="foxwoods").house_way is HouseWayName.FOXWOODS  # type: ignore[arg-type]
    assert [w.value for w in HouseWayName] == ["trump_plaza", "foxwoods", "ballys_ac"]
    assert HouseWayName.BALLYS_AC.display_name == "Bally's Atlantic City"


@pytest.mark.parametrize("bad", ["caesars", "", "Foxwoods", 3, None])
def test_an_unknown_house_way_names_the_value_and_the_choices(bad: object) -> None:
    with pytest.raises(HouseRulesError) as info:
        HouseRules(house_way=bad)  # type: ignore[arg-type]
    message = str(info.value)
    assert message.startswith("house_way must be one of 'trump_plaza', 'foxwoods', 'ballys_ac'")
    assert repr(bad) in message


@pytest.mark.parametrize(("name", "enum"), [
    (HouseWayName.TRUMP_PLAZA, HouseWayClause), (HouseWayName.FOXWOODS, FoxwoodsClause),
    (HouseWayName.BALLYS_AC, BallysClause)])
def test_each_way_reports_its_own_clause_enum(name: HouseWayName, enum: type[Clause]) -> None:
    rules = HouseRules(house_way=name, wheel=WheelRank.LOW)
    cards = parse_cards("Ac Kd 9h 7s 5c 3d 2h")
    assert clause_enum(name) is enum
    assert isinstance(house_way_clause(cards, rules), enum)
    clause, _, _ = set_front([c.index for c in cards], rules)
    assert type(clause) is enum
    assert clause.name == "NO_PAIR"


@pytest.mark.parametrize("way", list(HouseWayName))
@pytest.mark.parametrize("singles", ["2c 3c 4c", "2h 3h 4h", "2d 3d 4d"])
def test_split_aces_keep_the_ace_that_makes_the_better_back(way: HouseWayName, singles: str) -> None:
    # Three aces and the joker split in every way; which two aces go in front is no clause's business,
    # but the ace of the singletons' suit, left with the joker, makes a straight flush of the back.
    from paigow.rules.hand_value import HandCategory, evaluate_high

    split = house_way(parse_cards(f"Ac Ad Ah JK {singles}"), HouseRules(house_way=way))
    assert ranks(split.low) == ["A", "A"]
    assert evaluate_high(split.high).category is HandCategory.STRAIGHT_FLUSH
