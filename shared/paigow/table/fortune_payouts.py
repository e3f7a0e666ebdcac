"""Settling the Fortune bonus bets with the round: on each player's seven dealt cards, whatever their split,
foul or loss; banked by the house; no commission.

- A bonus wins the pay table's "X to 1" for the best category the seven cards hold (``fortune_hand``), or
  loses the bet.
- The Envy bonus: a Fortune bet of at least the table's Envy minimum collects the pay table's Envy amount
  once for every *other* live player hand (the player-banker's included) holding four of a kind or better,
  whether or not that player bet the bonus; never for one's own hand or the house dealer's.
"""

from __future__ import annotations

from dataclasses import dataclass

from paigow.rules.fortune import FortuneHand, fortune_hand
from paigow.rules.house_rules import HouseRules
from paigow.table.cardtext import cards_from_text
from paigow.table.records import EnvyPay
from paigow.table.state import Round

__all__ = ["FortuneResult", "fortune_results"]


@dataclass(frozen=True, slots=True)
class FortuneResult:
    """The Fortune side of one live hand."""

    fortune: str
    """The category of the seven cards, lower case."""
    bonus_cents: int = 0
    bonus_win_cents: int = 0
    envy: tuple[EnvyPay, ...] = ()

    @property
    def net_cents(self) -> int:
        return self.bonus_win_cents + sum(e.amount_cents for e in self.envy)


def fortune_results(rnd: Round, rules: HouseRules) -> dict[int, FortuneResult]:
    """Each live hand's Fortune result by position; empty when the table has no Fortune bonus."""
    if not rules.fortune_enabled:
        return {}
    table = rules.fortune_table
    hands = {h.position: (h.player_id, fortune_hand(cards_from_text(h.cards))) for h in rnd.hands}
    bonuses = {b.position: b.amount_cents for b in rnd.bonuses}
    results: dict[int, FortuneResult] = {}
    for pos, (player_id, hand) in hands.items():
        bonus = bonuses.get(pos, 0) if player_id is not None else 0
        if bonus == 0:
            results[pos] = FortuneResult(_name(hand))
            continue
        win = bonus * table.net(hand)
        envy: tuple[EnvyPay, ...] = ()
        if bonus >= rules.envy_min_bet_cents:
            envy = tuple(EnvyPay(other, other_id, _name(other_hand), table.envy(other_hand))
                         for other, (other_id, other_hand) in sorted(hands.items())
                         if other != pos and other_id is not None and table.envy(other_hand) > 0)
        results[pos] = FortuneResult(_name(hand), bonus, win, envy)
    return results


def _name(hand: FortuneHand) -> str:
    return hand.name.lower()
