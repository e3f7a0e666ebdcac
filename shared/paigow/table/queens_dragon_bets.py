"""The Queen's Dragon side bet at the table (EZ tables; docs/rules.md §4a), in the Fortune bonus's pattern
(``fortune_bets``): placed in the betting phase beside the main bet (``PlaceBet.queens_dragon_cents``) or
alone (``PlaceQueensDragon``), taken back with the bet, banked by the house, no commission.

It is a bet on the house dealer's seven cards, so it is offered only in house-banked rounds. Checks: the
table offers it, the house banks, its limits, and the player's chips (bet, Fortune bonus and Queen's Dragon
together). Settled with the round: 50 to 1 when the dealer's hand is a queen-high pai gow, else lost.
"""

from __future__ import annotations

from paigow.rules.cards import Card
from paigow.rules.house_rules import CommissionForm
from paigow.rules.queen_high import is_queen_high_pai_gow
from paigow.rules.queens_dragon import QUEENS_DRAGON_PAYS
from paigow.table.emitter import Emitter, money, reject
from paigow.table.rejections import RejectCode
from paigow.table.side_bets import check_side_bet_amount, check_side_bet_limits, emit_side_bet, side_bet_at
from paigow.table.state import DEALER_POSITION, Phase, Round, SeatPlayer, TableState
from paigow.table.variant_commands import PlaceQueensDragon
from paigow.table.variant_events import QueensDragonPlaced, QueensDragonRemoved

__all__ = ["check_queens_dragon", "emit_queens_dragon", "place_queens_dragon", "queens_dragon_of",
           "queens_dragon_results", "queens_dragon_room"]


def queens_dragon_of(rnd: Round | None, pos: int) -> int:
    return 0 if rnd is None else side_bet_at(rnd.queens_dragon_bets, pos)


def queens_dragon_room(state: TableState, pos: int, main_cents: int, bonus_cents: int) -> int | None:
    """The most a Queen's Dragon bet at ``pos`` may be now beside these bets (None: not offered now)."""
    rules = state.rules
    rnd = state.round
    if (not rules.queens_dragon_enabled or rnd is None or state.phase != Phase.BETTING
            or rnd.banker_position != DEALER_POSITION):
        return None
    sp = state.seats[pos]
    if sp is None:
        return None
    top = min(rules.queens_dragon_max_bet_cents, sp.chips_cents - main_cents - bonus_cents)
    return top if top >= rules.queens_dragon_min_bet_cents else None


def check_queens_dragon(em: Emitter, sp: SeatPlayer, amount: int, main_cents: int, bonus_cents: int) -> None:
    """Refuse a Queen's Dragon bet of ``amount`` (> 0) beside a bet and Fortune bonus of these amounts."""
    rules = em.state.rules
    check_side_bet_amount(amount, "Queen's Dragon bet")
    if not rules.queens_dragon_enabled:
        form = rules.commission_form
        why = ("" if form is CommissionForm.EZ
               else f": it is a bet of EZ tables, and this table's commission form is {form}")
        reject(RejectCode.QUEENS_DRAGON_OFF,
               f"table {em.state.table_id!r} does not offer the Queen's Dragon{why}")
    banker_position = em.round().banker_position
    if banker_position != DEALER_POSITION:
        banker = None if banker_position is None else em.state.seats[banker_position]
        reject(RejectCode.QUEENS_DRAGON_HOUSE_BANK_ONLY,
               f"the Queen's Dragon is a bet on the house dealer's hand: it is offered only when the house "
               f"banks, and {'a player' if banker is None else banker.name} banks this round")
    check_side_bet_limits(amount, "Queen's Dragon bet", "its", rules.queens_dragon_min_bet_cents,
                          rules.queens_dragon_max_bet_cents)
    total = main_cents + bonus_cents + amount
    if total > sp.chips_cents:
        reject(RejectCode.INSUFFICIENT_CHIPS,
               f"your bet, Fortune bonus and Queen's Dragon make {money(total)}; you have "
               f"{money(sp.chips_cents)} at the table", amount_cents=total, limit_cents=sp.chips_cents)


def emit_queens_dragon(em: Emitter, pos: int, sp: SeatPlayer, amount: int) -> None:
    """The event that makes the seat's Queen's Dragon bet ``amount`` (0: none, when it has one)."""
    emit_side_bet(em, queens_dragon_of(em.state.round, pos), amount,
                  QueensDragonPlaced(sp.player_id, pos, amount), QueensDragonRemoved(sp.player_id, pos))


def place_queens_dragon(em: Emitter, cmd: PlaceQueensDragon) -> None:
    pos, sp = em.seated(cmd.player_id)
    rnd = em.require_phase(Phase.BETTING, "Queen's Dragon bets are placed")
    main = em.bet_of(pos)
    if main == 0:
        reject(RejectCode.NO_BET, f"{sp.name} has no bet: a Queen's Dragon bet is placed beside a bet")
    if cmd.amount_cents == 0 and queens_dragon_of(rnd, pos) == 0:
        reject(RejectCode.NO_BET, f"{sp.name} has no Queen's Dragon bet to take back")
    if cmd.amount_cents != 0:
        bonus = side_bet_at(rnd.bonuses, pos)
        check_queens_dragon(em, sp, cmd.amount_cents, main, bonus)
    emit_queens_dragon(em, pos, sp, cmd.amount_cents)


def queens_dragon_results(rnd: Round, dealer_cards: tuple[Card, ...] | None) -> tuple[bool, dict[int, int]]:
    """Whether the house dealer's seven cards are a queen-high pai gow, and each Queen's Dragon bet's
    result by position (50 times the bet, or minus it)."""
    queen_high = dealer_cards is not None and is_queen_high_pai_gow(dealer_cards)
    pays = QUEENS_DRAGON_PAYS if queen_high else -1
    return queen_high, {b.position: b.amount_cents * pays for b in rnd.queens_dragon_bets}
