"""What the views show of the variants (issue 24), under the hidden-information rules of ``views``:

- the Dragon hand (``DragonView``, in ``RoundView.dragon``): its position, who is offered it, who passed,
  its buyer and wager, whether it is set; never its cards. Its buyer's own view shows the cards only under
  ``dragon_set_by`` ``"buyer"`` (``own_dragon``); under the House Way nobody sees them before the showdown;
  unbought it is a dead hand nobody sees (its cards are not even stored);
- ``DragonDealt`` and ``DragonSet`` events lose their cards for everyone but such a buyer (``hide_dragon``).
"""

from __future__ import annotations

from dataclasses import dataclass

from paigow.rules.house_rules import DragonSetBy
from paigow.table.fastcopy import replace
from paigow.table.records import SetBy
from paigow.table.state import TableState
from paigow.table.variant_events import DragonDealt, DragonSet

__all__ = ["DragonView", "dragon_view", "hide_dragon", "own_dragon"]


@dataclass(frozen=True, slots=True)
class DragonView:
    position: int
    """The unplayed position whose hand is the Dragon."""
    offered_seat: int | None
    """The seat it is offered to now (until ``deadline_ms``), None once the offers are over."""
    offered_player_id: str | None
    passed: tuple[int, ...]
    buyer_position: int | None
    buyer_player_id: str | None
    wager_cents: int
    is_set: bool
    set_by_buyer: bool
    """The table's ``dragon_set_by`` is ``"buyer"`` (else the House Way sets it, seen at the showdown)."""


def dragon_view(state: TableState) -> DragonView | None:
    rnd = state.round
    d = rnd.dragon if rnd is not None else None
    if d is None:
        return None
    offered = state.seats[d.offered_seat] if d.offered_seat is not None else None
    return DragonView(d.position, d.offered_seat, offered.player_id if offered is not None else None,
                      d.passed, d.buyer_position, d.buyer_player_id, d.wager_cents, d.set_by is not None,
                      state.rules.dragon_set_by is DragonSetBy.BUYER)


def own_dragon(state: TableState, player_id: str) -> tuple[int, tuple[str, ...], tuple[str, ...],
                                                           tuple[str, ...], bool, bool] | None:
    """The Dragon its buyer may see now (position, cards, high, low, is set, fouled), or None."""
    rnd = state.round
    d = rnd.dragon if rnd is not None else None
    if (d is None or d.buyer_player_id != player_id or not d.cards
            or state.rules.dragon_set_by is not DragonSetBy.BUYER):
        return None
    return d.position, d.cards, d.high, d.low, d.set_by is not None, d.fouled


def hide_dragon(event: DragonDealt | DragonSet, me: str | None) -> DragonDealt | DragonSet:
    """The Dragon's event as a viewer (``me``: their player id, or None) may see it."""
    if me is not None and event.player_id == me and event.shown_to_buyer:
        return event
    if isinstance(event, DragonDealt):
        return replace(event, cards=())
    return replace(event, high=(), low=(), fouled=False, set_by=SetBy.HIDDEN, house_way_clause=None)
