"""The variants' part of the settlement (``settlement.settle_round``): the commission-free bar, the Dragon
hand's wager and record, the co-banker's and the house's halves of the bank, and the Queen's Dragon.

- Commission-free (docs/rules.md §4a): when the house banks and ``rules.commission_form`` bars the house
  dealer's hand (``commission_free.dealer_bars``), every player's wager (a Dragon's too) pushes; wins pay
  no commission (``payout.settle``). A player-banked round is commissioned.
- The Dragon (§4b) is one more wager against the bank, keyed ``"<buyer>#dragon"``, its record at its own
  position with ``dragon_of`` the buyer's seat.
- Co-banking (§4c): ``cobank.bank_shares`` splits the bank's gross; the commission is on the co-banker's
  half (never more than it), whatever the table's ``commission_form``.
"""

from __future__ import annotations

from paigow.rules.commission_free import dealer_bars
from paigow.rules.hand_value import evaluate_high, evaluate_low
from paigow.rules.house_rules import HouseRules
from paigow.rules.payout import PlayerResult, Settlement, Wager
from paigow.rules.showdown import showdown
from paigow.rules.splits import Split
from paigow.table.cardtext import cards_from_text
from paigow.table.cobank import bank_shares
from paigow.table.records import HandRecord, SetBy
from paigow.table.state import LiveHand, Round

__all__ = ["bank_result", "dealer_is_barred", "dragon_key", "dragon_record", "dragon_wager"]


def dealer_is_barred(rules: HouseRules, dealer: LiveHand | None, house_banks: bool) -> bool:
    """Whether every wager pushes against this house dealer hand (commission-free tables, house bank)."""
    if dealer is None or not house_banks or not rules.commission_form.is_commission_free:
        return False
    return dealer_bars(cards_from_text(dealer.cards), rules, house_banks)


def dragon_key(player_id: str) -> str:
    return f"{player_id}#dragon"


def _dragon_split(rnd: Round) -> Split | None:
    d = rnd.dragon
    if d is None or d.buyer_player_id is None:
        return None
    return Split(cards_from_text(d.high), cards_from_text(d.low))


def dragon_wager(rnd: Round, banker: Split, rules: HouseRules, barred: bool) -> Wager | None:
    """The bought Dragon's wager and outcome against the banker's hand (None: no Dragon was bought)."""
    split = _dragon_split(rnd)
    d = rnd.dragon
    if split is None or d is None or d.buyer_player_id is None:
        return None
    outcome = showdown(split, banker, rules, player_fouled=d.fouled, banker_barred=barred).outcome
    return Wager(dragon_key(d.buyer_player_id), d.wager_cents, outcome)


def dragon_record(rnd: Round, by_key: dict[str, PlayerResult], rules: HouseRules) -> HandRecord | None:
    d = rnd.dragon
    split = _dragon_split(rnd)
    if d is None or d.buyer_player_id is None or split is None or d.set_by is None:
        return None
    r = by_key[dragon_key(d.buyer_player_id)]
    clause = None if d.set_by is SetBy.PLAYER else d.clause
    return HandRecord(d.position, d.buyer_player_id, d.cards, d.high, d.low, d.set_by, d.fouled, False,
                      r.amount_cents, r.outcome, r.gross_cents, r.commission_cents, r.net_cents,
                      evaluate_high(split.high, rules).name, evaluate_low(split.low).name, clause,
                      dragon_of=d.buyer_position)


def bank_result(rnd: Round, result: Settlement, rules: HouseRules) -> tuple[int, int, int, int]:
    """The banker's (gross, commission, net) and the house's co-bank gross (0 unless co-banked)."""
    if not rnd.co_banked:
        return result.banker_gross_cents, result.banker_commission_cents, result.banker_net_cents, 0
    gross, commission, house = bank_shares(result.banker_gross_cents, rules)
    return gross, commission, gross - commission, house
