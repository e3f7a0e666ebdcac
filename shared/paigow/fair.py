"""Provably fair shuffle and dice from a committed seed.

Before the first bet of a round the table publishes ``commitment = SHA-256(server_seed)`` (hex). The deck
order and the three dice come from an HMAC-SHA-256 stream keyed by ``server_seed``; after settlement the
seed is revealed and anyone can recompute the deal (``paigow verify``).

The stream, exactly (so it can be reimplemented in any language): block ``i`` (``i = 0, 1, 2, ...``) of
purpose ``P`` (``b"deck"`` or ``b"dice"``) is ``HMAC-SHA-256(key=server_seed, msg=P + b"\\x00" +
round_id.encode("utf-8") + b"\\x00" + i.to_bytes(8, "big"))``; each 32-byte block gives eight big-endian
unsigned 32-bit words, used in order. A uniform integer in ``[0, n)`` takes the next word ``w`` and is
``w % n`` unless ``w >= 2**32 - (2**32 % n)``, in which case the word is rejected and the next one tried
(no modulo bias).

- Deck: start from the 53 cards in index order (``paigow.rules.cards.DECK``: 2c 2d 2h 2s 3c ... As JK);
  for ``i`` from 52 down to 1, swap card ``i`` with card ``j = uniform(i + 1)`` (Fisher-Yates).
- Dice: three draws of ``uniform(6) + 1`` from the dice stream.
- Deal: positions are 0 (the house dealer) and 1..6 (player seats), counterclockwise. Counting the
  banker's position as 1, position ``((total - 1) mod 7) + 1`` gets the first hand, that is position index
  ``(banker + total - 1) % 7``. Packet ``k`` (cards ``7k .. 7k+6`` of the shuffled deck) goes to position
  ``(first + k) % 7``; cards 49..52 are the four discards.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from paigow.rules.cards import DECK, Card, format_cards

__all__ = [
    "POSITIONS",
    "Deal",
    "FairError",
    "Verification",
    "deal",
    "deck_order",
    "first_position",
    "new_commitment",
    "roll_dice",
    "seed_from_hex",
    "verify",
]

POSITIONS = 7
"""The house dealer's position (0) and six player seats (1..6)."""

_WORDS_PER_BLOCK = 8
_TWO32 = 1 << 32


class FairError(ValueError):
    """A seed, round id or position given to the fair-deal functions is not acceptable."""


def new_commitment(server_seed: bytes) -> str:
    """The public commitment to a seed: hex SHA-256 of the raw seed bytes."""
    _check_seed(server_seed)
    return hashlib.sha256(server_seed).hexdigest()


def seed_from_hex(text: str) -> bytes:
    """Parse a seed written as hex (as revealed in a round record)."""
    try:
        seed = bytes.fromhex(text.strip())
    except ValueError:
        raise FairError(f"seed {text!r} is not hexadecimal") from None
    _check_seed(seed)
    return seed


def _check_seed(server_seed: bytes) -> None:
    if not isinstance(server_seed, bytes | bytearray) or len(server_seed) < 16:
        raise FairError(f"server seed must be at least 16 bytes, not {server_seed!r}")


def _words(server_seed: bytes, purpose: bytes, round_id: str) -> Iterator[int]:
    _check_seed(server_seed)
    prefix = purpose + b"\x00" + round_id.encode("utf-8") + b"\x00"
    block = 0
    while True:
        digest = hmac.new(server_seed, prefix + block.to_bytes(8, "big"), hashlib.sha256).digest()
        for k in range(_WORDS_PER_BLOCK):
            yield int.from_bytes(digest[4 * k: 4 * k + 4], "big")
        block += 1


def _uniform(words: Iterator[int], n: int) -> int:
    limit = _TWO32 - (_TWO32 % n)
    while True:
        w = next(words)
        if w < limit:
            return w % n


