"""Client messages of a home game's own chips (docs/protocol.md, "A home game's own chips"): a seated
player's ``rebuy``, the withdrawal of one's waiting buy-in or rebuy (``cancel_buy_in``), and the host's
``host_buy_in`` (answer a request), ``host_chips`` (a correction of a player's stack, with its reason) and
``host_chip_settings`` (the chip setting). Like every client message they forbid extra fields and are
strict; each is a table command with an ``id`` that the answer names. A ``sit`` or ``take_seat`` at such a
game keeps its shape: its ``buy_in_cents`` is the buy-in asked for."""

from __future__ import annotations

import unicodedata
from typing import Annotated, Literal, TypeAlias

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from paigow.protocol.home_messages import Cents, ClientId
from paigow.rules.house_rules import MAX_CENTS

__all__ = [
    "CHIP_CLIENT_COMMANDS",
    "CHIP_HOST_MESSAGES",
    "CHIP_MESSAGE_TYPES",
    "FORBIDDEN_REASON_CATEGORIES",
    "MAX_REASON_CHARS",
    "CancelBuyIn",
    "HostBuyIn",
    "HostChipSettings",
    "HostChips",
    "Rebuy",
]

MAX_REASON_CHARS = 200
"""The longest reason of a host's correction, in characters."""
FORBIDDEN_REASON_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
"""Unicode categories a reason may not hold (control, format, surrogate, private-use, unassigned, line and
paragraph separators), as a display name may not."""

RequestId = Annotated[str, Field(min_length=1, max_length=64,
                                 description="A waiting buy-in or rebuy request's id (b1, b2...), as "
                                             "buy_in_requested and view.home.chips.requests name it")]


class _Command(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    id: ClientId


class Rebuy(_Command):
    """A seated player asks for more chips at a home game with rebuys on; the host approves it (or the
    game's "approve buy-ins automatically" does), and it lands between rounds."""

    type: Literal["rebuy"] = "rebuy"
    amount_cents: Cents = Field(description="The rebuy's chips in integer cents, within the game's "
                                            "min_buy_in_cents and max_buy_in_cents")


class CancelBuyIn(_Command):
    """Withdraw one's own waiting buy-in (its held seat frees) or rebuy."""

    type: Literal["cancel_buy_in"] = "cancel_buy_in"
    request_id: RequestId


class HostBuyIn(_Command):
    """The host answers a waiting buy-in or rebuy: approve it (as asked, or with an edited amount) or deny
    it."""

    type: Literal["host_buy_in"] = "host_buy_in"
    request_id: RequestId
    approve: bool = Field(description="true: approve the request; false: deny it")
    amount_cents: Cents | None = Field(default=None, description="With approve true, the chips the host "
                                                                 "grants instead of those asked for, in "
                                                                 "integer cents within the game's buy-in "
                                                                 "bounds (absent: as asked)")

    @model_validator(mode="after")
    def _amount_with_approval(self) -> HostBuyIn:
        if self.amount_cents is not None and not self.approve:
            raise ValueError("amount_cents goes with approve true: a denial grants no chips")
        return self


class HostChips(_Command):
    """The host's correction of a seated player's stack, recorded in the game's ledger with its reason:
    a positive amount adds chips, a negative one takes some back."""

    type: Literal["host_chips"] = "host_chips"
    player_id: str = Field(min_length=1, max_length=64, description="The seated player whose chips change "
                                                                    "(the host may name themselves)")
    amount_cents: int = Field(ge=-MAX_CENTS, le=MAX_CENTS, json_schema_extra={"not": {"const": 0}},
                              description="In integer cents, never 0: > 0 adds chips, < 0 takes them back")
    reason: str = Field(min_length=1, max_length=MAX_REASON_CHARS,
                        description="Why, as everyone at the game reads it in the ledger: 1 to 200 "
                                    "characters, no control, format or line-separator character; its "
                                    "surrounding space is removed and each inner run of space made one")

    @field_validator("amount_cents")
    @classmethod
    def _not_zero(cls, amount: int) -> int:
        if amount == 0:
            raise ValueError("a correction of 0 changes nothing: a positive amount adds chips, a negative "
                             "one takes them back")
        return amount

    @field_validator("reason")
    @classmethod
    def _reason(cls, raw: str) -> str:
        for position, char in enumerate(raw):
            category = unicodedata.category(char)
            if category in FORBIDDEN_REASON_CATEGORIES:
                raise ValueError(f"the character U+{ord(char):04X} (category {category}) at position "
                                 f"{position} is not allowed: no control, format or separator character")
        reason = " ".join(raw.split())
        if not reason:
            raise ValueError("the reason is empty: say why the chips change")
        return reason


class HostChipSettings(_Command):
    """The game's chip setting (any of the five, at least one), checked as a whole: 1 <= min_buy_in_cents
    <= default_buy_in_cents <= max_buy_in_cents <= the operator's cap (view.home.chips.max_buy_in_cap_cents).
    Turning auto_approve on approves every waiting request within the bounds at once."""

    type: Literal["host_chip_settings"] = "host_chip_settings"
    default_buy_in_cents: Cents | None = Field(default=None, description="The buy-in a page offers first, "
                                                                         "in integer cents (absent: "
                                                                         "unchanged)")
    min_buy_in_cents: Cents | None = Field(default=None, description="The smallest buy-in or rebuy, in "
                                                                     "integer cents (absent: unchanged)")
    max_buy_in_cents: Cents | None = Field(default=None, description="The largest buy-in or rebuy, in "
                                                                     "integer cents (absent: unchanged)")
    rebuys: bool | None = Field(default=None, description="Whether seated players may ask for a rebuy "
                                                          "(absent: unchanged)")
    auto_approve: bool | None = Field(default=None, description="Approve buy-ins and rebuys automatically "
                                                                "(absent: unchanged)")

    @model_validator(mode="after")
    def _some(self) -> HostChipSettings:
        if not self.changes():
            raise ValueError("host_chip_settings needs at least one of default_buy_in_cents, "
                             "min_buy_in_cents, max_buy_in_cents, rebuys, auto_approve")
        return self

    def changes(self) -> dict[str, int | bool]:
        names = ("default_buy_in_cents", "min_buy_in_cents", "max_buy_in_cents", "rebuys", "auto_approve")
        return {n: v for n in names if (v := getattr(self, n)) is not None}


CHIP_CLIENT_COMMANDS: TypeAlias = Rebuy | CancelBuyIn | HostBuyIn | HostChips | HostChipSettings
CHIP_HOST_MESSAGES: TypeAlias = HostBuyIn | HostChips | HostChipSettings
"""The host's messages among them (audited, within ``host_messages_per_minute``)."""

CHIP_MESSAGE_TYPES: tuple[str, ...] = ("rebuy", "cancel_buy_in", "host_buy_in", "host_chips",
                                       "host_chip_settings")
