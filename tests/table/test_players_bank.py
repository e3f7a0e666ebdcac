"""Banking among friends (docs/rules.md §6a): with ``HouseRules.players_bank_in_turn`` the marker passes
only among the occupied player seats, a decline, a time-out, an ineligible player or one who leaves passes
the offer on, a round nobody banks is voided (``no_banker``) before any card, the house dealer never plays,
two playing players are needed, and a home game's commission is none or an exact 5%."""

from __future__ import annotations

import contextlib
import json
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from pydantic import TypeAdapter

from paigow.rules.house_rules import HouseRules, HouseRulesError
from paigow.rules.payout import Wager, settle
from paigow.table import Phase, RejectCode, Rejection, TableState, Timers, next_deadline, view_for
from paigow.table import commands as c
from paigow.table import events as ev
from paigow.table.bank import NO_BANKER, NO_OPPONENT
from paigow.table.home import Home
from paigow.table.state import DeadlineKind, IneligibleReason, SeatStatus
from paigow.table.views import SpectatorViewer, TableView

from .conftest import Driver, chips_balanced

HOME = {"players_bank_in_turn": True, "commission_bps": 0}
FIVE_PERCENT = {"players_bank_in_turn": True, "commission_bps": 500, "commission_round_cents": 1}


def _in_turn(**rules: object) -> Driver:
    return Driver(HouseRules(**{**HOME, **rules}))  # type: ignore[arg-type]


def _sit(d: Driver, *seats: int, buy_in_cents: int = 100_00) -> None:
    for seat in seats:
        d.do(c.Sit(f"p{seat}", f"Player {seat}", seat, buy_in_cents))


def _since(d: Driver, mark: int) -> list[ev.Event]:
    return d.events[mark:]


def _play(d: Driver, banker: str | None = None, amount_cents: int = 10_00) -> ev.RoundStarted:
    """Start a round and play it with ``banker`` (default: whoever is offered first) taking the bank."""
    mark = len(d.events)
    d.start_round()
    started = next(e for e in _since(d, mark) if isinstance(e, ev.RoundStarted))
    while banker is not None and d.state.round.offer_player_id != banker:
        d.do(c.DeclineBank(d.state.round.offer_player_id))
    rnd = d.state.round
    assert rnd is not None
    assert rnd.offer_player_id is not None
    d.do(c.AcceptBank(rnd.offer_player_id))
    d.bet_all(amount_cents)
    d.house_way_all()
    assert d.state.phase == Phase.IDLE
    return started


# --- the setting ------------------------------------------------------------------------------------
def test_the_setting_is_off_by_default_and_checked_with_player_banking_and_co_banking() -> None:
    assert HouseRules().players_bank_in_turn is False
    assert HouseRules(players_bank_in_turn=True).players_bank_in_turn is True
    with pytest.raises(HouseRulesError, match=r"^players_bank_in_turn: .*player_banking false"):
        HouseRules(players_bank_in_turn=True, player_banking=False)
    with pytest.raises(HouseRulesError, match=r"^players_bank_in_turn: .*co_banking"):
        HouseRules(players_bank_in_turn=True, co_banking=True)
    with pytest.raises(HouseRulesError, match=r"^players_bank_in_turn must be true or false, not 'yes'"):
        HouseRules(players_bank_in_turn="yes")  # type: ignore[arg-type]


def test_the_setting_round_trips_with_the_state_and_is_in_every_viewers_rules() -> None:
    d = _in_turn()
    _sit(d, 1, 2)
    d.start_round()
    adapter = TypeAdapter(TableState)
    back = adapter.validate_json(adapter.dump_json(d.state))
    assert back == d.state
    assert back.rules.players_bank_in_turn is True
    view = view_for(d.state, SpectatorViewer())
    shown = json.loads(TypeAdapter(TableView).dump_json(view))
    assert shown["rules"]["players_bank_in_turn"] is True
    changed = ev.RulesChanged(HouseRules(**HOME), scheduled=True)  # type: ignore[arg-type]
    events: TypeAdapter[ev.Event] = TypeAdapter(ev.Event)
    assert events.validate_json(events.dump_json(changed)) == changed


