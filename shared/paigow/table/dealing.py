"""The deal: when betting is over, count missed rounds, roll the dice and deal from the committed seed.

Betting is over when every active player (other than the banker) has bet, and there is at least one
stake (a bet, or the house dealer's wager against a player-banker); or at the betting deadline if there is
at least one stake. With no stake the round waits.

Live hands: the banker's, every bettor's, and the house dealer's when it banks or wagers. The other hands
(empty seats, players not in the round) are dead: never stored, never shown. Discards are not stored.
"""

from __future__ import annotations

from paigow.fair import deal
from paigow.table.cardtext import cards_to_text
from paigow.table.dragon import deal_dragon, offer_dragon
from paigow.table.emitter import Emitter
from paigow.table.events import (
    DealtHand,
    HandsDealt,
    PlayerMissedRound,
    PlayerSatOut,
    PlayerStoodUp,
    StandUpReason,
)
from paigow.table.home_chip_rules import cancel_requests
from paigow.table.records import SetBy
from paigow.table.setting import set_by_house_way
from paigow.table.settlement import maybe_showdown
from paigow.table.state import DEALER_POSITION, DeadlineKind, Phase, SeatStatus

__all__ = ["betting_done", "deal_round", "has_stake", "maybe_deal"]


def has_stake(em: Emitter) -> bool:
    rnd = em.state.round
    return rnd is not None and (bool(rnd.bets) or rnd.dealer_wager_cents > 0)


def betting_done(em: Emitter) -> bool:
    s = em.state
    rnd = s.round
    if s.phase != Phase.BETTING or rnd is None or not has_stake(em):
        return False
    bettors = {b.position for b in rnd.bets}
    return all(pos in bettors for pos, sp in enumerate(s.seats)
               if sp is not None and sp.playing and pos != rnd.banker_position)


def maybe_deal(em: Emitter, now_ms: int | None) -> None:
    if betting_done(em):
        deal_round(em, now_ms)


def deal_round(em: Emitter, now_ms: int | None) -> None:
    if offer_dragon(em, now_ms):  # the Dragon hand is offered first (table.dragon); the deal waits
        return
    rnd = em.round()
    banker = rnd.banker_position if rnd.banker_position is not None else DEALER_POSITION
    timers = em.state.timers
    bettors = {b.position: b.player_id for b in rnd.bets}
    for pos, sp in enumerate(em.state.seats):
        if sp is None or pos == banker or pos in bettors:
            continue
        missed = sp.missed_rounds + 1
        em.emit(PlayerMissedRound(sp.player_id, pos, missed))
        if missed >= timers.stand_up_after_missed and sp.status != SeatStatus.LEAVING:
            cancel_requests(em, sp.player_id, "left")
            em.emit(PlayerStoodUp(sp.player_id, pos, sp.chips_cents, StandUpReason.MISSED_ROUNDS))
        elif missed >= timers.sit_out_after_missed and sp.playing:
            em.emit(PlayerSatOut(sp.player_id, pos, automatic=True))
    live: dict[int, str | None] = dict(bettors)
    if banker != DEALER_POSITION:
        live[banker] = rnd.banker_player_id
    if banker == DEALER_POSITION or rnd.dealer_wager_cents > 0:
        live[DEALER_POSITION] = None
    d = deal(bytes.fromhex(rnd.server_seed), rnd.round_id, banker)
    hands = tuple(DealtHand(pos, live[pos], cards_to_text(d.hands[pos])) for pos in sorted(live))
    em.emit(HandsDealt(d.dice, d.first_position, hands))
    em.set_deadline(DeadlineKind.SETTING, timers.setting_ms, now_ms)
    deal_dragon(em, d.hands)
    if rnd.co_banked:  # a co-banker's hand is set by the House Way (table.cobank)
        banker_hand = next(h for h in em.round().hands if h.position == banker)
        set_by_house_way(em, banker_hand, SetBy.HOUSE_WAY)
    # A player kicked during betting (the banker) plays the round by the House Way.
    for h in em.round().hands:
        sp = em.state.seats[h.position] if h.player_id is not None else None
        if sp is not None and sp.kicked:
            set_by_house_way(em, h, SetBy.TIMEOUT)
    maybe_showdown(em, now_ms)
