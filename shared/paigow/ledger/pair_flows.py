"""The second-look figures of a settled round (issue 34, docs/floor.md "Second looks"): pure, no I/O.

For a round a player banked, each **(banker, player) pair**: the player's hands against that banker (their
own and a Dragon hand they bought), how many of them fouled, the **flow** (the player's net result on those
hands, negated: positive when the player lost to the banker) and what honest play makes of that flow: its
**expected value** and **variance** from the wager alone. For every round (the house's banks too) each
player's hands and fouls under that round's banker (``"house"`` for the house): the base rate a player's
fouls under one banker are measured against.

The flow's model (docs/floor.md derives it). With both hands set by the House Way a hand against the bank
wins with p_w = 28.61 %, pushes with p_p = 41.48 % and loses with p_l = 29.91 % (the published figures,
../RULES.md "Reference figures"). A wager of ``W`` cents that wins pays ``W`` less the commission ``c W``
(c = ``commission_bps`` / 10,000; a player-banked round is always commissioned), one that loses pays the
bank ``W``. The flow X of one hand (the player's net, negated) is so ``-(1 - c) W``, 0 or ``+W``:

    E[X]   = W (p_l - (1 - c) p_w)                       (2.73 % of W at c = 5 %: the house edge)
    Var[X] = W^2 (p_l + (1 - c)^2 p_w) - E[X]^2          (0.5566 W^2 at c = 5 %)

Hands are independent given their wagers, so over a pair's hands the flow's mean and variance are the sums,
and ``z = (flow - Σ E) / sqrt(Σ Var)``. A co-banked round (the player banks with the house, half each)
moves half of it to the player-banker: the flow, its mean and sd are halved (the variance quartered). A
round whose house dealer was barred (every wager pushed) moves nothing between them: its hands count for
the fouls, not for the flow. Commission rounding to the table's step is ignored (a few cents a hand).

A foul (``HandRecord.fouled``) is rare in honest play (the House Way never fouls; a player who sets their
own hand fouls now and then). ``foul_z`` compares a player's fouls under one banker with their fouls under
every other banker: the base rate, smoothed toward ``FOUL_PRIOR_RATE`` (as if ``FOUL_PRIOR_HANDS`` more
hands had been seen at that rate, so that a player with few other hands is not judged by a rate of 0), and
the exact binomial chance of that many fouls or more, given as the standard normal quantile it equals.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist

from paigow.table.records import HandRecord, RoundRecord

__all__ = [
    "FOUL_PRIOR_HANDS",
    "FOUL_PRIOR_RATE",
    "HOUSE_BANKER",
    "P_LOSE",
    "P_PUSH",
    "P_WIN",
    "PairFlow",
    "PlayerHands",
    "RoundFigures",
    "flow_z",
    "foul_z",
    "hand_moments",
    "round_figures",
    "smoothed_base_rate",
]

P_WIN = 0.2861
"""A player's hand beats the bank (House Way on both sides)."""
P_PUSH = 0.4148
P_LOSE = 0.2991
"""The bank wins the hand (both hands, or a copy)."""
HOUSE_BANKER = "house"
"""The banker of a round the house banked, in ``PlayerHands``."""
FOUL_PRIOR_RATE = 0.01
"""The foul rate a player is assumed to have before any hand is seen (1 %: a careless player's)."""
FOUL_PRIOR_HANDS = 100
"""How many hands that assumption weighs."""
_NORMAL = NormalDist()


@dataclass(frozen=True, slots=True)
class PairFlow:
    """One player's hands against one player-banker in one round."""

    banker_id: str
    player_id: str
    hands: int
    fouls: int
    flow_cents: int
    """The player's net on these hands, negated (positive: the player lost to the banker)."""
    expected_milli: int
    """Its expected value under honest play, in thousandths of a cent (rounded)."""
    variance: int
    """Its variance under honest play, in cents squared (rounded)."""


