"""What the view shows of the table's Fortune bonus: the limits, the pay table in force and its house edge.

The house edge and the Envy per other seat are the exact figures of ``paigow fortune`` (over the published
counts of every seven-card hand, ``FORTUNE_COUNTS``, which ``count_fortune`` reproduces), rounded as its
JSON rounds them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from paigow.rules.fortune import FortuneHand, pay_table
from paigow.rules.fortune_count import FORTUNE_COUNTS
from paigow.rules.house_rules import HouseRules

__all__ = ["FortunePay", "FortuneView", "fortune_view"]


@dataclass(frozen=True, slots=True)
class FortunePay:
    """One line of the pay table: a hand of the category ``hand`` (lower case) pays ``pays`` to 1, and
    ``envy_cents`` (0: none) to every other qualifying Fortune bettor."""

    hand: str
    label: str
    """For people: ``"four of a kind"``."""
    pays: int
    envy_cents: int


@dataclass(frozen=True, slots=True)
class FortuneView:
    pay_table: str
    min_cents: int
    max_cents: int
    envy_min_bet_cents: int
    """A Fortune bet of at least this much also collects the Envy bonus."""
    pays: tuple[FortunePay, ...]
    """Best first; a category not listed loses the bet."""
    house_edge: float
    """What the house keeps of a Fortune bet on average, as a fraction (0.077656), Envy not counted."""
    envy_per_seat_cents: float
    """The Envy a qualifying bet collects on average from each other player's hand, in cents."""


@cache
def _pays(name: str) -> tuple[tuple[FortunePay, ...], float, float]:
    table = pay_table(name)
    pays = tuple(FortunePay(h.name.lower(), h.label, table.pays[h], table.envy(h))
                 for h in FortuneHand if h in table.pays)
    return (pays, round(table.house_edge(FORTUNE_COUNTS), 6),
            round(table.envy_per_seat_cents(FORTUNE_COUNTS), 4))


@cache
def fortune_view(rules: HouseRules) -> FortuneView | None:
    """The Fortune part of the view of a table with ``rules`` (None: the table has no Fortune bonus)."""
    if not rules.fortune_enabled:
        return None
    pays, edge, envy = _pays(rules.fortune_pay_table)
    return FortuneView(rules.fortune_pay_table, rules.fortune_min_bet_cents, rules.fortune_max_bet_cents,
                       rules.envy_min_bet_cents, pays, edge, envy)
