"""The commands of a home game's own chips: a player's rebuy and cancel (``machine`` dispatches them), and
the host's answer to a request, correction of a stack and change of the chip setting (``home_rules.host_act``
checks the host, then calls these with the action). Every refusal names what was wrong and changes nothing.
"""

from __future__ import annotations

from paigow.table.emitter import Emitter, money, reject
from paigow.table.home_chip_commands import AdjustChips, AnswerBuyIn, CancelBuyIn, ChangeChips, Rebuy
from paigow.table.home_chip_events import (
    BuyInCancelled,
    BuyInDenied,
    BuyInRequested,
    ChipsAdjusted,
    ChipSettingsChanged,
)
from paigow.table.home_chip_rules import (
    approve,
    approves_at_once,
    check_amount,
    check_new_request,
    check_room,
    game_chips,
)
from paigow.table.home_chips import MAX_CHIP_LINES, ChipRequest, HomeChips
from paigow.table.rejections import RejectCode
from paigow.table.state import Phase, SeatStatus

__all__ = ["adjust_chips", "answer_buy_in", "cancel_buy_in", "change_chips", "rebuy"]

MAX_REASON = 200


def _chips(em: Emitter, what: str) -> HomeChips:
    s = em.state
    if s.home is None:
        reject(RejectCode.NOT_PRIVATE, f"table {s.table_id!r} is not a private table: {what} is for home "
                                       "games")
    chips = s.home.chips
    if chips is None:
        reject(RejectCode.REBUYS_OFF if what == "a rebuy" else RejectCode.INVALID_VALUE,
               f"table {s.table_id!r} plays with its players' balances: {what} is for a game with its own "
               "chips")
    if s.phase == Phase.CLOSED:
        reject(RejectCode.TABLE_CLOSED, f"table {s.table_id!r} is closed")
    return chips


def rebuy(em: Emitter, cmd: Rebuy) -> None:
    chips = _chips(em, "a rebuy")
    pos, sp = em.seated(cmd.player_id)
    if not chips.rebuys:
        reject(RejectCode.REBUYS_OFF, "this game allows no rebuys (the host may turn them on)")
    if sp.status == SeatStatus.LEAVING:
        reject(RejectCode.WRONG_PHASE, f"{sp.name} leaves when this round ends: no rebuy")
    at_once = approves_at_once(em, chips, cmd.player_id)
    check_new_request(chips, cmd.player_id, sp.name, waits=not at_once or em.in_round(pos))
    cents = check_amount(chips, cmd.amount_cents, "rebuy")
    check_room(chips)
    request = ChipRequest(f"b{chips.next_request}", cmd.player_id, sp.name, cents, True)
    if at_once:
        home = em.state.home
        assert home is not None
        approve(em, request, cents, home.host_player_id, home.host_name, automatic=True)
    else:
        em.emit(BuyInRequested(request.request_id, cmd.player_id, sp.name, cents, True, None))


def _waiting(chips: HomeChips, request_id: object) -> ChipRequest:
    found = chips.request(request_id) if isinstance(request_id, str) else None
    if found is None or found.approved_cents is not None:
        reject(RejectCode.NO_REQUEST, f"no buy-in request {request_id!r} is waiting: it was answered, "
                                      "cancelled or never made")
    return found


def cancel_buy_in(em: Emitter, cmd: CancelBuyIn) -> None:
    chips = _chips(em, "a buy-in")
    found = _waiting(chips, cmd.request_id)
    if found.player_id != cmd.player_id:
        reject(RejectCode.NO_REQUEST, f"no buy-in request {cmd.request_id!r} of yours is waiting: you may "
                                      "cancel only your own")
    em.emit(BuyInCancelled(found.request_id, found.player_id, "cancelled"))


def answer_buy_in(em: Emitter, cmd: AnswerBuyIn, now_ms: int | None) -> None:
    chips = _chips(em, "a buy-in")
    found = _waiting(chips, cmd.request_id)
    home = em.state.home
    assert home is not None
    if not cmd.approve:
        em.emit(BuyInDenied(found.request_id, found.player_id, home.host_player_id, home.host_name))
        return
    what = "rebuy" if found.rebuy else "buy-in"
    cents = check_amount(chips, found.amount_cents if cmd.amount_cents is None else cmd.amount_cents, what)
    check_room(chips)
    if not found.rebuy and em.state.closing:
        reject(RejectCode.TABLE_CLOSED, f"table {em.state.table_id!r} is closing: no new seat")
    approve(em, found, cents, home.host_player_id, home.host_name, automatic=False)


