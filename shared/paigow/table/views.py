"""What each viewer may see: ``view_for(state, viewer)`` and ``event_for(event, viewer)``.

Hidden information (DESIGN.md): a seated player sees their own cards and nobody else's; the banker's hand
and every other hand stay hidden until the showdown, which happens together with the settlement, after
which the round is public in its ``RoundSettled`` event (live hands only; a view holds no round records:
the server keeps each table's last ones and serves them over HTTP). Spectators and the operator see no
hole cards. The seed of the round in progress, the deck order, dead hands and the discards are never in a
view or a redacted event. A player's own bet limit is shown only to that player and the operator.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TypeVar

from paigow.rules.house_rules import HouseRules
from paigow.rules.house_way import house_way, house_way_clause
from paigow.rules.house_way_text import clause_text
from paigow.table.can import Can, can_of, coverage_left
from paigow.table.cardtext import CardText, cards_from_text, cards_to_text
from paigow.table.events import DealtHand, Event, HandsDealt, HandSet, OwnLimitSet, RoundStarted
from paigow.table.fastcopy import replace
from paigow.table.fortune_view import FortuneView, fortune_view
from paigow.table.home import Waiter
from paigow.table.home_view import HomeView, home_view
from paigow.table.queens_dragon_bets import queens_dragon_of
from paigow.table.records import SetBy
from paigow.table.state import (
    WEEK_MS,
    BankReason,
    Bet,
    DeadlineKind,
    IneligibleReason,
    Ledger,
    Phase,
    SeatStatus,
    TableState,
    Timers,
)
from paigow.table.variant_events import DragonDealt, DragonSet
from paigow.table.variant_view import DragonView, dragon_view, hide_dragon, own_dragon

__all__ = [
    "AdminView",
    "HandView",
    "HouseWayView",
    "OperatorViewer",
    "OwnView",
    "PlayerViewer",
    "RoundView",
    "SeatView",
    "SpectatorViewer",
    "TableView",
    "Viewer",
    "YouView",
    "admin_view",
    "event_for",
    "house_way_view",
    "own_view",
    "shown_apart",
    "spectator_view",
    "view_for",
    "with_admin",
    "with_own",
]


@dataclass(frozen=True, slots=True)
class PlayerViewer:
    player_id: str


@dataclass(frozen=True, slots=True)
class SpectatorViewer:
    pass


@dataclass(frozen=True, slots=True)
class OperatorViewer:
    pass


Viewer = PlayerViewer | SpectatorViewer | OperatorViewer


@dataclass(frozen=True, slots=True)
class SeatView:
    position: int
    player_id: str
    name: str
    chips_cents: int
    status: SeatStatus
    away_until_ms: int | None
    in_round: bool
    """Has a bet in the round in progress, or banks it."""
    is_banker: bool
    bet_cents: int
    """0 when no bet."""
    bonus_cents: int
    """The Fortune bonus bet (0 when none)."""
    queens_dragon_cents: int = 0
    """The Queen's Dragon bet (0 when none)."""


@dataclass(frozen=True, slots=True)
class HandView:
    position: int
    player_id: str | None
    """None for the house dealer."""
    cards: tuple[CardText, ...]
    """Empty unless it is the viewer's own hand."""
    high: tuple[CardText, ...]
    low: tuple[CardText, ...]
    is_set: bool
    fouled: bool


@dataclass(frozen=True, slots=True)
class RoundView:
    round_id: str
    number: int
    commitment: str
    offer_player_id: str | None
    banker_position: int | None
    banker_player_id: str | None
    bank_reason: BankReason | None
    bank_ineligible: IneligibleReason | None
    """With ``bank_reason`` ``ineligible``: why the player at the marker was not offered the bank."""
    dealer_wager_cents: int
    bets: tuple[Bet, ...]
    bonuses: tuple[Bet, ...]
    """The Fortune bonus bets (banked by the house, whoever banks the round)."""
    coverage_left_cents: int | None
    """When a player banks: how much more wager the bank takes (``can.coverage_left``). At a co-bank too it
    counts wager, not the co-banker's half: twice what is left of their chips once half of every wager
    (rounded up) and their own Fortune bonus are set aside (docs/rules.md §4c)."""
    dice: tuple[int, int, int] | None
    first_position: int | None
    hands: tuple[HandView, ...]
    queens_dragon_bets: tuple[Bet, ...] = ()
    """The Queen's Dragon bets (EZ tables; banked by the house)."""
    co_banked: bool = False
    """The player-banker co-banks with the house, half each (docs/rules.md §4c)."""
    dragon: DragonView | None = None
    """The Dragon hand, once offered (never its cards: see ``YouView.dragon``)."""


