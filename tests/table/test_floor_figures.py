"""A round's floor figures (``paigow.ledger.floor_figures``, docs/floor.md): handle, win, commission, side
bets and banking read off the record; the theoretical win from each bet's edge, per commission form, pay
table and banking, worked out here by hand from the figures docs/rules.md and docs/fortune.md give."""

from __future__ import annotations

from typing import Any

import pytest

from paigow.ledger.floor_figures import (
    FORTUNE_EDGE_PPB,
    FORTUNE_ENVY_NANO,
    QUEENS_DRAGON_EDGE_PPB,
    FloorFigures,
    round_figures,
    voided_figures,
)
from paigow.rules.house_rules import HouseRules
from paigow.table.records import HandRecord, RoundRecord, SetBy


def _hand(position: int, player_id: str | None, wager: int = 0, **fields: Any) -> HandRecord:
    return HandRecord(position=position, player_id=player_id, dealt=(), high=(), low=(), set_by=SetBy.PLAYER,
                      fouled=False, is_banker=fields.pop("is_banker", False), wager_cents=wager, outcome=None,
                      gross_cents=0, commission_cents=fields.pop("commission", 0), net_cents=0, high_name="",
                      low_name="", **fields)


def _record(*hands: HandRecord, **fields: Any) -> RoundRecord:
    return RoundRecord(round_id="r1", number=1, commitment="", server_seed="", dice=(1, 2, 3),
                       first_position=1,
                       banker_position=fields.pop("banker_position", 0),
                       banker_player_id=fields.pop("banker_player_id", None), hands=hands,
                       banker_gross_cents=0, banker_commission_cents=fields.pop("banker_commission", 0),
                       banker_net_cents=0, house_net_cents=fields.pop("house_net", 0), **fields)


DEALER = _hand(0, None, is_banker=True)


def test_the_edges_are_the_documented_ones() -> None:
    assert FORTUNE_EDGE_PPB == {"fortune-8000": 77_655_747, "fortune-5000": 78_278_545}  # 7.7656%, 7.8279%
    assert FORTUNE_ENVY_NANO["fortune-8000"] == 4_634_161_975  # $0.0463 per other player
    assert QUEENS_DRAGON_EDGE_PPB == 100_222_339  # 10.0222%


@pytest.mark.parametrize(("form", "wager", "theo"), [
    # (P_loss - P_win) * w + P_win * commission(w), in micro-cents
    ("commissioned", 1_000, (299_090 - 286_115) * 1_000 + 286_115 * 50),  # 2.728%
    ("commissioned", 100, (299_090 - 286_115) * 100 + 286_115 * 25),  # 5¢ rounded up to 25¢: 8.45%
    ("ez", 1_000, (298_884 - 270_716) * 1_000),  # 2.817%
    ("nine_high", 1_000, (298_820 - 273_744) * 1_000),  # 2.508%
])
def test_a_wager_the_house_banks_has_its_forms_edge(form: str, wager: int, theo: int) -> None:
    record = _record(DEALER, _hand(1, "ann", wager, commission=50), commission_form=form, house_net=-950)
    figures = round_figures(record, seated=3)
    assert figures == FloorFigures(rounds=1, handle=wager, win=-950, win_sq=950 * 950, theo_micro=theo,
                                   commission=50, seated=3)


def test_a_dragon_hands_wager_is_handle_at_the_games_edge() -> None:
    record = _record(DEALER, _hand(1, "ann", 1_000), _hand(3, "ann", 500, dragon_of=1))
    figures = round_figures(record)
    assert figures.handle == 1_500
    assert figures.theo_micro == 12_975 * 1_500 + 286_115 * (50 + 25)


@pytest.mark.parametrize("table", ["fortune-8000", "fortune-5000"])
def test_a_fortune_bet_has_its_pay_tables_edge_less_the_envy_it_may_collect(table: str) -> None:
    qualifying = _hand(1, "ann", bonus_cents=500, bonus_win_cents=-500)
    small = _hand(2, "bob", bonus_cents=100, bonus_win_cents=-100)  # under the $5 Envy minimum
    record = _record(DEALER, qualifying, small, _hand(3, "cat"), pay_table=table, bonus_house_net_cents=600,
                     house_net=600)
    figures = round_figures(record, HouseRules())
    nano = FORTUNE_EDGE_PPB[table] * 600 - FORTUNE_ENVY_NANO[table] * 2  # two other player hands
    assert figures.theo_micro == (nano + 500) // 1000
    assert (figures.fortune_handle, figures.fortune_win, figures.handle) == (600, 600, 600)


def test_a_queens_dragon_bet_has_its_exact_edge() -> None:
    record = _record(DEALER, _hand(1, "ann", queens_dragon_cents=100, queens_dragon_win_cents=-100),
                     commission_form="ez", queens_dragon_house_net_cents=100, house_net=100)
    figures = round_figures(record)
    assert figures.theo_micro == (100_222_339 * 100 + 500) // 1000
    assert (figures.qd_handle, figures.qd_win, figures.handle) == (100, 100, 100)


def test_a_player_banked_round_earns_the_house_its_commission_and_its_dealers_wager() -> None:
    banker = _hand(2, "bob", is_banker=True)
    record = _record(_hand(0, None, 1_000), _hand(1, "ann", 1_000, commission=50), banker,
                     banker_player_id="bob", banker_position=2, banker_commission=25, house_net=75)
    figures = round_figures(record)
    assert figures.handle == 1_000  # the house dealer's wager is not handle, nor the bank's exposure
    assert figures.commission == 75
    assert (figures.player_banked, figures.co_banked) == (1, 0)
    # Ann's win's commission, the house dealer playing without commission (-1.2975%), the bank's
    # commission at two opposing wagers (1.2781% of them)
    assert figures.theo_micro == 286_115 * 50 + (286_115 - 299_090) * 1_000 + 12_781 * 2_000


def test_a_co_banked_round_earns_the_house_half_the_banks_edge() -> None:
    banker = _hand(2, "bob", is_banker=True)
    record = _record(_hand(1, "ann", 1_000, commission=50), banker, banker_player_id="bob", banker_position=2,
                     co_banked=True)
    figures = round_figures(record)
    assert (figures.player_banked, figures.co_banked) == (1, 1)
    assert figures.theo_micro == 286_115 * 50 + (14_955 + 12_975) * 1_000 // 2


def test_a_player_banks_rate_scales_the_banks_commission() -> None:
    banker = _hand(2, "bob", is_banker=True)
    record = _record(_hand(1, "ann", 1_000, commission=40), banker, banker_player_id="bob", banker_position=2)
    rules = HouseRules(commission_bps=400, commission_round_cents=1)
    assert round_figures(record, rules).theo_micro == 286_115 * 40 + 14_955 * 4 // 5 * 1_000


def test_a_voided_round_counts_only_as_voided() -> None:
    assert voided_figures().items() == [("voided", 1)]
