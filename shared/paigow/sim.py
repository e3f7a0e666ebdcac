"""Monte Carlo of a player against the dealer, both hands set by the table's House Way (``rules.house_way``).

Each deal is a fresh shuffle of the 53-card deck: the player takes seven cards, the dealer (who banks)
seven more. High hand against high hand, low against low; a tie is a copy and goes to the dealer
(docs/rules.md §4): both won is a win, both lost (or a copy and a loss) a loss, else a push.

The deals come from a seeded ``random.Random`` passed in as a seed. That is fine here: a simulation is not
play (play shuffles from ``secrets`` through ``paigow.fair``), and a seed makes every chunk reproducible.
The module stays pure: no I/O, no clock, no global random state.

``simulate(hands, seed, rules) -> SimResult`` runs one chunk; ``merge(results)`` adds chunks up, so a
caller can run chunks in several processes (``chunk_seed`` names each chunk's seed). ``SimResult`` gives
the rates with their standard errors and the house edge:

* ``house_edge`` - what the house keeps per unit bet with the exact 5% commission (``rules.commission_bps``)
  and no rounding: ``loss - win * (1 - 5%)``. Published for the Trump Plaza House Way: about 2.73%.
* ``house_edge_rounded(bet_cents)`` - the same for one bet size with the commission rounded up to
  ``rules.commission_round_cents`` (a quarter) as the table settles it. The commission on a $5 bet (the
  table minimum) is exactly 25 cents, so at $5 - and any multiple of $5 - rounding changes nothing; at $7
  the commission is 35 cents rounded up to 50, which costs the player about 0.6 points more.
* ``banker_edge`` - the edge without any commission (published: 1.30%).

With ``fortune=True`` each deal also records the Fortune category of the player's seven cards
(``paigow.rules.fortune``), and ``SimResult`` estimates, for a pay table, the Fortune bet's house edge
(``fortune_house_edge``) and the Envy bonus a qualifying bettor collects per other seat's hand
(``fortune_envy_cents``), each with its standard error, to set beside the exact figures of
``paigow.rules.fortune_count``. The deals are the same with or without it.

On a commission-free table (``rules.commission_form`` ``"ez"`` or ``"nine_high"``, docs/rules.md §4a) a
dealer hand the form bars (``paigow.rules.commission_free``) pushes the round, whatever the hands did, and
a win pays even money: ``house_edge(rules)`` is then ``loss - win``. ``barred`` counts those rounds and
``barred_wins`` the ones among them the player would otherwise have won; ``PUBLISHED_BY_FORM`` holds the
published figures for each form.

The pieces of a deal are public for the variants' simulations (``paigow.sim_variants``: the Dragon hand,
a player bank): ``deals`` (the shuffles, more than fourteen cards when asked, the first fourteen always
``simulate``'s), ``house_way_hand`` (seven cards set by the House Way, as keys) and ``wins_against`` (the
showdown of one hand against the banker's).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from .rules.commission_free import bars_of_indexes
from .rules.fortune import DEFAULT_PAY_TABLE, FortuneHand, FortunePayTable, fortune_of_indexes
from .rules.hand_value import high_key, low_key
from .rules.house_rules import DEFAULT_RULES, CommissionForm, HouseRules
from .rules.house_way import set_front
from .rules.payout import commission_cents

__all__ = [
    "CLAUSE_SLOTS",
    "PUBLISHED",
    "PUBLISHED_BY_FORM",
    "SimRates",
    "SimResult",
    "chunk_seed",
    "chunk_sizes",
    "deals",
    "house_way_hand",
    "merge",
    "simulate",
    "win_pays",
    "wins_against",
]


@dataclass(frozen=True, slots=True)
class SimRates:
    """Win / push / loss fractions from the player's side, and the house edge with the 5% commission."""

    win: float
    push: float
    loss: float
    house_edge: float


PUBLISHED = SimRates(win=0.2861, push=0.4148, loss=0.2991, house_edge=0.0273)
"""The published figures for the Trump Plaza House Way on both sides (docs/rules.md §8)."""

