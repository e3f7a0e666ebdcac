"""Commission and settlement of a round, in integer cents (docs/rules.md §4 and §6).

* A winning wager is paid even money less the commission: ``commission_bps`` of the win, rounded up to
  a multiple of ``commission_round_cents`` ($10 win: 50¢, pays $9.50; $7 win: 35¢ -> 50¢, pays $6.50),
  never more than the win itself. A push is 0, a loss is minus the wager.
* The banker's gross is minus the sum of every wager's gross. A player-banker pays the commission on
  that net win if it is positive, never more than it (docs/rules.md §4: a win never becomes a loss by
  its commission; a 12¢ net win owes 12¢, not 25¢). The house dealer's own wager (``is_house``, only
  when a player banks) pays no commission.
* On a commission-free table (``rules.commission_form`` ``"ez"`` or ``"nine_high"``, docs/rules.md §4a) a
  house-banked win pays even money with no commission; when a player banks, the round is commissioned as
  above (the commission-free forms apply only against the house).
* ``house_net_cents`` is everything the house gains: all commissions plus the gross of the house's own
  position (its wager when a player banks; the bank when the house banks).

Invariant: ``sum(r.net_cents for r in players if not r.is_house) + banker_net (a player-banker only)
+ house_net_cents == 0``. (``Settlement.check_conserved`` asserts it.)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .house_rules import DEFAULT_RULES, HouseRules
from .showdown import Outcome

__all__ = ["PlayerResult", "Settlement", "SettlementError", "Wager", "commission_cents", "settle"]


class SettlementError(ValueError):
    """Wagers that cannot be settled together; the message names the wager and the rule."""


def commission_cents(win_cents: int, rules: HouseRules = DEFAULT_RULES) -> int:
    """The commission on a win: ``commission_bps`` of it rounded UP to ``commission_round_cents``.

    0 for a win of 0 or less; never more than the win.
    """
    if win_cents <= 0:
        return 0
    step = 10_000 * rules.commission_round_cents
    units = -(-win_cents * rules.commission_bps // step)  # ceiling division
    return min(units * rules.commission_round_cents, win_cents)


@dataclass(frozen=True, slots=True)
class Wager:
    """One wager against the banker: ``key`` names the seat/player; ``is_house`` marks the dealer's."""

    key: str
    amount_cents: int
    outcome: Outcome
    is_house: bool = False


@dataclass(frozen=True, slots=True)
class PlayerResult:
    """A wager's result: ``gross`` is +amount / 0 / -amount; ``net = gross - commission``."""

    key: str
    amount_cents: int
    outcome: Outcome
    gross_cents: int
    commission_cents: int
    net_cents: int
    is_house: bool = False


@dataclass(frozen=True, slots=True)
class Settlement:
    players: tuple[PlayerResult, ...]
    banker_key: str | None
    """The player who banked, or None when the house banked."""
    banker_gross_cents: int
    banker_commission_cents: int
    banker_net_cents: int
    house_net_cents: int

    def check_conserved(self) -> None:
        """Raise ``SettlementError`` unless money is conserved (see the module doc)."""
        total = sum(r.net_cents for r in self.players if not r.is_house) + self.house_net_cents
        if self.banker_key is not None:
            total += self.banker_net_cents
        if total != 0:
            raise SettlementError(f"settlement does not balance: {total} cents left over in {self}")


def _result(w: Wager, rules: HouseRules, free: bool) -> PlayerResult:
    gross = {Outcome.WIN: w.amount_cents, Outcome.PUSH: 0, Outcome.LOSS: -w.amount_cents}[Outcome(w.outcome)]
    commission = 0 if w.is_house or free else commission_cents(gross, rules)
    return PlayerResult(w.key, w.amount_cents, Outcome(w.outcome), gross, commission, gross - commission,
                        w.is_house)


def settle(wagers: Iterable[Wager], rules: HouseRules = DEFAULT_RULES,
           banker_key: str | None = None) -> Settlement:
    """Settle one round: every wager against the banker (``banker_key``; None = the house banks)."""
    wagers = tuple(wagers)
    seen: set[str] = set()
    for w in wagers:
        if type(w.amount_cents) is not int or w.amount_cents <= 0:
            raise SettlementError(f"wager {w.key!r}: amount must be a positive whole number of cents, "
                                  f"not {w.amount_cents!r}")
        if w.key in seen:
            raise SettlementError(f"wager {w.key!r} appears twice: one wager per position")
        if w.key == banker_key:
            raise SettlementError(
                f"wager {w.key!r} is the banker's own: the banker does not bet against itself")
        if w.is_house and banker_key is None:
            raise SettlementError(f"wager {w.key!r} is the house's, but the house banks: the dealer plays "
                                  "only against a player-banker")
        seen.add(w.key)
    if sum(w.is_house for w in wagers) > 1:
        raise SettlementError("more than one house wager: the dealer plays one hand")
    free = banker_key is None and rules.commission_form.is_commission_free
    results = tuple(_result(w, rules, free) for w in wagers)
    banker_gross = -sum(r.gross_cents for r in results)
    commissions = sum(r.commission_cents for r in results)
    if banker_key is None:
        return Settlement(results, None, banker_gross, 0, banker_gross, commissions + banker_gross)
    banker_commission = commission_cents(banker_gross, rules)
    house_gross = sum(r.gross_cents for r in results if r.is_house)
    return Settlement(results, banker_key, banker_gross, banker_commission, banker_gross - banker_commission,
                      commissions + banker_commission + house_gross)
