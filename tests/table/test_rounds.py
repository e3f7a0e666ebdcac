"""Whole rounds: the house banks, the deal from the committed seed, settlement in cents, the dice examples,
when betting ends, voids."""

from __future__ import annotations

import hashlib
from dataclasses import replace

from paigow import fair
from paigow.rules.cards import format_cards
from paigow.rules.house_way import house_way
from paigow.rules.payout import Wager, settle
from paigow.rules.showdown import showdown
from paigow.rules.splits import Split
from paigow.table import DeadlineKind, Phase, SetBy, cards_from_text, next_deadline
from paigow.table import commands as c
from paigow.table import events as ev
from paigow.table.records import HOUSE_KEY


def _split(high: tuple[str, ...], low: tuple[str, ...]) -> Split:
    return Split(cards_from_text(high), cards_from_text(low))


def test_a_house_banked_round_from_sit_to_settlement(driver, helpers) -> None:
    d = driver()
    d.sit(3)
    assert d.state.phase == Phase.IDLE
    d.start_round()
    rnd = d.state.round
    assert rnd is not None
    assert d.state.phase == Phase.BETTING
    assert (rnd.banker_position, rnd.bank_reason) == (0, "dealer_seat")
    assert rnd.commitment == hashlib.sha256(bytes.fromhex(rnd.server_seed)).hexdigest()
    d.do(c.PlaceBet("p1", 10_00))
    d.do(c.PlaceBet("p2", 25_00))
    d.do(c.PlaceBet("p2", 20_00))  # a changed bet
    assert d.state.phase == Phase.BETTING
    events = d.do(c.PlaceBet("p3", 5_00))
    dealt = next(e for e in events if isinstance(e, ev.HandsDealt))
    assert d.state.phase == Phase.SETTING
    deal = fair.deal(bytes.fromhex(rnd.server_seed), rnd.round_id, 0)
    assert dealt.dice == deal.dice
    assert dealt.first_position == deal.first_position
    assert [h.position for h in dealt.hands] == [0, 1, 2, 3]
    for h in dealt.hands:
        assert h.cards == tuple(str(x) for x in deal.hands[h.position])
    d.do(c.UseHouseWay("p1"))
    hand2 = d.state.round.hands[2]
    low = tuple(house_way(cards_from_text(hand2.cards)).low)
    d.do(c.SetHand("p2", tuple(str(x) for x in low)))
    events = d.do(c.UseHouseWay("p3"))
    settled = next(e for e in events if isinstance(e, ev.RoundSettled)).record
    assert d.state.phase == Phase.IDLE
    assert d.state.round is None
    assert settled.server_seed == rnd.server_seed
    dealer = settled.hands[0]
    assert dealer.set_by == SetBy.DEALER
    assert dealer.is_banker
    banker_split = _split(dealer.high, dealer.low)
    assert banker_split == house_way(cards_from_text(dealer.dealt))
    wagers = []
    for h in settled.hands[1:]:
        outcome = showdown(_split(h.high, h.low), banker_split).outcome
        assert h.outcome == outcome
        wagers.append(Wager(h.player_id, h.wager_cents, outcome))
    expected = settle(wagers, d.state.rules, None)
    assert settled.house_net_cents == expected.house_net_cents
    assert [h.net_cents for h in settled.hands[1:]] == [p.net_cents for p in expected.players]
    for h in settled.hands[1:]:
        assert d.state.seats[h.position].chips_cents == 100_00 + h.net_cents
    assert helpers["chips_balanced"](d.state)
    # The next round is scheduled after the pause between rounds.
    assert d.state.deadline.kind == DeadlineKind.NEXT_ROUND
    assert d.state.deadline.at_ms is None  # stamped by the next Tick
    d.run_due()
    assert d.state.deadline.at_ms == d.now + d.state.timers.between_rounds_ms


