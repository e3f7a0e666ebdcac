"""The facts the table gives so that a client can say what it did for a player: why the player at the
marker was not offered the bank, which House Way clause set a hand (in the player's own event, in the
settled record, never in another viewer's event), and the pause between rounds."""

from __future__ import annotations

from paigow.rules.cards import parse_cards
from paigow.rules.house_way import house_way, house_way_clause
from paigow.rules.house_way_text import clause_text, pair_group
from paigow.table import commands as c
from paigow.table.events import BettingOpened, HandSet
from paigow.table.records import SetBy
from paigow.table.rejections import RejectCode
from paigow.table.state import BankReason, IneligibleReason, Phase, Timers
from paigow.table.views import PlayerViewer, SpectatorViewer, event_for, view_for


def _text(cards: str) -> str:
    seven = parse_cards(cards)
    return clause_text(house_way_clause(seven), house_way(seven))


def test_the_clause_text_names_the_clause_and_what_it_did_with_the_pairs() -> None:
    # Trump Plaza clause 7: a low and a high pair are split; two low pairs with a king are kept together.
    assert _text("3c 3d Jh Js 9c 7d 2s") == "two pair, low + high: split"
    assert _text("3c 3d 4h 4s Kc 7d 2s") == "two pair, low + low: kept together"
    assert _text("Ac Kd 9h 7s 5c 3d 2h") == "no pair"
    assert _text("9c 9d 9h 9s Kc 7d 2s") == "four of a kind: kept together"
    assert _text("Jc Jd Jh Js 9c 7d 2s") == "four of a kind: split"
    assert [pair_group(r) for r in (2, 6, 7, 10, 11, 13, 14)] == [
        "low", "low", "medium", "medium", "high", "high", "aces"]


def _opened(d) -> BettingOpened:
    return next(e for e in reversed(d.events) if isinstance(e, BettingOpened))


def test_a_player_who_did_not_play_the_last_house_round_is_told_why(driver) -> None:
    d = driver()
    d.sit(2)
    d.start_round()
    d.do(c.PlaceBet("p2", 10_00))
    d.do(c.SitOut("p1"))
    d.house_way_all()
    d.do(c.SitIn("p1"))
    d.start_round()  # the marker reaches seat 1
    assert d.state.round.bank_reason == BankReason.INELIGIBLE
    assert _opened(d).ineligible == IneligibleReason.NO_HOUSE_ROUND
    assert d.state.round.bank_ineligible == IneligibleReason.NO_HOUSE_ROUND
    spectator = view_for(d.state, SpectatorViewer())
    assert spectator.round is not None
    assert spectator.round.bank_ineligible == IneligibleReason.NO_HOUSE_ROUND


def test_a_player_whose_chips_do_not_cover_the_table_is_told_why(driver) -> None:
    d = driver()
    d.sit(4)
    d.play_round(5_00)
    d.with_chips(1, 19_99)
    d.start_round()
    assert _opened(d).ineligible == IneligibleReason.CHIPS_SHORT
    seen = view_for(d.state, PlayerViewer("p3")).round
    assert seen is not None
    assert seen.bank_ineligible == IneligibleReason.CHIPS_SHORT


def test_other_reasons_for_the_house_to_bank_carry_no_ineligibility(driver) -> None:
    d = driver()
    d.sit(2)
    d.start_round()  # the first round stays at the dealer's seat
    assert _opened(d).reason == BankReason.DEALER_SEAT
    assert _opened(d).ineligible is None
    assert d.state.round.bank_ineligible is None


def test_a_timed_out_hand_carries_its_clause_to_its_player_only(driver) -> None:
    d = driver()
    d.sit(2)
    d.start_round()
    d.bet_all()
    assert d.state.phase == Phase.SETTING
    d.do(c.UseHouseWay("p1"))
    d.expire()  # p2 never sets: the House Way does it at the deadline
    own = [e for e in d.events if isinstance(e, HandSet)]
    by_player = {e.player_id: e for e in own}
    p2 = by_player["p2"]
    assert p2.set_by == SetBy.TIMEOUT
    hand = next(h for h in d.last_record.hands if h.player_id == "p2")
    assert p2.house_way_clause == clause_text(house_way_clause(parse_cards(" ".join(hand.dealt))),
                                             house_way(parse_cards(" ".join(hand.dealt))))
    assert event_for(p2, PlayerViewer("p2")) is p2
    for other in (PlayerViewer("p1"), SpectatorViewer()):
        hidden = event_for(p2, other)
        assert isinstance(hidden, HandSet)
        assert (hidden.set_by, hidden.house_way_clause, hidden.high) == (SetBy.HIDDEN, None, ())
    # The settled record is public: every hand the House Way set says its clause, a player's own set none.
    record = d.last_record
    by_pos = {h.position: h for h in record.hands}
    assert by_pos[0].set_by == SetBy.DEALER
    assert all(h.house_way_clause for h in record.hands)
    p1 = next(h for h in record.hands if h.player_id == "p1")
    assert by_player["p1"].house_way_clause == p1.house_way_clause


def test_a_hand_the_player_set_has_no_clause(driver) -> None:
    d = driver()
    d.sit(1)
    d.start_round()
    d.bet_all()
    hand = next(h for h in d.state.round.hands if h.player_id == "p1")
    split = house_way(parse_cards(" ".join(hand.cards)))
    d.do(c.SetHand("p1", tuple(str(x) for x in split.low)))
    mine = next(h for h in d.last_record.hands if h.player_id == "p1")
    assert mine.set_by == SetBy.PLAYER
    assert mine.house_way_clause is None


def test_the_default_pause_between_rounds_leaves_time_to_read_the_result() -> None:
    assert Timers().between_rounds_ms >= 8_000


def test_a_buy_in_below_the_minimum_is_refused_in_dollars(driver) -> None:
    d = driver()
    refused = d.refuse(c.Sit("p1", "Player 1", 1, 2_00), RejectCode.BELOW_MINIMUM)
    assert refused.message == "a buy-in of $2.00 is below the table minimum $5.00"
