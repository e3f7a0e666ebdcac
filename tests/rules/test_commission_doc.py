"""docs/rules.md's tables of commissions (§4: a win; §4c: a co-banker's half) say what the code charges,
row by row, small wins included: 5% rounded up to the 25¢ step, never more than the win (issue 29, item 2).
The table tests (tests/table/test_commission_edge.py) hold whole rounds to the same rule."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

from paigow.rules.house_rules import DEFAULT_RULES, CommissionForm, HouseRules
from paigow.rules.payout import commission_cents
from paigow.table.cobank import bank_shares

from .test_rules_doc import section

_MONEY = re.compile(r"^(−?)(?:\$(\d+)\.(\d\d)|(\d+(?:\.\d+)?)¢)$")


def cents(text: str) -> Fraction:
    """``$10.00``, ``−$3.01``, ``49¢``, ``2.45¢`` as cents."""
    m = _MONEY.match(text.strip())
    assert m is not None, f"not an amount: {text!r}"
    value = Fraction(int(m[2]) * 100 + int(m[3])) if m[2] is not None else Fraction(m[4])
    return -value if m[1] else value


def whole(text: str) -> int:
    value = cents(text)
    assert value.denominator == 1, text
    return int(value)


def table_rows(number: str, columns: int) -> list[list[str]]:
    """The amount rows of the tables with ``columns`` columns in section ``number``."""
    rows = []
    for line in section(number).splitlines():
        cells = line.strip().strip("|").split("|")
        if line.strip().startswith("|") and len(cells) == columns and _MONEY.match(cells[0].strip()):
            rows.append([c.strip() for c in cells])
    return rows


WIN_ROWS = table_rows("4", 5)
BANK_ROWS = table_rows("4c", 5)


def test_the_tables_show_the_small_wins() -> None:
    """§4 shows wins below the rounded commission (it is then the whole win) and the issue's 12¢; §4c
    shows a co-banker's half below it (issue 29's outside round: 12¢, a 6¢ half) and a losing half."""
    wins = [whole(r[0]) for r in WIN_ROWS]
    assert {1_000, 700, 49, 25, 12, 1} <= set(wins)
    banks = [whole(r[0]) for r in BANK_ROWS]
    assert {12, 1, 99} <= set(banks)
    assert min(banks) < 0


@pytest.mark.parametrize("row", WIN_ROWS, ids=[r[0] for r in WIN_ROWS])
def test_each_documented_win_owes_what_the_code_charges(row: list[str]) -> None:
    win, five, rounded, commission, gains = row
    step = DEFAULT_RULES.commission_round_cents
    assert cents(five) == Fraction(whole(win) * DEFAULT_RULES.commission_bps, 10_000)
    assert whole(rounded) % step == 0
    assert 0 <= whole(rounded) - cents(five) < step
    assert whole(commission) == min(whole(rounded), whole(win)) == commission_cents(whole(win))
    assert whole(gains) == whole(win) - whole(commission) >= 0


@pytest.mark.parametrize("rules", [HouseRules(co_banking=True),
                                   HouseRules(co_banking=True, commission_form=CommissionForm.EZ)],
                         ids=["commissioned", "ez"])
@pytest.mark.parametrize("row", BANK_ROWS, ids=[r[0] for r in BANK_ROWS])
def test_each_documented_co_bank_splits_as_the_code_does(row: list[str], rules: HouseRules) -> None:
    gross, half, commission, gains, house = (whole(cell) for cell in row)
    assert bank_shares(gross, rules) == (half, commission, house)
    assert gains == half - commission
    assert half + house == gross
