"""A round's floor figures (docs/floor.md): what the operator's floor view adds up, per settled or voided
round.

Pure: from the round's ``RoundRecord`` (``paigow.table.records``) and the rules it was played with. The store
writes them once per round with the commit that settles it (``paigow_server.store.floor_stats``), so no page
view ever reads the ledger.

Every figure is a whole number: cents unless named. ``theo_micro`` is the round's theoretical win in
micro-cents (millionths of a cent): each bet's exact house edge times its cents, summed, worked out in
parts per billion (``*_PPB``) and rounded once per round. The edges and where they come from:

- **A wager the house banks** (a player's, or a bought Dragon hand's, docs/rules.md §4b: the game's edge):
  ``(P_loss - P_win) * w + P_win * commission(w)``, the probabilities of the form (docs/rules.md §4a,
  ``paigow sim`` over 20,000,000 deals, the Trump Plaza House Way both sides; the commission-free forms'
  bar is in them) and ``commission(w)`` the table's own commission on a win of ``w`` (rate and rounding:
  ``payout.commission_cents``), so the commission's rounding is exact. At 5% this is 2.728% (commissioned),
  2.817% (EZ), 2.508% (nine-high).
- **A player-banked round** (the house banks none of the main wagers): the house's theoretical is its
  commission expectation: ``P_win * commission(w)`` on every opposing wager but the house dealer's, the
  bank's commission per unit of opposing wager at K opposing wagers (docs/rules.md §4c: 1.4955%, 1.2781%,
  1.1925%, 1.1429%, 1.1109%, 1.0886% for K = 1..6, measured at 5% and equal wagers; scaled by the table's
  rate), and the house dealer's own wager against the bank, which the house plays as a player without
  commission: ``(P_win - P_loss) * w`` (−1.2975%).
- **A co-banked round**: the commission on the players' wins as above, half of the bank's edge without
  commission on every opposing wager (``(P_loss - P_win) / 2``: the house's half), and the co-banker's
  commission on their half: half the bank's per-unit commission above.
- **The Fortune bonus** (docs/fortune.md): the pay table's exact edge over the published counts
  (7.7656% ``fortune-8000``, 7.8279% ``fortune-5000``), less the Envy the house pays: a qualifying bet
  (at least the table's Envy minimum) collects the pay table's Envy per other player hand in the round
  (4.6342 and 4.5926 cents a hand on average).
- **The Queen's Dragon** (docs/rules.md §4a): ``1 - 51 * 2,719,500 / 154,143,080`` = 10.0222%.

``player_banked`` counts the rounds a player held the bank (alone or co-banked), ``co_banked`` those of
them co-banked with the house. Handle is what players wagered: main wagers, Dragon-hand wagers, Fortune
and Queen's Dragon bets (a player-banker's exposure and the house dealer's wager are not handle). Win is
the record's ``house_net_cents``.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from fractions import Fraction

from paigow.rules.fortune import PAY_TABLES
from paigow.rules.fortune_count import FORTUNE_COUNTS, FORTUNE_TOTAL
from paigow.rules.house_rules import DEFAULT_RULES, HouseRules
from paigow.rules.payout import commission_cents
from paigow.rules.queens_dragon import queens_dragon_house_edge
from paigow.table.records import RoundRecord

__all__ = ["BANK_COMMISSION_PPB", "FIELDS", "FORTUNE_EDGE_PPB", "FORTUNE_ENVY_NANO", "MAIN_ODDS_PPB",
           "QUEENS_DRAGON_EDGE_PPB", "FloorFigures", "round_figures", "voided_figures"]

BILLION = 1_000_000_000


def _ppb(value: Fraction) -> int:
    return round(value * BILLION)


MAIN_ODDS_PPB: dict[str, tuple[int, int]] = {
    "commissioned": (286_115_000, 299_090_000),
    "ez": (270_716_000, 298_884_000),
    "nine_high": (273_744_000, 298_820_000),
}
"""Per commission form: (P(player wins), P(dealer wins)) in parts per billion (docs/rules.md §4a's
simulated table; a player-banked round plays the commissioned figures)."""

BANK_COMMISSION_PPB = (14_955_000, 12_781_000, 11_925_000, 11_429_000, 11_109_000, 10_886_000)
"""The commission a player-bank pays per unit of opposing wager at 5%, K = 1..6 opposing wagers
(docs/rules.md §4c)."""

FORTUNE_EDGE_PPB: dict[str, int] = {
    name: _ppb(-Fraction(sum(n * table.net(h) for h, n in FORTUNE_COUNTS.items()), FORTUNE_TOTAL))
    for name, table in PAY_TABLES.items()}
"""Each Fortune pay table's house edge before Envy (docs/fortune.md), exact over the published counts."""

