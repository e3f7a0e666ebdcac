"""The Fortune category of seven cards, example by example, and the pay tables as data."""

from __future__ import annotations

import dataclasses
import math

import pytest

from paigow.rules import (
    DEFAULT_PAY_TABLE,
    FIVE_THOUSAND_PAY_TABLE,
    PAY_TABLES,
    DuplicateCardError,
    FortuneHand,
    FortunePayTable,
    InvalidCardError,
    fortune_hand,
    fortune_of_indexes,
    parse_cards,
    pay_table,
)

H = FortuneHand

EXAMPLES = [
    # Seven-card straight flushes: natural, highest and lowest (the ace low), and with the joker.
    ("8s 9s Ts Js Qs Ks As", H.SEVEN_CARD_STRAIGHT_FLUSH),
    ("Ah 2h 3h 4h 5h 6h 7h", H.SEVEN_CARD_STRAIGHT_FLUSH),
    ("4d 5d 6d 7d 8d 9d Td", H.SEVEN_CARD_STRAIGHT_FLUSH),
    ("JK 9s Ts Js Qs Ks As", H.SEVEN_CARD_STRAIGHT_FLUSH_WITH_JOKER),  # the joker is the 8
    ("8s 9s Ts Js JK Ks As", H.SEVEN_CARD_STRAIGHT_FLUSH_WITH_JOKER),  # ... or fills the gap
    ("Ah 2h 3h 4h 5h 6h JK", H.SEVEN_CARD_STRAIGHT_FLUSH_WITH_JOKER),  # the 7, the ace low
    ("2c 3c 4c 5c 6c 7c JK", H.SEVEN_CARD_STRAIGHT_FLUSH_WITH_JOKER),  # the 8 (or the ace)
    ("7c 8c 9c Tc Jc Kc JK", H.SEVEN_CARD_STRAIGHT_FLUSH_WITH_JOKER),  # 7 to K, though a royal is there too
    ("Ah 2h 3h 4h 5h 6h 8h", H.STRAIGHT_FLUSH),  # seven suited, six in a row: not seven-card
    ("9s Ts Js Qs Ks As JK", H.SEVEN_CARD_STRAIGHT_FLUSH_WITH_JOKER),
    ("2s 3s 4s 5s 7s 8s Ts", H.FLUSH),  # seven suited, no five in a row
    ("2s 3s 4s 5s 6s 9s JK", H.STRAIGHT_FLUSH),  # not seven in a row even with the joker
    ("2s 3s 4s 5s 6s 8s JK", H.SEVEN_CARD_STRAIGHT_FLUSH_WITH_JOKER),  # the joker is the 7
    # Royal plus royal match: a royal (natural or with the joker) and a suited K-Q beside it.
    ("As Ks Qs Js Ts Kh Qh", H.ROYAL_PLUS_ROYAL_MATCH),
    ("As Ks Qs JK Ts Kd Qd", H.ROYAL_PLUS_ROYAL_MATCH),
    ("JK Kc Qc Jc Tc Ks Qs", H.ROYAL_PLUS_ROYAL_MATCH),
    ("As Ks Qs Js Ts Kh Qd", H.ROYAL_FLUSH),  # K-Q not suited
    ("As Ks Qs Js Ts Kh JK", H.ROYAL_FLUSH),  # the joker never makes the K-Q
    ("As Ks Qs Js Ts JK Qh", H.ROYAL_FLUSH),
    ("As Ks Qs Js Ts 9s Kh", H.ROYAL_FLUSH),  # one card beside the royal: no match
    # Five aces: four aces and the joker, above a royal flush.
    ("Ac Ad Ah As JK 2c 3d", H.FIVE_ACES),
    ("Ac Ad Ah As JK Kh Qh", H.FIVE_ACES),
    ("Ac Ad Ah As Kc Kd Kh", H.FOUR_OF_A_KIND),  # no joker
    # Royal and straight flushes of five, the joker completing them; A-2-3-4-5 suited.
    ("Ah Kh Qh Jh Th 2c 3d", H.ROYAL_FLUSH),
    ("Ah Kh JK Jh Th 2c 3d", H.ROYAL_FLUSH),
    ("JK Kh Qh Jh Th 2c 3d", H.ROYAL_FLUSH),  # the joker as the ace of hearts: royal, not K-high
    ("Ah 2h 3h 4h 5h Kc Kd", H.STRAIGHT_FLUSH),
    ("Ah 2h 3h JK 5h Kc Kd", H.STRAIGHT_FLUSH),
    ("9d Td Jd Qd JK 2c 2s", H.STRAIGHT_FLUSH),
    ("9d Td Jd Qd Kd Kc Ks", H.STRAIGHT_FLUSH),  # three kings as well: paid once, as the straight flush
    # Four of a kind, the joker as an ace only.
    ("9c 9d 9h 9s 2c 5d Kh", H.FOUR_OF_A_KIND),
    ("Ac Ad Ah JK 2c 5d Kh", H.FOUR_OF_A_KIND),
    ("Kc Kd Kh JK 2c 5d 8h", H.THREE_OF_A_KIND),  # never a fourth king
    ("9c 9d 9h 9s 2c 2d 2h", H.FOUR_OF_A_KIND),
    ("9c 9d 9h 9s Tc Jc Qc", H.FOUR_OF_A_KIND),  # over a straight
    # Full houses: trips and a pair, two trips; the joker as an ace.
    ("8c 8d 8h 2s 2c Ad Kh", H.FULL_HOUSE),
    ("8c 8d 8h 2s 2c 2d Kh", H.FULL_HOUSE),
    ("Ac Ad JK 2s 2c 7d Kh", H.FULL_HOUSE),  # A-A-A over twos
    ("Ac JK Kc Kd Kh 7d 2h", H.FULL_HOUSE),  # kings over aces
    ("Kc Kd JK 2s 2c 7d 9h", H.NOTHING),  # two pair and an ace: not a full house
    ("Tc Td Th 9s 8c 7d 6h", H.THREE_OF_A_KIND),  # trips (3 to 1) over the straight (2 to 1)
    ("Tc Td Th Jh Js 9s 8c", H.FULL_HOUSE),
    # Flushes, the joker completing one; a flush over trips.
    ("2h 5h 8h Jh Kh 3c 3d", H.FLUSH),
    ("2h 5h 8h Jh JK 3c 3d", H.FLUSH),
    ("2h 5h 8h Jh Kh 2c 2d", H.FLUSH),  # flush 4 to 1 over trips 3 to 1
    ("2h 5h 8h Jh Kh Kc Kd", H.FLUSH),  # three kings, one of them in the flush
    ("2h 5h 8h 8c Kh 8d Kd", H.FULL_HOUSE),
    # Three of a kind, with the joker as the third ace only.
    ("7c 7d 7h 2s 9c Jd Kh", H.THREE_OF_A_KIND),
    ("Ac Ad JK 2s 9c Jd Kh", H.THREE_OF_A_KIND),
    ("7c 7d JK 2s 9c Jd Kh", H.NOTHING),  # a pair of sevens and an ace
    ("7c 7d 7h 8s 9d Tc Jh", H.THREE_OF_A_KIND),  # trips and a straight: paid as trips
    ("7c 7d JK 8s 9d Tc 2h", H.STRAIGHT),  # the joker makes the straight, not trips
    # Straights: natural, with the joker, the wheel.
    ("2c 3d 4h 5s 6c Jd Kh", H.STRAIGHT),
    ("Ac 2d 3h 4s 5c Jd Kh", H.STRAIGHT),
    ("Ac 2d 3h JK 5c Jd 9h", H.STRAIGHT),
    ("JK 2d 3h 4s 5c Jd 9h", H.STRAIGHT),  # the joker as the ace (or the six)
    ("Tc Jd Qh Ks Ac 2d 2h", H.STRAIGHT),
    ("Jd Qh Ks Ac 2d 3h 4s", H.NOTHING),  # no wrapping round the ace
    ("Jd Qh Ks Ac 2d 3h JK", H.STRAIGHT),  # the joker as the ten
    # Nothing: pairs, two pair, three pair.
    ("2c 2d 3h 3s 4c 4d Kh", H.NOTHING),
    ("2c 5d 7h 9s Jc Kd Ah", H.NOTHING),
    ("2c 5d 7h 9s Jc Kd JK", H.NOTHING),
]