@dataclass(frozen=True, slots=True)
class HouseWayView:
    """How the table's House Way would set your dealt hand (what ``use_house_way`` sends): the page shows it
    before anything is sent."""

    high: tuple[CardText, ...]
    low: tuple[CardText, ...]
    clause: str
    """The House Way clause that sets it, in words (``paigow.rules.house_way_text.clause_text``)."""


@dataclass(frozen=True, slots=True)
class YouView:
    position: int
    chips_cents: int
    status: SeatStatus
    own_max_bet_cents: int | None
    raise_allowed_from_ms: int | None
    """When the player may next raise their own limit (None = now)."""
    bet_cents: int
    bonus_cents: int
    is_banker: bool
    offered_bank: bool
    can: Can
    """What you may do now, and within what limits (``paigow.table.can``)."""
    queens_dragon_cents: int = 0
    dragon: HandView | None = None
    """The Dragon hand you bought, with its cards, when you set it (``dragon_set_by`` ``"buyer"``)."""
    house_way: HouseWayView | None = None
    """Your dealt hand as the House Way sets it (None: no hand of seven cards dealt to you this round)."""


@dataclass(frozen=True, slots=True)
class AdminView:
    ledger: Ledger
    rounds_started: int
    last_house_round: int
    pending_rules: HouseRules | None
    pending_timers: Timers | None
    own_limits: tuple[tuple[int, int | None], ...]
    """(position, own maximum bet) for every seated player."""


@dataclass(frozen=True, slots=True)
class TableView:
    table_id: str
    name: str
    version: int
    phase: Phase
    paused: bool
    closing: bool
    rules: HouseRules
    timers: Timers
    fortune: FortuneView | None
    """The Fortune bonus: its limits, pay table and house edge (None: the table does not offer it)."""
    marker: int
    seats: tuple[SeatView | None, ...]
    """Seven entries by position; entry 0 (the house dealer) is always None."""
    round: RoundView | None
    deadline_kind: DeadlineKind | None
    deadline_ms: int | None
    home: HomeView | None
    """A private table's host, seating and seat requests (None: a public table)."""
    waiting: tuple[Waiter, ...]
    """The waiting list, first in line first."""
    you: YouView | None
    admin: AdminView | None


@dataclass(frozen=True, slots=True)
class _Public:
    """What every viewer of one state sees alike (computed once per state)."""

    seats: tuple[SeatView | None, ...]
    hands: tuple[HandView, ...]
    round: RoundView | None
    bets: dict[int, int]
    bonuses: dict[int, int]
    spectator: TableView


_cache: list[tuple[TableState, _Public]] = []

_T = TypeVar("_T")
_PARTS: dict[object, object] = {}
"""Interned view parts: one object for each distinct seat view, hidden hand and tuple of them. A part that
a command did not change is then the very same object in the views before and after it, which is what lets
``paigow.protocol.view_patch`` and ``view_json`` pass it over by identity. Parts are immutable values, so
sharing them between states (and tables) is safe; the dict starts afresh past ``PARTS_KEPT``."""
PARTS_KEPT = 50_000


def _interned(part: _T) -> _T:
    found = _PARTS.get(part)
    if found is None:
        if len(_PARTS) >= PARTS_KEPT:
            _PARTS.clear()
        _PARTS[part] = part
        return part
    return found  # type: ignore[return-value]  # equal to part, so of its type