PUBLISHED_BY_FORM = {
    CommissionForm.COMMISSIONED: PUBLISHED,
    CommissionForm.EZ: SimRates(win=0.274597, push=0.426112, loss=0.299291, house_edge=0.024694),
    CommissionForm.NINE_HIGH: SimRates(win=0.273726, push=0.427453, loss=0.298822, house_edge=0.025096),
}
"""The published figures of each commission form (docs/rules.md §4a, §8): Wizard of Odds' EZ Pai Gow (its
own House Way; the house edge with no commission) and its Commission-Free Pai Gow (the Trump Plaza House
Way)."""


CLAUSE_SLOTS = 12
"""Clause counts a result holds: clause numbers 0..11 (the largest House Way has 11 clauses; 0 unused)."""


@dataclass(frozen=True, slots=True)
class SimResult:
    """Counts from ``hands`` deals, and the figures derived from them.

    ``clauses[k]`` counts how often clause k of the House Way (its number in docs/rules.md; index 0
    unused) set a hand, over both the player's and the dealer's hands (``2 * hands`` settings in all).
    ``fortune[h]`` counts the player's hands of Fortune category ``h`` (indexed by ``FortuneHand`` value),
    or is empty when not simulated. ``barred`` counts the rounds a commission-free form pushed on the
    dealer's hand (in ``push``), ``barred_wins`` those of them the player would have won.
    """

    hands: int
    win: int
    push: int
    loss: int
    clauses: tuple[int, ...] = (0,) * CLAUSE_SLOTS
    fortune: tuple[int, ...] = ()
    barred: int = 0
    barred_wins: int = 0

    def __post_init__(self) -> None:
        counts = (self.hands, self.win, self.push, self.loss)
        if min(counts) < 0 or self.win + self.push + self.loss != self.hands:
            raise ValueError(
                f"inconsistent counts: {self.win} wins + {self.push} pushes + {self.loss} losses "
                f"!= {self.hands} hands")
        if not 0 <= self.barred_wins <= self.barred <= self.push:
            raise ValueError(f"inconsistent counts: {self.barred_wins} barred wins, {self.barred} barred "
                             f"rounds, {self.push} pushes")
        if len(self.clauses) != CLAUSE_SLOTS:
            raise ValueError(f"clauses holds counts for clauses 0..{CLAUSE_SLOTS - 1}, "
                             f"not {len(self.clauses)} values")
        if self.fortune and (len(self.fortune) != len(FortuneHand) or sum(self.fortune) != self.hands):
            raise ValueError(f"fortune holds one count per Fortune category adding up to the {self.hands} "
                             f"hands, not {self.fortune}")

    def rate(self, count: int) -> float:
        return count / self.hands if self.hands else 0.0

    def rate_se(self, count: int) -> float:
        """Standard error of the fraction ``count / hands`` (binomial)."""
        if not self.hands:
            return 0.0
        p = count / self.hands
        return math.sqrt(p * (1.0 - p) / self.hands)

    @property
    def rates(self) -> SimRates:
        return SimRates(self.rate(self.win), self.rate(self.push), self.rate(self.loss), self.house_edge())

    def house_edge(self, rules: HouseRules = DEFAULT_RULES) -> float:
        """Expected house gain per unit bet, exact commission (``commission_bps``), no rounding; none on a
        commission-free form (``rules.commission_form``)."""
        return self._edge(win_pays(rules))

    def house_edge_se(self, rules: HouseRules = DEFAULT_RULES) -> float:
        return self._edge_se(win_pays(rules))

    def banker_edge(self) -> float:
        """Expected house gain per unit bet without commission: ``loss - win``."""
        return self._edge(1.0)

    def banker_edge_se(self) -> float:
        return self._edge_se(1.0)

    def house_edge_rounded(self, bet_cents: int, rules: HouseRules = DEFAULT_RULES) -> float:
        """The house edge for a bet of ``bet_cents`` when the commission is rounded up as the table does."""
        if bet_cents <= 0:
            raise ValueError(f"bet_cents must be positive, not {bet_cents}")
        return self._edge(_paid_rounded(bet_cents, rules))

    def house_edge_rounded_se(self, bet_cents: int, rules: HouseRules = DEFAULT_RULES) -> float:
        if bet_cents <= 0:
            raise ValueError(f"bet_cents must be positive, not {bet_cents}")
        return self._edge_se(_paid_rounded(bet_cents, rules))

    def _edge(self, paid: float) -> float:
        """House gain per unit bet when a win pays ``paid`` per unit (a loss costs 1)."""
        if not self.hands:
            return 0.0
        return (self.loss - self.win * paid) / self.hands

    def _edge_se(self, paid: float) -> float:
        """Standard error of ``_edge``: the per-deal result is -paid, 0 or +1 for the house."""
        n = self.hands
        if n < 2:
            return 0.0
        mean = self._edge(paid)
        second = (self.loss + self.win * paid * paid) / n
        return math.sqrt(max(second - mean * mean, 0.0) / n)


    @property
    def fortune_counts(self) -> dict[FortuneHand, int]:
        """The player's hands by Fortune category (empty when the Fortune was not simulated)."""
        return {h: self.fortune[h] for h in FortuneHand} if self.fortune else {}

    def fortune_house_edge(self, table: FortunePayTable = DEFAULT_PAY_TABLE) -> float:
        """What the house keeps per unit of Fortune bet under ``table``, from the sample."""
        return -self._fortune_mean(table.net)[0]

    def fortune_house_edge_se(self, table: FortunePayTable = DEFAULT_PAY_TABLE) -> float:
        return self._fortune_mean(table.net)[1]

    def fortune_envy_cents(self, table: FortunePayTable = DEFAULT_PAY_TABLE) -> float:
        """The Envy (cents) a qualifying bettor collects per other seat's hand under ``table``."""
        return self._fortune_mean(table.envy)[0]

    def fortune_envy_cents_se(self, table: FortunePayTable = DEFAULT_PAY_TABLE) -> float:
        return self._fortune_mean(table.envy)[1]

    def _fortune_mean(self, value: Callable[[FortuneHand], int]) -> tuple[float, float]:
        """Mean and standard error of ``value`` of the player's Fortune category over the deals."""
        n = sum(self.fortune)
        if not n:
            return 0.0, 0.0
        mean = sum(k * value(h) for h, k in self.fortune_counts.items()) / n
        if n < 2:
            return mean, 0.0
        second = sum(k * value(h) ** 2 for h, k in self.fortune_counts.items()) / n
        return mean, math.sqrt(max(second - mean * mean, 0.0) / n)