def test_only_a_home_game_is_given_the_setting_by_a_rules_change() -> None:
    d = Driver()
    d.refuse(c.ChangeRules(HouseRules(players_bank_in_turn=True)), RejectCode.NOT_PRIVATE)
    d.state = replace(d.state, home=Home("p1", "Ann"))
    d.do(c.ChangeRules(HouseRules(players_bank_in_turn=True)))
    assert d.state.rules.players_bank_in_turn is True


# --- two players ------------------------------------------------------------------------------------
def test_a_round_starts_only_with_two_playing_players() -> None:
    d = _in_turn()
    _sit(d, 3)
    assert d.state.deadline is None
    assert d.state.phase == Phase.IDLE
    d.tick(60_000)
    assert d.state.round is None
    _sit(d, 5)
    d.start_round()
    assert d.state.phase == Phase.BANK_OFFER
    assert (d.state.marker, d.state.round.offer_player_id) == (3, "p3")  # the first occupied seat from 1
    d.do(c.AcceptBank("p3"))
    d.bet_all()
    d.house_way_all()
    d.do(c.SitOut("p5"))  # one playing player left: no next round is waited for
    assert d.state.deadline is None
    d.tick(60_000)
    assert d.state.round is None
    d.do(c.SitIn("p5"))
    d.start_round()
    assert d.state.round.offer_player_id == "p5"


# --- the rotation -----------------------------------------------------------------------------------
def test_the_marker_moves_among_the_occupied_player_seats_as_players_come_and_go() -> None:
    d = _in_turn()
    _sit(d, 2, 4)
    mark = len(d.events)
    offered = []
    for _ in range(3):
        offered.append(_play(d).marker)
    assert offered == [2, 4, 2]  # never the dealer's 0, never an empty seat
    _sit(d, 6)
    offered.append(_play(d).marker)  # after 2: 4
    offered.append(_play(d).marker)  # then the newcomer at 6
    d.do(c.Leave("p4"))
    _sit(d, 1)
    offered.append(_play(d).marker)  # after 6: around to 1
    offered.append(_play(d).marker)  # 4 is empty now: 2
    offered.append(_play(d).marker)  # then 6
    assert offered == [2, 4, 2, 4, 6, 1, 2, 6]
    records = [e.record for e in _since(d, mark) if isinstance(e, ev.RoundSettled)]
    assert [r.banker_position for r in records] == offered
    assert all(r.banker_player_id == f"p{r.banker_position}" for r in records)
    # The house dealer never plays: no wager, no hand dealt, nothing won or lost by the house.
    opened = [e for e in _since(d, mark) if isinstance(e, ev.BettingOpened)]
    assert [e.dealer_wager_cents for e in opened] == [0] * len(offered)
    dealt = [e for e in _since(d, mark) if isinstance(e, ev.HandsDealt)]
    assert len(dealt) == len(offered)
    assert all(h.position != 0 and h.player_id is not None for e in dealt for h in e.hands)
    assert all(h.player_id is not None for r in records for h in r.hands)
    assert all(r.house_net_cents == 0 for r in records)
    assert d.state.ledger.house_net_cents == 0
    assert chips_balanced(d.state)


