"""``HouseRules``: every point on which casinos vary, held as data and passed in (never a global)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .fortune import DEFAULT_PAY_TABLE, PAY_TABLES, FortunePayTable

__all__ = ["DEFAULT_RULES", "MAX_CENTS", "CommissionForm", "DragonSetBy", "FoulPolicy", "HouseRules",
           "HouseRulesError", "HouseWayName", "WheelRank"]


class WheelRank(StrEnum):
    """Where A-2-3-4-5 ranks among straights: second-highest (Atlantic City) or lowest."""

    SECOND = "second"
    LOW = "low"


class FoulPolicy(StrEnum):
    """What a player's foul set does: refused with a reason (online practice) or an automatic loss."""

    REJECT = "reject"
    LOSE = "lose"


class CommissionForm(StrEnum):
    """How the house takes its edge on the main bet (docs/rules.md §4, §4a).

    ``COMMISSIONED``: a win pays even money less the commission (``commission_bps``). The two
    commission-free forms pay a win even money and instead bar one kind of house dealer hand, against which
    every player's wager pushes: ``EZ`` a queen-high pai gow (the dealer's seven cards), ``NINE_HIGH`` a
    nine-high low hand (the dealer's House Way front). When a player banks, the round is commissioned.
    """

    COMMISSIONED = "commissioned"
    EZ = "ez"
    NINE_HIGH = "nine_high"

    @property
    def is_commission_free(self) -> bool:
        return self is not CommissionForm.COMMISSIONED

    @property
    def display_name(self) -> str:
        """``EZ Pai Gow (queen-high pai gow pushes)``, as the command line shows it."""
        return _FORM_NAMES[self]


_FORM_NAMES = {CommissionForm.COMMISSIONED: "commissioned (5% of a win)",
               CommissionForm.EZ: "EZ Pai Gow (no commission; a queen-high pai gow dealer pushes)",
               CommissionForm.NINE_HIGH: "9-high commission-free (no commission; a 9-high dealer low pushes)"}


