"""The Fortune bonus side bet: the category of a player's seven cards, and the pay tables.

The Fortune pays on the best qualifying hand that the seven cards hold, whatever way the player sets them,
and pays it once, in its highest-paying category (``FortuneHand``, best first):

* ``SEVEN_CARD_STRAIGHT_FLUSH`` - all seven cards natural, one suit, seven consecutive ranks (8-9-T-J-Q-K-A
  down to A-2-3-4-5-6-7).
* ``ROYAL_PLUS_ROYAL_MATCH`` - a royal flush (natural or completed by the joker) and the other two cards the
  king and queen of one suit. The joker may complete only the royal, never the king-queen.
* ``SEVEN_CARD_STRAIGHT_FLUSH_WITH_JOKER`` - six cards of one suit and the joker making seven consecutive
  ranks.
* ``FIVE_ACES`` (four aces and the joker), ``ROYAL_FLUSH``, ``STRAIGHT_FLUSH``, ``FOUR_OF_A_KIND``,
  ``FULL_HOUSE``, ``FLUSH``, ``THREE_OF_A_KIND``, ``STRAIGHT`` - among any five of the seven cards; note that
  three of a kind pays more than a straight, so a hand holding both is paid as three of a kind.
* ``NOTHING`` - the bet loses.

The joker completes a straight, a flush or a straight flush (of five or seven cards); otherwise it is an
ace: A-A-A + joker is four of a kind, K-K-K + joker is only three kings (with an ace). A-2-3-4-5 is a
straight and, suited, a straight flush.

Definitions as casinos post them: the Marina Bay Sands "Fortune Pai Gow Poker" game rules (version 4, 2020:
the royal match is a K-Q suited low hand beside a royal flush high hand, the joker completing only the
royal) and the Fortune rule sheets that list the 7-card straight flushes from A-K-Q-J-T-9-8 down to
7-6-5-4-3-2-A. They agree with the published exhaustive counts (``fortune_count``).

Ranks inside this module are bit positions: rank r (2..14) is bit r-2 of a 13-bit mask (ace bit 12); the
straight windows include the ones where the ace plays low (``_windows``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from functools import cache
from types import MappingProxyType

from .cards import Card, InvalidCardError, check_distinct, format_cards

__all__ = [
    "DEFAULT_PAY_TABLE",
    "FIVE_THOUSAND_PAY_TABLE",
    "PAY_TABLES",
    "FortuneHand",
    "FortunePayTable",
    "fortune_hand",
    "fortune_of_indexes",
    "pay_table",
]


class FortuneHand(IntEnum):
    """Fortune categories; a larger value pays more (iteration runs from the best down)."""

    SEVEN_CARD_STRAIGHT_FLUSH = 11
    ROYAL_PLUS_ROYAL_MATCH = 10
    SEVEN_CARD_STRAIGHT_FLUSH_WITH_JOKER = 9
    FIVE_ACES = 8
    ROYAL_FLUSH = 7
    STRAIGHT_FLUSH = 6
    FOUR_OF_A_KIND = 5
    FULL_HOUSE = 4
    FLUSH = 3
    THREE_OF_A_KIND = 2
    STRAIGHT = 1
    NOTHING = 0

    @property
    def label(self) -> str:
        """``"seven-card straight flush with joker"``, ``"royal plus royal match"``, ``"five aces"``..."""
        return _LABELS.get(self) or self.name.lower().replace("_", " ")


_LABELS = {
    FortuneHand.SEVEN_CARD_STRAIGHT_FLUSH: "seven-card straight flush",
    FortuneHand.ROYAL_PLUS_ROYAL_MATCH: "royal plus royal match",
    FortuneHand.SEVEN_CARD_STRAIGHT_FLUSH_WITH_JOKER: "seven-card straight flush with joker",
}

ACE_BIT = 1 << 12
ROYAL_MASK = 0b11111 << 8
"""T, J, Q, K, A."""
KING_QUEEN_MASK = 0b11 << 10


def _windows(width: int) -> tuple[int, ...]:
    """The 13-bit masks of every run of ``width`` consecutive ranks, A-2-3-... first."""
    low_ace = ACE_BIT | (1 << (width - 1)) - 1
    return (low_ace, *(((1 << width) - 1) << low for low in range(14 - width)))


_WINDOWS = {5: _windows(5), 7: _windows(7)}


def _missing(mask: int, width: int) -> int:
    """Fewest ranks missing from any run of ``width`` consecutive ranks (the ace high or low)."""
    return width - max(map(int.bit_count, map(mask.__and__, _WINDOWS[width])))


def _suited(mask: int, joker: int) -> FortuneHand:
    """The category of one suit's ranks (five or more with the joker counted), before the royal match."""
    n = mask.bit_count()
    if n == 7 and not joker and _missing(mask, 7) == 0:
        return FortuneHand.SEVEN_CARD_STRAIGHT_FLUSH
    if n == 6 and joker and _missing(mask, 7) == 1:
        return FortuneHand.SEVEN_CARD_STRAIGHT_FLUSH_WITH_JOKER
    if (mask & ROYAL_MASK).bit_count() + joker >= 5:
        return FortuneHand.ROYAL_FLUSH
    if _missing(mask, 5) <= joker:
        return FortuneHand.STRAIGHT_FLUSH
    return FortuneHand.FLUSH