def test_a_decline_and_a_time_out_pass_the_bank_on_with_the_marker() -> None:
    d = _in_turn()
    _sit(d, 1, 3, 5)
    d.start_round()
    assert (d.state.marker, d.state.round.offer_player_id) == (1, "p1")
    events = d.do(c.DeclineBank("p1"))
    assert events[:2] == (ev.BankDeclined(1, "p1", False), ev.BankOffered(3, "p3"))
    assert isinstance(events[2], ev.DeadlineSet)
    assert events[2].deadline_kind == DeadlineKind.BANK_OFFER
    assert (d.state.phase, d.state.marker, d.state.round.offer_player_id) == (Phase.BANK_OFFER, 3, "p3")
    d.refuse(c.AcceptBank("p1"), RejectCode.NOT_YOUR_SEAT)  # a declined offer is gone
    mark = len(d.events)
    d.expire()  # p3 lets it run out
    assert _since(d, mark)[-3:-1] == [ev.BankDeclined(3, "p3", True), ev.BankOffered(5, "p5")]
    assert (d.state.marker, d.state.round.offer_player_id) == (5, "p5")
    opened = d.do(c.AcceptBank("p5"))[0]
    assert isinstance(opened, ev.BettingOpened)
    assert (opened.banker_position, opened.banker_player_id, opened.dealer_wager_cents) == (5, "p5", 0)
    d.bet_all()
    d.house_way_all()
    assert d.last_record.banker_position == 5
    d.start_round()  # the marker goes on from the seat that banked
    assert (d.state.marker, d.state.round.offer_player_id) == (1, "p1")


def test_ineligible_players_are_passed_over() -> None:
    d = _in_turn()
    _sit(d, 1, 2, 4, 6)
    _play(d, banker="p1")
    d.with_chips(2, 14_99)  # three other seated players need 3 x $5.00
    d.do(c.SitOut("p4"))
    mark = len(d.events)
    d.start_round()
    started = next(e for e in _since(d, mark) if isinstance(e, ev.RoundStarted))
    assert started.marker == 2  # the marker moves to seat 2, whose chips are short...
    assert next(e for e in _since(d, mark) if isinstance(e, ev.BankOffered)) == ev.BankOffered(6, "p6")
    assert d.state.marker == 6  # ...past the sitting-out seat 4, to seat 6
    d.do(c.DeclineBank("p6"))
    assert d.state.round.offer_player_id == "p1"
    rules = d.state.rules
    assert rules.min_bet_cents * 3 > 14_99  # no dealer to cover: 3 others, not 4
    d.with_chips(2, 15_00)  # now enough, and not passed yet this round
    d.do(c.DeclineBank("p1"))
    assert (d.state.marker, d.state.round.offer_player_id) == (2, "p2")


def test_no_house_round_is_needed_to_bank() -> None:
    d = _in_turn()
    _sit(d, 1, 2)
    d.start_round()  # the very first round: offered at once
    assert d.state.round.offer_player_id == "p1"
    assert d.state.last_house_round == 0


def test_nobody_banking_voids_the_round_before_any_card_and_nothing_moves() -> None:
    d = _in_turn()
    _sit(d, 1, 2)
    d.start_round()
    chips = [sp.chips_cents if sp else None for sp in d.state.seats]
    ledger = d.state.ledger
    d.do(c.DeclineBank("p1"))
    events = d.do(c.DeclineBank("p2"))
    voided = events[1]
    assert events[0] == ev.BankDeclined(2, "p2", False)
    assert isinstance(voided, ev.RoundVoided)
    assert (voided.reason, voided.returned_bets, voided.returned_bonuses) == (NO_BANKER, (), ())
    assert voided.reason == "no_banker"
    assert not any(isinstance(e, (ev.HandsDealt, ev.BettingOpened)) for e in d.events)
    assert [sp.chips_cents if sp else None for sp in d.state.seats] == chips
    assert d.state.ledger == ledger
    assert d.state.phase == Phase.IDLE
    assert d.state.round is None
    dl = d.state.deadline
    assert dl is not None
    assert dl.kind == DeadlineKind.NEXT_ROUND
    assert dl.duration_ms == d.state.timers.between_rounds_ms
    d.tick()
    d.tick(d.state.timers.between_rounds_ms - 1)
    assert d.state.round is None  # not before the pause between rounds
    d.tick(1)
    assert d.state.phase == Phase.BANK_OFFER  # it tries again
    assert d.state.round.number == 2
    assert d.state.round.offer_player_id == "p1"


