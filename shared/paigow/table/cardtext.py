"""Cards as text inside table state, commands, events and views.

The table keeps cards in their canonical text form (``"As"``, ``"Td"``, ``"JK"``; see
``paigow.rules.cards``) so that every value is plain JSON for the server and the browser.
"""

from __future__ import annotations

from collections.abc import Iterable

from paigow.rules.cards import DECK, Card, card_from_text

__all__ = ["CARD_TEXTS", "CardText", "cards_from_text", "cards_to_text", "format_cents"]

CardText = str
"""One card's canonical text, e.g. ``"As"`` or ``"JK"``."""

_TEXT: tuple[str, ...] = tuple(str(c) for c in DECK)
CARD_TEXTS: frozenset[str] = frozenset(_TEXT)
_BY_TEXT: dict[str, Card] = {str(c): c for c in DECK}


def cards_to_text(cards: Iterable[Card]) -> tuple[CardText, ...]:
    text = _TEXT
    return tuple([text[c.index] for c in cards])


def cards_from_text(texts: Iterable[str]) -> tuple[Card, ...]:
    """Canonical texts back to cards; any other spelling (``"ks"``, ``"10h"``, ``"Joker"``, ``" 2d"``) raises
    ``InvalidCardError``."""
    if not isinstance(texts, tuple | list):
        texts = tuple(texts)
    by_text = _BY_TEXT
    try:
        return tuple([by_text[t] for t in texts])
    except (KeyError, TypeError):
        return tuple(card_from_text(t) for t in texts)


def format_cents(cents: int) -> str:
    """``4500`` -> ``"$45.00"``; negative amounts as ``"-$1.25"``."""
    sign = "-" if cents < 0 else ""
    whole, part = divmod(abs(cents), 100)
    return f"{sign}${whole:,}.{part:02d}"
