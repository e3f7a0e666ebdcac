"""The Dragon hand's commands (docs/rules.md §4b; ``table.dragon``): ``TakeDragon``, ``PassDragon``, the
offer's time-out (a pass), and ``SetDragon`` under ``dragon_set_by`` ``"buyer"``."""

from __future__ import annotations

from paigow.rules.house_rules import DragonSetBy, FoulPolicy
from paigow.rules.splits import FoulError, check_split
from paigow.table.can import dragon_range
from paigow.table.cardtext import cards_to_text
from paigow.table.dealing import deal_round
from paigow.table.dragon import next_offer, set_dragon_by_house_way
from paigow.table.emitter import Emitter, money, reject
from paigow.table.records import SetBy
from paigow.table.rejections import RejectCode
from paigow.table.setting import split_of_low
from paigow.table.settlement import maybe_showdown
from paigow.table.state import Phase
from paigow.table.variant_commands import PassDragon, SetDragon, TakeDragon
from paigow.table.variant_events import DragonPassed, DragonSet, DragonTaken

__all__ = ["dragon_timed_out", "pass_dragon", "set_dragon", "take_dragon"]


def _offered_to(em: Emitter, player_id: str) -> int:
    pos, _ = em.seated(player_id)
    rnd = em.require_phase(Phase.DRAGON_OFFER, "the Dragon hand is taken or passed")
    dragon = rnd.dragon
    if dragon is None or dragon.offered_seat != pos:
        reject(RejectCode.NOT_YOUR_SEAT, f"the Dragon hand is offered to the player at position "
                                         f"{dragon.offered_seat if dragon else None}, not to {player_id!r}")
    return pos


def take_dragon(em: Emitter, cmd: TakeDragon) -> None:
    pos = _offered_to(em, cmd.player_id)
    amount = cmd.amount_cents
    span = dragon_range(em.state, pos)
    if type(amount) is not int:
        reject(RejectCode.INVALID_VALUE, f"a Dragon wager is a whole number of cents, not {amount!r}")
    if span is None or amount > span.max_cents:
        top = money(span.max_cents) if span is not None else money(0)
        reject(RejectCode.ABOVE_MAXIMUM, f"your Dragon wager is {money(amount)}; at most {top} now (your "
                                         f"main wager or the table's Dragon limit, your chips, the bank)",
               amount_cents=amount, limit_cents=span.max_cents if span is not None else 0)
    if amount < span.min_cents:
        reject(RejectCode.BELOW_MINIMUM,
               f"your Dragon wager is {money(amount)}; the table minimum is {money(span.min_cents)}",
               amount_cents=amount, limit_cents=span.min_cents)
    em.emit(DragonTaken(pos, cmd.player_id, amount))
    em.clear_deadline()
    deal_round(em, cmd.now_ms)


def _passed(em: Emitter, pos: int, player_id: str, timed_out: bool, now_ms: int | None) -> None:
    em.emit(DragonPassed(pos, player_id, timed_out))
    em.clear_deadline()
    if not next_offer(em, now_ms):
        deal_round(em, now_ms)


def pass_dragon(em: Emitter, cmd: PassDragon) -> None:
    pos = _offered_to(em, cmd.player_id)
    _passed(em, pos, cmd.player_id, False, cmd.now_ms)


def dragon_timed_out(em: Emitter, now_ms: int) -> None:
    """The ``DRAGON_OFFER`` deadline: the player offered the Dragon passes."""
    dragon = em.round().dragon
    assert dragon is not None
    assert dragon.offered_seat is not None
    sp = em.state.seats[dragon.offered_seat]
    assert sp is not None
    _passed(em, dragon.offered_seat, sp.player_id, True, now_ms)


def set_dragon(em: Emitter, cmd: SetDragon) -> None:
    em.seated(cmd.player_id)
    rnd = em.require_phase(Phase.SETTING, "hands are set")
    dragon = rnd.dragon
    if dragon is None or dragon.buyer_player_id != cmd.player_id:
        reject(RejectCode.NOT_IN_ROUND,
               f"player {cmd.player_id!r} has no Dragon hand in round {rnd.round_id}")
    if em.state.rules.dragon_set_by is not DragonSetBy.BUYER:
        reject(RejectCode.ALREADY_DONE, "at this table the House Way sets the Dragon hand")
    if not cmd.low:
        set_dragon_by_house_way(em, SetBy.HOUSE_WAY)
    else:
        split = split_of_low(dragon.cards, cmd.low)
        fouled = False
        try:
            check_split(split, em.state.rules)
        except FoulError as exc:
            if em.state.rules.foul_policy == FoulPolicy.REJECT:
                reject(RejectCode.FOUL, str(exc))
            fouled = True
        em.emit(DragonSet(dragon.position, cmd.player_id, cards_to_text(split.high), cards_to_text(split.low),
                          SetBy.PLAYER, fouled, True))
    maybe_showdown(em, cmd.now_ms)
