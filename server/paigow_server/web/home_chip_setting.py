"""The chip setting of a new home game (``POST /api/home/tables``'s ``chips``, docs/http-api.md "Home
games"), and how a home summary shows it.

Every field is optional: ``default_buy_in_cents`` (10,000), ``min_buy_in_cents`` (omitted: the table's
minimum bet or a fifth of the default, whichever is more, at most the default), ``max_buy_in_cents``
(omitted: five times the default, at most ``home_max_buy_in_cents``), ``rebuys`` (true), ``auto_approve``
(false), ``players_bank_in_turn`` (false) and ``commission`` (``none``). They must hold
``1 <= min <= default <= max <= home_max_buy_in_cents``, and a buy-in must cover the table's minimum bet
(``min >= rules.min_bet_cents``). Each refusal is ``400 INVALID_FIELD`` naming ``chips.<name>``.

The commission sets the table's rules (``new_table`` applies it: ``home_chip_commission``): ``none`` a
commission of 0; ``five_percent`` 500 basis points rounded to the cent. ``players_bank_in_turn`` is the
rules' too (with player banking on, co-banking off).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from paigow.rules.house_rules import MAX_CENTS, HouseRules
from paigow.table.home import Home
from paigow.table.home_chips import HomeChips, HomeCommission
from paigow.table.state import TableState
from paigow_server.web.api import ApiError, only_fields

__all__ = ["CHIP_FIELDS", "DEFAULT_BUY_IN_CENTS", "chip_setting", "chips_summary"]

DEFAULT_BUY_IN_CENTS = 10_000
CHIP_FIELDS = frozenset({"default_buy_in_cents", "min_buy_in_cents", "max_buy_in_cents", "rebuys",
                         "auto_approve", "players_bank_in_turn", "commission"})
_MONEY = ("default_buy_in_cents", "min_buy_in_cents", "max_buy_in_cents")
_FLAGS = {"rebuys": True, "auto_approve": False, "players_bank_in_turn": False}


def _refuse(name: str, message: str) -> ApiError:
    return ApiError(400, "INVALID_FIELD", f"chips.{name} {message}"[:300], extra={"field": f"chips.{name}"})


def _cents(data: dict[str, Any], name: str) -> int | None:
    """The amount ``name`` of the setting (None: left out)."""
    value = data.get(name)
    if value is None:
        return None
    if type(value) is not int or not 1 <= value <= MAX_CENTS:
        raise _refuse(name, f"must be a whole number of cents from 1 to {MAX_CENTS}, not {value!r}")
    return value


def chip_setting(raw: object, rules: HouseRules, cap_cents: int) -> tuple[HomeChips, HouseRules]:
    """The game's ``HomeChips`` and its rules as the setting makes them but for the commission, which
    ``new_table`` sets from the ``HomeChips`` (``raw``: the body's ``chips``,
    None when absent); a ``400 INVALID_FIELD`` naming ``chips.<name>`` when a field is wrong."""
    if raw is not None and not isinstance(raw, dict):
        raise ApiError(400, "INVALID_FIELD", f"chips must be a JSON object of fields, not {raw!r}"[:300],
                       extra={"field": "chips"})
    data: dict[str, Any] = raw or {}
    only_fields(data, CHIP_FIELDS)
    given_default, given_min, given_max = (_cents(data, name) for name in _MONEY)
    default = DEFAULT_BUY_IN_CENTS if given_default is None else given_default
    flags: dict[str, bool] = {}
    for name, fallback in _FLAGS.items():
        flag = data.get(name, fallback)
        if type(flag) is not bool:
            raise _refuse(name, f"must be true or false, not {flag!r}")
        flags[name] = flag
    choice = data.get("commission", str(HomeCommission.NONE))
    if not isinstance(choice, str) or choice not in {str(c) for c in HomeCommission}:
        raise _refuse("commission", f"must be one of {', '.join(HomeCommission)}, not {choice!r}")
    commission = HomeCommission(choice)
    if default > cap_cents:
        raise _refuse("default_buy_in_cents", f"{default} is over this server's bound for a buy-in at home "
                                              f"games, {cap_cents}")
    low = min(default, max(rules.min_bet_cents, default // 5)) if given_min is None else given_min
    high = min(cap_cents, default * 5) if given_max is None else given_max
    if high > cap_cents:
        raise _refuse("max_buy_in_cents", f"{high} is over this server's bound for a buy-in at home games, "
                                          f"{cap_cents}")
    if high < default:
        raise _refuse("max_buy_in_cents", f"{high} must not be below default_buy_in_cents ({default})")
    if low > default:
        raise _refuse("min_buy_in_cents", f"{low} must not be over default_buy_in_cents ({default})")
    if low < rules.min_bet_cents:
        name = "min_buy_in_cents" if given_min is not None else "default_buy_in_cents"
        shown = low if given_min is not None else default
        raise _refuse(name, f"{shown} must cover the table's minimum bet, rules.min_bet_cents "
                            f"({rules.min_bet_cents})")
    chips = HomeChips(default_buy_in_cents=default, min_buy_in_cents=low, max_buy_in_cents=high,
                      rebuys=flags["rebuys"], auto_approve=flags["auto_approve"], commission=commission)
    if flags["players_bank_in_turn"]:
        rules = dataclasses.replace(rules, players_bank_in_turn=True, player_banking=True, co_banking=False)
    return chips, rules


def chips_summary(state: TableState, home: Home) -> dict[str, Any] | None:
    """A home summary's ``chips``: the game's chip setting (null: a game stored before chips existed)."""
    chips = home.chips
    if chips is None:
        return None
    return {"default_buy_in_cents": chips.default_buy_in_cents, "min_buy_in_cents": chips.min_buy_in_cents,
            "max_buy_in_cents": chips.max_buy_in_cents, "max_buy_in_cap_cents": home.max_buy_in_cap_cents,
            "rebuys": chips.rebuys, "auto_approve": chips.auto_approve, "commission": str(chips.commission),
            "players_bank_in_turn": state.rules.players_bank_in_turn}