def test_a_round_where_nobody_may_bank_is_voided_at_its_start() -> None:
    d = Driver(HouseRules(**HOME), Timers(between_rounds_ms=2_000))  # type: ignore[arg-type]
    _sit(d, 1, 2)
    d.with_chips(1, 4_99)
    d.with_chips(2, 4_99)
    mark = len(d.events)
    d.tick()
    assert [type(e) for e in _since(d, mark) if not isinstance(e, ev.DeadlineSet)] == [
        ev.RoundStarted, ev.RoundVoided]
    assert d.state.round is None
    assert d.state.deadline.kind == DeadlineKind.NEXT_ROUND


@pytest.mark.parametrize(("depart", "gone"), [(c.Leave, ev.PlayerLeft), (c.Kick, ev.PlayerKicked)])
def test_an_offered_player_who_leaves_or_sits_out_passes_the_offer_on(depart: type, gone: type) -> None:
    d = _in_turn()
    _sit(d, 1, 2, 3)
    d.start_round()
    events = d.do(depart("p1"))
    assert events[:2] == (ev.BankDeclined(1, "p1", False), ev.BankOffered(2, "p2"))
    assert any(isinstance(e, gone) for e in events)
    events = d.do(c.SitOut("p2"))
    # One playing player would be left to bank against nobody: the round is not dealt.
    assert events[0] == ev.BankDeclined(2, "p2", False)
    assert isinstance(events[1], ev.RoundVoided)
    assert events[1].reason == NO_BANKER
    assert d.state.round is None
    assert d.state.deadline is None
    assert chips_balanced(d.state)


def test_a_banker_left_with_nobody_to_play_before_the_deal_has_the_round_voided() -> None:
    d = _in_turn()
    _sit(d, 1, 2)
    d.start_round()
    d.do(c.AcceptBank("p1", bonus_cents=0))
    chips = d.state.seats[1].chips_cents
    d.do(c.Drop("p2", d.now))  # away is not gone: p2 may come back and bet
    assert d.state.phase == Phase.BETTING
    d.do(c.Reconnect("p2", d.now))
    events = d.do(c.Leave("p2"))
    voided = next(e for e in events if isinstance(e, ev.RoundVoided))
    assert voided.reason == NO_OPPONENT == "no player is left to play against the bank"
    assert voided.returned_bets == ()
    assert d.state.round is None
    assert d.state.deadline is None  # one player: no round is waited for
    assert d.state.seats[1].chips_cents == chips
    assert chips_balanced(d.state)


def test_an_away_player_still_counts_when_the_offered_player_leaves() -> None:
    d = _in_turn()
    _sit(d, 1, 2, 3)
    d.start_round()
    d.do(c.Drop("p2", d.now))
    events = d.do(c.Leave("p1"))
    assert events[:2] == (ev.BankDeclined(1, "p1", False), ev.BankOffered(3, "p3"))  # p2 may not bank...
    d.do(c.AcceptBank("p3"))
    d.do(c.Reconnect("p2", d.now))  # ...but comes back and plays
    d.do(c.PlaceBet("p2", 10_00))
    d.house_way_all()
    assert d.last_record.banker_player_id == "p3"


def test_an_offer_left_with_one_player_is_voided() -> None:
    d = _in_turn()
    _sit(d, 1, 2, 3)
    d.start_round()
    d.do(c.SitOut("p3"))
    assert d.state.round.offer_player_id == "p1"
    events = d.do(c.Leave("p2"))
    voided = next(e for e in events if isinstance(e, ev.RoundVoided))
    assert voided.reason == NO_BANKER
    assert not any(isinstance(e, ev.BankDeclined) for e in events)


