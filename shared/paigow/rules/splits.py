"""Setting a hand: the 21 splits of seven cards into a high (five-card) and a low (two-card) hand, and fouls.

docs/rules.md §3: the high hand must outrank the low hand, compared on the low hand's terms:

* a low **pair** needs a high hand of two pair or better, or a pair at least as high (the same pair with
  kickers outranks the bare pair);
* a low **non-pair** needs a high hand with a pair or better, or whose top two cards are not below the low
  hand's (equal top two: the high hand's extra kickers make it higher).

Anything else is a foul. ``is_foul`` applies those clauses literally to the hand values; the fast path
(``legal_splits``, ``foul_keys``) uses the fact that high and low keys share one layout (see
``hand_value``), so that a split is foul exactly when ``high_key <= low_key``; the tests check that both
agree for every pair of hand values.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from .cards import Card, InvalidCardError, check_distinct, format_cards
from .hand_value import (
    CARD_PRIMES,
    CARD_SUITS,
    HandCategory,
    HandValue,
    evaluate_high,
    evaluate_low,
    high_key,
    high_table,
    low_key,
    rank_name,
)
from .house_rules import DEFAULT_RULES, HouseRules

__all__ = [
    "FoulError",
    "Split",
    "all_splits",
    "check_split",
    "foul_keys",
    "high_outranks_low",
    "is_foul",
    "legal_splits",
    "split_from_low",
    "split_keys",
]

# The 21 ways: (low positions, high positions) within the seven cards.
_POSITIONS: tuple[tuple[tuple[int, int], tuple[int, int, int, int, int]], ...] = tuple(
    ((i, j), (a, b, c, d, e))
    for i, j in combinations(range(7), 2)
    for a, b, c, d, e in [tuple(k for k in range(7) if k not in (i, j))])


class FoulError(ValueError):
    """A split whose high hand does not outrank its low hand; the message names both hands and the rule."""

    def __init__(self, message: str, split: Split | None = None) -> None:
        super().__init__(message)
        self.split = split


@dataclass(frozen=True, slots=True, eq=False)
class Split:
    """Seven distinct cards set as a five-card ``high`` hand and a two-card ``low`` hand.

    Card order inside a hand is kept (for display) but does not matter for equality or hashing.
    ``str(split)`` is ``"<high cards> | <low cards>"``.
    """

    high: tuple[Card, ...]
    low: tuple[Card, ...]

    def __post_init__(self) -> None:
        if type(self.high) is not tuple:
            object.__setattr__(self, "high", tuple(self.high))
        if type(self.low) is not tuple:
            object.__setattr__(self, "low", tuple(self.low))
        if len(self.high) != 5 or len(self.low) != 2:
            raise InvalidCardError(
                f"a split has a 5-card high hand and a 2-card low hand, not {len(self.high)} and "
                f"{len(self.low)}: {self}")
        if len({c.index for c in self.high} | {c.index for c in self.low}) != 7:
            check_distinct(self.cards)

    @classmethod
    def _trusted(cls, high: tuple[Card, ...], low: tuple[Card, ...]) -> Split:
        """A split of cards already known to be 5 + 2 distinct cards (no checks)."""
        split = object.__new__(cls)
        object.__setattr__(split, "high", high)
        object.__setattr__(split, "low", low)
        return split

    @property
    def cards(self) -> tuple[Card, ...]:
        """All seven cards, high hand first."""
        return self.high + self.low

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Split):
            return NotImplemented
        return set(self.high) == set(other.high) and set(self.low) == set(other.low)

    def __hash__(self) -> int:
        return hash((frozenset(self.high), frozenset(self.low)))

    def __str__(self) -> str:
        return f"{format_cards(self.high)} | {format_cards(self.low)}"


def _seven(cards7: Sequence[Card]) -> tuple[Card, ...]:
    cards = tuple(cards7)
    if len(cards) != 7:
        raise InvalidCardError(f"a pai gow hand has 7 cards, not {len(cards)}: {format_cards(cards)!r}")
    check_distinct(cards)
    return cards


def split_from_low(cards7: Sequence[Card], low2: Sequence[Card]) -> Split:
    """The split of these seven cards that puts ``low2`` in the low hand (the rest, in order, in the high)."""
    cards = _seven(cards7)
    low = tuple(low2)
    if len(low) != 2:
        raise InvalidCardError(f"a low hand has 2 cards, not {len(low)}: {format_cards(low)!r}")
    check_distinct(low)
    missing = [c for c in low if c not in cards]
    if missing:
        raise InvalidCardError(
            f"low hand card {missing[0]} is not one of the seven cards {format_cards(cards)!r}")
    return Split._trusted(tuple(c for c in cards if c not in low), low)


def all_splits(cards7: Sequence[Card]) -> tuple[Split, ...]:
    """The 21 splits, in a fixed order (low hand positions (0,1), (0,2), ... (5,6) of ``cards7``)."""
    cards = _seven(cards7)
    trusted = Split._trusted
    return tuple(
        trusted((cards[a], cards[b], cards[c], cards[d], cards[e]), (cards[i], cards[j]))
        for (i, j), (a, b, c, d, e) in _POSITIONS)


def split_keys(split: Split, rules: HouseRules = DEFAULT_RULES) -> tuple[int, int]:
    """``(high_key, low_key)`` of a split (see ``hand_value``)."""
    a, b = split.low
    return high_key([c.index for c in split.high], rules), low_key(a.index, b.index)


def foul_keys(high: int, low: int) -> bool:
    """Whether a high key and a low key make a foul: ``high <= low`` (equality cannot happen)."""
    return high <= low


def legal_splits(cards7: Sequence[Card], rules: HouseRules = DEFAULT_RULES) -> tuple[Split, ...]:
    """The splits of ``all_splits`` that are not foul, in the same order (never empty)."""
    cards = _seven(cards7)
    idx = [c.index for c in cards]
    p = [CARD_PRIMES[k] for k in idx]
    s = [CARD_SUITS[k] for k in idx]
    table = high_table(rules)
    trusted = Split._trusted
    out = []
    for (i, j), (a, b, c, d, e) in _POSITIONS:
        code = p[a] * p[b] * p[c] * p[d] * p[e]
        if s[a] & s[b] & s[c] & s[d] & s[e]:
            code = -code
        if table[code] > low_key(idx[i], idx[j]):
            out.append(trusted((cards[a], cards[b], cards[c], cards[d], cards[e]), (cards[i], cards[j])))
    return tuple(out)


def high_outranks_low(high: HandValue, low: HandValue) -> bool:
    """Whether a high-hand value outranks a low-hand value: docs/rules.md §3, clause by clause."""
    if high.is_low or not low.is_low:
        raise TypeError("high_outranks_low takes a high-hand value, then a low-hand value")
    if low.category is HandCategory.ONE_PAIR:
        # A low pair needs two pair or better, or a pair at least as high.
        if high.category >= HandCategory.TWO_PAIR:
            return True
        return high.category is HandCategory.ONE_PAIR and high.ranks[0] >= low.ranks[0]
    # A low non-pair needs a pair or better, or top two cards not below the low hand's.
    if high.category >= HandCategory.ONE_PAIR:
        return True
    return high.ranks[:2] >= low.ranks


def is_foul(split: Split, rules: HouseRules = DEFAULT_RULES) -> bool:
    """Whether the high hand fails to outrank the low hand (docs/rules.md §3)."""
    return not high_outranks_low(evaluate_high(split.high, rules), evaluate_low(split.low))


def _rank_text(cards: Sequence[Card]) -> str:
    """``"K-J-8-5-3"``: ranks high to low, the joker as ``JK`` first."""
    ordered = sorted(cards, key=lambda c: 15 if c.is_joker else c.rank, reverse=True)
    return "-".join(str(c)[:-1] if not c.is_joker else "JK" for c in ordered)


def _foul_reason(low: HandValue) -> str:
    if low.category is HandCategory.ONE_PAIR:
        pair = rank_name(low.ranks[0], plural=True)
        return (f"behind a low pair of {pair} the high hand needs two pair or better, "
                f"or a pair of {pair} or higher")
    return (f"behind a low {low.name} the high hand needs a pair or better, "
            f"or its top two cards at least {rank_name(low.ranks[0])}-{rank_name(low.ranks[1])}")


def check_split(split: Split, rules: HouseRules = DEFAULT_RULES) -> None:
    """Raise ``FoulError`` if the split is foul.

    The message names both hands, then the rule: ``"low hand K-Q outranks high hand K-J-8-5-3: foul (...)"``.
    """
    high, low = evaluate_high(split.high, rules), evaluate_low(split.low)
    if not high_outranks_low(high, low):
        raise FoulError(
            f"low hand {_rank_text(split.low)} outranks high hand {_rank_text(split.high)}: foul "
            f"({_foul_reason(low)}; high hand: {high.name})", split)
