"""What every side bet beside the main bet shares (the Fortune bonus, ``fortune_bets``; the Queen's Dragon,
``queens_dragon_bets``): the amount a seat has on it, the check of an amount against its limits, and the
event that sets it (placed, or removed when 0 takes it back)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from paigow.table.emitter import Emitter, money, reject
from paigow.table.events import Event
from paigow.table.rejections import RejectCode

__all__ = ["check_side_bet_amount", "check_side_bet_limits", "emit_side_bet", "side_bet_at"]


class _PlacedBet(Protocol):
    @property
    def position(self) -> int: ...
    @property
    def amount_cents(self) -> int: ...


def side_bet_at(bets: Iterable[_PlacedBet], pos: int) -> int:
    """The amount of the side bet at ``pos`` among ``bets`` (0: none)."""
    return next((b.amount_cents for b in bets if b.position == pos), 0)


def check_side_bet_amount(amount: object, what: str) -> None:
    """Refuse an ``amount`` of the side bet ``what`` ("Fortune bonus") that is not a whole number of cents
    or is negative."""
    if type(amount) is not int:
        reject(RejectCode.INVALID_VALUE, f"a {what} is a whole number of cents, not {amount!r}")
    if amount < 0:
        reject(RejectCode.INVALID_VALUE, f"a {what} is 0 (none) or more cents, not {amount}")


def check_side_bet_limits(amount: int, what: str, limits: str, min_cents: int, max_cents: int) -> None:
    """Refuse an ``amount`` of the side bet ``what`` outside ``min_cents``–``max_cents`` (``limits`` names
    whose they are in the message: "the bonus", "its")."""
    if amount < min_cents:
        reject(RejectCode.BELOW_MINIMUM,
               f"your {what} is {money(amount)}; {limits} minimum is {money(min_cents)}",
               amount_cents=amount, limit_cents=min_cents)
    if amount > max_cents:
        reject(RejectCode.ABOVE_MAXIMUM,
               f"your {what} is {money(amount)}; {limits} maximum is {money(max_cents)}",
               amount_cents=amount, limit_cents=max_cents)


def emit_side_bet(em: Emitter, had_cents: int, amount: int, placed: Event, removed: Event) -> None:
    """Emit ``placed`` for an amount, or ``removed`` for 0 when the seat ``had_cents`` on the bet (0 with none
    is nothing to do)."""
    if amount:
        em.emit(placed)
    elif had_cents:
        em.emit(removed)
