"""``force_cards``: test set-up that gives a dealt round's live hands the cards a test needs (a queen-high
pai gow for the house dealer, two pair against a weak hand), for the table tests and the client's."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from paigow.rules.cards import parse_cards
from paigow.rules.house_way import house_way
from paigow.table.cardtext import cards_to_text
from paigow.table.state import Phase, TableState

__all__ = ["force_cards"]


def force_cards(state: TableState, cards: Mapping[int, str]) -> TableState:
    """``state`` (in the setting phase) with the live hands at these positions given these seven cards
    (``"Qh Jd 9c 7s 5h 3d 2c"``); a hand the House Way already set is set again from its new cards."""
    rnd = state.round
    assert rnd is not None
    assert state.phase == Phase.SETTING
    hands = []
    for h in rnd.hands:
        if h.position in cards:
            seven = parse_cards(cards[h.position])
            h = replace(h, cards=cards_to_text(seven))
            if h.set_by is not None:
                split = house_way(seven, state.rules)
                h = replace(h, high=cards_to_text(split.high), low=cards_to_text(split.low))
        hands.append(h)
    return replace(state, round=replace(rnd, hands=tuple(hands)))