FORTUNE_ENVY_NANO: dict[str, int] = {
    name: _ppb(Fraction(sum(n * table.envy(h) for h, n in FORTUNE_COUNTS.items()), FORTUNE_TOTAL))
    for name, table in PAY_TABLES.items()}
"""The Envy a qualifying Fortune bet collects on average from each other player hand, in nano-cents."""

QUEENS_DRAGON_EDGE_PPB = _ppb(queens_dragon_house_edge())


@dataclass(frozen=True, slots=True)
class FloorFigures:
    """One round's figures (all zero but ``voided`` for a voided round)."""

    rounds: int = 0
    voided: int = 0
    handle: int = 0
    win: int = 0
    win_sq: int = 0
    theo_micro: int = 0
    commission: int = 0
    fortune_handle: int = 0
    fortune_win: int = 0
    qd_handle: int = 0
    qd_win: int = 0
    player_banked: int = 0
    co_banked: int = 0
    seated: int = 0

    def items(self) -> list[tuple[str, int]]:
        """The figures that are not 0, by field name (what a bucket's ``HINCRBY``s add)."""
        return [(name, value) for name in FIELDS if (value := getattr(self, name))]


FIELDS: tuple[str, ...] = tuple(f.name for f in fields(FloorFigures))
"""The figures' names: the fields of every floor bucket hash."""


def voided_figures() -> FloorFigures:
    return FloorFigures(voided=1)


def _main_theo_nano(record: RoundRecord, rules: HouseRules) -> int:
    """The house's theoretical on the round's main and Dragon-hand wagers, in nano-cents."""
    banked = record.banker_player_id is not None
    win_ppb, loss_ppb = MAIN_ODDS_PPB.get("commissioned" if banked else record.commission_form,
                                          MAIN_ODDS_PPB["commissioned"])
    free = not banked and record.commission_form != "commissioned"
    theo = 0
    opposing = 0
    count = 0
    for hand in record.hands:
        w = hand.wager_cents
        if hand.is_banker or w <= 0:
            continue
        count += 1
        opposing += w
        if hand.player_id is None:  # the house dealer's wager against a player-banker
            theo += (win_ppb - loss_ppb) * w
            continue
        commission = 0 if free else commission_cents(w, rules)
        theo += win_ppb * commission
        if not banked:
            theo += (loss_ppb - win_ppb) * w
    if banked and count:
        per_unit = BANK_COMMISSION_PPB[min(count, len(BANK_COMMISSION_PPB)) - 1] * rules.commission_bps // 500
        if record.co_banked:
            theo += (per_unit + loss_ppb - win_ppb) * opposing // 2
        else:
            theo += per_unit * opposing
    return theo


def _side_theo_nano(record: RoundRecord, rules: HouseRules) -> int:
    theo = 0
    table = record.pay_table
    players = [h for h in record.hands if h.player_id is not None]
    for hand in players:
        if hand.bonus_cents and table is not None:
            theo += FORTUNE_EDGE_PPB.get(table, 0) * hand.bonus_cents
            if hand.bonus_cents >= rules.envy_min_bet_cents:
                theo -= FORTUNE_ENVY_NANO.get(table, 0) * (len(players) - 1)
        theo += QUEENS_DRAGON_EDGE_PPB * hand.queens_dragon_cents
    return theo


def round_figures(record: RoundRecord, rules: HouseRules = DEFAULT_RULES, *, seated: int = 0) -> FloorFigures:
    """The figures of a settled round. ``rules``: the rules it was played with (its commission rate and
    rounding, the Envy minimum); ``seated``: the players seated at its table when it ended."""
    handle = fortune = qd = 0
    commission = record.banker_commission_cents
    for hand in record.hands:
        fortune += hand.bonus_cents
        qd += hand.queens_dragon_cents
        if hand.player_id is not None and not hand.is_banker:
            handle += hand.wager_cents
        if not hand.is_banker:
            commission += hand.commission_cents
    theo_nano = _main_theo_nano(record, rules) + _side_theo_nano(record, rules)
    win = record.house_net_cents
    return FloorFigures(
        rounds=1, handle=handle + fortune + qd, win=win, win_sq=win * win,
        theo_micro=(theo_nano + 500) // 1000,
        commission=commission, fortune_handle=fortune, fortune_win=record.bonus_house_net_cents,
        qd_handle=qd, qd_win=record.queens_dragon_house_net_cents,
        player_banked=int(record.banker_player_id is not None),
        co_banked=int(record.co_banked), seated=seated)