# --- commission -------------------------------------------------------------------------------------
def _rounds(d: Driver, n: int, amounts: tuple[int, ...]) -> list[ev.RoundSettled]:
    mark = len(d.events)
    for _ in range(n):
        d.start_round()
        rnd = d.state.round
        d.do(c.AcceptBank(rnd.offer_player_id))
        bettors = [sp for pos, sp in enumerate(d.state.seats)
                   if sp is not None and pos != d.state.round.banker_position]
        for sp, amount in zip(bettors, amounts, strict=True):
            d.do(c.PlaceBet(sp.player_id, amount))
        d.house_way_all()
    return [e for e in _since(d, mark) if isinstance(e, ev.RoundSettled)]


def test_no_commission_takes_nothing_from_anyone() -> None:
    d = _in_turn()
    _sit(d, 1, 2, 3)
    bought = d.state.ledger.bought_in_cents
    settled = _rounds(d, 12, (10_01, 7_77))
    records = [s.record for s in settled]
    assert any(h.outcome == "win" for r in records for h in r.hands)
    assert any(r.banker_gross_cents > 0 for r in records)
    for r in records:
        assert r.banker_commission_cents == 0
        assert r.banker_net_cents == r.banker_gross_cents
        assert all(h.commission_cents == 0 and h.net_cents == h.gross_cents for h in r.hands)
        assert r.house_net_cents == 0
        assert r.commission_form == "commissioned"  # a player-banked round, commission 0 (no "5%")
    assert sum(sp.chips_cents for sp in d.state.seats if sp) == bought  # the players' money, all of it
    assert d.state.ledger.house_net_cents == 0


def test_five_percent_is_exact_to_the_cent_rounded_up() -> None:
    d = _in_turn(**FIVE_PERCENT)
    _sit(d, 1, 2, 3)
    settled = _rounds(d, 16, (10_01, 7_77))
    records = [s.record for s in settled]
    wins = [h for r in records for h in r.hands if h.outcome == "win"]
    assert {h.wager_cents for h in wins} == {10_01, 7_77}  # both amounts won at least once
    for h in wins:  # 5% of $10.01 is 50.05¢: 51¢; of $7.77, 38.85¢: 39¢
        assert h.commission_cents == {10_01: 51, 7_77: 39}[h.wager_cents]
        assert h.net_cents == h.wager_cents - h.commission_cents
    banker_wins = [r for r in records if r.banker_gross_cents > 0]
    assert banker_wins
    house = 0
    for r in records:
        banker = next(h for h in r.hands if h.is_banker)
        wagers = [Wager(h.player_id, h.wager_cents, h.outcome) for h in r.hands if not h.is_banker]
        expected = settle(wagers, d.state.rules, banker.player_id)
        assert r.banker_commission_cents == expected.banker_commission_cents
        assert r.banker_commission_cents == (-(-r.banker_gross_cents * 5 // 100) if r.banker_gross_cents > 0
                                             else 0)
        assert banker.commission_cents == r.banker_commission_cents  # the banker's hand carries its own
        commissions = sum(h.commission_cents for h in r.hands)
        assert r.house_net_cents == commissions == expected.house_net_cents  # the commission, nothing else
        house += commissions
    assert d.state.ledger.house_net_cents == house
    assert chips_balanced(d.state)


# --- a property -------------------------------------------------------------------------------------
ACTIONS = ("play",) * 8 + ("sit", "sit", "leave", "sit_out", "sit_in", "decline", "tick", "short", "drop",
                          "reconnect")


def _step(d: Driver, action: str, seat: int) -> None:
    """One step of a random game: ``play`` moves the round on (start it, take or decline the offer by the
    seat's parity, bet, set the hands); the others sit, leave, sit out or in, decline, wait, or leave a
    seat short of chips between rounds."""
    sp = d.state.seats[seat]
    rnd = d.state.round
    phase = d.state.phase
    if action == "play":
        if phase == Phase.IDLE:
            due = next_deadline(d.state)
            d.tick(0 if due is None else max(0, due - d.now))
        elif phase == Phase.BANK_OFFER and rnd is not None and rnd.offer_player_id is not None:
            d.do((c.AcceptBank if seat % 2 else c.DeclineBank)(rnd.offer_player_id))
        elif phase == Phase.BETTING:
            d.bet_all(5_00 * seat + 1)
        elif phase == Phase.SETTING:
            d.house_way_all()
    elif action == "sit" and sp is None:
        d.do(c.Sit(f"q{seat}-{len(d.events)}", f"Q{seat}", seat, 60_00))
    elif action == "leave" and sp is not None:
        d.do(c.Leave(sp.player_id))
    elif action == "sit_out" and sp is not None:
        d.do(c.SitOut(sp.player_id))
    elif action == "sit_in" and sp is not None:
        d.do(c.SitIn(sp.player_id))
    elif action == "decline" and rnd is not None and rnd.offer_player_id is not None:
        d.do(c.DeclineBank(rnd.offer_player_id))
    elif action == "tick":
        d.tick(seat * 7_000)
    elif action == "drop" and sp is not None:
        d.do(c.Drop(sp.player_id, d.now))
    elif action == "reconnect" and sp is not None:
        d.do(c.Reconnect(sp.player_id, d.now))
    elif action == "short" and sp is not None and phase == Phase.IDLE:
        d.with_chips(seat, 5_00 * (seat - 1))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.booleans(), st.sets(st.integers(1, 6), min_size=2, max_size=4),
       st.lists(st.tuples(st.sampled_from(ACTIONS), st.integers(1, 6)), min_size=20, max_size=80))
