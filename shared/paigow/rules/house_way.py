"""The House Way: how the house sets seven cards, by the table's published way (``HouseRules.house_way``).

The ways (one module each under ``house_ways``, over one shared engine):

* ``trump_plaza`` (the default): Trump Plaza, Atlantic City, docs/rules.md §7, clauses ``HouseWayClause``;
* ``foxwoods``: Foxwoods, Connecticut, docs/rules.md §7a, clauses ``FoxwoodsClause``;
* ``ballys_ac``: Bally's Atlantic City, docs/rules.md §7b, clauses ``BallysClause``.

The joker counts as an ace (so joker + aces is more aces, and a lone joker is an ace singleton), except
inside a straight or flush it completes.

Two layers, like ``hand_value``:

* ``house_way(cards7, rules) -> Split`` and ``house_way_clause(cards7, rules) -> Clause`` take ``Card``
  values and check them (seven distinct cards).
* ``set_front(indexes7, rules) -> (clause, i, j)`` works on card indexes (``Card.index``, joker 52), does no
  checking and builds no objects: ``i`` and ``j`` are the indexes of the two front (low-hand) cards and the
  other five are the back. The simulator uses it.

``clause_enum(name)`` is a way's clause enum; a clause's ``int`` is its number in that way's section of
docs/rules.md. No way ever sets a foul (the tests check ``splits.is_foul`` on every shape, for each way).
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import DECK, Card, InvalidCardError, check_distinct, format_cards
from .house_rules import DEFAULT_RULES, HouseRules, HouseWayName
from .house_ways import ballys, foxwoods, trump_plaza
from .house_ways.ballys import BallysClause
from .house_ways.engine import Decision, Way, decide
from .house_ways.foxwoods import FoxwoodsClause
from .house_ways.trump_plaza import HouseWayClause
from .splits import Split

__all__ = [
    "BallysClause",
    "Clause",
    "FoxwoodsClause",
    "HouseWayClause",
    "clause_enum",
    "house_way",
    "house_way_clause",
    "set_front",
]

Clause = HouseWayClause | FoxwoodsClause | BallysClause
"""A clause of any House Way (each way's clauses are their own enum)."""

_WAYS: dict[HouseWayName, Way[Clause]] = {
    HouseWayName.TRUMP_PLAZA: trump_plaza.WAY, HouseWayName.FOXWOODS: foxwoods.WAY,
         HouseWayName.BALLYS_AC: ballys.WAY}


def clause_enum(name: HouseWayName) -> type[Clause]:
    """The clause enum of the House Way ``name``: ``clause_enum(HouseWayName.FOXWOODS) is FoxwoodsClause``."""
    return _WAYS[name].clause


def _set(indexes: Sequence[int], rules: HouseRules) -> Decision[Clause]:
    return decide(indexes, rules, _WAYS[rules.house_way])


def set_front(indexes: Sequence[int], rules: HouseRules = DEFAULT_RULES) -> tuple[Clause, int, int]:
    """The House Way for seven distinct card indexes (not checked): ``(clause, i, j)``, front cards i, j."""
    clause, i, j, _ = decide(indexes, rules, _WAYS[rules.house_way])
    return clause, i, j


def _checked_indexes(cards7: Sequence[Card]) -> list[int]:
    if len(cards7) != 7:
        raise InvalidCardError(
            f"the House Way sets seven cards, not {len(cards7)}: {format_cards(list(cards7))!r}")
    indexes = [c.index for c in cards7]
    if len(set(indexes)) != 7:
        check_distinct(list(cards7))
    return indexes


def house_way_clause(cards7: Sequence[Card], rules: HouseRules = DEFAULT_RULES) -> Clause:
    """The clause of the table's House Way (``rules.house_way``) that sets these seven cards."""
    return _set(_checked_indexes(cards7), rules)[0]


def house_way(cards7: Sequence[Card], rules: HouseRules = DEFAULT_RULES) -> Split:
    """The split of seven distinct cards by the table's House Way (``rules.house_way``), never a foul.

    Both hands list their cards group by group (pairs first), highest first: ``6 6 Q 9 2 | 3 3``.
    Raises ``InvalidCardError`` (a ``ValueError``) unless there are exactly seven distinct cards.
    """
    _, i, j, h = _set(_checked_indexes(cards7), rules)
    deck = DECK
    return Split(tuple([deck[c] for c in h if c != i and c != j]), (deck[i], deck[j]))
