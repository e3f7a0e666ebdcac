"""The Dragon hand in a round's state (docs/rules.md §4b): ``Round.dragon``, kept apart from the live hands
so that nothing that reads ``Round.hands`` (the views, the seats' own hands, the time-outs) ever sees it.

Offered after betting closes (``Phase.DRAGON_OFFER``) to the seated bettors in turn from the first hand's
position; bought with a second wager; its cards are stored only once bought (at the deal), and shown only
to its buyer and only when the buyer sets it (``HouseRules.dragon_set_by`` ``"buyer"``); else at the
showdown, in the round's record.
"""

from __future__ import annotations

from dataclasses import dataclass

from paigow.table.cardtext import CardText
from paigow.table.records import SetBy

__all__ = ["DragonHand"]


@dataclass(frozen=True, slots=True)
class DragonHand:
    position: int
    """The unplayed position whose hand is the Dragon."""
    offered_seat: int | None = None
    """The seat offered it now (None: the offers are over)."""
    passed: tuple[int, ...] = ()
    """The seats that passed (or let their time run out), in turn."""
    buyer_position: int | None = None
    buyer_player_id: str | None = None
    wager_cents: int = 0
    cards: tuple[CardText, ...] = ()
    """Dealt only when bought."""
    high: tuple[CardText, ...] = ()
    low: tuple[CardText, ...] = ()
    set_by: SetBy | None = None
    fouled: bool = False
    clause: str | None = None
