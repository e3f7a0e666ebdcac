"""Seats: sit, leave (and the operator's kick), drop and reconnect, sit out and in, my own bet limit.

A player who has something at stake in the round in progress (the player-banker, or any player with a
dealt hand) cannot take chips away mid-round: leaving or being kicked takes effect when the round ends
(status LEAVING; a kicked player's unset hand is set by the House Way at once). Anyone else leaves at
once with their chips; a bet not yet dealt is withdrawn and a bank offer declined.
"""

from __future__ import annotations

from paigow.table.bank import decline_offer, void_if_alone
from paigow.table.commands import Drop, Leave, Reconnect, SetOwnLimit, Sit, SitIn, SitOut, StandUp
from paigow.table.dealing import maybe_deal
from paigow.table.emitter import Emitter, money, reject
from paigow.table.events import (
    BetRemoved,
    OwnLimitSet,
    PlayerDropped,
    PlayerKicked,
    PlayerLeaving,
    PlayerLeft,
    PlayerReconnected,
    PlayerSatIn,
    PlayerSatOut,
    PlayerStoodUp,
    StandUpReason,
)
from paigow.table.home_chip_rules import cancel_requests, chip_sit, game_chips
from paigow.table.records import SetBy
from paigow.table.rejections import RejectCode
from paigow.table.seat_holds import check_sit, checked_name, seat_player
from paigow.table.setting import set_by_house_way
from paigow.table.settlement import maybe_showdown, void_round
from paigow.table.state import PLAYER_SEATS, WEEK_MS, KickedBy, Phase, SeatPlayer, SeatStatus

__all__ = ["depart", "drop", "leave", "reconnect", "set_own_limit", "sit", "sit_in", "sit_out", "stand_up"]


def sit(em: Emitter, cmd: Sit) -> None:
    s = em.state
    if s.phase == Phase.CLOSED or s.closing:
        reject(RejectCode.TABLE_CLOSED, f"table {s.table_id!r} is closed")
    name = checked_name(cmd.name)
    if cmd.seat not in PLAYER_SEATS:
        reject(RejectCode.NO_SUCH_SEAT, f"seat {cmd.seat!r} is not a player seat (1..6)")
    held = s.seat_of(cmd.player_id)
    if held is not None:
        reject(RejectCode.ALREADY_SEATED, f"player {cmd.player_id!r} already has seat {held}")
    taken = s.seats[cmd.seat]
    if taken is not None:
        reject(RejectCode.SEAT_TAKEN, f"seat {cmd.seat} is taken by {taken.name}")
    check_sit(em, cmd.player_id, cmd.seat)
    chips = game_chips(s)
    if chips is not None:
        chip_sit(em, chips, cmd.player_id, name, cmd.seat, cmd.buy_in_cents)
        return
    if type(cmd.buy_in_cents) is not int or cmd.buy_in_cents < s.rules.min_bet_cents:
        shown = money(cmd.buy_in_cents) if type(cmd.buy_in_cents) is int else repr(cmd.buy_in_cents)
        reject(RejectCode.BELOW_MINIMUM, f"a buy-in of {shown} is below the table minimum "
                                         f"{money(s.rules.min_bet_cents)}",
               amount_cents=cmd.buy_in_cents if type(cmd.buy_in_cents) is int else None,
               limit_cents=s.rules.min_bet_cents)
    seat_player(em, cmd.player_id, name, cmd.seat, cmd.buy_in_cents)


def depart(em: Emitter, pos: int, sp: SeatPlayer, kicked: bool, now_ms: int | None,
           barred_until_ms: int | None = None, by: KickedBy | None = None,
           reason: StandUpReason | None = None) -> None:
    """Leave or kick: at once, or when the round ends for a player who has something at stake in it.
    ``now_ms``: the server clock, when the command carried it (a timer started runs from then);
    ``barred_until_ms``: with a kick, when the operator's bar ends (the events tell the player);
    ``by``: with a kick, who kicked; ``reason``: not kicked, the server stands the player up for it
    (``PlayerStoodUp``, never a House Way). At a chips game the player's buy-in or rebuy request ends."""
    cancel_requests(em, sp.player_id, "removed" if kicked else "left")
    if em.in_round(pos):
        if sp.status == SeatStatus.LEAVING and (sp.kicked or not kicked):
            reject(RejectCode.ALREADY_DONE, f"{sp.name} already leaves when round {em.round().round_id} ends")
        em.emit(PlayerLeaving(sp.player_id, pos, kicked, barred_until_ms if kicked else None,
                              by if kicked else None, None if kicked else reason))
        rnd = em.round()
        hand = next((h for h in rnd.hands if h.position == pos), None)
        if kicked and hand is not None and hand.set_by is None:
            set_by_house_way(em, hand, SetBy.TIMEOUT)
            maybe_showdown(em, now_ms)
        return
    offer = em.state.round
    if offer is not None and em.state.phase == Phase.BANK_OFFER and offer.offer_player_id == sp.player_id:
        decline_offer(em, False, now_ms, leaving=True)
    if em.bet_of(pos):
        em.emit(BetRemoved(sp.player_id, pos))
    if kicked:
        em.emit(PlayerKicked(sp.player_id, pos, sp.chips_cents, barred_until_ms, by))
    elif reason is not None:
        em.emit(PlayerStoodUp(sp.player_id, pos, sp.chips_cents, reason))
    else:
        em.emit(PlayerLeft(sp.player_id, pos, sp.chips_cents))
    _after_change(em, now_ms)