def test_players_who_do_not_bet_are_not_in_the_round(driver) -> None:
    d = driver()
    d.sit(3)
    d.start_round()
    d.do(c.PlaceBet("p2", 10_00))
    events = d.expire()  # the betting deadline, with one bet
    dealt = next(e for e in events if isinstance(e, ev.HandsDealt))
    assert [h.position for h in dealt.hands] == [0, 2]
    missed = [e for e in events if isinstance(e, ev.PlayerMissedRound)]
    assert [(e.player_id, e.missed_rounds) for e in missed] == [("p1", 1), ("p3", 1)]


def test_with_no_bets_the_round_waits_and_the_first_bet_restarts_the_clock(driver) -> None:
    d = driver()
    d.sit(2)
    d.start_round()
    events = d.expire()
    assert [type(e) for e in events] == [ev.DeadlineCleared]
    assert d.state.phase == Phase.BETTING
    assert d.state.deadline is None
    assert d.tick(10**9) == ()  # nothing due: no events, no new version
    d.do(c.PlaceBet("p1", 10_00))
    assert d.state.deadline.kind == DeadlineKind.BETTING
    d.expire()
    assert d.state.phase == Phase.SETTING


def test_sitting_out_ends_betting_when_everyone_else_has_bet(driver) -> None:
    d = driver()
    d.sit(2)
    d.start_round()
    d.do(c.PlaceBet("p1", 10_00))
    assert d.state.phase == Phase.BETTING
    d.do(c.SitOut("p2"))
    assert d.state.phase == Phase.SETTING


def test_setting_deadline_sets_every_remaining_hand_by_the_house_way(driver, helpers) -> None:
    d = driver()
    d.sit(2)
    d.start_round()
    d.bet_all()
    d.do(c.UseHouseWay("p1"))
    cards = cards_from_text(d.state.round.hands[2].cards)
    events = d.expire()
    hs = next(e for e in events if isinstance(e, ev.HandSet) and e.player_id == "p2")
    assert hs.set_by == SetBy.TIMEOUT
    assert _split(hs.high, hs.low) == house_way(cards)
    assert d.state.phase == Phase.IDLE
    assert helpers["chips_balanced"](d.state)


def test_dice_examples_8_and_15_give_the_banker_the_first_hand_and_14_the_sixth_position(
        driver, helpers) -> None:
    for total, first in ((8, 0), (15, 0), (14, 6)):
        d = driver(table_id=f"dice{total}")
        d.sit(6)
        d.next_seed = helpers["seed_with_total"](f"dice{total}-1", total)
        d.start_round()
        events = d.events
        started = next(e for e in events if isinstance(e, ev.RoundStarted))
        assert started.round_id == f"dice{total}-1"
        d.bet_all()
        dealt = next(e for e in d.events if isinstance(e, ev.HandsDealt))
        assert sum(dealt.dice) == total
        assert dealt.first_position == first
        deck = fair.deck_order(bytes.fromhex(started.server_seed), started.round_id)
        by_pos = {h.position: h.cards for h in dealt.hands}
        assert by_pos[first] == tuple(str(x) for x in deck[:7])
        assert by_pos[(first + 1) % 7] == tuple(str(x) for x in deck[7:14])


def test_a_player_banker_counts_the_dice_from_their_own_position(driver, helpers) -> None:
    d = driver(table_id="pb")
    d.sit(3)
    d.play_round()  # round 1: the house banks; marker at the dealer's seat
    d.next_seed = helpers["seed_with_total"]("pb-2", 14)
    d.start_round()  # round 2: the marker moves to seat 1
    assert d.state.marker == 1
    d.do(c.AcceptBank("p1"))
    d.bet_all()
    dealt = [e for e in d.events if isinstance(e, ev.HandsDealt)][-1]
    assert sum(dealt.dice) == 14
    assert dealt.first_position == 0  # seat 1 counts as 1; 14 -> 1 + 13 = 14 = 0 (mod 7)


