"""The showdown and settlement, the end of a round (settled or voided), and closing the table.

Money: ``paigow.rules.payout.settle`` in integer cents; the Fortune bonuses by
``paigow.table.fortune_payouts``, banked by the house (in ``house_net_cents``). The house dealer's hand is
set by the House Way at the showdown. Each non-banker hand is compared with the banker's (copies go to
the banker; a foul under ``"lose"`` loses). The record keeps the live hands only, and reveals the seed.
"""

from __future__ import annotations

from paigow.rules.hand_value import evaluate_high, evaluate_low
from paigow.rules.house_rules import HouseRules
from paigow.rules.house_way import house_way, house_way_clause
from paigow.rules.house_way_text import clause_text
from paigow.rules.payout import Wager, settle
from paigow.rules.showdown import showdown
from paigow.rules.splits import Split
from paigow.table.cardtext import cards_from_text, cards_to_text
from paigow.table.dragon import dragon_ready
from paigow.table.emitter import Emitter
from paigow.table.events import (
    HandSet,
    PlayerKicked,
    PlayerLeft,
    PlayerStoodUp,
    RoundSettled,
    RoundVoided,
    RulesChanged,
    StandUpReason,
    TableClosed,
    TimersChanged,
)
from paigow.table.fastcopy import replace
from paigow.table.fortune_payouts import fortune_results
from paigow.table.home_chip_rules import cancel_requests, land_deferred
from paigow.table.queens_dragon_bets import queens_dragon_results
from paigow.table.records import HOUSE_KEY, HandRecord, RoundRecord, SetBy
from paigow.table.state import DEALER_POSITION, Bet, LiveHand, SeatStatus
from paigow.table.variant_settlement import bank_result, dealer_is_barred, dragon_record, dragon_wager

__all__ = ["after_round", "close_now", "maybe_showdown", "settle_round", "void_round"]

_BY_HOUSE_WAY = frozenset({SetBy.HOUSE_WAY, SetBy.TIMEOUT, SetBy.FOUL_RESET, SetBy.DEALER})


def _split(h: LiveHand) -> Split:
    return Split(cards_from_text(h.high), cards_from_text(h.low))


def maybe_showdown(em: Emitter, now_ms: int | None) -> None:
    """Once every player's hand in the round is set, expose the banker's hand and settle."""
    rnd = em.state.round
    if rnd is None or not rnd.hands:
        return
    if all(h.set_by is not None for h in rnd.hands if h.player_id is not None) and dragon_ready(rnd):
        settle_round(em, now_ms)


def settle_round(em: Emitter, now_ms: int | None) -> None:
    rules = em.state.rules
    rnd = em.round()
    for h in rnd.hands:
        if h.player_id is None and h.set_by is None:
            cards = cards_from_text(h.cards)
            split = house_way(cards, rules)
            em.emit(HandSet(h.position, None, cards_to_text(split.high), cards_to_text(split.low),
                            SetBy.DEALER, False, clause_text(house_way_clause(cards, rules), split)))
    rnd = em.round()
    banker_pos = rnd.banker_position if rnd.banker_position is not None else DEALER_POSITION
    banker_hand = next(h for h in rnd.hands if h.position == banker_pos)
    banker_split = _split(banker_hand)
    dealer = next((h for h in rnd.hands if h.player_id is None), None)
    barred = dealer_is_barred(rules, dealer, banker_pos == DEALER_POSITION)
    bets = {b.position: b.amount_cents for b in rnd.bets}
    wagers: list[Wager] = []
    keys: dict[int, str] = {}
    for h in rnd.hands:
        if h.position == banker_pos:
            continue
        key = HOUSE_KEY if h.player_id is None else h.player_id
        amount = rnd.dealer_wager_cents if h.player_id is None else bets[h.position]
        outcome = showdown(_split(h), banker_split, rules, player_fouled=h.fouled,
                           banker_barred=barred).outcome
        wagers.append(Wager(key, amount, outcome, is_house=h.player_id is None))
        keys[h.position] = key
    dragon = dragon_wager(rnd, banker_split, rules, barred)
    if dragon is not None:
        wagers.append(dragon)
    result = settle(tuple(wagers), rules, rnd.banker_player_id)
    by_key = {r.key: r for r in result.players}
    bank_gross, bank_commission, bank_net, house_bank = bank_result(rnd, result, rules)
    fortunes = fortune_results(rnd, rules)
    queen_high, queens = queens_dragon_results(
        rnd, cards_from_text(dealer.cards) if dealer is not None and rules.queens_dragon_enabled else None)
    records: list[HandRecord] = []
    for h in rnd.hands:
        high, low = cards_from_text(h.high), cards_from_text(h.low)
        names = (evaluate_high(high, rules).name, evaluate_low(low).name)
        set_by = h.set_by if h.set_by is not None else SetBy.DEALER
        clause = _clause(h, set_by, rules)
        if h.position == banker_pos:
            hand_record = HandRecord(h.position, h.player_id, h.cards, h.high, h.low, set_by, h.fouled, True,
                                0, None, bank_gross, bank_commission, bank_net, *names, clause)
        else:
            r = by_key[keys[h.position]]
            hand_record = HandRecord(h.position, h.player_id, h.cards, h.high, h.low, set_by, h.fouled, False,
                                r.amount_cents, r.outcome, r.gross_cents, r.commission_cents,
                                r.net_cents, *names, clause)
        fortune = fortunes.get(h.position)
        if fortune is not None:
            hand_record = replace(hand_record, fortune=fortune.fortune, bonus_cents=fortune.bonus_cents,
                             bonus_win_cents=fortune.bonus_win_cents, envy=fortune.envy,
                             bonus_net_cents=fortune.net_cents)
        if h.position in queens:
            bet = next(b.amount_cents for b in rnd.queens_dragon_bets if b.position == h.position)
            hand_record = replace(hand_record, queens_dragon_cents=bet,
                                  queens_dragon_win_cents=queens[h.position])
        records.append(hand_record)
    dragon_hand = dragon_record(rnd, by_key, rules)
    if dragon_hand is not None:
        records.append(dragon_hand)
    assert rnd.dice is not None
    assert rnd.first_position is not None
    bonus_house = -sum(f.net_cents for f in fortunes.values())
    queens_house = -sum(queens.values())
    house_net = (result.house_net_cents - result.banker_commission_cents + bank_commission + house_bank
                 + bonus_house + queens_house)
    record = RoundRecord(rnd.round_id, rnd.number, rnd.commitment, rnd.server_seed, rnd.dice,
                         rnd.first_position, banker_pos, rnd.banker_player_id, tuple(records),
                         bank_gross, bank_commission, bank_net, house_net,
                         rules.fortune_pay_table if rules.fortune_enabled else None, bonus_house,
                         barred, str(rules.commission_form), rnd.co_banked, house_bank, queen_high,
                         queens_house, None if dragon_hand is None else rules.dragon_set_by)
    em.emit(RoundSettled(record))
    after_round(em, now_ms)