def _after_change(em: Emitter, now_ms: int | None) -> None:
    """After a player left, sat out or dropped: an abandoned round is voided (when the players bank in
    turn, one left with nobody to play: ``bank.void_if_alone``), betting may be over, and an idle table
    starts or stops waiting for a round."""
    s = em.state
    if s.round is None:
        em.schedule_next_round(0, now_ms)
    elif s.phase in (Phase.BANK_OFFER, Phase.BETTING) and all(sp is None for sp in s.seats):
        void_round(em, "every player left", now_ms)
    elif not void_if_alone(em, now_ms):
        maybe_deal(em, now_ms)


def leave(em: Emitter, cmd: Leave) -> None:
    pos, sp = em.seated(cmd.player_id)
    depart(em, pos, sp, kicked=False, now_ms=cmd.now_ms)


def stand_up(em: Emitter, cmd: StandUp) -> None:
    pos, sp = em.seated(cmd.player_id)
    depart(em, pos, sp, kicked=False, now_ms=cmd.now_ms, reason=StandUpReason(cmd.reason))


def drop(em: Emitter, cmd: Drop) -> None:
    pos, sp = em.seated(cmd.player_id)
    if sp.away:
        reject(RejectCode.ALREADY_DONE, f"{sp.name} is already away")
    em.emit(PlayerDropped(sp.player_id, pos, cmd.now_ms + em.state.timers.reconnect_grace_ms))
    _after_change(em, cmd.now_ms)


def reconnect(em: Emitter, cmd: Reconnect) -> None:
    pos, sp = em.seated(cmd.player_id)
    if not sp.away:
        reject(RejectCode.ALREADY_DONE, f"{sp.name} is not away")
    em.emit(PlayerReconnected(sp.player_id, pos))
    if em.state.round is None:
        em.schedule_next_round(0, cmd.now_ms)


def sit_out(em: Emitter, cmd: SitOut) -> None:
    pos, sp = em.seated(cmd.player_id)
    if sp.status in (SeatStatus.SITTING_OUT, SeatStatus.LEAVING):
        reject(RejectCode.ALREADY_DONE, f"{sp.name} is already {sp.status.value.replace('_', ' ')}")
    rnd = em.state.round
    if rnd is not None and em.state.phase == Phase.BANK_OFFER and rnd.offer_player_id == sp.player_id:
        decline_offer(em, False, cmd.now_ms, leaving=True)
    if em.state.phase == Phase.BETTING and em.bet_of(pos):
        em.emit(BetRemoved(sp.player_id, pos))
    em.emit(PlayerSatOut(sp.player_id, pos, automatic=False))
    _after_change(em, cmd.now_ms)


def sit_in(em: Emitter, cmd: SitIn) -> None:
    pos, sp = em.seated(cmd.player_id)
    if sp.status != SeatStatus.SITTING_OUT:
        reject(RejectCode.ALREADY_DONE, f"{sp.name} is not sitting out (status {sp.status.value})")
    em.emit(PlayerSatIn(sp.player_id, pos))
    if em.state.round is None:
        em.schedule_next_round(0, None)


def set_own_limit(em: Emitter, cmd: SetOwnLimit) -> None:
    pos, sp = em.seated(cmd.player_id)
    new = cmd.max_bet_cents
    if new is not None and (type(new) is not int or new < 1):
        reject(RejectCode.INVALID_VALUE,
               f"own limit {new!r} must be a positive whole number of cents, or none")
    old = sp.own_max_bet_cents
    if new == old:
        reject(RejectCode.ALREADY_DONE, f"your own limit is already {_limit(old)}")
    raised = new is None or (old is not None and new > old)
    last = sp.own_limit_raised_ms
    if raised and last is not None and cmd.now_ms - last < WEEK_MS:
        hours = -(-(last + WEEK_MS - cmd.now_ms) // 3_600_000)
        reject(RejectCode.LIMIT_RAISE_TOO_SOON,
               f"raising your own limit from {_limit(old)} to {_limit(new)} is allowed once a week; "
               f"the next raise is allowed in {hours} hours", until_ms=last + WEEK_MS)
    em.emit(OwnLimitSet(sp.player_id, pos, new, raised, cmd.now_ms))


def _limit(cents: int | None) -> str:
    return "the table maximum" if cents is None else money(cents)
