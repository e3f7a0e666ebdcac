"""``ViewJson`` writes every view byte for byte as ``encode_view`` (pydantic's JSON of the whole view) does,
for every kind of viewer in every phase, while it reuses the text of parts from one viewer and one commit
to the next; and it does encode a shared part only once."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paigow.protocol import view_json
from paigow.protocol.server import encode_view
from paigow.protocol.view_json import ViewJson
from paigow.rules.house_rules import FoulPolicy, HouseRules
from paigow.table import commands as c
from paigow.table.events import Event, RoundSettled
from paigow.table.machine import apply
from paigow.table.rejections import Rejection
from paigow.table.state import Phase, SeatStatus, TableState, Timers, new_table
from paigow.table.ticks import next_deadline
from paigow.table.views import OperatorViewer, PlayerViewer, SpectatorViewer, Viewer, view_for

START = 1_700_000_000_000
NAMES = ('Ann "the bank"', "Bö", "李小龍", "D\\e", "Émile 🎲", "F</script>")
VIEWERS: tuple[Viewer, ...] = (*(PlayerViewer(f"p{i}") for i in range(1, 7)), PlayerViewer("nobody"),
                               SpectatorViewer(), OperatorViewer())


class Table:
    """A table played command by command; every state it passes through is kept, in order."""

    def __init__(self, name: str = 'Main "quoted" \\ table ☃\u2028\x01') -> None:
        self.state = new_table("t1", name, timers=Timers(betting_ms=30_000))
        self.states = [self.state]
        self.now = START
        self.count = 0
        self.leaver: str | None = None
        self.events: dict[int, tuple[Event, ...]] = {}
        """Each commit's events, by the version they made."""
        self.settled = 0
        """Rounds settled so far."""

    def do(self, command: c.Command) -> bool:
        self.count += 1
        seed = hashlib.sha256(f"view-json-{self.count}".encode()).digest()
        try:
            state, events = apply(self.state, command, seed=seed)
        except Rejection:
            return False
        if events:
            self.state = state
            self.states.append(state)
            self.events[state.version] = tuple(events)
            self.settled += sum(isinstance(e, RoundSettled) for e in events)
        return True

    def tick_to_deadline(self) -> bool:
        due = next_deadline(self.state)
        if due is None:
            return False
        self.now = max(self.now, due)
        return self.do(c.Tick(self.now))

    def start_round(self) -> None:
        """Move the clock from deadline to deadline until a round is in its bank offer or betting."""
        for _ in range(10):
            if self.state.phase in (Phase.BANK_OFFER, Phase.BETTING) or not self.tick_to_deadline():
                return

    def play_round(self, *, bank: bool = False, own_hand: bool = False) -> bool:
        """From idle to settlement, if the table can play a round: the bank accepted or declined, everyone
        seated bets (then ``leaver`` leaves, effective when the round ends), the hands set by the players
        themselves (the two last cards low, or the House Way when that fouls) or by the House Way. True
        when a round was settled."""
        settled = self.settled
        self.start_round()
        rnd = self.state.round
        if self.state.phase == Phase.BANK_OFFER and rnd is not None and rnd.offer_player_id is not None:
            offered = rnd.offer_player_id
            self.do(c.AcceptBank(offered) if bank else c.DeclineBank(offered))
        for sp in self.state.seats:
            if sp is not None and self.state.phase == Phase.BETTING:
                self.do(c.PlaceBet(sp.player_id, 10_00))
        if self.leaver is not None:
            self.do(c.Leave(self.leaver))
        self.do(c.Tick(self.now))  # stamps the setting deadline
        rnd = self.state.round
        if self.state.phase == Phase.SETTING and rnd is not None:
            for h in rnd.hands:
                if h.player_id is None or self.state.phase != Phase.SETTING:
                    continue
                if not (own_hand and self.do(c.SetHand(h.player_id, h.cards[5:7]))):
                    self.do(c.UseHouseWay(h.player_id))
        return self.settled > settled


