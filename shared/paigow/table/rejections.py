"""Rejections: a refused command, with a stable code and a message that names the values involved.

``Rejection`` is a ``ValueError``; ``decide`` raises it and a rejected command changes nothing. Besides its
English message it may carry the amounts it names as ``fields`` (``REJECTION_FIELDS``), so that a client
words it in its own language.
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["REJECTION_FIELDS", "RejectCode", "Rejection"]

REJECTION_FIELDS = ("amount_cents", "limit_cents", "until_ms")
"""The values a rejection may carry beside its message: ``amount_cents``, the amount refused, and
``limit_cents``, the limit it passed (the minimum for ``BELOW_MINIMUM``; the maximum for ``ABOVE_MAXIMUM``,
your own for ``ABOVE_OWN_LIMIT``; your chips for ``INSUFFICIENT_CHIPS``; what the bank still covers for
``BET_OVER_COVERAGE``); ``until_ms``, when the refusal ends (``LIMIT_RAISE_TOO_SOON``: the next raise)."""


class RejectCode(StrEnum):
    # who may act
    NOT_SEATED = "NOT_SEATED"
    """The player has no seat at this table."""
    NOT_YOUR_SEAT = "NOT_YOUR_SEAT"
    """The command is not this player's to make (e.g. answering a bank offer made to someone else)."""
    NOT_IN_ROUND = "NOT_IN_ROUND"
    """The player has no bet / hand in the round in progress."""
    ALREADY_SEATED = "ALREADY_SEATED"
    SEAT_TAKEN = "SEAT_TAKEN"
    NO_SUCH_SEAT = "NO_SUCH_SEAT"
    BANKER_CANNOT_BET = "BANKER_CANNOT_BET"
    NOT_HOST = "NOT_HOST"
    """A host's command by anyone but this table's host."""
    NOT_PRIVATE = "NOT_PRIVATE"
    """A host's command, or a seat request, at a public table."""
    APPROVAL_REQUIRED = "APPROVAL_REQUIRED"
    """A sit (or a place on the waiting list) at an ``approval`` table without the host's approval."""
    NO_REQUEST = "NO_REQUEST"
    REQUESTS_FULL = "REQUESTS_FULL"
    SEAT_RESERVED = "SEAT_RESERVED"
    """The seat is held for a waiting player's offer."""
    SEATS_FREE = "SEATS_FREE"
    """The waiting list is for a full table: a seat is free, sit down."""
    NOT_WAITING = "NOT_WAITING"
    NO_OFFER = "NO_OFFER"
    WAITLIST_FULL = "WAITLIST_FULL"
    REBUYS_OFF = "REBUYS_OFF"
    """A rebuy at a home game whose chip setting allows none (or that plays with casino balances)."""
    LEDGER_FULL = "LEDGER_FULL"
    """A buy-in, rebuy or correction past a home game's ``MAX_CHIP_LINES`` ledger lines."""
    # when
    WRONG_PHASE = "WRONG_PHASE"
    NO_ROUND = "NO_ROUND"
    TABLE_CLOSED = "TABLE_CLOSED"
    ALREADY_DONE = "ALREADY_DONE"
    """The table is already in the asked-for state (paused, open, ...)."""
    # money
    BELOW_MINIMUM = "BELOW_MINIMUM"
    ABOVE_MAXIMUM = "ABOVE_MAXIMUM"
    ABOVE_OWN_LIMIT = "ABOVE_OWN_LIMIT"
    LIMIT_RAISE_TOO_SOON = "LIMIT_RAISE_TOO_SOON"
    BET_OVER_COVERAGE = "BET_OVER_COVERAGE"
    INSUFFICIENT_CHIPS = "INSUFFICIENT_CHIPS"
    NO_BET = "NO_BET"
    BONUS_OFF = "BONUS_OFF"
    """The table does not offer the Fortune bonus."""
    QUEENS_DRAGON_OFF = "QUEENS_DRAGON_OFF"
    """The table does not offer the Queen's Dragon (only EZ tables may)."""
    QUEENS_DRAGON_HOUSE_BANK_ONLY = "QUEENS_DRAGON_HOUSE_BANK_ONLY"
    """A Queen's Dragon bet in a round a player banks: it is a bet on the house dealer's hand."""
    CO_BANKING_OFF = "CO_BANKING_OFF"
    """An ``accept_bank`` with ``co_bank`` at a table that does not offer co-banking."""
    # hands
    FOUL = "FOUL"
    INVALID_CARDS = "INVALID_CARDS"
    NOT_YOUR_CARDS = "NOT_YOUR_CARDS"
    # values
    INVALID_VALUE = "INVALID_VALUE"


class Rejection(ValueError):
    """A command the table refuses: ``code`` (stable, for programs) and ``message`` (for people)."""

    def __init__(self, code: RejectCode, message: str, *, amount_cents: int | None = None,
                 limit_cents: int | None = None, until_ms: int | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.amount_cents = amount_cents
        self.limit_cents = limit_cents
        self.until_ms = until_ms

    @property
    def fields(self) -> dict[str, int]:
        """The ``REJECTION_FIELDS`` it carries (none: ``{}``)."""
        return {name: value for name in REJECTION_FIELDS if (value := getattr(self, name)) is not None}
