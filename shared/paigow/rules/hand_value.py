"""Hand values: the five-card high hand and the two-card low hand, ranked exactly as docs/rules.md says.

Two layers:

* ``evaluate_high(cards5, rules)`` / ``evaluate_low(cards2)`` return a ``HandValue``: totally ordered,
  hashable, with ``.category``, ``.ranks`` (the tie-break ranks) and a human ``.name``.
* The fast integer layer, for the House Way and the simulator, works on card indexes (``Card.index``,
  0..52, joker 52) and never builds objects:

  - ``high_key(indexes, rules) -> int`` for five indexes; ``low_key(i, j) -> int`` for two.
  - A larger key is a better hand, equal keys are a tie (a copy). High keys depend on ``rules.wheel``:
    compare only keys made under the same rules. ``HandValue`` orders exactly like its ``.key``.
  - ``high_value(key)`` / ``low_value(key)`` turn a key into its (cached) ``HandValue``;
    ``category_of(key)`` gives its ``HandCategory`` directly.
  - Inlining: ``high_key`` is ``high_table(rules)[hand_code]`` where ``hand_code`` is the product of
    ``CARD_PRIMES[i]`` over the five cards, negated when ``CARD_SUITS[a] & ... & CARD_SUITS[e]`` is
    non-zero (all five share a suit; the joker matches every suit).

Key layout (both hands): ``category << 24 | order << 20 | ranks``, where ``ranks`` holds the tie-break
ranks as 4-bit digits from bit 16 down (unused digits 0), and ``order`` is 0 except for straights and
straight flushes under ``wheel="second"``: 2 for the ace-high straight, 1 for A-2-3-4-5, so that the wheel
sits below A-K-Q-J-T and above K-Q-J-T-9. Low keys use the same layout (pair: ``(pair,)``, non-pair:
``(high, low)``), which is what makes the foul rule a single comparison (see ``splits``).

Tie-break ranks (``HandValue.ranks``): five aces and royal flush ``()``; straight and straight flush
``(top,)`` (5 for A-2-3-4-5); four of a kind ``(quads, kicker)``; full house ``(trips, pair)``; flush and
high card the five ranks high to low; three of a kind ``(trips, k1, k2)``; two pair ``(high, low, kicker)``;
pair ``(pair, k1, k2, k3)``. A joker appears as the rank it stands for.

The joker (docs/rules.md §1) is an ace, or completes a straight, flush, straight flush or royal flush; in
a flush it is the highest card of that suit not already in the hand; in a straight, the card making the
highest straight (under the table's ``wheel`` ranking). With K-K-K it is an ace kicker, never a fourth king.
In the low hand it is only an ace.

Names: ``"five aces"``, ``"royal flush"``, ``"straight flush, king high"``, ``"four of a kind, nines"``,
``"full house, eights over twos"``, ``"flush, ace high"``, ``"straight, king high"`` (the wheel is
``"straight, five high"``), ``"three of a kind, kings"``, ``"two pair, jacks and fours"``,
``"pair of aces"``, ``"ace high"``; low hands ``"pair of sevens"`` and ``"ace-king"``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum
from itertools import combinations, combinations_with_replacement

from .cards import Card, InvalidCardError, check_distinct, format_cards
from .house_rules import DEFAULT_RULES, HouseRules, WheelRank

__all__ = [
    "CARD_PRIMES",
    "CARD_SUITS",
    "HandCategory",
    "HandValue",
    "category_of",
    "evaluate_high",
    "evaluate_low",
    "high_key",
    "high_table",
    "high_value",
    "low_key",
    "low_value",
    "rank_name",
]


class HandCategory(IntEnum):
    HIGH_CARD = 0
    ONE_PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8
    ROYAL_FLUSH = 9
    FIVE_ACES = 10


_CATEGORY_SHIFT = 24
_ORDER_SHIFT = 20
_ACE = 14
_RANK_PRIMES = {2: 2, 3: 3, 4: 5, 5: 7, 6: 11, 7: 13, 8: 17, 9: 19, 10: 23, 11: 29, 12: 31, 13: 37, 14: 41}
_JOKER_PRIME = 43

CARD_PRIMES: tuple[int, ...] = (*(_RANK_PRIMES[i // 4 + 2] for i in range(52)), _JOKER_PRIME)
"""One prime per card index (by rank; the joker has its own). The product identifies a rank multiset."""
CARD_SUITS: tuple[int, ...] = (*(1 << (i % 4) for i in range(52)), 0b1111)
"""One suit bit per card index; the joker has every bit, so it matches any flush."""

# The ten straights as rank sets with their top card; A-2-3-4-5 has top 5.
_STRAIGHTS: tuple[tuple[frozenset[int], int], ...] = tuple(
    (frozenset(range(top - 4, top + 1)) if top > 5 else frozenset((14, 2, 3, 4, 5)), top)
    for top in range(14, 4, -1)
)


def _pack(category: HandCategory, ranks: Sequence[int], order: int = 0) -> int:
    key = category << _CATEGORY_SHIFT | order << _ORDER_SHIFT
    shift = 16
    for r in ranks:
        key |= r << shift
        shift -= 4
    return key


def _straight_key(top: int, flush: bool, wheel: WheelRank) -> int:
    if flush and top == _ACE:
        return _pack(HandCategory.ROYAL_FLUSH, ())
    order = 0
    if wheel is WheelRank.SECOND:
        order = 2 if top == _ACE else 1 if top == 5 else 0
    return _pack(HandCategory.STRAIGHT_FLUSH if flush else HandCategory.STRAIGHT, (top,), order)


def _natural_key(ranks: Sequence[int]) -> int:
    """Key of five natural ranks (no joker, not suited); five aces allowed (the joker counted as an ace)."""
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    # Groups by (count, rank), biggest first: the order of the tie-break ranks for every category.
    groups = sorted([(n, r) for r, n in counts.items()], reverse=True)
    order = [r for _, r in groups]
    category = _SHAPES[tuple([n for n, _ in groups])]
    return _pack(category, () if category is HandCategory.FIVE_ACES else order)


_SHAPES = {
    (5,): HandCategory.FIVE_ACES,
    (4, 1): HandCategory.FOUR_OF_A_KIND,
    (3, 2): HandCategory.FULL_HOUSE,
    (3, 1, 1): HandCategory.THREE_OF_A_KIND,
    (2, 2, 1): HandCategory.TWO_PAIR,
    (2, 1, 1, 1): HandCategory.ONE_PAIR,
    (1, 1, 1, 1, 1): HandCategory.HIGH_CARD,
}


def _straight_tops(ranks: Sequence[int]) -> list[int]:
    """Tops of every straight containing all of ``ranks`` (distinct ranks; 4 or 5 of them)."""
    present = set(ranks)
    if len(present) != len(ranks):
        return []
    return [top for members, top in _STRAIGHTS if present <= members]


def _unsuited_key(ranks: Sequence[int], joker: bool, wheel: WheelRank) -> int:
    """Best key of ranks (4 with the joker, else 5) when the cards do not all share a suit."""
    if not joker:
        tops = _straight_tops(ranks)
        return _straight_key(tops[0], False, wheel) if tops else _natural_key(ranks)
    options = [_natural_key([*ranks, _ACE])]  # the joker as an ace
    options += [_straight_key(top, False, wheel) for top in _straight_tops(ranks)]
    return max(options)


def _suited_key(ranks: Sequence[int], joker: bool, wheel: WheelRank) -> int:
    """Best key of distinct suited ranks (4 with the joker, else 5): a flush or a straight flush."""
    options = [_straight_key(top, True, wheel) for top in _straight_tops(ranks)]
    if joker:
        # In a flush the joker is the highest card of that suit not already in the hand.
        ranks = [*ranks, max(r for r in range(2, 15) if r not in ranks)]
    if not options:
        options.append(_pack(HandCategory.FLUSH, sorted(ranks, reverse=True)))
    return max(options)


def _code(ranks: Sequence[int], joker: bool) -> int:
    code = _JOKER_PRIME if joker else 1
    for r in ranks:
        code *= _RANK_PRIMES[r]
    return code


def _build_high_table(wheel: WheelRank) -> dict[int, int]:
    table: dict[int, int] = {}
    for joker, size in ((False, 5), (True, 4)):
        for combo in combinations_with_replacement(range(2, 15), size):
            if size == 5 and combo[0] == combo[4]:
                continue  # five of one rank
            table[_code(combo, joker)] = _unsuited_key(combo, joker, wheel)
        for combo in combinations(range(2, 15), size):
            table[-_code(combo, joker)] = _suited_key(combo, joker, wheel)
    return table


# Built on first use per wheel setting (the default's at import); each is ~10,000 entries.
_HIGH_TABLES: dict[WheelRank, dict[int, int]] = {}


def high_table(rules: HouseRules = DEFAULT_RULES) -> dict[int, int]:
    """The lookup behind ``high_key`` for ``rules.wheel``: hand code (see module doc) -> key. Read only."""
    try:
        return _HIGH_TABLES[rules.wheel]
    except KeyError:
        table = _HIGH_TABLES[rules.wheel] = _build_high_table(rules.wheel)
        return table


def high_key(indexes: Sequence[int], rules: HouseRules = DEFAULT_RULES) -> int:
    """Key of the five-card hand with these card indexes (distinct, 0..52; not checked)."""
    a, b, c, d, e = indexes
    p = CARD_PRIMES
    code = p[a] * p[b] * p[c] * p[d] * p[e]
    s = CARD_SUITS
    if s[a] & s[b] & s[c] & s[d] & s[e]:
        code = -code
    try:
        return _HIGH_TABLES[rules.wheel][code]
    except KeyError:
        return high_table(rules)[code]


high_table(DEFAULT_RULES)


def _low_rank(index: int) -> int:
    return _ACE if index == 52 else index // 4 + 2


def _low_key_of(i: int, j: int) -> int:
    a, b = sorted((_low_rank(i), _low_rank(j)), reverse=True)
    if a == b:
        return _pack(HandCategory.ONE_PAIR, (a,))
    return _pack(HandCategory.HIGH_CARD, (a, b))


_LOW_KEYS: tuple[int, ...] = tuple(_low_key_of(i, j) for i in range(53) for j in range(53))


def low_key(i: int, j: int) -> int:
    """Key of the two-card low hand with these card indexes (the joker, 52, is an ace)."""
    return _LOW_KEYS[i * 53 + j]


def category_of(key: int) -> HandCategory:
    """The category of a high or low key."""
    return HandCategory(key >> _CATEGORY_SHIFT)


_PLURALS = {2: "twos", 3: "threes", 4: "fours", 5: "fives", 6: "sixes", 7: "sevens", 8: "eights",
            9: "nines", 10: "tens", 11: "jacks", 12: "queens", 13: "kings", 14: "aces"}
_SINGULARS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine",
              10: "ten", 11: "jack", 12: "queen", 13: "king", 14: "ace"}


def rank_name(rank: int, plural: bool = False) -> str:
    """``rank_name(13) == "king"``, ``rank_name(13, plural=True) == "kings"``."""
    return (_PLURALS if plural else _SINGULARS)[rank]


def _name(category: HandCategory, ranks: tuple[int, ...], low: bool) -> str:
    one, many = _SINGULARS, _PLURALS
    match category:
        case HandCategory.FIVE_ACES:
            return "five aces"
        case HandCategory.ROYAL_FLUSH:
            return "royal flush"
        case HandCategory.STRAIGHT_FLUSH:
            return f"straight flush, {one[ranks[0]]} high"
        case HandCategory.FOUR_OF_A_KIND:
            return f"four of a kind, {many[ranks[0]]}"
        case HandCategory.FULL_HOUSE:
            return f"full house, {many[ranks[0]]} over {many[ranks[1]]}"
        case HandCategory.FLUSH:
            return f"flush, {one[ranks[0]]} high"
        case HandCategory.STRAIGHT:
            return f"straight, {one[ranks[0]]} high"
        case HandCategory.THREE_OF_A_KIND:
            return f"three of a kind, {many[ranks[0]]}"
        case HandCategory.TWO_PAIR:
            return f"two pair, {many[ranks[0]]} and {many[ranks[1]]}"
        case HandCategory.ONE_PAIR:
            return f"pair of {many[ranks[0]]}"
    if low:
        return f"{one[ranks[0]]}-{one[ranks[1]]}"
    return f"{one[ranks[0]]} high"


@dataclass(frozen=True, slots=True, eq=False)
class HandValue:
    """The value of a high (five-card) or low (two-card) hand; orders exactly like ``key``.

    High and low values are not comparable with each other (``TypeError``): the foul rule that relates
    them lives in ``splits``. Equal values are a tie (a copy). Build them with ``evaluate_high``,
    ``evaluate_low``, ``high_value`` or ``low_value``.
    """

    key: int
    is_low: bool
    category: HandCategory
    ranks: tuple[int, ...]
    """Tie-break ranks (see the module doc); 5 stands for the top of A-2-3-4-5."""
    name: str

    def _other_key(self, other: object) -> int:
        if not isinstance(other, HandValue):
            raise TypeError(f"cannot compare a HandValue with {type(other).__name__}")
        if other.is_low is not self.is_low:
            raise TypeError("a high-hand value cannot be compared with a low-hand value; use splits.is_foul")
        return other.key

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HandValue):
            return NotImplemented
        return self.key == other.key and self.is_low is other.is_low

    def __hash__(self) -> int:
        return hash((self.key, self.is_low))

    def __lt__(self, other: HandValue) -> bool:
        return self.key < self._other_key(other)

    def __le__(self, other: HandValue) -> bool:
        return self.key <= self._other_key(other)

    def __gt__(self, other: HandValue) -> bool:
        return self.key > self._other_key(other)

    def __ge__(self, other: HandValue) -> bool:
        return self.key >= self._other_key(other)

    def __str__(self) -> str:
        return self.name


def _decode(key: int, is_low: bool) -> HandValue:
    category = HandCategory(key >> _CATEGORY_SHIFT)
    ranks: list[int] = []
    for shift in (16, 12, 8, 4, 0):
        r = key >> shift & 0xF
        if not r:
            break
        ranks.append(r)
    t = tuple(ranks)
    return HandValue(key, is_low, category, t, _name(category, t, is_low))


_HIGH_VALUES: dict[int, HandValue] = {}
_LOW_VALUES: dict[int, HandValue] = {}


def high_value(key: int) -> HandValue:
    """The ``HandValue`` of a ``high_key`` (cached; keys carry everything)."""
    try:
        return _HIGH_VALUES[key]
    except KeyError:
        value = _HIGH_VALUES[key] = _decode(key, False)
        return value


def low_value(key: int) -> HandValue:
    """The ``HandValue`` of a ``low_key`` (cached)."""
    try:
        return _LOW_VALUES[key]
    except KeyError:
        value = _LOW_VALUES[key] = _decode(key, True)
        return value


def _indexes(cards: Sequence[Card], size: int, what: str) -> list[int]:
    indexes = [c.index for c in cards]
    if len(indexes) != size:
        raise InvalidCardError(
            f"a {what} has {size} cards, not {len(indexes)}: {format_cards(list(cards))!r}")
    if len(set(indexes)) != size:
        check_distinct(list(cards))
    return indexes


def evaluate_high(cards5: Sequence[Card], rules: HouseRules = DEFAULT_RULES) -> HandValue:
    """The value of a five-card high hand (any card order) under ``rules.wheel``."""
    return high_value(high_key(_indexes(cards5, 5, "high hand"), rules))


def evaluate_low(cards2: Sequence[Card]) -> HandValue:
    """The value of a two-card low hand; the joker is an ace."""
    i, j = _indexes(cards2, 2, "low hand")
    return low_value(low_key(i, j))
