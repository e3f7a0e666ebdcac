"""Cards: the 53-card deck (52 + one joker), their text form, parsing and formatting.

Every card is one of 53 canonical, interned ``Card`` values; ``Card.index`` (0..52) is its
position in ``DECK``. Ranks are 2..14 (ace = 14); the joker has rank 0 and no suit.

Text form: rank ``2-9 T J Q K A``, suit ``c d h s``, joker ``JK``. ``card_from_text`` reads exactly that
form (the wire protocol and the table take nothing else); ``parse_card`` / ``parse_cards``, for people at a
command line, are forgiving: ``10`` for ``T``, ``Joker`` for ``JK``, any case, surrounding space.
"""

from __future__ import annotations

import contextlib
import re
from dataclasses import dataclass
from enum import IntEnum, StrEnum

__all__ = [
    "DECK",
    "JOKER",
    "Card",
    "DuplicateCardError",
    "InvalidCardError",
    "Rank",
    "Suit",
    "card",
    "card_from_text",
    "check_distinct",
    "format_cards",
    "parse_card",
    "parse_cards",
]


class Rank(IntEnum):
    """Card ranks; the ace is high (14). The joker's rank is ``JOKER_RANK`` (0)."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def char(self) -> str:
        return RANK_CHARS[self.value]


class Suit(StrEnum):
    CLUBS = "c"
    DIAMONDS = "d"
    HEARTS = "h"
    SPADES = "s"


JOKER_RANK = 0
RANK_CHARS = {2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "T", 11: "J", 12: "Q",
              13: "K", 14: "A", 0: "JK"}
_SUITS = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)
_SUIT_INDEX = {s: i for i, s in enumerate(_SUITS)}


class InvalidCardError(ValueError):
    """A card's text could not be read; the message quotes the token and says what is allowed."""


class DuplicateCardError(InvalidCardError):
    """The same card appears twice where a set of distinct cards is required."""


@dataclass(frozen=True, slots=True)
class Card:
    """One card. ``index`` is 0..51 for ``rank``/``suit`` (rank-major: 2c 2d 2h 2s 3c ...), 52 for the joker.

    Use the interned values from ``DECK``, ``JOKER``, ``card()`` or ``parse_cards()``.
    """

    index: int

    def __post_init__(self) -> None:
        if not 0 <= self.index <= 52:
            raise InvalidCardError(f"card index {self.index} is outside 0..52")

    @property
    def is_joker(self) -> bool:
        return self.index == 52

    @property
    def rank(self) -> int:
        """2..14 (ace 14); 0 for the joker."""
        return 0 if self.index == 52 else self.index // 4 + 2

    @property
    def suit(self) -> Suit | None:
        return None if self.index == 52 else _SUITS[self.index % 4]

    def __str__(self) -> str:
        if self.index == 52:
            return "JK"
        return RANK_CHARS[self.rank] + _SUITS[self.index % 4].value

    def __repr__(self) -> str:
        return f"Card({self})"

    def __lt__(self, other: Card) -> bool:
        """Orders by rank then suit; the joker sorts above every ace."""
        return _sort_key(self) < _sort_key(other)


def _sort_key(c: Card) -> int:
    return 100 if c.index == 52 else c.index


DECK: tuple[Card, ...] = tuple(Card(i) for i in range(53))
JOKER: Card = DECK[52]

_RANK_INPUT = {"2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "T": 10, "10": 10, "J": 11,
               "Q": 12, "K": 13, "A": 14}
_ALLOWED = ("rank 2-9, T (or 10), J, Q, K, A followed by suit c, d, h or s (e.g. 'As', '10h'), "
            "or JK for the joker")
_SPLIT = re.compile(r"[\s,]+")


def card(rank: int, suit: Suit | str) -> Card:
    """The interned card of that rank (2..14) and suit."""
    if not 2 <= rank <= 14:
        raise InvalidCardError(f"rank {rank} is outside 2..14")
    try:
        s = Suit(suit)
    except ValueError:
        raise InvalidCardError(f"suit {suit!r} is not one of c, d, h, s") from None
    return DECK[(rank - 2) * 4 + _SUIT_INDEX[s]]


_BY_TEXT: dict[str, Card] = {str(c): c for c in DECK}
_CANONICAL = "rank 2-9, T, J, Q, K or A then suit c, d, h or s (e.g. 'As', 'Td'), or JK for the joker"


def card_from_text(text: str) -> Card:
    """The card of its canonical text (``str(card)``: ``"As"``, ``"Td"``, ``"JK"``) and of nothing else."""
    found = _BY_TEXT.get(text) if isinstance(text, str) else None
    if found is not None:
        return found
    hint = ""
    if isinstance(text, str):
        with contextlib.suppress(InvalidCardError):
            hint = f" (did you mean {str(parse_card(text))!r}?)"
    raise InvalidCardError(f"bad card {text!r}: expected {_CANONICAL}{hint}")


def parse_card(token: str) -> Card:
    """Parse one card as a person may type it: ``"As"``, ``"10h"``, ``"td"``, ``"JK"``, ``"joker"``."""
    t = token.strip()
    upper = t.upper()
    if upper in ("JK", "JOKER"):
        return JOKER
    if len(t) < 2:
        raise InvalidCardError(f"bad card {token!r}: expected {_ALLOWED}")
    rank_text, suit_text = upper[:-1], t[-1].lower()
    rank = _RANK_INPUT.get(rank_text)
    if rank is None:
        raise InvalidCardError(f"bad card {token!r}: rank {rank_text!r} is not one of 2-9, T, 10, J, Q, K, A")
    if suit_text not in _SUIT_INDEX:
        raise InvalidCardError(f"bad card {token!r}: suit {t[-1]!r} is not one of c, d, h, s")
    return DECK[(rank - 2) * 4 + _SUIT_INDEX[Suit(suit_text)]]


def parse_cards(text: str) -> tuple[Card, ...]:
    """Parse cards separated by spaces and/or commas; any case. Duplicates are an error."""
    tokens = [t for t in _SPLIT.split(text.strip()) if t]
    if not tokens:
        raise InvalidCardError(f"no cards in {text!r}: expected e.g. 'As Kd 10h JK'")
    cards = tuple(parse_card(t) for t in tokens)
    check_distinct(cards)
    return cards


def check_distinct(cards: tuple[Card, ...] | list[Card]) -> None:
    """Raise ``DuplicateCardError`` naming the card that appears more than once."""
    seen: set[int] = set()
    for c in cards:
        if c.index in seen:
            raise DuplicateCardError(f"duplicate card {c} in {format_cards(cards)!r}")
        seen.add(c.index)


def format_cards(cards: tuple[Card, ...] | list[Card]) -> str:
    """The canonical text form, space separated: ``"As Kd JK"``."""
    return " ".join(str(c) for c in cards)