def _played() -> Table:
    """Twelve rounds and what happens between them: a player-banker with the house dealer's wager, a
    sitting out player, a dropped one, a player's own limit, rules and timers pending until the round
    ends, a leave, a void, a pause and a closing."""
    t = Table()
    for i, name in enumerate(NAMES[:4], start=1):
        t.do(c.Sit(f"p{i}", name, i, 500_00))
    assert t.play_round()
    t.do(c.Sit("p5", NAMES[4], 5, 500_00))
    t.do(c.Sit("p6", NAMES[5], 6, 150_00))
    t.do(c.SetOwnLimit("p2", 50_00, t.now))
    for n in range(11):
        assert t.play_round(bank=n % 2 == 0, own_hand=n % 3 == 0)
        if n == 1:
            t.do(c.SitOut("p3"))
        if n == 3:
            t.do(c.SitIn("p3"))
        if n == 4:
            t.start_round()
            t.do(c.ChangeRules(HouseRules(foul_policy=FoulPolicy.LOSE, commission_round_cents=1)))
            t.do(c.ChangeTimers(Timers(betting_ms=25_000)))
            t.do(c.Drop("p4", t.now))
            t.do(c.Reconnect("p4", t.now))
        if n == 6:
            t.do(c.Drop("p5", t.now))
        if n == 7:
            t.do(c.Reconnect("p5", t.now))
        t.leaver = "p6" if n == 7 else None
    t.do(c.PauseTable())
    t.do(c.ResumeTable())
    t.start_round()
    rnd = t.state.round
    if rnd is not None and rnd.offer_player_id is not None:
        t.do(c.DeclineBank(rnd.offer_player_id))
    t.do(c.PlaceBet("p1", 10_00))
    t.do(c.CloseTable())  # closing: the table closes when this round ends
    t.do(c.VoidRound())
    return t


@pytest.fixture(scope="module")
def played() -> Table:
    return _played()


def _views(states: list[TableState]) -> Iterator[tuple[TableState, Viewer]]:
    for state in states:
        for viewer in VIEWERS:
            yield state, viewer


def test_the_played_table_covers_what_it_should(played: Table) -> None:
    states = played.states
    assert {s.phase for s in states} == set(Phase) - {Phase.DRAGON_OFFER}  # the variants': test_variants.py
    assert any(s.round is not None and s.round.banker_position not in (None, 0) for s in states)
    assert any(s.round is not None and s.round.dealer_wager_cents > 0 for s in states)
    assert played.settled == 12
    statuses = {sp.shown_status for s in states for sp in s.seats if sp is not None}  # as views show them
    assert {SeatStatus.SITTING_OUT, SeatStatus.AWAY, SeatStatus.LEAVING} <= statuses
    assert any(s.pending_rules is not None for s in states)
    assert any(s.pending_timers is not None for s in states)
    assert any(s.paused for s in states)
    assert any(s.closing for s in states)
    assert any(s.seats[6] is None for s in states[-5:])


def test_every_view_of_every_commit_is_pydantics_json(played: Table) -> None:
    encoder = ViewJson()
    for state, viewer in _views(played.states):
        view = view_for(state, viewer)
        assert encoder.encode(view) == encode_view(view), (state.version, viewer)


def test_views_encoded_out_of_order_are_still_exact(played: Table) -> None:
    """The feed encodes versions in order, but an encoder fed old and new states alike stays exact."""
    encoder = ViewJson()
    states = played.states
    order = [s for pair in zip(states[::2], reversed(states), strict=False) for s in pair]
    for state, viewer in _views(order):
        view = view_for(state, viewer)
        assert encoder.encode(view) == encode_view(view), (state.version, viewer)


