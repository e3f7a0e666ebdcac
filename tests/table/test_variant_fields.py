"""Two fields an outside client had to guess at (issue 29, item 10), held to what the docs say:

- what a barred round's record keeps of the hands (docs/rules.md §4a, rule 2): the field lists are read
  from the docs, and one deal is played twice, at an EZ table that bars its dealer hand and at a
  commissioned table that does not, and the two records compared field by field;
- ``coverage_left_cents`` at a co-bank (docs/rules.md §4c, docs/protocol.md "Casino variants"): wager, not
  the co-banker's half, ``2 × (chips_cents − own bonus − Σ ⌈wager / 2⌉)``, computed from the view as a
  client sees it, and a bet of exactly that much is taken, a cent more refused."""

from __future__ import annotations

import dataclasses
import re

from paigow.rules.house_rules import CommissionForm, FoulPolicy, HouseRules
from paigow.rules.showdown import Outcome
from paigow.table import Phase, RejectCode
from paigow.table import commands as c
from paigow.table.can import BetRange, can_of
from paigow.table.records import HandRecord, RoundRecord
from paigow.table.views import PlayerViewer, SpectatorViewer, view_for
from support.forced import force_cards

from ..rules.test_rules_doc import section

QUEEN_HIGH = "Qh Jd 9c 7s 5h 3d 2c"     # EZ bars it; a commissioned table plays it
ACES_KINGS = "As Ad Kc Kh 8d 6c 4s"     # beats it on both hands
WEAK = "2s 3h 4c 6d 8s Tc 7d"           # loses both hands to it
NINES = "9h 9d 5c 4h 3s 2d Th"          # set with the nines in front: a foul
COMMON = {"fortune_enabled": True, "dragon_enabled": True, "foul_policy": FoulPolicy.LOSE}
EZ = HouseRules(commission_form=CommissionForm.EZ, queens_dragon_enabled=True, **COMMON)
COMMISSIONED = HouseRules(**COMMON)
HAND_FIELDS = {f.name for f in dataclasses.fields(HandRecord)}


def _fields(text: str, after: str, before: str) -> set[str]:
    """The hand record's field names in backticks in ``text`` between ``after`` and ``before``."""
    assert after in text, f"docs/rules.md §4a, rule 2 no longer says {after!r}"
    start = text.index(after) + len(after)
    assert before in text[start:], f"docs/rules.md §4a, rule 2 no longer says {before!r}"
    return set(re.findall(r"`(\w+)`", text[start:text.index(before, start)])) & HAND_FIELDS


def documented() -> tuple[set[str], set[str], set[str], set[str]]:
    """The fields docs/rules.md §4a rule 2 says a barred record keeps as without the bar, those that hold
    the push, the Queen's Dragon's (settled as always) and those that say whose hand it is."""
    text = section("4a")
    heading = "**What a barred round's record keeps**"
    assert heading in text, "docs/rules.md §4a, rule 2 does not say what a barred round's record keeps"
    text = text[text.index(heading):]
    return (_fields(text, "without the bar:", "What each hand did"),
            _fields(text, "The wagers hold the push:", "except a foul"),
            _fields(text, "The Queen's", "is settled as in any round"),
            _fields(text, "dealer_queen_high` true).", "as in any round."))


def _play(rules: HouseRules, driver) -> RoundRecord:
    """One house-banked round, the same deal at either table: p1 bets with a Fortune bonus (and a Queen's
    Dragon where offered) and may buy the Dragon hand; p1 wins both hands, p2 loses both, p3 fouls."""
    d = driver(rules)
    d.sit(3)
    d.start_round()
    d.do(c.PlaceBet("p1", 10_00, bonus_cents=5_00,
                    queens_dragon_cents=1_00 if rules.queens_dragon_enabled else None))
    d.do(c.PlaceBet("p2", 10_00))
    d.do(c.PlaceBet("p3", 10_00))
    while d.state.phase == Phase.DRAGON_OFFER:
        seat = d.state.round.dragon.offered_seat
        d.do(c.TakeDragon("p1", 5_00) if seat == 1 else c.PassDragon(f"p{seat}"))
    d.state = force_cards(d.state, {0: QUEEN_HIGH, 1: ACES_KINGS, 2: WEAK, 3: NINES})
    d.do(c.UseHouseWay("p1"))
    d.do(c.UseHouseWay("p2"))
    d.do(c.SetHand("p3", ("9h", "9d")))
    assert d.state.phase == Phase.IDLE
    return d.last_record


def test_the_docs_name_every_field_of_a_hand_once() -> None:
    kept, pushed, queens, whose = documented()
    assert kept >= {"dealt", "high", "low", "high_name", "low_name", "set_by", "fouled", "fortune"}
    assert pushed == {"outcome", "gross_cents", "commission_cents", "net_cents"}
    assert queens == {"queens_dragon_cents", "queens_dragon_win_cents"}
    assert kept | pushed | queens | whose == HAND_FIELDS
    assert not (kept | whose) & pushed
    assert not (kept | whose | pushed) & queens