def win_pays(rules: HouseRules) -> float:
    """What a win pays per unit bet, the commission unrounded (1 on a commission-free form)."""
    return 1.0 if rules.commission_form.is_commission_free else 1.0 - rules.commission_bps / 10_000


def _paid_rounded(bet_cents: int, rules: HouseRules) -> float:
    """What a win of ``bet_cents`` pays per unit, the commission rounded up as the table does."""
    if rules.commission_form.is_commission_free:
        return 1.0
    return (bet_cents - commission_cents(bet_cents, rules)) / bet_cents


def merge(results: Iterable[SimResult]) -> SimResult:
    """The result of all these chunks together (the Fortune counts only if every chunk has them)."""
    hands = win = push = loss = barred = barred_wins = 0
    clauses = [0] * CLAUSE_SLOTS
    fortune = [0] * len(FortuneHand)
    with_fortune = True
    for r in results:
        with_fortune = with_fortune and bool(r.fortune)
        for h, n in enumerate(r.fortune):
            fortune[h] += n
        hands += r.hands
        win += r.win
        push += r.push
        loss += r.loss
        barred += r.barred
        barred_wins += r.barred_wins
        for k, n in enumerate(r.clauses):
            clauses[k] += n
    return SimResult(hands, win, push, loss, tuple(clauses), tuple(fortune) if with_fortune and hands else (),
                     barred, barred_wins)


