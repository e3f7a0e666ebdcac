"""The House Way clause that set a hand, in words for players: ``clause_text(clause, split)``.

``"two pair, low + high: split"``, ``"four of a kind: kept together"``, ``"no pair"``. The clause's own name
comes first (each way's clause enums share the wording of docs/rules.md §7, §7a, §7b); for the clauses
that choose between splitting pairs and keeping them together, the text says which the House Way did,
read from the split itself (a pair in the low hand is a split). The joker counts as an ace here, as in the
House Way.
"""

from __future__ import annotations

from collections import Counter

from .house_way import Clause
from .splits import Split

__all__ = ["clause_text", "pair_group"]

_SPLITTING = ("TWO_PAIR", "THREE_PAIR", "FOUR_OF_A_KIND")


def pair_group(rank: int) -> str:
    """The two-pair clause's group of a pair: low (2-6), medium (7-10), high (J-K) or aces."""
    return "low" if rank <= 6 else "medium" if rank <= 10 else "high" if rank <= 13 else "aces"


def _rank(card_rank: int) -> int:
    return 14 if card_rank == 0 else card_rank


def clause_text(clause: Clause, split: Split) -> str:
    """What the clause that set ``split`` says, in words."""
    words = clause.name.lower().replace("_", " ")
    if clause.name not in _SPLITTING:
        return words
    low = [_rank(c.rank) for c in split.low]
    is_split = low[0] == low[1]
    how = "split" if is_split else "kept together"
    if clause.name != "TWO_PAIR":
        return f"{words}: {how}"
    counts = Counter(_rank(c.rank) for c in (*split.high, *split.low))
    pairs = sorted(r for r, n in counts.items() if n >= 2)[-2:]
    if len(pairs) < 2:
        return f"{words}: {how}"
    return f"{words}, {pair_group(pairs[0])} + {pair_group(pairs[1])}: {how}"