def adjust_chips(em: Emitter, cmd: AdjustChips, now_ms: int | None) -> None:
    chips = _chips(em, "a chip correction")
    amount, cap = cmd.amount_cents, chips.max_buy_in_cents
    if type(amount) is not int or amount == 0 or abs(amount) > cap:
        reject(RejectCode.INVALID_VALUE, f"a correction of {amount!r} cents must be a non-zero whole number "
                                         f"of cents, at most {money(cap)} either way")
    reason = cmd.reason.strip() if isinstance(cmd.reason, str) else ""
    if not reason or len(reason) > MAX_REASON or not reason.isprintable():
        reject(RejectCode.INVALID_VALUE, f"a correction's reason must be 1 to {MAX_REASON} printable "
                                         f"characters, not {cmd.reason!r}")
    pos, sp = em.seated(cmd.player_id)
    if em.in_round(pos) or em.bet_of(pos):
        reject(RejectCode.WRONG_PHASE, f"{sp.name} is in the round in play: correct their chips between "
                                       "rounds")
    if -amount > sp.chips_cents:
        reject(RejectCode.INSUFFICIENT_CHIPS, f"{sp.name} has {money(sp.chips_cents)}: a take-back of "
                                              f"{money(-amount)} is more than their stack",
               amount_cents=-amount, limit_cents=sp.chips_cents)
    check_room(chips)
    home = em.state.home
    assert home is not None
    em.emit(ChipsAdjusted(sp.player_id, pos, amount, reason, home.host_player_id, home.host_name))


def change_chips(em: Emitter, cmd: ChangeChips, now_ms: int | None) -> None:
    chips = _chips(em, "a chip setting")
    home = em.state.home
    assert home is not None
    default = chips.default_buy_in_cents if cmd.default_buy_in_cents is None else cmd.default_buy_in_cents
    low = chips.min_buy_in_cents if cmd.min_buy_in_cents is None else cmd.min_buy_in_cents
    high = chips.max_buy_in_cents if cmd.max_buy_in_cents is None else cmd.max_buy_in_cents
    rebuys = chips.rebuys if cmd.rebuys is None else cmd.rebuys
    auto = chips.auto_approve if cmd.auto_approve is None else cmd.auto_approve
    if all(getattr(cmd, f) is None for f in ("default_buy_in_cents", "min_buy_in_cents", "max_buy_in_cents",
                                             "rebuys", "auto_approve")):
        reject(RejectCode.INVALID_VALUE, "host_chip_settings needs at least one setting")
    cap = home.max_buy_in_cap_cents
    amounts = (low, default, high)
    if (any(type(x) is not int for x in amounts) or type(rebuys) is not bool or type(auto) is not bool
            or not 1 <= low <= default <= high <= cap):
        reject(RejectCode.INVALID_VALUE, f"the buy-ins must be whole cents with 1 <= min ({low!r}) <= "
                                         f"default ({default!r}) <= max ({high!r}) <= {cap} "
                                         f"({money(cap)}), and rebuys and auto_approve true or false")
    new = (default, low, high, rebuys, auto)
    if new == (chips.default_buy_in_cents, chips.min_buy_in_cents, chips.max_buy_in_cents, chips.rebuys,
               chips.auto_approve):
        reject(RejectCode.ALREADY_DONE, "the chip setting is so already")
    em.emit(ChipSettingsChanged(default, low, high, rebuys, auto, chips.commission))
    if auto and not chips.auto_approve:
        _approve_waiting(em)


def _approve_waiting(em: Emitter) -> None:
    """Auto-approve turned on: every waiting request within the bounds is approved at once."""
    home = em.state.home
    assert home is not None
    assert home.chips is not None
    for r in home.chips.requests:
        chips = game_chips(em.state)
        assert chips is not None
        if (r.approved_cents is None and chips.min_buy_in_cents <= r.amount_cents <= chips.max_buy_in_cents
                and len(chips.lines) < MAX_CHIP_LINES and (r.rebuy or not em.state.closing)):
            approve(em, r, r.amount_cents, home.host_player_id, home.host_name, automatic=True)
