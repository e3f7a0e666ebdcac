"""A history entry's ``total_net_cents`` (issue 29): everything the round moved for its player at the table,
equal to ``balance_after_cents − balance_before_cents`` and to the sum of the parts docs/http-api.md names,
over rounds with a Fortune bonus, a Queen's Dragon and a Dragon hand (an EZ table's barred dealer pushes
every wager while the Queen's Dragon still wins or loses); an entry stored before the field gets the same
total from its parts."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from paigow.ledger.effects import history_total_cents
from paigow.rules.house_rules import CommissionForm, HouseRules
from paigow.table import Phase
from paigow.table import commands as c
from support.forced import force_cards, settle_by_house_way

HTTP_API = Path(__file__).parents[2] / "docs" / "http-api.md"
EVERY_BET = HouseRules(commission_form=CommissionForm.EZ, queens_dragon_enabled=True, fortune_enabled=True,
                       dragon_enabled=True)
QUEEN_HIGH = "Qh Jd 9c 7s 5h 3d 2c"  # barred at an EZ table: every wager pushes, the Queen's Dragon wins
KING_HIGH = "Kh Jd 9c 7s 5h 3d 2c"   # not barred: the Queen's Dragon loses
PARTS = ("net_cents", "bonus_net_cents", "queens_dragon_win_cents", "dragon")


def _parts(entry: dict[str, Any]) -> int:
    """The sum docs/http-api.md gives for ``total_net_cents``."""
    dragon = entry["dragon"]
    return (entry["net_cents"] + entry["bonus_net_cents"] + entry["queens_dragon_win_cents"]
            + (0 if dragon is None else dragon["net_cents"]))


@pytest.mark.parametrize("dealer", [QUEEN_HIGH, KING_HIGH])
def test_the_total_is_what_the_chips_moved_by_and_the_sum_of_its_parts(driver, dealer: str) -> None:
    d = driver(EVERY_BET)
    d.sit(3)
    d.start_round()
    for player in ("p1", "p2", "p3"):
        d.do(c.PlaceBet(player, 10_00, bonus_cents=5_00, queens_dragon_cents=2_00))
    assert d.state.phase == Phase.DRAGON_OFFER
    buyer = f"p{d.state.round.dragon.offered_seat}"
    d.do(c.TakeDragon(buyer, 8_00))
    chips_before = {sp.player_id: sp.chips_cents for sp in d.state.seats if sp is not None}
    d.state = force_cards(d.state, {0: dealer})
    _, entries = settle_by_house_way(d)
    chips_after = {sp.player_id: sp.chips_cents for sp in d.state.seats if sp is not None}
    assert len(entries) == 3
    for entry in entries:
        player = entry["hand"]["player_id"]
        total = entry["total_net_cents"]
        assert total == entry["balance_after_cents"] - entry["balance_before_cents"] == _parts(entry)
        assert (entry["balance_before_cents"], entry["balance_after_cents"]) == (
            chips_before[player], chips_after[player])
        assert entry["bonus_net_cents"] != 0
        assert entry["queens_dragon_win_cents"] == (100_00 if dealer == QUEEN_HIGH else -2_00)
        assert (entry["dragon"] is not None) is (player == buyer)
        if dealer == QUEEN_HIGH:
            assert entry["net_cents"] == 0  # the barred dealer pushed: the sentence the docs outgrew
            assert total != entry["net_cents"] + entry["bonus_net_cents"]


def test_an_entry_stored_before_the_total_reads_it_from_its_parts() -> None:
    older = {"net_cents": 9_50, "bonus_net_cents": -5_00}  # stored before the casino variants, too
    assert history_total_cents(older) == 4_50
    variants = {**older, "queens_dragon_win_cents": -2_00, "dragon": {"net_cents": 7_60}}
    assert history_total_cents(variants) == 10_10
    assert history_total_cents({**variants, "dragon": None}) == 2_50


def test_the_http_api_doc_says_what_the_total_sums() -> None:
    text = HTTP_API.read_text(encoding="utf-8")
    start = text.index("`total_net_cents` (")
    definition = text[start:text.index(")", text.index("`dragon`", start))]
    named = set(re.findall(r"`([a-z_]+)`", definition))
    assert set(PARTS) <= named
    assert "they differ by `net_cents` +" not in text  # the sentence the server outgrew