def test_equal_parts_that_are_other_objects_are_encoded_from_their_own_values(played: Table) -> None:
    """A view that differs from the last one in one field, or one nested value, is not given the last
    one's text: it is written from its own values."""
    encoder = ViewJson()
    state = next(s for s in reversed(played.states) if s.phase == Phase.SETTING)
    view = view_for(state, PlayerViewer("p1"))
    assert encoder.encode(view) == encode_view(view)
    assert view.round is not None
    assert view.you is not None
    changed = [replace(view, name="Another"), replace(view, you=replace(view.you, chips_cents=1)),
               replace(view, seats=view.seats[::-1]),
               replace(view, round=replace(view.round, hands=view.round.hands[::-1]))]
    for other in changed:
        assert encoder.encode(other) == encode_view(other)
        assert encoder.encode(other) != encode_view(view)


def test_a_shared_part_is_encoded_once_across_viewers_and_commits(played: Table,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Each rules object is written once for all the commits and viewers that show it, and the seats once
    per commit, not once per viewer."""
    calls: dict[object, int] = {}
    real = view_json._pydantic

    def counting(hint: object) -> view_json._Dump:
        dump = real(hint)

        def counted(value: object) -> str:
            calls[hint] = calls.get(hint, 0) + 1
            return dump(value)
        return counted

    monkeypatch.setattr(view_json, "_pydantic", counting)
    encoder = ViewJson()
    states = played.states
    for state, viewer in _views(states):
        encoder.encode(view_for(state, viewer))
    assert calls[HouseRules] == len({id(s.rules) for s in states}) > 1
    seats_hint = view_json._hints(type(view_for(states[0], SpectatorViewer())))["seats"]
    assert calls[seats_hint] <= len(states)


def test_snapshots_at_one_version_keep_a_bounded_number_of_texts(played: Table) -> None:
    """A player's own hand is a new object in each of their views: clients reconnecting again and again
    while the hands are being set (one version) do not make the encoder keep a text for each snapshot."""
    encoder = ViewJson()
    state = next(s for s in reversed(played.states) if s.phase == Phase.SETTING)
    snapshots = 10 * view_json.TEXTS_KEPT
    for n in range(snapshots):
        view = view_for(state, VIEWERS[n % len(VIEWERS)])
        assert encoder.encode(view) == encode_view(view), n
    kept = sum(len(part._now) + len(part._before) for part in encoder._parts)
    assert kept <= 3 * view_json.TEXTS_KEPT < snapshots / 3


# --- random play ----------------------------------------------------------------------------------------
AMOUNTS = (0, 4_99, 5_00, 25_00, 300_00)

action = st.tuples(st.integers(0, 19), st.integers(1, 7), st.sampled_from(AMOUNTS))


def _act(t: Table, which: int, i: int, amount: int) -> None:
    pid = f"p{i}"
    commands: list[c.Command] = [
        c.Sit(pid, NAMES[i % len(NAMES)], i, amount * 10 or 100_00), c.Leave(pid), c.Drop(pid, t.now),
        c.Reconnect(pid, t.now), c.AcceptBank(pid), c.DeclineBank(pid), c.PlaceBet(pid, amount),
        c.RemoveBet(pid), c.UseHouseWay(pid), c.SitOut(pid), c.SitIn(pid),
        c.SetOwnLimit(pid, amount or None, t.now), c.Kick(pid), c.PauseTable(), c.ResumeTable(),
        c.VoidRound(), c.ChangeLimits(amount or 1_00, 300_00), c.Tick(t.now + amount * 100),
    ]
    if which < len(commands):
        t.do(commands[which])
    elif which == len(commands):
        t.tick_to_deadline()
    else:
        t.play_round(bank=amount > 0, own_hand=i % 2 == 0)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(action, max_size=40))
def test_random_play_views_are_pydantics_json(actions: list[tuple[int, int, int]]) -> None:
    t = Table(name="Hypothesis")
    t.do(c.Sit("p1", NAMES[0], 1, 100_00))
    t.do(c.Sit("p2", NAMES[1], 2, 100_00))
    encoder = ViewJson()
    for which, i, amount in actions:
        seen = len(t.states)
        _act(t, which, i, amount)
        for state, viewer in _views(t.states[seen - 1:]):
            view = view_for(state, viewer)
            assert encoder.encode(view) == encode_view(view), (state.version, viewer)
