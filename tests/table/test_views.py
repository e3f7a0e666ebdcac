"""Hidden information: each viewer's view and events hold only the cards that viewer may see; the seed,
the deck, the discards and dead hands never appear before the reveal (dead hands and discards never)."""

from __future__ import annotations

import dataclasses
import json

from paigow import fair
from paigow.rules.house_way import house_way, house_way_clause
from paigow.rules.house_way_text import clause_text
from paigow.table import OperatorViewer, Phase, PlayerViewer, SpectatorViewer, event_for, view_for
from paigow.table import commands as c
from paigow.table import events as ev
from paigow.table.cardtext import CARD_TEXTS, cards_from_text, cards_to_text
from paigow.table.records import SetBy


def _cards_in(value: object) -> set[str]:
    found: set[str] = set()

    def walk(v: object) -> None:
        if isinstance(v, str):
            if v in CARD_TEXTS:
                found.add(v)
        elif dataclasses.is_dataclass(v) and not isinstance(v, type):
            for f in dataclasses.fields(v):
                walk(getattr(v, f.name))
        elif isinstance(v, tuple | list):
            for x in v:
                walk(x)
    walk(value)
    return found


def _text(value: object) -> str:
    return json.dumps(dataclasses.asdict(value), default=str)  # type: ignore[call-overload]


def _mid_setting(driver):
    d = driver()
    d.sit(3)  # seats 4..6 empty: dead hands
    d.start_round()
    d.do(c.PlaceBet("p1", 10_00))
    d.do(c.PlaceBet("p2", 10_00))
    d.do(c.SitOut("p3"))  # p3 is not in the round: a dead hand too
    assert d.state.phase == Phase.SETTING
    d.do(c.UseHouseWay("p2"))
    return d


def test_a_player_sees_only_their_own_cards_before_the_showdown(driver) -> None:
    d = _mid_setting(driver)
    rnd = d.state.round
    own = {h.player_id: set(h.cards) for h in rnd.hands}
    for pid in ("p1", "p2", "p3"):
        view = view_for(d.state, PlayerViewer(pid))
        assert _cards_in(view) == own.get(pid, set())
        assert rnd.server_seed not in _text(view)
        assert view.you is not None
        assert view.you.position == int(pid[1])
    p2 = view_for(d.state, PlayerViewer("p2")).round
    assert [h.is_set for h in p2.hands] == [False, False, True]
    assert p2.hands[2].low != ()
    assert view_for(d.state, PlayerViewer("p1")).round.hands[2].low == ()


def test_spectators_and_the_operator_see_no_hole_cards_and_no_seed(driver) -> None:
    d = _mid_setting(driver)
    for viewer in (SpectatorViewer(), OperatorViewer(), PlayerViewer("stranger")):
        view = view_for(d.state, viewer)
        assert _cards_in(view) == set()
        assert d.state.round.server_seed not in _text(view)
        assert view.round.commitment == d.state.round.commitment
    assert view_for(d.state, OperatorViewer()).admin is not None
    assert view_for(d.state, SpectatorViewer()).admin is None
    assert view_for(d.state, SpectatorViewer()).you is None


def test_after_settlement_live_hands_are_public_and_dead_hands_and_discards_never_shown(driver) -> None:
    """The settled round is public in its ``RoundSettled`` event, the same for every viewer: every live hand
    and the seed, never a dead hand or a discard. The views after it hold no record (nor any card)."""
    d = _mid_setting(driver)
    rnd = d.state.round
    settled = next(e for e in d.do(c.UseHouseWay("p1")) if isinstance(e, ev.RoundSettled))
    assert [h.position for h in settled.record.hands] == [0, 1, 2]
    deal = fair.deal(bytes.fromhex(rnd.server_seed), rnd.round_id, 0)
    hidden = {str(x) for pos in (3, 4, 5, 6) for x in deal.hands[pos]} | {str(x) for x in deal.discards}
    live = {str(x) for pos in (0, 1, 2) for x in deal.hands[pos]}
    for viewer in (SpectatorViewer(), OperatorViewer(), PlayerViewer("p3"), PlayerViewer("p1")):
        seen = event_for(settled, viewer)
        assert seen == settled
        assert _cards_in(seen) == live
        assert not _cards_in(seen) & hidden
        assert rnd.server_seed in _text(seen)  # revealed
        view = view_for(d.state, viewer)
        assert _cards_in(view) == set()
        assert rnd.server_seed not in _text(view)


def test_events_are_redacted_per_viewer(driver) -> None:
    d = _mid_setting(driver)
    started = next(e for e in d.events if isinstance(e, ev.RoundStarted))
    dealt = next(e for e in d.events if isinstance(e, ev.HandsDealt))
    hand_set = next(e for e in d.events if isinstance(e, ev.HandSet))
    assert started.server_seed is not None
    for viewer in (SpectatorViewer(), OperatorViewer(), PlayerViewer("p1")):
        assert event_for(started, viewer).server_seed is None
    p1 = event_for(dealt, PlayerViewer("p1"))
    assert [bool(h.cards) for h in p1.hands] == [False, True, False]
    assert _cards_in(event_for(dealt, SpectatorViewer())) == set()
    assert _cards_in(event_for(hand_set, PlayerViewer("p1"))) == set()
    assert event_for(hand_set, PlayerViewer("p2")) == hand_set
    assert hand_set.set_by is not SetBy.HIDDEN
    for other in (SpectatorViewer(), OperatorViewer(), PlayerViewer("p1")):  # how it was set says too much
        seen = event_for(hand_set, other)
        assert (seen.set_by, seen.fouled, seen.high, seen.low) == (SetBy.HIDDEN, False, (), ())
    limit = ev.OwnLimitSet("p1", 1, 20_00, False, 0)
    assert event_for(limit, PlayerViewer("p2")) is None
    assert event_for(limit, PlayerViewer("p1")) == limit
    assert event_for(limit, OperatorViewer()) == limit
    bet = ev.BetPlaced("p1", 1, 10_00)
    assert event_for(bet, SpectatorViewer()) == bet


def test_a_player_who_joins_mid_round_sees_no_cards(driver) -> None:
    d = _mid_setting(driver)
    d.do(c.Sit("late", "Late", 6, 50_00))
    view = view_for(d.state, PlayerViewer("late"))
    assert _cards_in(view) == set()
    assert view.seats[6].in_round is False


def test_a_player_sees_how_the_house_way_would_set_their_own_hand(driver) -> None:
    d = _mid_setting(driver)
    for pid in ("p1", "p2"):
        view = view_for(d.state, PlayerViewer(pid))
        hand = next(h for h in d.state.round.hands if h.player_id == pid)
        seven = cards_from_text(hand.cards)
        split = house_way(seven, d.state.rules)
        assert view.you is not None
        assert view.you.house_way is not None
        assert set(view.you.house_way.low) == set(cards_to_text(split.low))
        assert set(view.you.house_way.high) == set(cards_to_text(split.high))
        assert view.you.house_way.clause == clause_text(house_way_clause(seven, d.state.rules), split)
    # p2 used the House Way: the hand they set is the split they were shown.
    p2 = view_for(d.state, PlayerViewer("p2"))
    assert p2.you is not None
    assert p2.you.house_way is not None
    assert set(p2.round.hands[2].low) == set(p2.you.house_way.low)
    # No hand dealt to p3 (sitting out): nothing to show.
    p3 = view_for(d.state, PlayerViewer("p3"))
    assert p3.you is not None
    assert p3.you.house_way is None
