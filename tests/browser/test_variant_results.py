"""client_web/js/variant_results.js against records the pure core settles (the table tests' driver, the
cards forced): the words of each variant's line for the branches a live game rarely deals (a Dragon the
House Way sets by the table's rule, one from a record stored before ``dragon_set_by``, a lost Queen's
Dragon, the nine-high push, a co-banker who loses), and a seat's whole result equal to what its balance
moved by in its history entry (``effects_of``)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page
from tests.table.conftest import Driver

from paigow.ledger.effects import jsonable
from paigow.rules.house_rules import CommissionForm, HouseRules
from paigow.table import commands as c
from paigow.table.records import RoundRecord
from support.forced import force_cards, settle_by_house_way

pytestmark = pytest.mark.browser

QUEEN_HIGH = "Qh Jd 9c 7s 5h 3d 2c"
KING_HIGH = "Kh Jd 9c 7s 5h 3d 2c"
NINE_LOW = "Ah 9d 8c 6s 5h 3d 2c"
ACES_KINGS = "As Ad Kc Kh 8d 6c 4s"
WEAK = "2s 3h 4c 6d 8s Tc 7d"

WORDS_JS = """async (cases) => {
  const m = await import('/js/variant_results.js');
  const texts = (parts) => parts.map((p) => p.text);
  return cases.map(({ record, playerId, total }) => {
    const mine = record.hands.find((h) => h.player_id === playerId && h.dragon_of == null);
    return { net: m.seatNetCents(record, playerId),
      round: texts(m.roundVariantParts(record, 'Ann', playerId)),
      seat: texts(m.seatVariantParts(record, mine, playerId, total)) };
  });
}"""


def money(cents: int, sign: bool = False) -> str:
    text = f"${abs(cents) // 100:,}.{abs(cents) % 100:02d}"
    return f"−{text}" if cents < 0 else f"+{text}" if sign and cents > 0 else text


def words(page: Page, cases: list[tuple[RoundRecord | dict[str, Any], str]],
          totals: tuple[int, ...] = ()) -> list[dict[str, Any]]:
    """Each case's lines; ``totals``: the first cases' whole results as the server gives them (a history
    entry's ``total_net_cents``), where the others are summed from the record."""
    data: list[dict[str, Any]] = [{"record": r if isinstance(r, dict) else jsonable(r), "playerId": p}
                                  for r, p in cases]
    for case, total in zip(data, totals, strict=False):
        case["total"] = total
    found: list[dict[str, Any]] = page.evaluate(WORDS_JS, data)
    return found


def test_a_dragon_the_table_sets_by_the_house_way_and_an_older_record_of_one(module_page: Page) -> None:
    d = Driver(HouseRules(dragon_enabled=True))
    d.sit(3)
    d.start_round()
    d.bet_all(10_00)
    buyer = f"p{d.state.round.dragon.offered_seat}"
    d.do(c.TakeDragon(buyer, 8_00))
    record, history = settle_by_house_way(d)
    dragon = next(h for h in record.hands if h.dragon_of is not None)
    verb = {"win": f"won {money(dragon.net_cents)} ({money(dragon.gross_cents)} less "
                   f"{money(dragon.commission_cents)} commission)",
            "push": "pushed", "loss": f"lost {money(-dragon.net_cents)}"}[str(dragon.outcome)]
    older = jsonable(record)
    del older["dragon_set_by"]  # as stored before the field
    now, then = words(module_page, [(record, buyer), (older, buyer)])
    line = f"Your Dragon hand (at seat {dragon.position}, $8.00 wager) {verb}"
    assert now["seat"][:2] == [line, f"set by the House Way, as this table sets every Dragon "
                                     f"({dragon.house_way_clause})"]
    assert then["seat"][:2] == [line, f"set by the House Way ({dragon.house_way_clause})"]
    entry = next(h for h in history if h["position"] == dragon.dragon_of)
    assert now["net"] == entry["balance_after_cents"] - entry["balance_before_cents"]
    assert now["seat"][-1] == f"In all {money(now['net'], True)}"


def test_a_lost_queens_dragon_and_the_nine_high_push(module_page: Page) -> None:
    ez = Driver(HouseRules(commission_form=CommissionForm.EZ, queens_dragon_enabled=True))
    ez.sit(2)
    ez.start_round()
    ez.do(c.PlaceBet("p1", 10_00, queens_dragon_cents=2_00))
    ez.do(c.PlaceBet("p2", 10_00))
    ez.state = force_cards(ez.state, {0: KING_HIGH, 1: ACES_KINGS, 2: WEAK})
    lost, ez_history = settle_by_house_way(ez)
    nine = Driver(HouseRules(commission_form=CommissionForm.NINE_HIGH))
    nine.sit(2)
    nine.start_round()
    nine.bet_all(10_00)
    nine.state = force_cards(nine.state, {0: NINE_LOW})
    barred, _ = settle_by_house_way(nine)
    assert barred.dealer_barred
    qd, push = words(module_page, [(lost, "p1"), (barred, "p1")])
    assert qd["seat"] == ["Queen's Dragon $2.00: lost, −$2.00", f"In all {money(qd['net'], True)}"]
    assert qd["round"] == []  # not barred: the dealer held king high
    entry = next(h for h in ez_history if h["position"] == 1)
    moved = entry["balance_after_cents"] - entry["balance_before_cents"]
    assert qd["net"] == moved == entry["total_net_cents"] == 10_00 - 2_00  # EZ: no commission; QD lost
    # The History dialog says the entry's total_net_cents: the figure the server gives, not a sum of its own.
    (given,) = words(module_page, [(lost, "p1")], totals=(entry["total_net_cents"],))
    assert given["seat"][-1] == f"In all {money(entry['total_net_cents'], True)}"
    (other,) = words(module_page, [(lost, "p1")], totals=(12_34,))
    assert other["seat"][-1] == "In all +$12.34"
    assert push == {"net": 0, "round": ["Every wager pushed: the dealer's nine-high low hand"], "seat": []}


def test_a_co_banker_who_loses_pays_half_and_no_commission(module_page: Page) -> None:
    d = Driver(HouseRules(co_banking=True))
    d.sit(2)
    d.start_round()
    d.bet_all(10_00)
    settle_by_house_way(d)
    d.start_round()
    d.do(c.AcceptBank("p1", co_bank=True))
    d.bet_all(10_00)
    d.state = force_cards(d.state, {1: WEAK, 2: ACES_KINGS})
    record, history = settle_by_house_way(d)
    assert record.co_banked
    assert (record.banker_gross_cents, record.house_bank_gross_cents) == (-5_00, -5_00)
    mine, theirs = words(module_page, [(record, "p1"), (record, "p2")])
    halves = "half −$5.00; the house's half −$5.00"
    assert mine["round"] == [f"You co-banked with the house, half each: your {halves}"]
    assert theirs["round"] == [f"Co-banked by Ann and the house, half each: Ann's {halves}"]
    for found, player in ((mine, "p1"), (theirs, "p2")):
        entry = next(h for h in history if h["hand"]["player_id"] == player)
        assert found["net"] == entry["balance_after_cents"] - entry["balance_before_cents"]
