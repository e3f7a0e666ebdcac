"""Comparing a player's split with the banker's (docs/rules.md §4), from the player's side.

High hand against high hand, low against low. A tie on a hand is a copy, and copies go to the banker.
Both hands won: win. One won and the other lost or copied: push. Neither won: loss. A player's foul under
``foul_policy="lose"`` is a loss; under ``"reject"`` a foul split never reaches the showdown (the table
refuses it), so one here raises ``FoulError``. A banker's split is never foul (a foul set by a banker is
reset by the House Way): one here raises ``FoulError`` too.

On a commission-free table (``HouseRules.commission_form``, §4a) a house dealer hand that the form bars
(``commission_free.dealer_bars``) pushes every player's wager: ``banker_barred=True`` keeps both hands'
results in the ``Showdown`` (``high``, ``low``) and makes the outcome a push. (The round record keeps no
field of them: it keeps the hands, from which they are worked out; docs/rules.md §4a, rule 2.) A
player's foul is still a loss: it is lost without comparing, before the bar could apply.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .house_rules import DEFAULT_RULES, FoulPolicy, HouseRules
from .splits import FoulError, Split, check_split, split_keys

__all__ = ["HandResult", "Outcome", "Showdown", "resolve", "showdown"]


class Outcome(StrEnum):
    """A player's result against the banker."""

    WIN = "win"
    PUSH = "push"
    LOSS = "loss"


class HandResult(StrEnum):
    """One hand (high or low) from the player's side; a copy goes to the banker."""

    WIN = "win"
    LOSS = "loss"
    COPY = "copy"


@dataclass(frozen=True, slots=True)
class Showdown:
    """Both hand results and the outcome; ``fouled``: the player's split was foul (an automatic loss);
    ``barred``: the banker's hand was barred by a commission-free form (a push whatever the hands did)."""

    high: HandResult
    low: HandResult
    outcome: Outcome
    fouled: bool = False
    barred: bool = False


_FOULED = Showdown(HandResult.LOSS, HandResult.LOSS, Outcome.LOSS, fouled=True)


def _hand(player: int, banker: int) -> HandResult:
    if player > banker:
        return HandResult.WIN
    return HandResult.COPY if player == banker else HandResult.LOSS


def showdown(player: Split, banker: Split, rules: HouseRules = DEFAULT_RULES,
             player_fouled: bool = False, banker_barred: bool = False) -> Showdown:
    """The showdown of a player's split against the banker's.

    ``player_fouled=True`` records a foul the table already accepted (``foul_policy="lose"``): a loss
    without comparing. Otherwise a foul player split is a loss under ``"lose"`` and a ``FoulError`` under
    ``"reject"``. A foul banker split raises ``FoulError``. ``banker_barred=True``: the house dealer's hand
    is barred (``commission_free.dealer_bars``), so the outcome is a push (a foul still loses); it needs a
    commission-free ``rules.commission_form`` (else ``ValueError``).
    """
    if banker_barred and not rules.commission_form.is_commission_free:
        raise ValueError(f"a barred banker hand needs a commission-free form, not "
                         f"commission_form={str(rules.commission_form)!r}")
    if player_fouled:
        return _FOULED
    ph, pl = split_keys(player, rules)
    bh, bl = split_keys(banker, rules)
    if bh <= bl:
        try:
            check_split(banker, rules)
        except FoulError as e:
            raise FoulError(f"banker's split is foul (the House Way resets it): {e}", banker) from None
    if ph <= pl:
        if rules.foul_policy is FoulPolicy.LOSE:
            return _FOULED
        check_split(player, rules)
    high, low = _hand(ph, bh), _hand(pl, bl)
    wins = (high is HandResult.WIN) + (low is HandResult.WIN)
    if banker_barred:
        return Showdown(high, low, Outcome.PUSH, barred=True)
    outcome = Outcome.WIN if wins == 2 else Outcome.PUSH if wins == 1 else Outcome.LOSS
    return Showdown(high, low, outcome)


def resolve(player: Split, banker: Split, rules: HouseRules = DEFAULT_RULES,
            banker_barred: bool = False) -> Outcome:
    """The player's outcome against the banker (copies to the banker; a foul under "lose" loses; a barred
    banker hand pushes)."""
    return showdown(player, banker, rules, banker_barred=banker_barred).outcome
