"""Names that could pass for the house or its staff are refused: a player's display name (a guest's or an
account's) must not look like ``RESERVED``'s words, "Operator", "Dealer", "House", "Admin", "Banker",
"Moderator", whatever its case, spacing, punctuation, accents, or lookalike letters and digits.

A name is compared by its **skeleton**: compatibility-normalised (NFKC: fullwidth and mathematical letters
become plain ones) and case-folded; accents and other combining marks dropped; Cyrillic, Greek and
Armenian letters that look like Latin ones (``о``, ``ο``, ``օ``), and the digits and signs people write for
letters (``0`` ``1`` ``3`` ``4`` ``5`` ``7`` ``8`` ``@`` ``$`` ``!`` ``|``), read as those letters; ``l``
and ``1`` read as ``i`` and ``rn`` as ``m`` (they look alike); then only the letters a-z kept.

A name is refused when a reserved word is what it reads as **as a word**: the whole name's skeleton, or the
skeleton of one of its words (split at spaces, ``_ . - , : ;`` and lower-to-upper case changes, with
trailing digits and signs dropped), is the word, its plural, or the word after "the" ("Dealer", "The Dealer",
"D-E-A-L-E-R", "Оperator" with a Cyrillic O, "H0USE", "Ad min", "house_banker", "Dealer7", "TheHouse").
A word that merely contains one ("Lighthouse", "Badminton", "Householder") is a name like any other.
The message says which word it looks like, so the player picks another.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["RESERVED", "impersonated", "skeleton"]

RESERVED = ("operator", "dealer", "house", "admin", "banker", "moderator")

_LOOKALIKES = str.maketrans({
    # Cyrillic
    "а": "a", "в": "b", "е": "e", "ё": "e", "һ": "h", "н": "h", "і": "i", "ї": "i", "ј": "j", "к": "k",
    "м": "m", "о": "o", "р": "p", "с": "c", "ѕ": "s", "т": "t", "у": "y", "х": "x", "ԁ": "d", "ԛ": "q",
    "ԝ": "w", "ӏ": "l", "п": "n", "г": "r",
    # Greek
    "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "μ": "u", "ν": "v", "ο": "o", "ρ": "p",
    "τ": "t", "υ": "u", "χ": "x", "ω": "w", "ς": "s", "σ": "o",
    # Armenian
    "օ": "o", "ս": "u", "հ": "h", "ո": "n", "ց": "g",
    # digits and signs for letters
    "0": "o", "1": "l", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b", "@": "a", "$": "s", "!": "l",
    "|": "l",
})


def skeleton(text: str) -> str:
    """What ``text`` looks like, as plain letters (see the module)."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    decomposed = unicodedata.normalize("NFD", folded)
    bare = "".join(c for c in decomposed if not unicodedata.category(c).startswith("M"))
    letters = "".join(c for c in bare.translate(_LOOKALIKES) if "a" <= c <= "z")
    return letters.replace("l", "i").replace("rn", "m")


_SKELETONS = {word: skeleton(word) for word in RESERVED}
_WORD_BREAK = re.compile(r"[\s_.,:;-]+|(?<=[a-z])(?=[A-Z])")


def _readings(name: str) -> set[str]:
    """The skeletons of ``name`` and of each of its words (also without their trailing digits)."""
    words = {w for w in _WORD_BREAK.split(name) if w}
    bare = {w.rstrip("0123456789!|$@") for w in words}  # what trails a word: digits, or signs for letters
    return {skeleton(name)} | {skeleton(w) for w in words | bare if w}


def impersonated(name: str) -> str | None:
    """The reserved word ``name`` reads as, or None."""
    readings = _readings(name)
    return next((word for word, mark in _SKELETONS.items()
                 if readings & {mark, mark + "s", "the" + mark}), None)
