"""Fortune bonus bets: placed in the betting phase beside the main bet, or by the player-banker.

The house banks every bonus, whoever banks the round, so a bonus takes nothing from the bank's coverage.
Checks: the table offers the bonus, the bonus limits, and the player's chips: a bettor's bet and bonus
together, and for the player-banker what their chips hold beyond the bank's obligations (the dealer's wager,
the bets placed and the table minimum for every other seated player still to bet), so that whatever
happens the chips never go below zero. A bonus never stands without a main bet (``bet_removed`` takes it
with it), except the banker's.
"""

from __future__ import annotations

from paigow.table.can import banker_bonus_room
from paigow.table.commands import PlaceBonus
from paigow.table.emitter import Emitter, money, reject
from paigow.table.events import BonusPlaced, BonusRemoved
from paigow.table.queens_dragon_bets import queens_dragon_of
from paigow.table.rejections import RejectCode
from paigow.table.side_bets import check_side_bet_amount, check_side_bet_limits, emit_side_bet, side_bet_at
from paigow.table.state import Phase, SeatPlayer

__all__ = ["bonus_of", "check_bonus", "emit_bonus", "place_bonus"]


def bonus_of(em: Emitter, pos: int) -> int:
    rnd = em.state.round
    return 0 if rnd is None else side_bet_at(rnd.bonuses, pos)


def check_bonus(em: Emitter, pos: int, sp: SeatPlayer, amount: int, main_cents: int,
                queens_dragon_cents: int | None = None) -> None:
    """Refuse a Fortune bonus of ``amount`` (> 0) beside a main bet of ``main_cents`` (0 for the banker) and a
    Queen's Dragon of ``queens_dragon_cents`` (None: the one the seat has; a place_bet may change both)."""
    rules = em.state.rules
    check_side_bet_amount(amount, "Fortune bonus")
    if not rules.fortune_enabled:
        reject(RejectCode.BONUS_OFF, f"table {em.state.table_id!r} does not offer the Fortune bonus")
    check_side_bet_limits(amount, "Fortune bonus", "the bonus", rules.fortune_min_bet_cents,
                          rules.fortune_max_bet_cents)
    rnd = em.round()
    if rnd.banker_position == pos:
        room = banker_bonus_room(em.state)
        if amount > room:
            reject(RejectCode.INSUFFICIENT_CHIPS,
                   f"your Fortune bonus is {money(amount)}; you bank, and your chips beyond what the bank "
                   f"must cover leave {money(max(room, 0))}", amount_cents=amount, limit_cents=max(room, 0))
    elif main_cents + amount + (qd := queens_dragon_of(rnd, pos) if queens_dragon_cents is None
                                else queens_dragon_cents) > sp.chips_cents:
        with_qd = f" and your Queen's Dragon of {money(qd)}" if qd else ""
        reject(RejectCode.INSUFFICIENT_CHIPS,
               f"your bet of {money(main_cents)} and Fortune bonus of {money(amount)}{with_qd} make "
               f"{money(main_cents + amount + qd)}; you have {money(sp.chips_cents)} at the table",
               amount_cents=main_cents + amount + qd, limit_cents=sp.chips_cents)


def emit_bonus(em: Emitter, pos: int, sp: SeatPlayer, amount: int) -> None:
    """The event that makes the seat's bonus ``amount`` (0: none, when it has one)."""
    emit_side_bet(em, bonus_of(em, pos), amount, BonusPlaced(sp.player_id, pos, amount),
                  BonusRemoved(sp.player_id, pos))


def place_bonus(em: Emitter, cmd: PlaceBonus) -> None:
    pos, sp = em.seated(cmd.player_id)
    rnd = em.require_phase(Phase.BETTING, "Fortune bonus bets are placed")
    main = em.bet_of(pos)
    if rnd.banker_position != pos and main == 0:
        reject(RejectCode.NO_BET, f"{sp.name} has no bet: a Fortune bonus is placed beside a bet "
                                  f"(place_bet with bonus_cents places both)")
    if cmd.bonus_cents == 0 and bonus_of(em, pos) == 0:
        reject(RejectCode.NO_BET, f"{sp.name} has no Fortune bonus to take back")
    if cmd.bonus_cents != 0:
        check_bonus(em, pos, sp, cmd.bonus_cents, main)
    emit_bonus(em, pos, sp, cmd.bonus_cents)

