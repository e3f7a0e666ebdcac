"""The Dragon hand (docs/rules.md §4b): an unplayed hand sold to a seated player as a second hand.

- When ``HouseRules.dragon_enabled`` and betting is over, the Dragon is the first unplayed player position
  (no bet, not the banker) counting from the first hand's position (the dice are rolled then: they are
  what names it). It is offered, before anyone's cards are dealt, to the seated players with a bet (never
  the player-banker) in turn from the first hand's position, each for ``dragon_offer_ms`` (a ``Tick`` at
  the ``DRAGON_OFFER`` deadline is a pass). A player is offered it only if they can place a second wager
  of at least the table minimum and the bank covers it; with nobody to offer it to there is no offer.
- The buyer's Dragon wager is at least the table minimum and at most their main wager (or the table's
  ``dragon_max_bet_cents``), the table maximum, their chips beyond their other bets, and what the bank
  still covers.
- Its cards are stored only when it is bought, at the deal. Under ``dragon_set_by`` ``"house_way"`` the
  House Way sets it at once, hidden from everyone (its buyer too) until the showdown; under ``"buyer"`` its
  buyer sees it and sets it like their own hand (``SetDragon``; foul rules apply; at the setting deadline
  the House Way sets it).
- Unbought, it stays a dead hand: never stored, never shown (``paigow verify`` recomputes it from the seed).
"""

from __future__ import annotations

from paigow.fair import deal
from paigow.rules.cards import Card
from paigow.rules.house_rules import DragonSetBy
from paigow.rules.house_way import house_way, house_way_clause
from paigow.rules.house_way_text import clause_text
from paigow.table.can import dragon_range
from paigow.table.cardtext import cards_from_text, cards_to_text
from paigow.table.emitter import Emitter
from paigow.table.records import SetBy
from paigow.table.state import DEALER_POSITION, POSITIONS, DeadlineKind, Phase, Round
from paigow.table.variant_events import DragonDealt, DragonOffered, DragonSet

__all__ = [
    "deal_dragon",
    "dragon_position",
    "dragon_range",
    "dragon_ready",
    "next_offer",
    "offer_dragon",
    "offer_order",
    "set_dragon_by_house_way",
]


def _from_first(first_position: int) -> list[int]:
    """The player positions (1..6) in turn from the first hand's position."""
    return [p for p in ((first_position + k) % POSITIONS for k in range(POSITIONS)) if p != DEALER_POSITION]


def dragon_position(rnd: Round, first_position: int) -> int | None:
    """The first unplayed player position from the first hand's (None: every position plays)."""
    live = {b.position for b in rnd.bets} | {rnd.banker_position}
    return next((p for p in _from_first(first_position) if p not in live), None)


def offer_order(rnd: Round, first_position: int) -> list[int]:
    """The seats the Dragon may be offered to, in turn: every bettor (never the banker)."""
    bettors = {b.position for b in rnd.bets}
    return [p for p in _from_first(first_position) if p in bettors and p != rnd.banker_position]


def next_offer(em: Emitter, now_ms: int | None) -> bool:
    """Offer the Dragon to the next player in turn who can buy it; False when there is none."""
    rnd = em.round()
    assert rnd.first_position is not None
    assert rnd.dice is not None
    assert rnd.dragon is not None
    asked = set(rnd.dragon.passed)
    for seat in offer_order(rnd, rnd.first_position):
        sp = em.state.seats[seat]
        if seat in asked or sp is None or dragon_range(em.state, seat) is None:
            continue
        em.emit(DragonOffered(rnd.dragon.position, seat, sp.player_id, rnd.dice, rnd.first_position))
        em.set_deadline(DeadlineKind.DRAGON_OFFER, em.state.rules.dragon_offer_ms, now_ms)
        return True
    return False


def offer_dragon(em: Emitter, now_ms: int | None) -> bool:
    """At the end of betting: start offering the Dragon hand, if the table has it, a position is unplayed
    and someone can buy it. True: the offers started (the deal waits for them)."""
    rnd = em.round()
    if not em.state.rules.dragon_enabled or rnd.dragon is not None or em.state.phase != Phase.BETTING:
        return False
    banker = rnd.banker_position if rnd.banker_position is not None else DEALER_POSITION
    d = deal(bytes.fromhex(rnd.server_seed), rnd.round_id, banker)
    position = dragon_position(rnd, d.first_position)
    if position is None:
        return False
    for seat in offer_order(rnd, d.first_position):
        sp = em.state.seats[seat]
        if sp is not None and dragon_range(em.state, seat) is not None:
            em.emit(DragonOffered(position, seat, sp.player_id, d.dice, d.first_position))
            em.set_deadline(DeadlineKind.DRAGON_OFFER, em.state.rules.dragon_offer_ms, now_ms)
            return True
    return False


def deal_dragon(em: Emitter, hands: tuple[tuple[Card, ...], ...]) -> None:
    """After ``HandsDealt``: the bought Dragon's cards (from the same deal), set at once by the House Way
    under ``dragon_set_by`` ``"house_way"``."""
    rnd = em.round()
    dragon = rnd.dragon
    if dragon is None or dragon.buyer_player_id is None:
        return
    shown = em.state.rules.dragon_set_by is DragonSetBy.BUYER
    cards = cards_to_text(hands[dragon.position])
    em.emit(DragonDealt(dragon.position, dragon.buyer_player_id, cards, shown))
    if not shown:
        set_dragon_by_house_way(em, SetBy.HOUSE_WAY)


def set_dragon_by_house_way(em: Emitter, set_by: SetBy) -> None:
    dragon = em.round().dragon
    assert dragon is not None
    assert dragon.buyer_player_id is not None
    cards = cards_from_text(dragon.cards)
    split = house_way(cards, em.state.rules)
    em.emit(DragonSet(dragon.position, dragon.buyer_player_id, cards_to_text(split.high),
                      cards_to_text(split.low), set_by, False,
                      em.state.rules.dragon_set_by is DragonSetBy.BUYER,
                      clause_text(house_way_clause(cards, em.state.rules), split)))


def dragon_ready(rnd: Round) -> bool:
    """No bought Dragon waits to be set (the showdown may happen)."""
    d = rnd.dragon
    return d is None or d.buyer_player_id is None or d.set_by is not None
