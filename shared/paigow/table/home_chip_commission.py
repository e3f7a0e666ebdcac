"""The commission a home game with its own chips plays with (``HomeChips.commission``): ``none`` sets the
table's ``commission_bps`` to 0; ``five_percent`` to 500, exact to the cent rounded up
(``commission_round_cents`` 1). ``new_table`` applies it to a chips game's rules; each settlement's
commission goes into the game's pot (``HomeChips.commission_cents``)."""

from __future__ import annotations

from dataclasses import replace

from paigow.rules.house_rules import HouseRules
from paigow.table.home_chips import HomeCommission

__all__ = ["commission_rules"]


def commission_rules(rules: HouseRules, commission: HomeCommission) -> HouseRules:
    """``rules`` with the commission of a home game's chip setting."""
    if commission == HomeCommission.NONE:
        return rules if rules.commission_bps == 0 else replace(rules, commission_bps=0)
    if (rules.commission_bps, rules.commission_round_cents) == (500, 1):
        return rules
    return replace(rules, commission_bps=500, commission_round_cents=1)
