"""Bets: placed or changed during the betting phase, within the table limits, the player's own limit, the
player's chips and, when a player banks, the bank's remaining coverage (opposing wagers, the dealer's
included, never exceed the banker's chips). A sitting-out player who bets is sat in. ``place_bet`` may
carry the Fortune bonus with it (``paigow.table.fortune_bets``); ``remove_bet`` takes both back."""

from __future__ import annotations

from paigow.table.can import coverage_left
from paigow.table.commands import PlaceBet, RemoveBet
from paigow.table.dealing import maybe_deal
from paigow.table.emitter import Emitter, money, reject
from paigow.table.events import BetPlaced, BetRemoved, PlayerSatIn
from paigow.table.fortune_bets import bonus_of, check_bonus, emit_bonus
from paigow.table.queens_dragon_bets import check_queens_dragon, emit_queens_dragon, queens_dragon_of
from paigow.table.rejections import RejectCode
from paigow.table.state import DeadlineKind, Phase, SeatStatus

__all__ = ["place_bet", "remove_bet"]


def place_bet(em: Emitter, cmd: PlaceBet) -> None:
    pos, sp = em.seated(cmd.player_id)
    rnd = em.require_phase(Phase.BETTING, "bets are placed")
    amount = cmd.amount_cents
    rules = em.state.rules
    if rnd.banker_position == pos:
        reject(RejectCode.BANKER_CANNOT_BET, f"{sp.name} banks round {rnd.round_id} and cannot also bet")
    if type(amount) is not int:
        reject(RejectCode.INVALID_VALUE, f"a bet is a whole number of cents, not {amount!r}")
    if amount < rules.min_bet_cents:
        reject(RejectCode.BELOW_MINIMUM,
               f"your bet is {money(amount)}; the table minimum is {money(rules.min_bet_cents)}",
               amount_cents=amount, limit_cents=rules.min_bet_cents)
    if amount > rules.max_bet_cents:
        reject(RejectCode.ABOVE_MAXIMUM,
               f"your bet is {money(amount)}; the table maximum is {money(rules.max_bet_cents)}",
               amount_cents=amount, limit_cents=rules.max_bet_cents)
    if sp.own_max_bet_cents is not None and amount > sp.own_max_bet_cents:
        reject(RejectCode.ABOVE_OWN_LIMIT,
               f"your bet is {money(amount)}; your own limit is {money(sp.own_max_bet_cents)}",
               amount_cents=amount, limit_cents=sp.own_max_bet_cents)
    if amount > sp.chips_cents:
        reject(RejectCode.INSUFFICIENT_CHIPS,
               f"your bet is {money(amount)}; you have {money(sp.chips_cents)} at the table",
               amount_cents=amount, limit_cents=sp.chips_cents)
    left = coverage_left(em.state, pos)
    if left is not None and amount > left:
        reject(RejectCode.BET_OVER_COVERAGE,
               f"the bank covers {money(max(left, 0))} more; your bet is {money(amount)}",
               amount_cents=amount, limit_cents=max(left, 0))
    bonus = bonus_of(em, pos) if cmd.bonus_cents is None else cmd.bonus_cents
    qd = queens_dragon_of(rnd, pos) if cmd.queens_dragon_cents is None else cmd.queens_dragon_cents
    if bonus:
        # Beside the Queen's Dragon as this command leaves it (a whole number: else checked below).
        check_bonus(em, pos, sp, bonus, amount, qd if type(qd) is int else None)
    elif bonus != 0:
        reject(RejectCode.INVALID_VALUE, f"a Fortune bonus is 0 (none) or more cents, not {bonus!r}")
    if qd != 0:
        check_queens_dragon(em, sp, qd, amount, bonus)
    if sp.status == SeatStatus.SITTING_OUT:
        em.emit(PlayerSatIn(sp.player_id, pos))
    em.emit(BetPlaced(sp.player_id, pos, amount))
    emit_bonus(em, pos, sp, bonus)
    emit_queens_dragon(em, pos, sp, qd)
    if em.state.deadline is None:
        # The betting deadline passed with no bets: the first bet starts a new one.
        em.set_deadline(DeadlineKind.BETTING, em.state.timers.betting_ms, cmd.now_ms)
    maybe_deal(em, cmd.now_ms)


def remove_bet(em: Emitter, cmd: RemoveBet) -> None:
    pos, _ = em.seated(cmd.player_id)
    em.require_phase(Phase.BETTING, "bets are removed")
    if em.bet_of(pos) == 0:
        reject(RejectCode.NO_BET, f"player {cmd.player_id!r} has no bet to remove")
    em.emit(BetRemoved(cmd.player_id, pos))
