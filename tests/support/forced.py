"""``force_cards``: test set-up that gives a dealt round's live hands the cards a test needs (a queen-high
pai gow for the house dealer, two pair against a weak hand), for the table tests and the client's; and
``settle_by_house_way``, which then plays the round out: its record and each player's history entry."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any, Protocol

from paigow.ledger.effects import effects_of
from paigow.rules.cards import parse_cards
from paigow.rules.house_way import house_way
from paigow.table.cardtext import cards_to_text
from paigow.table.commands import Command, UseHouseWay
from paigow.table.events import Event, RoundSettled
from paigow.table.records import RoundRecord
from paigow.table.state import Phase, TableState

__all__ = ["force_cards", "settle_by_house_way"]


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


class Driving(Protocol):
    """A table test's driver (``tests/table/conftest.Driver``): its state, its clock and ``do``."""

    state: TableState
    now: int

    def do(self, cmd: Command) -> tuple[Event, ...]: ...


def settle_by_house_way(d: Driving) -> tuple[RoundRecord, list[dict[str, Any]]]:
    """Every hand still to set (in the setting phase) set by the House Way: the settled round's record, and
    each player's history entry as the server stores it (``effects_of``)."""
    events: tuple[Event, ...] = ()
    while not any(isinstance(e, RoundSettled) for e in events):
        rnd = d.state.round
        assert rnd is not None
        assert d.state.phase == Phase.SETTING
        player = next(h.player_id for h in rnd.hands if h.player_id is not None and h.set_by is None)
        before = d.state
        events = d.do(UseHouseWay(player))
    record = next(e.record for e in events if isinstance(e, RoundSettled))
    return record, [entry.record for entry in effects_of(before, d.state, events, now_ms=d.now).history]