def deck_order(server_seed: bytes, round_id: str) -> tuple[Card, ...]:
    """The shuffled 53-card deck of a round (Fisher-Yates with rejection sampling)."""
    words = _words(server_seed, b"deck", round_id)
    cards = list(DECK)
    for i in range(len(cards) - 1, 0, -1):
        j = _uniform(words, i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return tuple(cards)


def roll_dice(server_seed: bytes, round_id: str) -> tuple[int, int, int]:
    """The round's three dice, each 1..6."""
    words = _words(server_seed, b"dice", round_id)
    return (_uniform(words, 6) + 1, _uniform(words, 6) + 1, _uniform(words, 6) + 1)


def first_position(banker_position: int, dice_total: int) -> int:
    """Counting the banker's position as 1, counterclockwise: the position that gets the first hand."""
    _check_position(banker_position)
    if not 3 <= dice_total <= 18:
        raise FairError(f"dice total {dice_total} is outside 3..18")
    return (banker_position + dice_total - 1) % POSITIONS


def _check_position(position: int) -> None:
    if type(position) is not int or not 0 <= position < POSITIONS:
        raise FairError(f"position {position!r} is outside 0..6 (0 = the house dealer)")


@dataclass(frozen=True, slots=True)
class Deal:
    """Everything a round's seed decides: dice, who gets the first hand, seven hands by position, discards."""

    round_id: str
    banker_position: int
    dice: tuple[int, int, int]
    first_position: int
    hands: tuple[tuple[Card, ...], ...]
    """Seven hands of seven cards, indexed by position (0 = the house dealer)."""
    discards: tuple[Card, ...]

    @property
    def dice_total(self) -> int:
        return sum(self.dice)


def deal(server_seed: bytes, round_id: str, banker_position: int) -> Deal:
    """Roll the dice, shuffle and deal seven hands of seven; four cards are discarded unseen."""
    _check_position(banker_position)
    dice = roll_dice(server_seed, round_id)
    first = first_position(banker_position, sum(dice))
    deck = deck_order(server_seed, round_id)
    hands: list[tuple[Card, ...]] = [()] * POSITIONS
    for k in range(POSITIONS):
        hands[(first + k) % POSITIONS] = deck[7 * k: 7 * k + 7]
    return Deal(round_id, banker_position, dice, first, tuple(hands), deck[49:])


@dataclass(frozen=True, slots=True)
class Verification:
    """The result of ``verify``: the recomputed deal and every disagreement found (none = verified)."""

    deal: Deal
    commitment: str
    problems: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not self.problems


def verify(
    server_seed: bytes,
    round_id: str,
    *,
    commitment: str | None = None,
    banker_position: int = 0,
    dice: Sequence[int] | None = None,
    first: int | None = None,
    hands: Mapping[int, Sequence[Card]] | None = None,
) -> Verification:
    """Recompute a round from its revealed seed and compare with the published values given.

    ``hands`` maps positions to the seven cards recorded for them (order does not matter); positions left
    out (dead hands) are not checked.
    """
    d = deal(server_seed, round_id, banker_position)
    actual = new_commitment(server_seed)
    problems: list[str] = []
    if commitment is not None and commitment.strip().lower() != actual:
        problems.append(f"commitment {commitment!r} is not SHA-256 of the seed ({actual})")
    if dice is not None and tuple(dice) != d.dice:
        problems.append(f"dice {tuple(dice)} differ from the seed's dice {d.dice}")
    if first is not None and first != d.first_position:
        problems.append(f"first position {first} differs from the seed's first position {d.first_position}")
    for position, cards in sorted((hands or {}).items()):
        _check_position(position)
        if sorted(c.index for c in cards) != sorted(c.index for c in d.hands[position]):
            problems.append(f"position {position} hand {format_cards(list(cards))!r} differs from the "
                            f"seed's hand {format_cards(d.hands[position])!r}")
    return Verification(d, actual, tuple(problems))