@pytest.mark.parametrize(("cards", "expected"), EXAMPLES)
def test_examples(cards: str, expected: FortuneHand) -> None:
    hand = parse_cards(cards)
    assert fortune_hand(hand) is expected
    assert fortune_of_indexes([c.index for c in reversed(hand)]) is expected


def test_every_category_has_an_example() -> None:
    assert {expected for _, expected in EXAMPLES} == set(FortuneHand)


def test_the_categories_are_ordered_by_what_they_pay() -> None:
    names = [h.name for h in FortuneHand]
    assert names == ["SEVEN_CARD_STRAIGHT_FLUSH", "ROYAL_PLUS_ROYAL_MATCH",
                     "SEVEN_CARD_STRAIGHT_FLUSH_WITH_JOKER", "FIVE_ACES", "ROYAL_FLUSH", "STRAIGHT_FLUSH",
                     "FOUR_OF_A_KIND", "FULL_HOUSE", "FLUSH", "THREE_OF_A_KIND", "STRAIGHT", "NOTHING"]
    assert sorted(FortuneHand, reverse=True) == list(FortuneHand)
    for table in PAY_TABLES.values():
        pays = [table.pays.get(h, 0) for h in FortuneHand]
        assert pays == sorted(pays, reverse=True), table.name
    assert H.FIVE_ACES.label == "five aces"
    assert H.SEVEN_CARD_STRAIGHT_FLUSH_WITH_JOKER.label == "seven-card straight flush with joker"


