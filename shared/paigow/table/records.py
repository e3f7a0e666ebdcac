"""The record of a settled round: what the table publishes once the seed is revealed.

A ``RoundRecord`` is public after settlement: it travels once, in ``RoundSettled`` (the table state does
not keep it; the server stores each table's last ones and serves them at ``GET /api/tables/{id}/rounds``).
It holds only the live hands (the players in the round and the house dealer when it played); dead hands
and the four discards are never listed, though anyone can recompute them from the revealed seed with
``paigow verify``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from paigow.rules.house_rules import DragonSetBy
from paigow.rules.showdown import Outcome
from paigow.table.cardtext import CardText

__all__ = ["HOUSE_KEY", "EnvyPay", "HandRecord", "RoundRecord", "SetBy"]

HOUSE_KEY = "house"
"""The payout key of the house dealer's wager when a player banks."""


class SetBy(StrEnum):
    """Who set a hand."""

    PLAYER = "player"
    """The player chose the two low cards."""
    HOUSE_WAY = "house_way"
    """The player asked for the House Way."""
    TIMEOUT = "timeout"
    """The setting deadline passed (or a dropped player's grace time ended): the House Way set it."""
    FOUL_RESET = "foul_reset"
    """A banker's foul, reset by the House Way."""
    DEALER = "dealer"
    """The house dealer's hand, always set by the House Way."""
    HIDDEN = "hidden"
    """How another seat's hand was set, as ``event_for`` shows it before the showdown (never in a record)."""


@dataclass(frozen=True, slots=True)
class EnvyPay:
    """One Envy bonus paid to a Fortune bettor: for the hand at ``position`` (another player's), which
    holds ``fortune`` (four of a kind or better)."""

    position: int
    player_id: str
    fortune: str
    """The paying hand's Fortune category, lower case (``"four_of_a_kind"``)."""
    amount_cents: int


@dataclass(frozen=True, slots=True)
class HandRecord:
    """One live hand of a settled round, as dealt and as set, with its result.

    ``player_id`` is None for the house dealer (position 0). For the banker's hand ``wager_cents`` is 0,
    ``outcome`` is None and the money is in the round record's banker fields.

    The Fortune bonus (when the table offers it): ``fortune`` is the category of the seven dealt cards
    (every live hand's, the dealer's too: the record is public); ``bonus_cents`` the hand's Fortune bet,
    ``bonus_win_cents`` its result (the pay times the bet, or minus the bet), ``envy`` the Envy bonuses it
    collected, and ``bonus_net_cents`` both together. A seat's chips change by ``net_cents`` (the
    banker's: the round's ``banker_net_cents``) plus ``bonus_net_cents``.

    In a barred round (the round's ``dealer_barred``, docs/rules.md §4a rule 2) the cards, names,
    ``set_by``, ``house_way_clause``, ``fouled`` and the Fortune bonus are as without the bar; a player's
    ``outcome`` is ``push`` and its ``gross_cents``, ``commission_cents`` and ``net_cents`` 0 (a foul under
    ``"lose"`` keeps its loss).
    """

    position: int
    player_id: str | None
    dealt: tuple[CardText, ...]
    high: tuple[CardText, ...]
    low: tuple[CardText, ...]
    set_by: SetBy
    fouled: bool
    is_banker: bool
    wager_cents: int
    outcome: Outcome | None
    gross_cents: int
    commission_cents: int
    net_cents: int
    high_name: str
    low_name: str
    house_way_clause: str | None = None
    """When the House Way set the hand (``set_by`` house_way, timeout, foul_reset, dealer): the clause that
    set it, in words (``"two pair, low + high: split"``); None for a hand the player set."""
    fortune: str | None = None
    """The Fortune category of the seven cards, lower case; None when the table had no Fortune bonus."""
    bonus_cents: int = 0
    bonus_win_cents: int = 0
    envy: tuple[EnvyPay, ...] = ()
    bonus_net_cents: int = 0
    dragon_of: int | None = None
    """A Dragon hand (docs/rules.md §4b): the seat of its buyer (``player_id``), whose chips its
    ``net_cents`` changes; ``position`` is the unplayed position it was dealt to. None for any other hand."""
    queens_dragon_cents: int = 0
    """The Queen's Dragon bet beside this hand (EZ tables, docs/rules.md §4a)."""
    queens_dragon_win_cents: int = 0
    """Its result: 50 times the bet when the dealer's hand is a queen-high pai gow, else minus the bet."""

    @property
    def seat(self) -> int:
        """The seat whose chips this hand's money changes (a Dragon's buyer's; else its position)."""
        return self.position if self.dragon_of is None else self.dragon_of


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """A settled round: the fair-deal values, every live hand, and the money."""

    round_id: str
    number: int
    commitment: str
    server_seed: str
    """The revealed seed, hex."""
    dice: tuple[int, int, int]
    first_position: int
    banker_position: int
    banker_player_id: str | None
    """None when the house banked."""
    hands: tuple[HandRecord, ...]
    banker_gross_cents: int
    banker_commission_cents: int
    banker_net_cents: int
    house_net_cents: int
    """Everything the house gained this round: commissions, its own bank or wager result, and
    ``bonus_house_net_cents``."""
    pay_table: str | None = None
    """The Fortune pay table the round was played with; None when the table had no Fortune bonus."""
    bonus_house_net_cents: int = 0
    """The house's result on the Fortune bonus bets it banked: bonuses lost, less wins and Envy paid."""
    dealer_barred: bool = False
    """A commission-free table's house dealer hand was barred (docs/rules.md §4a): every wager pushed (a
    foul under ``"lose"`` lost); the hands keep their cards and names (``HandRecord``)."""
    commission_form: str = "commissioned"
    """The table's ``HouseRules.commission_form`` when the round was played."""
    co_banked: bool = False
    """The player-banker co-banked with the house (docs/rules.md §4c): the banker fields are their half."""
    house_bank_gross_cents: int = 0
    """When co-banked: the house's half of the bank's gross result (in ``house_net_cents``)."""
    dealer_queen_high: bool = False
    """The house dealer's seven cards were a queen-high pai gow (EZ tables)."""
    queens_dragon_house_net_cents: int = 0
    """The house's result on the Queen's Dragon bets (in ``house_net_cents``)."""
    dragon_set_by: DragonSetBy | None = None
    """When a Dragon hand was bought: the table's ``HouseRules.dragon_set_by`` in that round, ``"house_way"``
    (the House Way set it at the deal, unseen until the showdown) or ``"buyer"`` (its buyer set it; its
    ``set_by`` says how: ``player``, ``house_way`` when the buyer asked for the House Way, ``timeout``).
    None when no Dragon was bought, and in records settled before this field."""