def test_the_banker_is_always_a_seated_player_and_money_sums(five: bool, seats: set[int],
                                                            steps: list[tuple[str, int]]) -> None:
    d = _in_turn(**FIVE_PERCENT) if five else _in_turn()
    _sit(d, *sorted(seats), buy_in_cents=60_00)
    for action, seat in steps:
        mark = len(d.events)
        with contextlib.suppress(Rejection):  # refused (a bet over the bank's coverage...): state kept
            _step(d, action, seat)
        _check(d.state, _since(d, mark))
    kinds = {type(e).__name__ for e in d.events}
    for kind in ("RoundSettled", "RoundVoided", "BankDeclined"):
        event(f"{kind}: {kind in kinds}")
    won = any(isinstance(e, ev.RoundSettled) and e.record.banker_gross_cents > 0 for e in d.events)
    event(f"a player-banker won: {won}")


def _check(state: TableState, events: list[ev.Event]) -> None:
    assert chips_balanced(state)
    assert all(sp.chips_cents >= 0 for sp in state.seats if sp is not None)
    rnd = state.round
    if rnd is not None:
        assert 1 <= state.marker <= 6
        assert rnd.banker_position != 0
        assert rnd.dealer_wager_cents == 0
        assert all(h.position != 0 for h in rnd.hands)
        if rnd.banker_position is not None:
            banker = state.seats[rnd.banker_position]
            assert banker is not None
            assert banker.player_id == rnd.banker_player_id
        if rnd.offer_player_id is not None:
            offered = state.seats[state.marker]
            assert offered is not None
            assert offered.player_id == rnd.offer_player_id
            assert offered.status == SeatStatus.ACTIVE  # offered while playing; away since, maybe
            assert rnd.offer_player_id not in rnd.bank_passed
    for e in events:
        if isinstance(e, ev.RoundSettled):
            r = e.record
            assert r.banker_position in range(1, 7)
            assert r.banker_player_id is not None
            assert all(h.player_id is not None for h in r.hands)
            assert r.house_net_cents == sum(h.commission_cents for h in r.hands)  # the banker's included
        if isinstance(e, ev.BettingOpened):
            assert e.banker_position != 0
            assert e.dealer_wager_cents == 0
            assert e.ineligible is None or e.ineligible != IneligibleReason.NO_HOUSE_ROUND