@pytest.mark.parametrize(("cards", "message"), [
    ("As Ks Qs Js Ts 2c", "seven cards, not 6"),
    ("As Ks Qs Js Ts 2c 3d 4d", "seven cards, not 8"),
])
def test_wrong_number_of_cards(cards: str, message: str) -> None:
    with pytest.raises(InvalidCardError, match=message):
        fortune_hand(parse_cards(cards))


def test_duplicate_cards() -> None:
    hand = parse_cards("As Ks Qs Js Ts 2c 3d")
    with pytest.raises(DuplicateCardError, match="As"):
        fortune_hand((*hand[:6], hand[0]))


def test_default_pay_table() -> None:
    t = DEFAULT_PAY_TABLE
    assert pay_table("fortune-8000") is t
    assert next(iter(PAY_TABLES.values())) is t
    assert [t.pays.get(h, 0) for h in FortuneHand] == [8_000, 2_000, 1_000, 400, 150, 50, 25, 5, 4, 3, 2, 0]
    assert [t.envy(h) for h in FortuneHand] == [500_000, 100_000, 50_000, 25_000, 5_000, 2_000, 500,
                                                0, 0, 0, 0, 0]
    assert t.envy_min_bet_cents == 500
    assert t.net(H.STRAIGHT) == 2
    assert t.net(H.NOTHING) == -1


def test_the_5000_table() -> None:
    t = pay_table("fortune-5000")
    assert t is FIVE_THOUSAND_PAY_TABLE
    assert "Wizard of Odds" in t.source
    assert t.pays[H.SEVEN_CARD_STRAIGHT_FLUSH] == 5_000
    assert t.envy(H.SEVEN_CARD_STRAIGHT_FLUSH) == 300_000
    assert {h: t.pays[h] for h in t.pays if h is not H.SEVEN_CARD_STRAIGHT_FLUSH} == {
        h: DEFAULT_PAY_TABLE.pays[h] for h in DEFAULT_PAY_TABLE.pays if h is not H.SEVEN_CARD_STRAIGHT_FLUSH}


def test_unknown_pay_table_names_the_known_ones() -> None:
    with pytest.raises(KeyError, match="fortune-8000, fortune-5000"):
        pay_table("fortune-9999")


def test_pay_tables_are_frozen_values() -> None:
    t = DEFAULT_PAY_TABLE
    copy = FortunePayTable(t.name, dict(t.pays), dict(t.envy_cents), t.envy_min_bet_cents)
    assert copy == t
    assert hash(copy) == hash(t)
    assert copy != FIVE_THOUSAND_PAY_TABLE
    with pytest.raises(dataclasses.FrozenInstanceError):
        t.name = "other"  # type: ignore[misc]
    with pytest.raises(TypeError):
        t.pays[H.STRAIGHT] = 3  # type: ignore[index]


@pytest.mark.parametrize(("pays", "envy"), [
    ({H.NOTHING: 1}, {}),
    ({H.STRAIGHT: 0}, {}),
    ({H.STRAIGHT: 2}, {H.FOUR_OF_A_KIND: -5}),
])
def test_bad_pay_tables_are_refused(pays: dict[FortuneHand, int], envy: dict[FortuneHand, int]) -> None:
    with pytest.raises(ValueError, match="paying category"):
        FortunePayTable("bad", pays, envy)


def test_edge_and_envy_from_counts() -> None:
    t = DEFAULT_PAY_TABLE
    # 1 four of a kind (+25, $5 envy), 1 straight (+2), 8 losers: the house keeps (8 - 27) / 10 per unit.
    counts = {H.FOUR_OF_A_KIND: 1, H.STRAIGHT: 1, H.NOTHING: 8}
    assert math.isclose(t.house_edge(counts), -1.9)
    assert math.isclose(t.envy_per_seat_cents(counts), 50.0)