def test_a_barred_record_keeps_the_hands_as_documented_and_holds_the_push(driver) -> None:
    kept, pushed, _, whose = documented()
    barred, plain = _play(EZ, driver), _play(COMMISSIONED, driver)
    assert (barred.dealer_barred, plain.dealer_barred) == (True, False)
    assert barred.dealer_queen_high
    assert [h.position for h in barred.hands] == [h.position for h in plain.hands]
    assert any(h.dragon_of == 1 for h in barred.hands)  # the Dragon hand was bought
    for mine, theirs in zip(barred.hands, plain.hands, strict=True):
        for name in kept | whose:  # exactly as without the bar
            assert getattr(mine, name) == getattr(theirs, name), (mine.position, name)
        if mine.is_banker:  # the house dealer's hand carries the bank's result
            assert (mine.gross_cents, mine.commission_cents, mine.net_cents) == (
                barred.banker_gross_cents, barred.banker_commission_cents, barred.banker_net_cents)
        elif mine.fouled:  # rule 6: a foul still loses
            assert (mine.outcome, mine.gross_cents, mine.commission_cents, mine.net_cents) == (
                Outcome.LOSS, -mine.wager_cents, 0, -mine.wager_cents)
        else:  # the push, a Dragon's too
            assert (mine.outcome, mine.gross_cents, mine.commission_cents, mine.net_cents) == (
                Outcome.PUSH, 0, 0, 0)
    players = [(m, t) for m, t in zip(barred.hands, plain.hands, strict=True) if not m.is_banker]
    for name in pushed:  # these are the fields the bar changed: each differs without it for some hand
        assert any(getattr(m, name) != getattr(t, name) for m, t in players), name
    fouled = sum(h.wager_cents for h in barred.hands if h.fouled)
    assert fouled == 10_00
    assert (barred.banker_gross_cents, barred.banker_commission_cents, barred.banker_net_cents) == (
        fouled, 0, fouled)
    assert barred.house_net_cents == (fouled + barred.bonus_house_net_cents
                                      + barred.queens_dragon_house_net_cents)
    queens = next(h for h in barred.hands if h.queens_dragon_cents)
    assert queens.queens_dragon_win_cents == 50 * queens.queens_dragon_cents


def _documented_coverage(d) -> int:
    """docs/rules.md §4c, from the view a client has: twice what is left of the co-banker's chips once
    their own Fortune bonus and half of every wager (each rounded up) are set aside."""
    view = view_for(d.state, SpectatorViewer())
    rnd = view.round
    banker = rnd.banker_position
    wagers = [b.amount_cents for b in rnd.bets]
    if rnd.dragon is not None and rnd.dragon.buyer_position is not None:
        wagers.append(rnd.dragon.wager_cents)
    own_bonus = sum(b.amount_cents for b in rnd.bonuses if b.position == banker)
    return 2 * (view.seats[banker].chips_cents - own_bonus - sum((w + 1) // 2 for w in wagers))


def _coverage(d) -> int:
    left = view_for(d.state, SpectatorViewer()).round.coverage_left_cents
    for pid in ("p1", "p2", "p3", "p4"):
        assert view_for(d.state, PlayerViewer(pid)).round.coverage_left_cents == left
    assert left == _documented_coverage(d)
    return left


def test_coverage_left_at_a_co_bank_counts_wager_as_documented(driver) -> None:
    d = driver(HouseRules(co_banking=True, fortune_enabled=True, dragon_enabled=True))
    d.sit(4)
    d.start_round()
    d.bet_all(5_00)
    while d.state.phase == Phase.DRAGON_OFFER:
        d.do(c.PassDragon(f"p{d.state.round.dragon.offered_seat}"))
    d.house_way_all()
    d.start_round()
    d.with_chips(1, 30_01)
    d.do(c.AcceptBank("p1", co_bank=True, bonus_cents=1_01))
    assert _coverage(d) == 2 * (30_01 - 1_01)  # 58.00 of wager, not the co-banker's 29.00
    d.do(c.PlaceBet("p2", 10_01))
    left = _coverage(d)
    assert left == 58_00 - 2 * 5_01
    d.refuse(c.PlaceBet("p3", left + 1), RejectCode.BET_OVER_COVERAGE)
    d.do(c.PlaceBet("p3", left))  # exactly coverage_left_cents is taken
    assert _coverage(d) == 0
    d.refuse(c.PlaceBet("p4", 5_00), RejectCode.BET_OVER_COVERAGE)
    assert can_of(d.state, 3).bet == BetRange(5_00, left)  # a bet changed has its own half counted back
    d.do(c.PlaceBet("p3", 20_01))
    assert _coverage(d) == left - 2 * 10_01
    d.do(c.PlaceBet("p4", 5_00))
    assert d.state.phase == Phase.DRAGON_OFFER
    left = _coverage(d)
    seat = d.state.round.dragon.offered_seat
    main = next(b.amount_cents for b in d.state.round.bets if b.position == seat)
    assert can_of(d.state, seat).dragon == BetRange(5_00, min(main, left))
    d.do(c.TakeDragon(f"p{seat}", 5_01))
    assert _coverage(d) == left - 2 * 2_51