@cache
def lookup_tables() -> tuple[tuple[tuple[FortuneHand, ...], ...], tuple[int, ...]]:
    """``(suited, straight_missing)``, built on first use (a tenth of a second) rather than at import.

    ``suited[joker][mask]``: the category of a suit holding the ranks of the 13-bit ``mask``, with (1) or
    without (0) the joker, before the royal match; NOTHING when that is under five cards.
    ``straight_missing[mask]``: ranks missing from the nearest five-card straight (0: a straight; 1: a
    straight with the joker).
    """
    suited = tuple(
        tuple(_suited(m, j) if m.bit_count() + j >= 5 else FortuneHand.NOTHING for m in range(1 << 13))
        for j in (0, 1))
    return suited, tuple(_missing(m, 5) for m in range(1 << 13))


def is_royal_match(suit_mask: int, joker: int, others: Iterable[int]) -> bool:
    """Whether a suit holding ``suit_mask`` is exactly the royal (the joker completing it if needed) and
    the other two cards, given as the rank masks of the remaining suits, are one suit's king and queen."""
    if suit_mask & ~ROYAL_MASK or suit_mask.bit_count() + joker != 5:
        return False
    return KING_QUEEN_MASK in others


def fortune_of_indexes(indexes: Sequence[int]) -> FortuneHand:
    """The Fortune category of seven distinct card indexes (0..52, joker 52; not checked).

    Works on the four suits' rank masks: a rank in two of them is a pair, in three trips, in all four
    quads; the joker, unless it completes something, is one more ace.
    """
    suited, straight_missing = lookup_tables()
    joker = 0
    m = [0, 0, 0, 0]
    for i in indexes:
        if i == 52:
            joker = 1
        else:
            m[i & 3] |= 1 << (i >> 2)
    a, b, c, d = m
    ranks = a | b | c | d
    pairs = a & b | a & c | a & d | b & c | b & d | c & d
    trips = a & b & (c | d) | c & d & (a | b)
    quads = a & b & c & d
    if joker and ranks & ACE_BIT:
        if quads & ACE_BIT:
            return FortuneHand.FIVE_ACES
        quads |= trips & ACE_BIT
        trips |= pairs & ACE_BIT
        pairs |= ACE_BIT
    if quads:
        best = FortuneHand.FOUR_OF_A_KIND
    elif trips:
        best = FortuneHand.FULL_HOUSE if pairs.bit_count() >= 2 else FortuneHand.THREE_OF_A_KIND
    elif straight_missing[ranks] <= joker:
        best = FortuneHand.STRAIGHT
    else:
        best = FortuneHand.NOTHING
    for s, mask in enumerate(m):
        if mask.bit_count() + joker >= 5:  # at most one suit can: 5 + 5 > 7 and 4 + 4 > 6
            category = suited[joker][mask]
            if category is FortuneHand.ROYAL_FLUSH and is_royal_match(
                    mask, joker, (other for t, other in enumerate(m) if t != s)):
                category = FortuneHand.ROYAL_PLUS_ROYAL_MATCH
            return max(best, category)
    return best


def fortune_hand(cards7: Sequence[Card]) -> FortuneHand:
    """The Fortune category of a player's seven cards (any order)."""
    indexes = [c.index for c in cards7]
    if len(indexes) != 7:
        raise InvalidCardError(f"a Fortune hand has seven cards, not {len(indexes)}: "
                               f"{format_cards(list(cards7))!r}")
    check_distinct(list(cards7))
    return fortune_of_indexes(indexes)


def _frozen(mapping: Mapping[FortuneHand, int], what: str) -> Mapping[FortuneHand, int]:
    for hand, amount in mapping.items():
        if not isinstance(hand, FortuneHand) or hand is FortuneHand.NOTHING or amount <= 0:
            raise ValueError(f"{what}: {hand!r} -> {amount!r} is not a paying category and a positive amount")
    return MappingProxyType({h: mapping[h] for h in FortuneHand if h in mapping})


