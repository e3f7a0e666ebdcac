"""The figures of ``paigow sim``'s wagers: one House Way wager against the dealer (``wager_figures``, the
plain run's keys), the Dragon hand beside it (``--dragon``) and a player bank, alone and co-banked
(``--bank K``), from ``paigow.sim_variants`` (docs/rules.md §4b, §4c).

``--dragon`` adds to the plain report ``"dragon"``: the Dragon wager's ``wager_figures`` (the same keys
as the player's: win, push, loss, their standard errors, the house edges, ``counts``, the barred rounds on
a commission-free form), its ``clauses``, ``house_edge_minus_player`` with ``house_edge_minus_player_se``
(the Dragon's edge less the player's on the same deals, paired) and ``correlation`` (of the two wagers'
results). The player's figures are the plain run's of the same seed, exactly.

``--bank K`` reports ``{"hands", "house_way", "commission", "wagers", "bet_cents", "bank": {...},
"co_bank": {..., "at_table"}, "banker_edge", "banker_edge_se", "balances"}``: the banker's expected net
per unit of opposing wager (positive: the bank gains), ``"edge"`` with the commission exact and
``"edge_rounded"`` for ``bet_cents`` wagers with the commission rounded up as the table does, each with its
``_se``; ``co_bank.at_table`` is false for six wagers (a co-banker faces at most five); ``banker_edge``
has no commission; ``balances`` counts the deals by the bank's gross in wagers.
"""

from __future__ import annotations

from typing import Any

from paigow.rules.commission_free_count import NINE_HIGH_LOW_COUNTS
from paigow.rules.house_rules import CommissionForm, HouseRules, HouseWayName
from paigow.rules.house_way import clause_enum
from paigow.rules.queens_dragon import QUEENS_DRAGON_HANDS, SEVEN_CARD_HANDS
from paigow.sim import SimResult
from paigow.sim_variants import MAX_WAGERS, BankResult, DragonResult

__all__ = ["bank_report", "bank_text", "dragon_figures", "dragon_lines", "heading", "wager_figures"]

_pct = "{:7.3%}".format


def _barred_exact(rules: HouseRules) -> float:
    """The exact rate of dealer hands the commission form bars (docs/rules.md §4a; ``paigow odds``)."""
    if rules.commission_form is CommissionForm.EZ:
        return QUEENS_DRAGON_HANDS / SEVEN_CARD_HANDS
    if rules.commission_form is CommissionForm.NINE_HIGH:
        return NINE_HIGH_LOW_COUNTS[rules.house_way] / SEVEN_CARD_HANDS
    return 0.0


def _barred_report(result: SimResult, rules: HouseRules) -> dict[str, Any]:
    if not rules.commission_form.is_commission_free:
        return {}
    return {"barred": result.rate(result.barred), "barred_se": result.rate_se(result.barred),
            "barred_exact": _barred_exact(rules), "barred_wins": result.rate(result.barred_wins),
            "barred_wins_se": result.rate_se(result.barred_wins)}


def wager_figures(result: SimResult, rules: HouseRules, bet_cents: int) -> dict[str, Any]:
    """One wager's rates as fractions, each with its standard error, its house edges and its counts."""
    return {
        "win": result.rate(result.win),
        "push": result.rate(result.push),
        "loss": result.rate(result.loss),
        "win_se": result.rate_se(result.win),
        "push_se": result.rate_se(result.push),
        "loss_se": result.rate_se(result.loss),
        "house_edge": result.house_edge(rules),
        "house_edge_se": result.house_edge_se(rules),
        "bet_cents": bet_cents,
        "house_edge_rounded": result.house_edge_rounded(bet_cents, rules),
        "house_edge_rounded_se": result.house_edge_rounded_se(bet_cents, rules),
        "banker_edge": result.banker_edge(),
        "banker_edge_se": result.banker_edge_se(),
        **_barred_report(result, rules),
        "counts": {"win": result.win, "push": result.push, "loss": result.loss},
    }


def heading(hands: int, seed: int, workers: int, seconds: float) -> str:
    return (f"{hands:,} hands, seed {seed}, {workers} worker{'s' * (workers > 1)}: {seconds:.1f} s "
            f"({hands / max(seconds, 1e-9):,.0f} hands/s)")


