"""Setting hands: two low cards (``SetHand``) or the House Way (``UseHouseWay``), resets allowed until the
banker's hand is exposed (the moment the last hand is set). A player's foul is refused under ``"reject"``
(the message names both hands) and accepted as an automatic loss under ``"lose"``; a player-banker's foul
is reset by the House Way."""

from __future__ import annotations

from paigow.rules.cards import InvalidCardError, check_distinct, format_cards
from paigow.rules.house_rules import FoulPolicy
from paigow.rules.house_way import house_way, house_way_clause
from paigow.rules.house_way_text import clause_text
from paigow.rules.splits import FoulError, Split, check_split, split_from_low
from paigow.table.cardtext import CardText, cards_from_text, cards_to_text
from paigow.table.commands import SetHand, UseHouseWay
from paigow.table.emitter import Emitter, reject
from paigow.table.events import HandSet
from paigow.table.records import SetBy
from paigow.table.rejections import RejectCode
from paigow.table.settlement import maybe_showdown
from paigow.table.state import LiveHand, Phase

__all__ = ["set_by_house_way", "set_hand", "split_of_low", "use_house_way"]


def _own_hand(em: Emitter, player_id: str, action: str) -> LiveHand:
    pos, _ = em.seated(player_id)
    rnd = em.require_phase(Phase.SETTING, action)
    hand = next((h for h in rnd.hands if h.position == pos), None)
    if hand is None:
        reject(RejectCode.NOT_IN_ROUND, f"player {player_id!r} has no hand in round {rnd.round_id}")
    if rnd.co_banked and rnd.banker_position == pos:
        reject(RejectCode.ALREADY_DONE, "a co-banker's hand is set by the House Way (docs/rules.md §4c)")
    return hand


def _emit(em: Emitter, hand: LiveHand, split: Split, set_by: SetBy, fouled: bool,
          clause: str | None = None) -> None:
    em.emit(HandSet(hand.position, hand.player_id, cards_to_text(split.high), cards_to_text(split.low),
                    set_by, fouled, clause))


def set_by_house_way(em: Emitter, hand: LiveHand, set_by: SetBy) -> None:
    cards = cards_from_text(hand.cards)
    split = house_way(cards, em.state.rules)
    _emit(em, hand, split, set_by, False, clause_text(house_way_clause(cards, em.state.rules), split))


def split_of_low(dealt: tuple[CardText, ...], low_text: tuple[CardText, ...]) -> Split:
    """The split of the seven ``dealt`` cards with ``low_text`` as the low hand (refused unless they are
    two distinct cards of the hand)."""
    try:
        low = cards_from_text(low_text)
        check_distinct(low)
    except InvalidCardError as exc:
        reject(RejectCode.INVALID_CARDS, f"low hand {low_text!r}: {exc}")
    if len(low) != 2:
        reject(RejectCode.INVALID_CARDS, f"the low hand takes exactly two cards, not {len(low)} "
                                         f"({format_cards(low)!r})")
    cards = cards_from_text(dealt)
    for c in low:
        if c not in cards:
            reject(RejectCode.NOT_YOUR_CARDS, f"{c} is not in your hand {format_cards(cards)!r}")
    return split_from_low(cards, low)


def set_hand(em: Emitter, cmd: SetHand) -> None:
    hand = _own_hand(em, cmd.player_id, "hands are set")
    split = split_of_low(hand.cards, cmd.low)
    rules = em.state.rules
    is_banker = em.round().banker_position == hand.position
    try:
        check_split(split, rules)
    except FoulError as exc:
        if is_banker:
            set_by_house_way(em, hand, SetBy.FOUL_RESET)
        elif rules.foul_policy == FoulPolicy.REJECT:
            reject(RejectCode.FOUL, str(exc))
        else:
            _emit(em, hand, split, SetBy.PLAYER, True)
    else:
        _emit(em, hand, split, SetBy.PLAYER, False)
    maybe_showdown(em, cmd.now_ms)


def use_house_way(em: Emitter, cmd: UseHouseWay) -> None:
    hand = _own_hand(em, cmd.player_id, "hands are set")
    set_by_house_way(em, hand, SetBy.HOUSE_WAY)
    maybe_showdown(em, cmd.now_ms)