def _public(state: TableState) -> _Public:
    if _cache and _cache[0][0] is state:
        return _cache[0][1]
    rnd = state.round
    bets = {b.position: b.amount_cents for b in rnd.bets} if rnd is not None else {}
    bonuses = {b.position: b.amount_cents for b in rnd.bonuses} if rnd is not None else {}
    banker = rnd.banker_position if rnd is not None else None
    seats: list[SeatView | None] = [None] * len(state.seats)
    for pos, sp in enumerate(state.seats):
        if sp is None:
            continue
        in_round = pos in bets or (banker == pos and pos != 0)
        seats[pos] = _interned(SeatView(pos, sp.player_id, sp.name, sp.chips_cents, sp.shown_status,
                                        sp.away_until_ms, in_round, banker == pos and pos != 0,
                                        bets.get(pos, 0), bonuses.get(pos, 0),
                                        queens_dragon_of(rnd, pos)))
    hands: tuple[HandView, ...] = ()
    round_view: RoundView | None = None
    if rnd is not None:
        hands = _interned(tuple(_interned(HandView(h.position, h.player_id, (), (), (), h.set_by is not None,
                                                   False)) for h in rnd.hands))
        coverage = coverage_left(state)
        round_view = RoundView(rnd.round_id, rnd.number, rnd.commitment, rnd.offer_player_id,
                               rnd.banker_position, rnd.banker_player_id, rnd.bank_reason,
                               rnd.bank_ineligible, rnd.dealer_wager_cents, rnd.bets, rnd.bonuses, coverage,
                               rnd.dice,
                               rnd.first_position, hands, rnd.queens_dragon_bets, rnd.co_banked,
                               dragon_view(state))
    dl = state.deadline
    spectator = TableView(state.table_id, state.name, state.version, state.phase, state.paused,
                          state.closing, state.rules, state.timers, fortune_view(state.rules), state.marker,
                          _interned(tuple(seats)),
                          round_view,
                          dl.kind if dl is not None else None, dl.at_ms if dl is not None else None,
                          _interned(home_view(state)), state.waiting, None, None)
    public = _Public(spectator.seats, hands, round_view, bets, bonuses, spectator)
    _cache[:] = [(state, public)]
    return public


@dataclass(frozen=True, slots=True)
class OwnView:
    """What a seated player sees beyond the spectators' view of the same state: ``you``, and their own hand
    (with its cards) at ``hand_index`` in ``round.hands`` (None: no round, or no hand of theirs in it)."""

    you: YouView
    hand_index: int | None
    hand: HandView | None


def spectator_view(state: TableState) -> TableView:
    """The table as a spectator (or a player without a seat) sees it (``view_for`` a spectator)."""
    return _public(state).spectator


def admin_view(state: TableState) -> AdminView:
    """The operator's part of their view (their view is the spectators' with it as ``admin``)."""
    limits = tuple((p, sp.own_max_bet_cents) for p, sp in enumerate(state.seats) if sp is not None)
    return AdminView(state.ledger, state.rounds_started, state.last_house_round, state.pending_rules,
                     state.pending_timers, limits)


def own_view(state: TableState, player_id: str) -> OwnView | None:
    """A player's own part of their view (None: not seated, so they see what a spectator sees)."""
    own = state.seat_of(player_id)
    if own is None:
        return None
    pub = _public(state)
    rnd = state.round
    sp = state.seats[own]
    assert sp is not None
    index: int | None = None
    hand: HandView | None = None
    if rnd is not None:
        for i, h in enumerate(rnd.hands):
            if h.position == own:
                index = i
                hand = HandView(h.position, h.player_id, h.cards, h.high, h.low, h.set_by is not None,
                                h.fouled)
                break
    raise_from = None if sp.own_limit_raised_ms is None else sp.own_limit_raised_ms + WEEK_MS
    banker = rnd.banker_position if rnd is not None else None
    you = YouView(own, sp.chips_cents, sp.shown_status, sp.own_max_bet_cents, raise_from,
                  pub.bets.get(own, 0), pub.bonuses.get(own, 0), banker == own,
                  rnd is not None and rnd.offer_player_id == sp.player_id, can_of(state, own),
                  queens_dragon_of(rnd, own), _own_dragon(state, player_id),
                  None if hand is None else house_way_view(hand.cards, state.rules))
    return OwnView(you, index, hand)