def chunk_seed(seed: int, chunk: int) -> str:
    """The seed of chunk number ``chunk`` of a run seeded with ``seed`` (a string: ``random.Random``
    hashes it with SHA-512, so chunks are independent and reproducible on every machine)."""
    return f"paigow-sim:{seed}:{chunk}"


def chunk_sizes(hands: int, chunk: int) -> list[int]:
    """``hands`` cut into chunks of at most ``chunk`` hands: ``chunk_sizes(25, 10) == [10, 10, 5]``."""
    if hands < 0 or chunk < 1:
        raise ValueError(f"need hands >= 0 and chunk >= 1, not hands={hands}, chunk={chunk}")
    return [min(chunk, hands - start) for start in range(0, hands, chunk)]


def deals(hands: int, seed: int | str, extra: int = 0) -> Iterator[list[int]]:
    """``hands`` deals of ``14 + extra`` distinct card indexes from ``seed``: the first fourteen (the
    player's seven, then the dealer's) as ``simulate`` deals them, so that every run from one seed plays
    the same player and dealer hands; the ``extra`` cards are drawn from the 39 left by a second stream
    (seeded ``f"{seed}:more"``), which leaves the first untouched."""
    if hands < 0:
        raise ValueError(f"hands must be 0 or more, not {hands}")
    if not 0 <= extra <= 39:
        raise ValueError(f"a deal has 14 to 53 cards: extra must be 0 to 39, not {extra}")
    sample = random.Random(seed).sample
    more = random.Random(f"{seed}:more").sample
    deck = range(53)
    for _ in range(hands):
        cards = sample(deck, 14)
        if extra:
            taken = set(cards)
            cards += more([c for c in deck if c not in taken], extra)
        yield cards


def house_way_hand(cards7: Sequence[int], rules: HouseRules) -> tuple[int, int, int, int, int]:
    """Seven distinct card indexes (not checked) set by ``rules.house_way``: ``(clause, high key, low key,
    i, j)``, the keys of ``hand_value`` and ``i``, ``j`` the low hand's cards."""
    clause, i, j = set_front(cards7, rules)
    return clause, high_key([x for x in cards7 if x != i and x != j], rules), low_key(i, j), i, j


def wins_against(hand: Sequence[int], banker: Sequence[int]) -> int:
    """How many of its two hands a ``house_way_hand`` wins against the banker's; a copy goes to the banker
    (docs/rules.md §4). 2 is a win, 1 a push, 0 a loss."""
    return (hand[1] > banker[1]) + (hand[2] > banker[2])


def simulate(hands: int, seed: int | str, rules: HouseRules = DEFAULT_RULES,
             fortune: bool = False) -> SimResult:
    """Deal ``hands`` rounds of player against dealer from fresh shuffles seeded by ``seed``; with
    ``fortune``, count the player's Fortune categories too. The dealer banks: under a commission-free
    ``rules.commission_form`` a barred dealer hand pushes the round."""
    win = loss = barred = barred_wins = 0
    form = rules.commission_form
    free = form.is_commission_free
    clauses = [0] * CLAUSE_SLOTS
    categories = [0] * len(FortuneHand)
    for cards in deals(hands, seed):
        player, dealer = cards[:7], cards[7:]
        if fortune:
            categories[fortune_of_indexes(player)] += 1
        p, d = house_way_hand(player, rules), house_way_hand(dealer, rules)
        clauses[p[0]] += 1
        clauses[d[0]] += 1
        wins = wins_against(p, d)
        if free and bars_of_indexes(dealer, (d[3], d[4]), form):
            barred += 1
            barred_wins += wins == 2
        elif wins == 2:
            win += 1
        elif not wins:
            loss += 1
    fortune_counts = tuple(categories) if fortune else ()
    return SimResult(hands, win, hands - win - loss, loss, tuple(clauses), fortune_counts, barred,
                     barred_wins)