@dataclass(frozen=True, slots=True)
class FortunePayTable:
    """One posted Fortune pay table.

    ``pays[h]`` is "X to 1" for category ``h`` (a category not listed loses the bet); ``envy_cents[h]`` the
    fixed Envy bonus paid to every *other* Fortune bettor at the table whose bet is at least
    ``envy_min_bet_cents`` when a player's hand is ``h`` (never for one's own hand or the dealer's).
    """

    name: str
    pays: Mapping[FortuneHand, int]
    envy_cents: Mapping[FortuneHand, int]
    envy_min_bet_cents: int = 500
    source: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "pays", _frozen(self.pays, f"pay table {self.name!r}"))
        object.__setattr__(self, "envy_cents", _frozen(self.envy_cents, f"envy of {self.name!r}"))
        if self.envy_min_bet_cents < 0:
            raise ValueError(f"envy_min_bet_cents must be 0 or more, not {self.envy_min_bet_cents}")

    def __hash__(self) -> int:
        return hash((self.name, tuple(self.pays.items()), tuple(self.envy_cents.items()),
                     self.envy_min_bet_cents))

    def net(self, hand: FortuneHand) -> int:
        """What a one-unit bet wins (``pays``) or loses (-1) with this hand."""
        return self.pays.get(hand, -1)

    def envy(self, hand: FortuneHand) -> int:
        """The Envy bonus in cents this hand pays each other qualifying bettor (0 if none)."""
        return self.envy_cents.get(hand, 0)

    def house_edge(self, counts: Mapping[FortuneHand, int]) -> float:
        """What the house keeps per unit bet, over hands counted by category (exact or sampled)."""
        total = sum(counts.values())
        return -sum(n * self.net(h) for h, n in counts.items()) / total

    def envy_per_seat_cents(self, counts: Mapping[FortuneHand, int]) -> float:
        """The Envy a qualifying bettor collects on average, in cents, from each other seat's hand."""
        total = sum(counts.values())
        return sum(n * self.envy(h) for h, n in counts.items()) / total


_H = FortuneHand
_ENVY_DOLLARS = {_H.ROYAL_PLUS_ROYAL_MATCH: 1_000, _H.SEVEN_CARD_STRAIGHT_FLUSH_WITH_JOKER: 500,
                 _H.FIVE_ACES: 250, _H.ROYAL_FLUSH: 50, _H.STRAIGHT_FLUSH: 20, _H.FOUR_OF_A_KIND: 5}
_LOWER_PAYS = {_H.SEVEN_CARD_STRAIGHT_FLUSH_WITH_JOKER: 1_000, _H.FIVE_ACES: 400, _H.ROYAL_FLUSH: 150,
               _H.STRAIGHT_FLUSH: 50, _H.FOUR_OF_A_KIND: 25, _H.FULL_HOUSE: 5, _H.FLUSH: 4,
               _H.THREE_OF_A_KIND: 3, _H.STRAIGHT: 2}

DEFAULT_PAY_TABLE = FortunePayTable(
    name="fortune-8000",
    pays={_H.SEVEN_CARD_STRAIGHT_FLUSH: 8_000, _H.ROYAL_PLUS_ROYAL_MATCH: 2_000, **_LOWER_PAYS},
    envy_cents={h: d * 100 for h, d in {_H.SEVEN_CARD_STRAIGHT_FLUSH: 5_000, **_ENVY_DOLLARS}.items()},
    source="The table most casinos post (8,000 to 1 and a $5,000 Envy for a natural seven-card straight "
           "flush), e.g. Silver Dollar Renton's Fortune Pai Gow page; Wizard of Odds' pay table 2.",
)
"""The default: 8,000 / 2,000 / 1,000 / 400 / 150 / 50 / 25 / 5 / 4 / 3 / 2 to 1; Envy $5,000 down to $5."""

FIVE_THOUSAND_PAY_TABLE = FortunePayTable(
    name="fortune-5000",
    pays={_H.SEVEN_CARD_STRAIGHT_FLUSH: 5_000, _H.ROYAL_PLUS_ROYAL_MATCH: 2_000, **_LOWER_PAYS},
    envy_cents={h: d * 100 for h, d in {_H.SEVEN_CARD_STRAIGHT_FLUSH: 3_000, **_ENVY_DOLLARS}.items()},
    source="Wizard of Odds' Fortune Pai Gow page, pay table 3 (5,000 / 2,000 / 1,000 / 400 / 150 / 50 / 25 / "
           "5 / 4 / 3 / 2 to 1), as reproduced by paigowonline.com.au's 'The Side Bets' table; the Envy "
           "amounts ($3,000 / $1,000 / $500 / $250 / $50 / $20 / $5) from John Grochowski's column on the "
           "same table (Casino City Times, May 2015; tunicatravel.com, June 2015), which quotes Michael "
           "Shackelford's 7.8% edge and 0.92% less per other player for it.",
)
"""The 5,000-to-1 table: a natural seven-card straight flush pays 5,000 to 1 and $3,000 Envy."""

PAY_TABLES: Mapping[str, FortunePayTable] = MappingProxyType(
    {t.name: t for t in (DEFAULT_PAY_TABLE, FIVE_THOUSAND_PAY_TABLE)})
"""Every pay table by name; the default first."""


def pay_table(name: str) -> FortunePayTable:
    """The pay table of that name (``KeyError`` naming the known ones otherwise)."""
    try:
        return PAY_TABLES[name]
    except KeyError:
        raise KeyError(f"no Fortune pay table {name!r}; known: {', '.join(PAY_TABLES)}") from None