def _clause(h: LiveHand, set_by: SetBy, rules: HouseRules) -> str | None:
    """The House Way clause that set ``h``, in words; None for a hand its player set."""
    if set_by not in _BY_HOUSE_WAY:
        return None
    cards = cards_from_text(h.cards)
    return clause_text(house_way_clause(cards, rules), _split(h))


def void_round(em: Emitter, reason: str, now_ms: int | None) -> None:
    """Cancel the round in progress: no chips move (stakes are only taken at settlement)."""
    rnd = em.round()
    returned = rnd.bets
    if rnd.dealer_wager_cents > 0:
        returned = (Bet(DEALER_POSITION, HOUSE_KEY, rnd.dealer_wager_cents), *returned)
    dragon = rnd.dragon
    bought = (() if dragon is None or dragon.buyer_player_id is None or dragon.buyer_position is None
              else (Bet(dragon.buyer_position, dragon.buyer_player_id, dragon.wager_cents),))
    em.emit(RoundVoided(rnd.round_id, rnd.server_seed, returned, reason, rnd.bonuses,
                        rnd.queens_dragon_bets, bought))
    after_round(em, now_ms)


def after_round(em: Emitter, now_ms: int | None) -> None:
    """After a settlement or a void: rebuys approved during the round land, departures, closing, scheduled
    changes, then the next round."""
    land_deferred(em)
    for pos, sp in enumerate(em.state.seats):
        if sp is not None and sp.status == SeatStatus.LEAVING:
            if sp.kicked:
                em.emit(PlayerKicked(sp.player_id, pos, sp.chips_cents, sp.barred_until_ms, sp.kicked_by))
            elif sp.leave_reason is not None:
                em.emit(PlayerStoodUp(sp.player_id, pos, sp.chips_cents, StandUpReason(sp.leave_reason)))
            else:
                em.emit(PlayerLeft(sp.player_id, pos, sp.chips_cents))
    if em.state.pending_rules is not None:
        em.emit(RulesChanged(em.state.pending_rules, scheduled=False))
    if em.state.pending_timers is not None:
        em.emit(TimersChanged(em.state.pending_timers, scheduled=False))
    if em.state.closing:
        close_now(em)
        return
    em.schedule_next_round(em.state.timers.between_rounds_ms, now_ms)


def close_now(em: Emitter) -> None:
    """Stand every player up (chips returned) and close. Needs no round in progress."""
    cancel_requests(em, None, "closed")
    for pos, sp in enumerate(em.state.seats):
        if sp is not None:
            em.emit(PlayerStoodUp(sp.player_id, pos, sp.chips_cents, StandUpReason.TABLE_CLOSED))
    em.clear_deadline()
    em.emit(TableClosed())