@dataclass(frozen=True, slots=True)
class PlayerHands:
    """One player's hands in one round under its banker (a player id, or ``HOUSE_BANKER``)."""

    player_id: str
    banker_id: str
    hands: int
    fouls: int


@dataclass(frozen=True, slots=True)
class RoundFigures:
    pairs: tuple[PairFlow, ...]
    """Empty unless a player banked."""
    hands: tuple[PlayerHands, ...]


def hand_moments(wager_cents: int, commission_bps: int) -> tuple[float, float]:
    """``(E[X], Var[X])`` of one hand's flow (cents, cents squared) for a wager of ``wager_cents``."""
    keep = 1.0 - commission_bps / 10_000
    mean = wager_cents * (P_LOSE - keep * P_WIN)
    second = wager_cents * wager_cents * (P_LOSE + keep * keep * P_WIN)
    return mean, second - mean * mean


def _played(hand: HandRecord) -> bool:
    return hand.player_id is not None and not hand.is_banker


def round_figures(record: RoundRecord, commission_bps: int) -> RoundFigures:
    """The round's pairs (when a player banked) and every player's hands and fouls under its banker."""
    banker = record.banker_player_id
    per_player: dict[str, list[HandRecord]] = {}
    for hand in record.hands:
        if _played(hand) and hand.player_id != banker:
            assert hand.player_id is not None
            per_player.setdefault(hand.player_id, []).append(hand)
    hands = tuple(PlayerHands(p, banker or HOUSE_BANKER, len(hs), sum(h.fouled for h in hs))
                  for p, hs in sorted(per_player.items()))
    if banker is None:
        return RoundFigures((), hands)
    share = 0.5 if record.co_banked else 1.0
    pairs = []
    for player_id, played in sorted(per_player.items()):
        flow, mean, var = 0, 0.0, 0.0
        if not record.dealer_barred:
            for hand in played:
                m, v = hand_moments(hand.wager_cents, commission_bps)
                flow -= hand.net_cents
                mean += m
                var += v
        pairs.append(PairFlow(banker, player_id, len(played), sum(h.fouled for h in played),
                              flow // 2 if record.co_banked else flow,
                              round(mean * share * 1000), round(var * share * share)))
    return RoundFigures(tuple(pairs), hands)


def flow_z(flow_cents: int, expected_milli: int, variance: int) -> float:
    """How many standard deviations the flow is from its honest expectation (0.0 with no variance)."""
    if variance <= 0:
        return 0.0
    return (flow_cents - expected_milli / 1000) / math.sqrt(variance)


def smoothed_base_rate(other_hands: int, other_fouls: int) -> float:
    """The player's foul rate under other bankers, smoothed toward ``FOUL_PRIOR_RATE``."""
    return (other_fouls + FOUL_PRIOR_RATE * FOUL_PRIOR_HANDS) / (other_hands + FOUL_PRIOR_HANDS)


def _binomial_tail(n: int, k: int, p: float) -> float:
    """P(X >= k) for X ~ Binomial(n, p), summed in logs (n is at most a few thousand)."""
    if k <= 0:
        return 1.0
    if k > n:
        return 0.0
    log_p, log_q = math.log(p), math.log1p(-p)
    terms = [math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1) + i * log_p + (n - i) * log_q
             for i in range(k, n + 1)]
    top = max(terms)
    return min(1.0, math.exp(top) * sum(math.exp(t - top) for t in terms))


def foul_z(hands: int, fouls: int, other_hands: int, other_fouls: int) -> float:
    """The fouls under one banker against the player's smoothed base rate: the standard normal quantile of
    the binomial chance of at least that many (0.0 when there are none; capped at 40)."""
    if hands <= 0 or fouls <= 0:
        return 0.0
    tail = _binomial_tail(hands, fouls, smoothed_base_rate(other_hands, other_fouls))
    if tail <= 0.0:
        return 40.0
    return 0.0 if tail >= 1.0 else min(40.0, -_NORMAL.inv_cdf(tail))
