"""The commission-free forms' bar (docs/rules.md §4a): the house dealer hand against which every player's
wager pushes, by ``HouseRules.commission_form``.

* ``"ez"`` (EZ Pai Gow): the dealer's seven cards are a queen-high pai gow (``queen_high``);
* ``"nine_high"`` (L&W's Commission-Free Fortune): the dealer's House Way low hand is nine-high
  (``nine_high``), under the table's House Way;
* ``"commissioned"``: no hand is barred (the 5% commission is the house's edge).

A bar applies only when the house banks: when a player banks the round is played by the commissioned rules
(``house_banks=False`` bars nothing). ``showdown(..., banker_barred=True)`` turns a barred comparison into
a push and ``payout.settle`` charges no commission on a commission-free table's house-banked wins.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import Card
from .house_rules import DEFAULT_RULES, CommissionForm, HouseRules
from .house_way import house_way
from .nine_high import is_nine_high_low, nine_high_of_indexes
from .queen_high import is_queen_high_pai_gow, queen_high_of_indexes

__all__ = ["bars_of_indexes", "dealer_bars"]


def bars_of_indexes(dealer: Sequence[int], front: tuple[int, int], form: CommissionForm) -> bool:
    """Whether ``form`` bars the house dealer's seven card indexes, set by the House Way with ``front`` as
    the low hand (nothing is checked: the simulator's form of ``dealer_bars``)."""
    if form is CommissionForm.EZ:
        return queen_high_of_indexes(dealer)
    if form is CommissionForm.NINE_HIGH:
        return nine_high_of_indexes(*front)
    return False


def dealer_bars(dealer_cards7: Sequence[Card], rules: HouseRules = DEFAULT_RULES,
                house_banks: bool = True) -> bool:
    """Whether every player's wager pushes against this house dealer hand under ``rules.commission_form``
    (set by ``rules.house_way``). Raises ``InvalidCardError`` unless there are seven distinct cards."""
    queen_high = is_queen_high_pai_gow(dealer_cards7)  # checks the seven cards whatever the form
    if not house_banks:
        return False
    if rules.commission_form is CommissionForm.EZ:
        return queen_high
    if rules.commission_form is CommissionForm.NINE_HIGH:
        return is_nine_high_low(house_way(dealer_cards7, rules).low)
    return False