def test_void_returns_every_stake_and_reveals_the_seed(driver, helpers) -> None:
    d = driver()
    d.sit(2)
    d.start_round()
    d.bet_all(20_00)
    rnd = d.state.round
    chips = [sp.chips_cents if sp else None for sp in d.state.seats]
    events = d.do(c.VoidRound())
    voided = events[0]
    assert isinstance(voided, ev.RoundVoided)
    assert voided.server_seed == rnd.server_seed
    assert {(b.player_id, b.amount_cents) for b in voided.returned_bets} == {("p1", 20_00), ("p2", 20_00)}
    assert [sp.chips_cents if sp else None for sp in d.state.seats] == chips
    assert d.state.phase == Phase.IDLE
    assert d.state.round is None
    assert helpers["chips_balanced"](d.state)
    d.start_round()
    assert d.state.round.number == 2


def test_a_copy_goes_to_the_banker(driver) -> None:
    d = driver()
    d.sit(2)
    d.start_round()
    d.bet_all()
    rnd = d.state.round
    # Rig the dealt hands (state is a value): the dealer's House Way is A-A-9-8-3 | K-Q.
    hands = list(rnd.hands)
    hands[0] = replace(hands[0], cards=("As", "Ac", "Kh", "Qh", "9c", "8d", "3s"))
    hands[1] = replace(hands[1], cards=("Ah", "Ad", "9h", "8c", "3d", "Ks", "Qs"))  # copies both hands
    hands[2] = replace(hands[2], cards=("7s", "7c", "7h", "5c", "4c", "Kd", "Qd"))  # wins high, copies low
    d.state = replace(d.state, round=replace(rnd, hands=tuple(hands)))
    d.do(c.SetHand("p1", ("Ks", "Qs")))
    events = d.do(c.SetHand("p2", ("Kd", "Qd")))
    record = next(e for e in events if isinstance(e, ev.RoundSettled)).record
    dealer = record.hands[0]
    assert format_cards(cards_from_text(dealer.low)) in ("Kh Qh", "Qh Kh")
    assert record.hands[1].outcome == "loss"
    assert record.hands[2].outcome == "push"
    assert record.house_net_cents == 10_00
    assert HOUSE_KEY == "house"


def test_a_round_is_voided_when_every_player_leaves(driver) -> None:
    d = driver()
    d.sit(2)
    d.start_round()
    d.do(c.PlaceBet("p1", 10_00))
    left = d.do(c.Leave("p1"))  # in betting a bettor leaves at once, the bet returned
    assert [type(e) for e in left][:2] == [ev.BetRemoved, ev.PlayerLeft]
    events = d.do(c.Leave("p2"))
    voided = next(e for e in events if isinstance(e, ev.RoundVoided))
    assert voided.reason == "every player left"
    assert d.state.phase == Phase.IDLE
    assert d.state.round is None


def test_a_command_that_carries_the_clock_starts_its_timers_from_it(driver) -> None:
    """The server stamps player commands with its clock: the timers they start run from that moment, and
    no Tick is needed to stamp them (each such Tick would be a commit and a push to every viewer)."""
    d = driver()
    d.sit(2)
    d.start_round()
    assert d.state.phase == Phase.BETTING
    at = d.now + 1_234
    d.do(c.PlaceBet("p1", 10_00, now_ms=at))
    d.do(c.PlaceBet("p2", 10_00, now_ms=at))  # every seat has bet: the deal, and the setting timer
    assert d.state.phase == Phase.SETTING
    assert d.state.deadline.kind == DeadlineKind.SETTING
    assert d.state.deadline.at_ms == at + d.state.timers.setting_ms
    d.do(c.UseHouseWay("p1", now_ms=at + 10))
    d.do(c.UseHouseWay("p2", now_ms=at + 20))  # the last hand: showdown, and the pause between rounds
    assert d.state.round is None
    assert d.state.deadline.kind == DeadlineKind.NEXT_ROUND
    assert d.state.deadline.at_ms == at + 20 + d.state.timers.between_rounds_ms
    assert next_deadline(d.state) == d.state.deadline.at_ms