def dragon_figures(result: DragonResult, rules: HouseRules, bet_cents: int) -> dict[str, Any]:
    """The report's ``"dragon"``."""
    minus, minus_se = result.minus_player(rules)
    clauses = {c.name.lower(): result.dragon.clauses[c] for c in clause_enum(rules.house_way)}
    return {**wager_figures(result.dragon, rules, bet_cents), "clauses": clauses,
            "house_edge_minus_player": minus, "house_edge_minus_player_se": minus_se,
            "correlation": result.correlation(rules)}


def dragon_lines(data: dict[str, Any]) -> list[str]:
    """The text of the report's ``"dragon"``."""
    d = data["dragon"]
    free = CommissionForm(data["commission"]).is_commission_free
    edge = "house edge (no commission)" if free else "house edge (5%, exact)"
    lines = [f"{'Dragon hand (House Way, same dealer)':38}{'this run':>9}  {'± s.e.':>8}"]
    rows = (("win", "Dragon wins"), ("push", "push"), ("loss", "dealer wins"), ("house_edge", edge),
            ("house_edge_minus_player", "Dragon's edge less the player's"))
    for key, label in rows:
        lines.append(f"  {label:36}{_pct(d[key]):>9}  {_pct(d[key + '_se']):>8}")
    if free:
        lines.append(f"  {'Dragon wins pushed by the bar':36}{_pct(d['barred_wins']):>9}  "
                     f"{_pct(d['barred_wins_se']):>8}")
    return [*lines, f"  {'correlation with the player wager':36}{d['correlation']:>9.3f}"]


def bank_report(result: BankResult, bet_cents: int, house_way: HouseWayName) -> dict[str, Any]:
    """The JSON figures of a ``--bank`` run (see the module doc)."""
    rules = HouseRules(house_way=house_way)

    def side(co_bank: bool) -> dict[str, float]:
        return {"edge": result.edge(None, co_bank, rules), "edge_se": result.edge_se(None, co_bank, rules),
                "edge_rounded": result.edge(bet_cents, co_bank, rules),
                "edge_rounded_se": result.edge_se(bet_cents, co_bank, rules)}

    gross, gross_se = result.banker_edge()
    k = result.wagers
    balances = {str(d): n for d, n in zip(range(-k, k + 1), result.counts, strict=True)}
    return {"hands": result.hands, "house_way": str(house_way), "commission": str(rules.commission_form),
            "wagers": k, "bet_cents": bet_cents, "bank": side(False),
            "co_bank": {**side(True), "at_table": k < MAX_WAGERS}, "banker_edge": gross,
            "banker_edge_se": gross_se, "balances": balances}


def bank_text(data: dict[str, Any]) -> list[str]:
    """The text of a ``--bank`` run, below its heading."""
    bet = f"${data['bet_cents'] / 100:.2f}"
    way = HouseWayName(data["house_way"]).display_name
    lines = [f"a player bank against {data['wagers']} wager{'s' * (data['wagers'] > 1)} of {bet}, every hand "
             f"by the {way} House Way; 5% commission on the bank's net win",
             f"{'banker net per unit of opposing wager':46}{'this run':>9}  {'± s.e.':>8}"]
    for key, label in (("bank", "banking alone"), ("co_bank", "co-banked (half)")):
        lines.append(f"  {label + ', commission exact':44}{_pct(data[key]['edge']):>9}  "
                     f"{_pct(data[key]['edge_se']):>8}")
        lines.append(f"  {label + ', ' + bet + ' wagers, 25¢ rounding':44}"
                     f"{_pct(data[key]['edge_rounded']):>9}  {_pct(data[key]['edge_rounded_se']):>8}")
    lines.append(f"  {'banking alone, no commission':44}{_pct(data['banker_edge']):>9}  "
                 f"{_pct(data['banker_edge_se']):>8}")
    if not data["co_bank"]["at_table"]:
        lines.append(f"(co-banked against {data['wagers']} wagers is off the table: a co-banker faces at "
                     f"most {MAX_WAGERS - 1}, the house dealer does not wager against a co-bank)")
    return lines
