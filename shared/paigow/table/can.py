"""What a seated player may do now, and within what limits: ``can_of(state, position)``.

The view carries it (``YouView.can``), so a client offers exactly the actions the table would take, with
the bet range it would accept, instead of working the rules out again. Each answer is the table's own
check, read without deciding anything: a ``place_bet`` of an amount in ``bet`` is accepted, any other
amount refused; ``answer_bank`` means ``accept_bank`` and ``decline_bank`` are taken; ``set_hand`` means
``set_hand`` (of a split that is not a foul) and ``use_house_way`` are; ``remove_bet`` likewise. The tests
hold every answer against ``decide`` on the states of played rounds.
"""

from __future__ import annotations

from dataclasses import dataclass

from paigow.table.state import DEALER_POSITION, Phase, TableState

__all__ = ["BetRange", "Can", "banker_bonus_room", "can_of", "coverage_left"]


@dataclass(frozen=True, slots=True)
class BetRange:
    """A bet of ``min_cents`` to ``max_cents`` (both included) is accepted now."""

    min_cents: int
    max_cents: int


@dataclass(frozen=True, slots=True)
class Can:
    bet: BetRange | None
    """Place (or change) the bet now, within this range; None: no bet can be placed now (not the betting
    phase, you bank, or your chips, your own limit or the bank's coverage leave less than the minimum)."""
    remove_bet: bool
    answer_bank: bool
    """The bank is offered to you now: ``accept_bank`` or ``decline_bank``."""
    set_hand: bool
    """Your hand is dealt and hands are being set: ``set_hand`` or ``use_house_way`` (again, until the
    showdown)."""
    bonus: BetRange | None = None
    """A Fortune bonus in this range is accepted now: by ``place_bonus`` when you have a bet or bank the
    round; without a bet, as ``place_bet``'s ``bonus_cents`` beside a bet of ``bet.min_cents`` (a larger
    bet leaves less: bet and bonus together never exceed your chips). None: the table has no bonus, it is
    not the betting phase, you can place no bet, or your chips leave less than the bonus minimum."""


NOTHING = Can(None, False, False, False)


def coverage_left(state: TableState, excluding_pos: int | None = None) -> int | None:
    """How much more a player-bank covers: its chips less the dealer's wager, the banker's own Fortune
    bonus and every bet but the one at ``excluding_pos`` (None: no round, or the house banks). The
    players' Fortune bonuses are banked by the house and take nothing from it."""
    rnd = state.round
    banker = rnd.banker_position if rnd is not None else None
    if rnd is None or banker is None or banker == DEALER_POSITION:
        return None
    bank = state.seats[banker]
    if bank is None:
        return None
    others = sum(b.amount_cents for b in rnd.bets if b.position != excluding_pos)
    own_bonus = sum(b.amount_cents for b in rnd.bonuses if b.position == banker)
    return bank.chips_cents - rnd.dealer_wager_cents - own_bonus - others


def banker_bonus_room(state: TableState) -> int:
    """The most the player-banker may put on a Fortune bonus now: their chips less the dealer's wager,
    the bets placed, and the table minimum for every other seated player who has not bet (the bank keeps
    covering them, as when it was offered). 0 when no player banks."""
    rnd = state.round
    left = coverage_left(state, rnd.banker_position if rnd is not None else None)
    if rnd is None or left is None:
        return 0
    own_bonus = sum(b.amount_cents for b in rnd.bonuses if b.position == rnd.banker_position)
    bettors = {b.position for b in rnd.bets}
    waiting = sum(1 for pos, sp in enumerate(state.seats)
                  if sp is not None and pos != rnd.banker_position and pos not in bettors)
    return left + own_bonus - state.rules.min_bet_cents * waiting


def _bonus_range(state: TableState, top: int) -> BetRange | None:
    rules = state.rules
    if not rules.fortune_enabled:
        return None
    top = min(top, rules.fortune_max_bet_cents)
    return BetRange(rules.fortune_min_bet_cents, top) if top >= rules.fortune_min_bet_cents else None


def can_of(state: TableState, position: int) -> Can:
    """What the player seated at ``position`` may do now (``NOTHING`` for an empty seat)."""
    sp = state.seats[position] if 0 <= position < len(state.seats) else None
    rnd = state.round
    if sp is None or rnd is None:
        return NOTHING
    phase = state.phase
    if phase == Phase.BETTING:
        if rnd.banker_position == position:
            return Can(None, False, False, False, _bonus_range(state, banker_bonus_room(state)))
        rules = state.rules
        own_bonus = next((b.amount_cents for b in rnd.bonuses if b.position == position), 0)
        top = min(rules.max_bet_cents, sp.chips_cents - own_bonus)
        if sp.own_max_bet_cents is not None:
            top = min(top, sp.own_max_bet_cents)
        left = coverage_left(state, position)
        if left is not None:
            top = min(top, left)
        main = next((b.amount_cents for b in rnd.bets if b.position == position), 0)
        bet = BetRange(rules.min_bet_cents, top) if top >= rules.min_bet_cents else None
        bonus = None if bet is None and main == 0 else _bonus_range(
            state, sp.chips_cents - (main or rules.min_bet_cents))
        return Can(bet, main > 0, False, False, bonus)
    if phase == Phase.BANK_OFFER:
        return Can(None, False, rnd.offer_player_id == sp.player_id, False)
    if phase == Phase.SETTING:
        return Can(None, False, False, any(h.position == position for h in rnd.hands))
    return NOTHING
