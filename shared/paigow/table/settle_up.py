"""The settle-up of a home game: the fewest payments that bring every party's net to zero, exact to the cent.

Each party (a player, the house dealer's line, the commission pot) has a net in cents; the nets sum to zero.
A set of payments settles them when each party pays its losses and receives its winnings. The fewest
payments are ``n - g``: ``n`` the parties with a net other than zero, ``g`` the most groups they can be split
into whose nets each sum to zero (each group of ``m`` settles in ``m - 1`` payments, and no fewer can do).
``settle_up`` finds those groups exactly over subsets (up to ``EXACT_PARTIES`` parties; a game where more
than that many ended with a net is settled by the greedy rule, largest debtor to largest creditor, at most
``n - 1`` payments), and within each group pays largest debtor to largest creditor. Ties are broken by the
parties' order, so everyone who asks gets the same payments.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["EXACT_PARTIES", "Party", "Payment", "SettleUpError", "settle_up"]

EXACT_PARTIES = 16


class SettleUpError(ValueError):
    """The nets do not sum to zero: no payments can settle them."""


@dataclass(frozen=True, slots=True)
class Party:
    party_id: str
    name: str
    net_cents: int


@dataclass(frozen=True, slots=True)
class Payment:
    from_id: str
    from_name: str
    to_id: str
    to_name: str
    amount_cents: int


def _greedy(group: Sequence[Party]) -> list[Payment]:
    """Largest debtor pays largest creditor until every net is zero (``len(group) - 1`` payments at most)."""
    order = {p.party_id: i for i, p in enumerate(group)}
    left = {p.party_id: p.net_cents for p in group}
    names = {p.party_id: p.name for p in group}
    payments: list[Payment] = []
    while True:
        debtors = [pid for pid, n in left.items() if n < 0]
        creditors = [pid for pid, n in left.items() if n > 0]
        if not debtors or not creditors:
            return payments
        debtor = min(debtors, key=lambda pid: (left[pid], order[pid]))
        creditor = max(creditors, key=lambda pid: (left[pid], -order[pid]))
        amount = min(-left[debtor], left[creditor])
        payments.append(Payment(debtor, names[debtor], creditor, names[creditor], amount))
        left[debtor] += amount
        left[creditor] -= amount


def _zero_groups(parties: Sequence[Party]) -> list[list[Party]]:
    """The most groups of ``parties`` whose nets each sum to zero (dynamic programming over subsets)."""
    n = len(parties)
    full = (1 << n) - 1
    sums = [0] * (1 << n)
    best = [0] * (1 << n)
    for mask in range(1, full + 1):
        low = mask & -mask
        i = low.bit_length() - 1
        sums[mask] = sums[mask ^ low] + parties[i].net_cents
        top = 0
        rest = mask
        while rest:
            bit = rest & -rest
            rest ^= bit
            top = max(top, best[mask ^ bit])
        best[mask] = top + (1 if sums[mask] == 0 else 0)
    groups: list[list[Party]] = []
    mask = full
    current: list[Party] = []
    while mask:  # walk back along the best choices; a group closes at each zero-sum mask
        if sums[mask] == 0 and current:
            groups.append(current)
            current = []
        rest = mask
        chosen = 0
        while rest:
            bit = rest & -rest
            rest ^= bit
            if best[mask ^ bit] + (1 if sums[mask] == 0 else 0) == best[mask]:
                chosen = bit
                break
        current.append(parties[chosen.bit_length() - 1])
        mask ^= chosen
    if current:
        groups.append(current)
    return [sorted(g, key=parties.index) for g in reversed(groups)]


def settle_up(parties: Sequence[Party]) -> list[Payment]:
    """The fewest payments that settle ``parties`` (in the parties' order within each group)."""
    total = sum(p.net_cents for p in parties)
    if total != 0:
        raise SettleUpError(f"the nets sum to {total} cents, not 0: nothing can settle them")
    owing = [p for p in parties if p.net_cents != 0]
    if len(owing) > EXACT_PARTIES:
        return _greedy(owing)
    return [payment for group in _zero_groups(owing) for payment in _greedy(group)]
