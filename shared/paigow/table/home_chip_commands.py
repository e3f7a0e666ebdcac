"""Commands of a home game's own chips (``paigow.table.home_chips``; ``commands.Command`` holds the players'
ones, ``home_commands.HostAction`` the host's)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypeAlias

__all__ = ["CHIP_COMMANDS", "AdjustChips", "AnswerBuyIn", "CancelBuyIn", "ChangeChips", "Rebuy"]


@dataclass(frozen=True, slots=True)
class Rebuy:
    """A seated player asks for ``amount_cents`` more chips."""

    player_id: str
    amount_cents: int
    kind: Literal["rebuy"] = "rebuy"


@dataclass(frozen=True, slots=True)
class CancelBuyIn:
    """The requester withdraws their waiting buy-in or rebuy."""

    player_id: str
    request_id: str
    kind: Literal["cancel_buy_in"] = "cancel_buy_in"


@dataclass(frozen=True, slots=True)
class AnswerBuyIn:
    """The host's answer to a waiting request: approve (``amount_cents``: an edited amount; None: as asked)
    or deny."""

    request_id: str
    approve: bool
    amount_cents: int | None = None
    kind: Literal["answer_buy_in"] = "answer_buy_in"


@dataclass(frozen=True, slots=True)
class AdjustChips:
    """The host's correction of a seated player's stack: > 0 adds, < 0 takes back, with a reason."""

    player_id: str
    amount_cents: int
    reason: str
    kind: Literal["adjust_chips"] = "adjust_chips"


@dataclass(frozen=True, slots=True)
class ChangeChips:
    """The host changes the chip setting (None: keep that part), checked as a whole."""

    default_buy_in_cents: int | None = None
    min_buy_in_cents: int | None = None
    max_buy_in_cents: int | None = None
    rebuys: bool | None = None
    auto_approve: bool | None = None
    kind: Literal["change_chips"] = "change_chips"


CHIP_COMMANDS: TypeAlias = Rebuy | CancelBuyIn
"""The players' commands (in ``commands.Command``); ``AnswerBuyIn``, ``AdjustChips`` and ``ChangeChips``
are host actions (``home_commands.HostAction``)."""
