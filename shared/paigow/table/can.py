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

from paigow.rules.house_rules import DragonSetBy
from paigow.table.cobank import cobank_coverage_left, half_up
from paigow.table.queens_dragon_bets import queens_dragon_of, queens_dragon_room
from paigow.table.state import DEALER_POSITION, Phase, TableState

__all__ = ["BetRange", "Can", "banker_bonus_room", "can_of", "coverage_left", "dragon_range"]


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
    queens_dragon: BetRange | None = None
    """A Queen's Dragon bet in this range is accepted now (EZ tables, the house banks), beside your bet
    (or a bet of ``bet.min_cents``) and Fortune bonus."""
    dragon: BetRange | None = None
    """The Dragon hand is offered to you now: ``take_dragon`` with a wager in this range, or
    ``pass_dragon``."""
    set_dragon: bool = False
    """You bought the Dragon and set it (``dragon_set_by`` ``"buyer"``): ``set_dragon`` now."""
    co_bank: bool = False
    """With ``answer_bank``: ``accept_bank`` may co-bank with the house (``co_bank``)."""


NOTHING = Can(None, False, False, False)


def coverage_left(state: TableState, excluding_pos: int | None = None) -> int | None:
    """How much more wager a player-bank covers: its chips less the dealer's wager, the banker's own Fortune
    bonus, a bought Dragon's wager and every bet but the one at ``excluding_pos`` (None: no round, or the
    house banks); at a co-bank, wager too (``cobank_coverage_left``: twice the co-banker's chips left). The
    players' Fortune bonuses are banked by the house and take nothing from it."""
    rnd = state.round
    banker = rnd.banker_position if rnd is not None else None
    if rnd is None or banker is None or banker == DEALER_POSITION:
        return None
    bank = state.seats[banker]
    if bank is None:
        return None
    if rnd.co_banked:
        return cobank_coverage_left(rnd, bank, excluding_pos)
    others = sum(b.amount_cents for b in rnd.bets if b.position != excluding_pos)
    own_bonus = sum(b.amount_cents for b in rnd.bonuses if b.position == banker)
    dragon = rnd.dragon.wager_cents if rnd.dragon is not None else 0
    return bank.chips_cents - rnd.dealer_wager_cents - own_bonus - others - dragon


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
    if rnd.co_banked:  # ``left`` counts wager, twice the co-banker's chips it leaves
        return left // 2 + own_bonus - half_up(state.rules.min_bet_cents) * waiting
    return left + own_bonus - state.rules.min_bet_cents * waiting


def _bonus_range(state: TableState, top: int) -> BetRange | None:
    rules = state.rules
    if not rules.fortune_enabled:
        return None
    top = min(top, rules.fortune_max_bet_cents)
    return BetRange(rules.fortune_min_bet_cents, top) if top >= rules.fortune_min_bet_cents else None


def dragon_range(state: TableState, seat: int) -> BetRange | None:
    """The Dragon wagers the player at ``seat`` could place now (None: they cannot buy it)."""
    rules = state.rules
    rnd = state.round
    sp = state.seats[seat]
    if rnd is None or sp is None or not sp.playing or seat == rnd.banker_position:
        return None
    main = next((b.amount_cents for b in rnd.bets if b.position == seat), 0)
    if main == 0:
        return None
    bonus = next((b.amount_cents for b in rnd.bonuses if b.position == seat), 0)
    top = min(rules.dragon_max_bet_cents or main, rules.max_bet_cents,
              sp.chips_cents - main - bonus - queens_dragon_of(rnd, seat))
    left = coverage_left(state)
    if left is not None:
        top = min(top, left)
    return BetRange(rules.min_bet_cents, top) if top >= rules.min_bet_cents else None


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
        qd = None if bet is None and main == 0 else queens_dragon_room(
            state, position, main or rules.min_bet_cents, own_bonus)
        return Can(bet, main > 0, False, False, bonus,
                   None if qd is None else BetRange(rules.queens_dragon_min_bet_cents, qd))
    if phase == Phase.BANK_OFFER:
        offered = rnd.offer_player_id == sp.player_id
        return Can(None, False, offered, False, co_bank=offered and state.rules.co_banking)
    if phase == Phase.DRAGON_OFFER:
        offered = rnd.dragon is not None and rnd.dragon.offered_seat == position
        return Can(None, False, False, False, dragon=dragon_range(state, position) if offered else None)
    if phase == Phase.SETTING:
        d = rnd.dragon
        own = any(h.position == position for h in rnd.hands)
        if rnd.co_banked and rnd.banker_position == position:
            own = False
        mine = (d is not None and d.buyer_position == position and bool(d.cards)
                and state.rules.dragon_set_by is DragonSetBy.BUYER)
        return Can(None, False, False, own, set_dragon=mine)
    return NOTHING
