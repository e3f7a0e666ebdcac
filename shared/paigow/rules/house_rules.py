"""``HouseRules``: every point on which casinos vary, held as data and passed in (never a global)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

__all__ = ["DEFAULT_RULES", "MAX_CENTS", "FoulPolicy", "HouseRules", "HouseRulesError", "HouseWayName",
           "WheelRank"]


class WheelRank(StrEnum):
    """Where A-2-3-4-5 ranks among straights: second-highest (Atlantic City) or lowest."""

    SECOND = "second"
    LOW = "low"


class FoulPolicy(StrEnum):
    """What a player's foul set does: refused with a reason (online practice) or an automatic loss."""

    REJECT = "reject"
    LOSE = "lose"


MAX_CENTS = 1_000_000_000
"""The largest amount of money anywhere in the game (ten million dollars): a bet, a buy-in, a table limit,
an operator's credit or debit. Anything larger is refused as absurd."""


class HouseWayName(StrEnum):
    """The published House Way the table sets hands by (docs/rules.md §7, §7a, §7b)."""

    TRUMP_PLAZA = "trump_plaza"
    FOXWOODS = "foxwoods"
    BALLYS_AC = "ballys_ac"

    @property
    def display_name(self) -> str:
        """The casino's name, as the page and the command line show it: ``Bally's Atlantic City``."""
        return _DISPLAY_NAMES[self]


_DISPLAY_NAMES = {HouseWayName.TRUMP_PLAZA: "Trump Plaza", HouseWayName.FOXWOODS: "Foxwoods",
                  HouseWayName.BALLYS_AC: "Bally's Atlantic City"}


class HouseRulesError(ValueError):
    """A house-rules value is out of range; the message names the field and the value."""


@dataclass(frozen=True, slots=True)
class HouseRules:
    wheel: WheelRank = WheelRank.SECOND
    foul_policy: FoulPolicy = FoulPolicy.REJECT
    commission_bps: int = 500
    """Commission on a win, in basis points (500 = 5%)."""
    commission_round_cents: int = 25
    """The commission is rounded up to a multiple of this many cents (1 = exact cents, rounded up)."""
    min_bet_cents: int = 500
    max_bet_cents: int = 30_000
    house_way: HouseWayName = HouseWayName.TRUMP_PLAZA
    """The House Way that sets the dealer's hand, the House Way button, time-outs and foul resets."""

    def __post_init__(self) -> None:
        try:
            object.__setattr__(self, "wheel", WheelRank(self.wheel))
        except ValueError:
            raise HouseRulesError(f"wheel must be 'second' or 'low', not {self.wheel!r}") from None
        try:
            object.__setattr__(self, "foul_policy", FoulPolicy(self.foul_policy))
        except ValueError:
            raise HouseRulesError(
                f"foul_policy must be 'reject' or 'lose', not {self.foul_policy!r}") from None
        try:
            object.__setattr__(self, "house_way", HouseWayName(self.house_way))
        except ValueError:
            choices = ", ".join(repr(str(w)) for w in HouseWayName)
            raise HouseRulesError(f"house_way must be one of {choices}, not {self.house_way!r}") from None
        for name in ("commission_bps", "commission_round_cents", "min_bet_cents", "max_bet_cents"):
            value = getattr(self, name)
            if type(value) is not int:
                raise HouseRulesError(f"{name} must be a whole number, not {value!r}")
        if not 0 <= self.commission_bps <= 10_000:
            raise HouseRulesError(f"commission_bps must be 0..10000 (0%..100%), not {self.commission_bps}")
        if not 1 <= self.commission_round_cents <= 10_000:
            raise HouseRulesError(
                f"commission_round_cents must be 1..10000, not {self.commission_round_cents}")
        for name in ("min_bet_cents", "max_bet_cents"):
            value = getattr(self, name)
            if not 1 <= value <= MAX_CENTS:
                raise HouseRulesError(f"{name} must be from 1 to {MAX_CENTS} cents, not {value}")
        if self.max_bet_cents < self.min_bet_cents:
            raise HouseRulesError(
                f"max_bet_cents ({self.max_bet_cents}) must not be below "
                f"min_bet_cents ({self.min_bet_cents})")


DEFAULT_RULES = HouseRules()