@lru_cache(maxsize=4096)
def house_way_view(cards: tuple[CardText, ...], rules: HouseRules) -> HouseWayView | None:
    """Seven cards as the House Way of ``rules`` sets them, with its clause in words (None: not seven)."""
    if len(cards) != 7:
        return None
    seven = cards_from_text(cards)
    split = house_way(seven, rules)
    return HouseWayView(cards_to_text(split.high), cards_to_text(split.low),
                        clause_text(house_way_clause(seven, rules), split))


def _own_dragon(state: TableState, player_id: str) -> HandView | None:
    d = own_dragon(state, player_id)
    return None if d is None else HandView(d[0], player_id, *d[1:])


def with_own(spectator: TableView, own: OwnView | None) -> TableView:
    """A player's view: the spectators' view of a state with the player's ``own_view`` of it."""
    if own is None:
        return spectator
    round_view = spectator.round
    if own.hand_index is not None and own.hand is not None and round_view is not None:
        hands = round_view.hands
        i = own.hand_index
        round_view = replace(round_view, hands=(*hands[:i], own.hand, *hands[i + 1:]))
    return replace(spectator, round=round_view, you=own.you)


def with_admin(spectator: TableView, admin: AdminView) -> TableView:
    """The operator's view: the spectators' view of a state with its ``admin_view``."""
    return replace(spectator, admin=admin)


def view_for(state: TableState, viewer: Viewer) -> TableView:
    """The table as ``viewer`` may see it. (The parts every viewer shares are computed once per state.)"""
    spectator = spectator_view(state)
    if isinstance(viewer, OperatorViewer):
        return with_admin(spectator, admin_view(state))
    if isinstance(viewer, PlayerViewer):
        return with_own(spectator, own_view(state, viewer.player_id))
    return spectator


def shown_apart(event: Event) -> tuple[frozenset[str], bool] | None:
    """Whom ``event_for`` shows ``event`` otherwise than a spectator: (those players, whether the operator
    too). None: every viewer sees it as a spectator does (only ``HandsDealt``, ``HandSet`` and
    ``OwnLimitSet`` are shown apart: a player's own cards, a player's own limit)."""
    if isinstance(event, HandsDealt):
        return frozenset(h.player_id for h in event.hands if h.player_id is not None), False
    if isinstance(event, HandSet):
        return frozenset(() if event.player_id is None else (event.player_id,)), False
    if isinstance(event, OwnLimitSet):
        return frozenset((event.player_id,)), True
    if isinstance(event, DragonDealt | DragonSet):
        return frozenset((event.player_id,) if event.shown_to_buyer else ()), False
    return None


def event_for(event: Event, viewer: Viewer) -> Event | None:
    """``event`` as ``viewer`` may see it: secrets removed, or None when the viewer may not see it at all.

    Redacted: ``RoundStarted.server_seed`` (None), other players' and the dealer's cards in ``HandsDealt``
    (empty ``cards``) and ``HandSet`` (empty ``high``/``low``, ``fouled`` False, ``set_by`` HIDDEN: whether a
    hand was set by the House Way or a banker's foul was reset says something about the cards);
    ``house_way_clause`` None;
    ``OwnLimitSet`` goes only to that player and the operator. ``RoundSettled`` and ``RoundVoided`` are
    public (the seed is revealed).
    """
    me = viewer.player_id if isinstance(viewer, PlayerViewer) else None
    if isinstance(event, RoundStarted):
        return replace(event, server_seed=None)
    if isinstance(event, HandsDealt):
        return replace(event, hands=tuple(
            h if me is not None and h.player_id == me else DealtHand(h.position, h.player_id, ())
            for h in event.hands))
    if isinstance(event, HandSet):
        if me is not None and event.player_id == me:
            return event
        return replace(event, high=(), low=(), fouled=False, set_by=SetBy.HIDDEN,
                       house_way_clause=None)
    if isinstance(event, OwnLimitSet):
        return event if me == event.player_id or isinstance(viewer, OperatorViewer) else None
    if isinstance(event, DragonDealt | DragonSet):
        return hide_dragon(event, me)
    return event
