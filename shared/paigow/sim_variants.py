"""Monte Carlo of two variants' wagers (docs/rules.md §4b, §4c): the Dragon hand, and a player bank alone
or co-banked with the house, from ``paigow.sim``'s deals and showdowns and the table's settlement.

* ``simulate_dragon(hands, seed, rules) -> DragonResult``: each deal is ``simulate``'s (the player's seven
  cards, the dealer's) and a third packet of seven from the 39 cards left, the Dragon, set by the House Way
  (the table's ``dragon_set_by="house_way"``) and played against the same dealer; a commission-free form's
  bar pushes it too. ``DragonResult.player`` is exactly ``simulate``'s result of the same seed;
  ``.dragon`` the Dragon wager's, a ``SimResult`` with every figure of the plain run (its ``clauses``
  count the Dragon's hands only); ``joint`` counts the deals by both outcomes, for the paired difference
  of the two edges and their correlation. The Dragon is one more House Way hand from the same shuffle, so
  its expectation is the player's by symmetry: the difference measures the noise.
* ``simulate_bank(hands, seed, wagers, rules) -> BankResult``: a player bank (the dealer's packet of
  ``simulate``) against ``wagers`` opposing wagers of one size (the player's packet first, the others from
  the cards left), every hand by the House Way, copies to the bank. A deal counts by ``d``, the opposing
  wagers' losses less their wins: the bank's gross is ``d`` wagers. ``bank_round_cents`` settles each
  ``d`` once with ``payout.settle`` (5% of the bank's net win, rounded up to ``commission_round_cents``)
  and, co-banked, splits it with ``cobank.bank_shares`` (the co-banker takes ``g // 2`` of the gross ``g``
  and pays the commission on that half). ``BankResult.edge`` is the banker's expected net per unit of
  opposing wager: with ``bet_cents=None`` the commission exact, under which co-banking is exactly half of
  banking alone; with a bet size as the table rounds it, where the half's commission can round up by
  more (a $2.50 half of a $5 win owes 12.5 cents, charged 25).

A player bank is commissioned on every table (§4a, rule 5): ``simulate_bank`` refuses a commission-free
form. A co-banker faces at most five wagers (no house dealer's): ``co_bank=True`` with six is off the table.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .rules.commission_free import bars_of_indexes
from .rules.house_rules import DEFAULT_RULES, HouseRules
from .rules.payout import Wager, settle
from .rules.showdown import Outcome
from .sim import CLAUSE_SLOTS, SimResult, deals, house_way_hand, merge, win_pays, wins_against
from .table.cobank import bank_shares

__all__ = [
    "MAX_WAGERS",
    "OUTCOMES",
    "BankResult",
    "DragonResult",
    "bank_round_cents",
    "dragon_outcomes",
    "merge_bank",
    "merge_dragon",
    "opposing_balance",
    "showdowns",
    "simulate_bank",
    "simulate_dragon",
]

MAX_WAGERS = 6
"""The most wagers that oppose a player bank: five other seats and the house dealer."""

OUTCOMES = (Outcome.LOSS, Outcome.PUSH, Outcome.WIN)
"""A wager's outcome by how many of its two hands won (``sim.wins_against``)."""


def showdowns(cards: Sequence[int], rules: HouseRules = DEFAULT_RULES) -> tuple[list[int], list[int], bool]:
    """A deal of packets of seven card indexes, each set by the House Way, packet 1 (cards 7 to 13) the
    bank's: how many hands each other packet wins against it (in order), every packet's clause, and whether
    ``rules.commission_form`` bars the bank's hand (a house bank; every wager then pushes)."""
    hands = [house_way_hand(cards[k:k + 7], rules) for k in range(0, len(cards), 7)]
    bank = hands[1]
    barred = bars_of_indexes(cards[7:14], (bank[3], bank[4]), rules.commission_form)
    return [wins_against(h, bank) for k, h in enumerate(hands) if k != 1], [h[0] for h in hands], barred


def dragon_outcomes(cards: Sequence[int], rules: HouseRules = DEFAULT_RULES) -> tuple[Outcome, Outcome]:
    """The player's and the Dragon's outcomes of a deal of 21 card indexes: the player's seven, the house
    dealer's, the Dragon's, each set by the House Way."""
    (player, dragon), _, barred = showdowns(cards, rules)
    if barred:
        return Outcome.PUSH, Outcome.PUSH
    return OUTCOMES[player], OUTCOMES[dragon]