class DragonSetBy(StrEnum):
    """Who sets a bought Dragon hand (docs/rules.md §4b): the House Way (the buyer sees it only at the
    showdown, as casinos generally require) or the buyer (who sees it at the deal and sets it)."""

    HOUSE_WAY = "house_way"
    BUYER = "buyer"


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
    fortune_enabled: bool = False
    """Whether players may make the Fortune bonus bet (docs/fortune.md) beside the main bet."""
    fortune_pay_table: str = DEFAULT_PAY_TABLE.name
    """The Fortune pay table by name (``paigow.rules.fortune.PAY_TABLES``)."""
    fortune_min_bet_cents: int = 100
    fortune_max_bet_cents: int = 10_000
    envy_min_bet_cents: int = 500
    """A Fortune bet of at least this much is also paid the Envy bonus."""
    player_banking: bool = True
    """Whether a player may take the bank (False: the house banks every round)."""
    commission_form: CommissionForm = CommissionForm.COMMISSIONED
    """Commissioned (the default), or commission-free: ``"ez"`` or ``"nine_high"`` (``CommissionForm``)."""
    queens_dragon_enabled: bool = False
    """The Queen's Dragon side bet (EZ tables only, docs/rules.md §4a): 50 to 1 on a queen-high pai gow
    dealer hand, offered in house-banked rounds."""
    queens_dragon_min_bet_cents: int = 100
    queens_dragon_max_bet_cents: int = 10_000
    dragon_enabled: bool = False
    """The Dragon hand (docs/rules.md §4b): an unplayed hand offered to the seated players in turn."""
    dragon_set_by: DragonSetBy = DragonSetBy.HOUSE_WAY
    dragon_max_bet_cents: int | None = None
    """The most a Dragon wager may be; None: at most the buyer's main wager."""
    dragon_offer_ms: int = 10_000
    """How long each player has to take or pass the Dragon hand."""
    co_banking: bool = False
    """Co-banking (docs/rules.md §4c): a player who takes the bank may bank half and half with the house."""
    players_bank_in_turn: bool = False
    """A home game's banking among friends (docs/rules.md §6a): the bank passes only among the seated
    players, the house dealer plays no hand and banks no round. Needs ``player_banking`` and no
    ``co_banking``."""

    @property
    def fortune_table(self) -> FortunePayTable:
        """The Fortune pay table in force (with this table's Envy minimum)."""
        return PAY_TABLES[self.fortune_pay_table]

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
        try:
            object.__setattr__(self, "commission_form", CommissionForm(self.commission_form))
        except ValueError:
            choices = ", ".join(repr(str(f)) for f in CommissionForm)
            raise HouseRulesError(
                f"commission_form must be one of {choices}, not {self.commission_form!r}") from None
        for name in _WHOLE_NUMBERS:
            value = getattr(self, name)
            if type(value) is not int:
                raise HouseRulesError(f"{name} must be a whole number, not {value!r}")
        if not 0 <= self.commission_bps <= 10_000:
            raise HouseRulesError(f"commission_bps must be 0..10000 (0%..100%), not {self.commission_bps}")
        if not 1 <= self.commission_round_cents <= 10_000:
            raise HouseRulesError(
                f"commission_round_cents must be 1..10000, not {self.commission_round_cents}")
        for name in _AMOUNTS:
            value = getattr(self, name)
            if not 1 <= value <= MAX_CENTS:
                raise HouseRulesError(f"{name} must be from 1 to {MAX_CENTS} cents, not {value}")
        for low, high in (("min_bet_cents", "max_bet_cents"),
                          ("fortune_min_bet_cents", "fortune_max_bet_cents")):
            if getattr(self, high) < getattr(self, low):
                raise HouseRulesError(
                    f"{high} ({getattr(self, high)}) must not be below {low} ({getattr(self, low)})")
        self._check_fortune()
        self._check_variants()

    def _check_variants(self) -> None:
        try:
            object.__setattr__(self, "dragon_set_by", DragonSetBy(self.dragon_set_by))
        except ValueError:
            raise HouseRulesError(
                f"dragon_set_by must be 'house_way' or 'buyer', not {self.dragon_set_by!r}") from None
        for name in ("queens_dragon_enabled", "dragon_enabled", "co_banking", "players_bank_in_turn"):
            if type(getattr(self, name)) is not bool:
                raise HouseRulesError(f"{name} must be true or false, not {getattr(self, name)!r}")
        for name in ("queens_dragon_min_bet_cents", "queens_dragon_max_bet_cents"):
            value = getattr(self, name)
            if type(value) is not int or not 1 <= value <= MAX_CENTS:
                raise HouseRulesError(f"{name} must be from 1 to {MAX_CENTS} cents, not {value!r}")
        if self.queens_dragon_max_bet_cents < self.queens_dragon_min_bet_cents:
            raise HouseRulesError(f"queens_dragon_max_bet_cents ({self.queens_dragon_max_bet_cents}) must "
                                  f"not be below queens_dragon_min_bet_cents "
                                  f"({self.queens_dragon_min_bet_cents})")
        if self.queens_dragon_enabled and self.commission_form is not CommissionForm.EZ:
            raise HouseRulesError("queens_dragon_enabled: the Queen's Dragon is offered only on EZ tables "
                                  f"(commission_form 'ez'), not {str(self.commission_form)!r}")
        top = self.dragon_max_bet_cents
        if top is not None and (type(top) is not int or not self.min_bet_cents <= top <= MAX_CENTS):
            raise HouseRulesError(f"dragon_max_bet_cents must be null (up to the buyer's main wager) or from "
                                  f"min_bet_cents ({self.min_bet_cents}) to {MAX_CENTS} cents, not {top!r}")
        if type(self.dragon_offer_ms) is not int or not 1_000 <= self.dragon_offer_ms <= 600_000:
            raise HouseRulesError(f"dragon_offer_ms must be a whole number of ms in 1000..600000, not "
                                  f"{self.dragon_offer_ms!r}")
        if self.players_bank_in_turn and not self.player_banking:
            raise HouseRulesError("players_bank_in_turn: the players bank in turn only where a player may "
                                  "take the bank (player_banking true), not with player_banking false")
        if self.players_bank_in_turn and self.co_banking:
            raise HouseRulesError("players_bank_in_turn: when the players bank in turn the house banks "
                                  "nothing, so co_banking (half each with the house) must be false")

    def _check_fortune(self) -> None:
        if type(self.fortune_enabled) is not bool:
            raise HouseRulesError(f"fortune_enabled must be true or false, not {self.fortune_enabled!r}")
        if type(self.player_banking) is not bool:
            raise HouseRulesError(f"player_banking must be true or false, not {self.player_banking!r}")
        if not isinstance(self.fortune_pay_table, str) or self.fortune_pay_table not in PAY_TABLES:
            choices = ", ".join(repr(name) for name in PAY_TABLES)
            raise HouseRulesError(
                f"fortune_pay_table must be one of {choices}, not {self.fortune_pay_table!r}")


_WHOLE_NUMBERS = ("commission_bps", "commission_round_cents", "min_bet_cents", "max_bet_cents",
                  "fortune_min_bet_cents", "fortune_max_bet_cents", "envy_min_bet_cents")
_AMOUNTS = ("min_bet_cents", "max_bet_cents", "fortune_min_bet_cents", "fortune_max_bet_cents",
            "envy_min_bet_cents")


DEFAULT_RULES = HouseRules()