def _moments(counts: Sequence[int], values: Sequence[float]) -> tuple[int, float, float]:
    """The deals, mean and variance of a per-deal value: ``values[k]`` for the ``counts[k]`` deals of kind
    k."""
    n = sum(counts)
    if not n:
        return 0, 0.0, 0.0
    mean = sum(c * v for c, v in zip(counts, values, strict=True)) / n
    second = sum(c * v * v for c, v in zip(counts, values, strict=True)) / n
    return n, mean, max(second - mean * mean, 0.0)


def _mean_se(counts: Sequence[int], values: Sequence[float]) -> tuple[float, float]:
    """The mean of a per-deal value (as ``_moments``) and its standard error."""
    n, mean, variance = _moments(counts, values)
    return mean, math.sqrt(variance / n) if n > 1 else 0.0


def _margins(joint: Sequence[int]) -> tuple[list[int], list[int]]:
    """The player's and the Dragon's (losses, pushes, wins) from the joint counts."""
    return [sum(joint[3 * p:3 * p + 3]) for p in range(3)], [sum(joint[d::3]) for d in range(3)]


@dataclass(frozen=True, slots=True)
class DragonResult:
    """The player's and the Dragon's results of the same deals; ``joint[3 * p + d]`` counts the deals in
    which the player's outcome is ``OUTCOMES[p]`` and the Dragon's ``OUTCOMES[d]``."""

    player: SimResult
    dragon: SimResult
    joint: tuple[int, ...] = (0,) * 9

    def __post_init__(self) -> None:
        sides = [[r.loss, r.push, r.win] for r in (self.player, self.dragon)]
        if len(self.joint) != 9 or list(_margins(self.joint)) != sides or \
                self.player.barred != self.dragon.barred:
            raise ValueError(f"inconsistent counts: joint {self.joint} against {self.player}, {self.dragon}")

    @property
    def hands(self) -> int:
        return self.player.hands

    def minus_player(self, rules: HouseRules = DEFAULT_RULES) -> tuple[float, float]:
        """The Dragon's house edge less the player's on the same deals, and its (paired) standard error."""
        x = (1.0, 0.0, -win_pays(rules))  # the house's result of a wager by outcome
        return _mean_se(self.joint, [x[k % 3] - x[k // 3] for k in range(9)])

    def correlation(self, rules: HouseRules = DEFAULT_RULES) -> float:
        """The correlation of the two wagers' results (both are played against the one dealer hand)."""
        x = (1.0, 0.0, -win_pays(rules))
        _, p_mean, p_var = _moments(self.joint, [x[k // 3] for k in range(9)])
        _, d_mean, d_var = _moments(self.joint, [x[k % 3] for k in range(9)])
        both = _moments(self.joint, [x[k // 3] * x[k % 3] for k in range(9)])[1]
        return (both - p_mean * d_mean) / math.sqrt(p_var * d_var) if p_var * d_var else 0.0


def simulate_dragon(hands: int, seed: int | str, rules: HouseRules = DEFAULT_RULES) -> DragonResult:
    """``hands`` deals of player, dealer and Dragon, seeded by ``seed`` (the player's and the dealer's
    hands those of ``simulate(hands, seed)``)."""
    joint = [0] * 9
    clauses = [[0] * CLAUSE_SLOTS for _ in range(3)]
    barred = 0
    barred_wins = [0, 0]
    for cards in deals(hands, seed, 7):
        wins, dealt, bar = showdowns(cards, rules)
        for k, clause in enumerate(dealt):
            clauses[k][clause] += 1
        barred += bar
        for k in (0, 1):
            barred_wins[k] += bar and wins[k] == 2
        joint[4 if bar else 3 * wins[0] + wins[1]] += 1
    dealt_by = (tuple(map(sum, zip(clauses[0], clauses[1], strict=True))), tuple(clauses[2]))
    player, dragon = (SimResult(hands, n[2], n[1], n[0], dealt_by[k], (), barred, barred_wins[k])
                      for k, n in enumerate(_margins(joint)))
    return DragonResult(player, dragon, tuple(joint))


def merge_dragon(results: Iterable[DragonResult]) -> DragonResult:
    """The result of all these chunks together."""
    results = list(results)
    joint = tuple(sum(r.joint[k] for r in results) for k in range(9))
    return DragonResult(merge(r.player for r in results), merge(r.dragon for r in results), joint)


def _check_bank(wagers: int, rules: HouseRules) -> None:
    if not 1 <= wagers <= MAX_WAGERS:
        raise ValueError(f"a player bank faces 1 to {MAX_WAGERS} opposing wagers, not {wagers}")
    if rules.commission_form.is_commission_free:
        raise ValueError(f"a player bank is commissioned on every table (docs/rules.md §4a, rule 5): "
                         f"commission_form={str(rules.commission_form)!r} does not apply to it")


def opposing_balance(cards: Sequence[int], rules: HouseRules = DEFAULT_RULES) -> int:
    """The losses less the wins of the wagers against a player bank in a deal of packets of seven (packet
    1 the bank's): the bank's gross in wagers."""
    wins = showdowns(cards, rules)[0]
    return wins.count(0) - wins.count(2)


def bank_round_cents(balance: int, wagers: int, bet_cents: int, rules: HouseRules = DEFAULT_RULES,
                     co_bank: bool = False) -> int:
    """The banker's net cents of a round in which ``wagers`` wagers of ``bet_cents`` came to ``balance``
    (``opposing_balance``), settled as the table settles it: alone, or the co-banker's half."""
    _check_bank(wagers, rules)
    if abs(balance) > wagers:
        raise ValueError(f"{wagers} wagers cannot come to a balance of {balance}")
    decided = Outcome.LOSS if balance > 0 else Outcome.WIN
    outcomes = [decided] * abs(balance) + [Outcome.PUSH] * (wagers - abs(balance))
    result = settle([Wager(f"seat{k}", bet_cents, o) for k, o in enumerate(outcomes)], rules, "bank")
    result.check_conserved()
    if not co_bank:
        return result.banker_net_cents
    gross, commission, _ = bank_shares(result.banker_gross_cents, rules)
    return gross - commission


@dataclass(frozen=True, slots=True)
class BankResult:
    """``counts[wagers + d]``: the deals whose ``wagers`` opposing wagers came to a balance ``d``."""

    wagers: int
    counts: tuple[int, ...]

    def __post_init__(self) -> None:
        if not 1 <= self.wagers <= MAX_WAGERS or len(self.counts) != 2 * self.wagers + 1 \
                or min(self.counts) < 0:
            raise ValueError(f"inconsistent counts: {self.counts} for {self.wagers} wagers")

    @property
    def hands(self) -> int:
        return sum(self.counts)

    def _values(self, bet_cents: int | None, co_bank: bool, rules: HouseRules) -> list[float]:
        """The banker's net per unit of opposing wager, for each balance."""
        k = self.wagers
        if bet_cents is None:
            share = 0.5 if co_bank else 1.0
            kept = win_pays(rules)
            return [share * d * (kept if d > 0 else 1.0) / k for d in range(-k, k + 1)]
        return [bank_round_cents(d, k, bet_cents, rules, co_bank) / (k * bet_cents) for d in range(-k, k + 1)]

    def edge(self, bet_cents: int | None = None, co_bank: bool = False,
             rules: HouseRules = DEFAULT_RULES) -> float:
        """The banker's expected net per unit of opposing wager (``bet_cents=None``: commission exact)."""
        return _mean_se(self.counts, self._values(bet_cents, co_bank, rules))[0]

    def edge_se(self, bet_cents: int | None = None, co_bank: bool = False,
                rules: HouseRules = DEFAULT_RULES) -> float:
        return _mean_se(self.counts, self._values(bet_cents, co_bank, rules))[1]

    def banker_edge(self) -> tuple[float, float]:
        """The bank's gross per unit of opposing wager, no commission, and its standard error."""
        return _mean_se(self.counts, [d / self.wagers for d in range(-self.wagers, self.wagers + 1)])


def simulate_bank(hands: int, seed: int | str, wagers: int, rules: HouseRules = DEFAULT_RULES) -> BankResult:
    """``hands`` deals of a player bank against ``wagers`` opposing wagers, seeded by ``seed`` (the bank's
    and the first wager's hands the dealer's and the player's of ``simulate(hands, seed)``)."""
    _check_bank(wagers, rules)
    counts = [0] * (2 * wagers + 1)
    for cards in deals(hands, seed, 7 * (wagers - 1)):
        counts[wagers + opposing_balance(cards, rules)] += 1
    return BankResult(wagers, tuple(counts))


def merge_bank(results: Iterable[BankResult]) -> BankResult:
    """The result of all these chunks together (at least one, all against the same number of wagers)."""
    results = list(results)
    if not results or len({r.wagers for r in results}) != 1:
        raise ValueError("merge_bank needs one or more results, all against the same number of wagers")
    return BankResult(results[0].wagers, tuple(map(sum, zip(*(r.counts for r in results), strict=True))))
