"""The machinery every House Way shares: grouping, the straight / flush search, and the decision tree.

Works on card indexes (``Card.index``, joker 52), does no checking and builds no objects. ``decide(indexes,
rules, way)`` returns ``(clause, i, j, h)``: the way's clause, the two front (low-hand) cards, and the
seven cards in group order ``h`` (for display). What differs between casinos is data in ``Way``.

The joker counts as an ace (joker + aces is more aces, a lone joker is an ace singleton), except inside a
straight or flush, which the search finds by looking at every five-card back with ``hand_value`` (which
knows what the joker completes).

The tree, by the shape of the hand (the first test that holds applies):

* five aces: two aces in front, or a pair of kings when there is one (every published way agrees);
* four of a kind with a pair or trips beside: that pair in front (``Way.four_aces_split_beside``: four
  aces split instead unless the pair is kings); quads alone: together (the two highest singletons in
  front) when the top singleton reaches ``Way.quads_need[rank]``, otherwise split (two of the four in front);
* two trips: a pair of the higher trips in front; trips + two pairs: the higher pair in front; trips + a
  pair: the pair in front (``Way.twos_with_ace_king``: a pair of twos with an ace and a king puts A-K in
  front instead);
* trips, one pair or no pair that can make a straight or flush: the straight / flush back leaving the best
  front, then the better back; ``Way.straight_exception`` may set the hand otherwise (its own clause);
* trips: in back, the two highest singletons in front; three aces: an ace and the top singleton in front;
* three pair: the highest pair in front;
* two pair: together (both pairs in back, the two highest singletons in front) when the top singleton
  reaches ``Way.two_pair_need[high * 15 + low]``, otherwise split (the lower pair in front);
* one pair: in back, the two highest singletons in front; no pair: the top card in back, the next two in
  front.

Never a foul, whatever the data: each branch's comment says why the back outranks the front.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import IntEnum
from operator import itemgetter
from typing import Generic, TypeVar

from ..hand_value import CARD_PRIMES, CARD_SUITS, HandCategory, high_table, low_key
from ..house_rules import HouseRules, HouseWayName

__all__ = [
    "ACE",
    "ALWAYS",
    "FIRST_STRAIGHT_KEY",
    "JOKER",
    "KING",
    "NEVER",
    "RANK",
    "SPLITS",
    "Decision",
    "Rule",
    "Way",
    "backs",
    "decide",
    "make_way",
    "needs_by_rank",
]

ACE, KING, JOKER = 14, 13, 52
ALWAYS, NEVER = 0, 15  # a need no singleton misses / no singleton reaches

# Rank of each card index as the House Way counts it: the joker is an ace.
RANK: tuple[int, ...] = (*[i // 4 + 2 for i in range(52)], ACE)


class Rule(IntEnum):
    """What the shared tree decided by; each way maps these onto its own clause enum."""

    FIVE_ACES = 0
    FOUR_OF_A_KIND = 1
    TWO_TRIPS = 2
    FULL_HOUSE = 3
    STRAIGHT_OR_FLUSH = 4
    STRAIGHT_EXCEPTION = 5
    THREE_OF_A_KIND = 6
    THREE_PAIR = 7
    TWO_PAIR = 8
    ONE_PAIR = 9
    NO_PAIR = 10


C = TypeVar("C", bound=IntEnum, covariant=True)

StraightException = Callable[[tuple[int, ...], int, tuple[int, int], HouseRules], "tuple[int, int] | None"]
"""``(h, big, front, rules) -> front or None``: called for trips and one-pair hands (``big`` 3 or 2) whose
best straight / flush setting puts ``front`` in front; a front returned instead sets the hand (``h``'s
group order, see ``decide``), under the way's ``Rule.STRAIGHT_EXCEPTION`` clause. It must leave a legal
back (the tests check every shape)."""


@dataclass(frozen=True, slots=True)
class Way(Generic[C]):
    """One published House Way, as data for ``decide``."""

    name: HouseWayName
    clause: type[C]
    clauses: tuple[C, ...]
    """The way's clause for each ``Rule`` (indexed by it)."""
    quads_need: tuple[int, ...]
    """By the rank of the four (index 2..14): the lowest top singleton that keeps them together."""
    two_pair_need: tuple[int, ...]
    """By ``high_rank * 15 + low_rank``: the lowest top singleton that keeps two pair together."""
    twos_with_ace_king: bool = False
    four_aces_split_beside: bool = False
    straight_exception: StraightException | None = None



def make_way(name: HouseWayName, clause: type[C], by_rule: Mapping[Rule, C], *,
             quads_need: Callable[[int], int], two_pair_need: Callable[[int, int], int],
             twos_with_ace_king: bool = False, four_aces_split_beside: bool = False,
             straight_exception: StraightException | None = None) -> Way[C]:
    """A way from functions of ranks (tabulated here) and the clause of every ``Rule``."""
    missing = set(Rule) - set(by_rule)
    if missing:
        raise ValueError(f"{name}: no clause for {sorted(r.name for r in missing)}")
    return Way(name, clause, tuple(by_rule[r] for r in Rule),
               tuple(quads_need(r) if r >= 2 else NEVER for r in range(15)),
               tuple(two_pair_need(hi, lo) if hi > lo >= 2 else NEVER
                     for hi in range(15) for lo in range(15)),
               twos_with_ace_king, four_aces_split_beside, straight_exception)


def needs_by_rank(*bands: tuple[int, int, int]) -> Callable[[int], int]:
    """``(low, high, need)`` bands of ranks as a function of a rank (the first band holding it)."""
    def need(rank: int) -> int:
        return next((n for lo, hi, n in bands if lo <= rank <= hi), NEVER)
    return need


def _positions(p: int, q: int) -> tuple[int, int, int, int, int, int, int]:
    """Front positions p, q and the five back positions of seven cards."""
    a, b, c, d, e = (k for k in range(7) if k not in (p, q))
    return p, q, a, b, c, d, e


SPLITS = tuple(_positions(p, q) for p in range(7) for q in range(p + 1, 7))  # all 21

# Rank bits of a 14-bit mask: bit r-1 for rank r (bit 0 is the ace played low); the joker has none.
_RANK_BIT: tuple[int, ...] = (*[2 << (i // 4) for i in range(52)], 0)
# Suit counters: four 4-bit fields; a field reaches 8 (bit 3 set) once 3 (4 with the joker) is added to 5.
_SUIT_COUNT: tuple[int, ...] = (*[1 << 4 * (i % 4) for i in range(52)], 0)
_FIVE_SUITED, _FOUR_SUITED, _SUIT_HIGH_BITS = 0x3333, 0x4444, 0x8888
FIRST_STRAIGHT_KEY = HandCategory.STRAIGHT << 24  # the lowest straight's high key (hand_value's key layout)


def _grouping(pattern: int) -> tuple[int, int, int, itemgetter[tuple[int, ...]]]:
    """For seven cards in descending index order whose neighbours k, k+1 share a rank when bit k of
    ``pattern`` is set: the two biggest group sizes, the third one, and a getter that lists the cards group
    by group, biggest group first, then highest rank first (each group keeps descending index order, so
    the joker leads the aces and natural cards come last)."""
    runs: list[list[int]] = [[0]]
    for k in range(6):
        if pattern >> k & 1:
            runs[-1].append(k + 1)
        else:
            runs.append([k + 1])
    runs.sort(key=len, reverse=True)  # stable: equal sizes stay highest rank first
    sizes = [len(r) for r in runs] + [0, 0]
    return sizes[0], sizes[1], sizes[2], itemgetter(*[k for r in runs for k in r])


_GROUPINGS = tuple(_grouping(pattern) for pattern in range(64))


def _could_straight_or_flush(cards: Sequence[int]) -> bool:
    """Whether some five of these seven cards (descending index order: a joker comes first) make a
    straight or flush, the joker perhaps completing it. Never false when they do."""
    a, b, c, d, e, f, g = cards
    joker = a == JOKER
    sc = _SUIT_COUNT
    if (sc[a] + sc[b] + sc[c] + sc[d] + sc[e] + sc[f] + sc[g] + (_FOUR_SUITED if joker else _FIVE_SUITED)
            ) & _SUIT_HIGH_BITS:
        return True
    rb = _RANK_BIT
    m = rb[a] | rb[b] | rb[c] | rb[d] | rb[e] | rb[f] | rb[g]
    m |= m >> 13  # the ace also plays low (bit 0)
    m1, m2, m3, m4 = m >> 1, m >> 2, m >> 3, m >> 4
    if not joker:
        return bool(m & m1 & m2 & m3 & m4)
    # Four of five consecutive ranks: the joker fills the gap (or an end).
    return bool(m1 & m2 & m3 & m4 | m & m2 & m3 & m4 | m & m1 & m3 & m4 | m & m1 & m2 & m4 | m & m1 & m2 & m3)


def _best_straight_or_flush(cards: Sequence[int], rules: HouseRules) -> tuple[int, int] | None:
    """The front leaving a straight/flush back with the highest front, then the higher back."""
    table = high_table(rules)
    primes, suits = CARD_PRIMES, CARD_SUITS
    best = -1
    front: tuple[int, int] | None = None
    for p, q, a, b, c, d, e in SPLITS:
        ia, ib, ic, id_, ie = cards[a], cards[b], cards[c], cards[d], cards[e]
        code = primes[ia] * primes[ib] * primes[ic] * primes[id_] * primes[ie]
        if suits[ia] & suits[ib] & suits[ic] & suits[id_] & suits[ie]:
            code = -code
        back = table[code]
        # In the shapes that search (trips, one pair, no pair) a back of a straight or better is a
        # straight, flush or straight flush: a full house, quads or five aces would need more matched ranks.
        if back >= FIRST_STRAIGHT_KEY:
            score = low_key(cards[p], cards[q]) << 32 | back
            if score > best:
                best = score
                front = (cards[p], cards[q])
    return front


def backs(cards: Sequence[int], rules: HouseRules) -> Iterator[tuple[tuple[int, int, int, int, int], int]]:
    """Each of the 21 backs of these seven cards with its high key (for the ways' exceptions; the search
    above inlines this)."""
    table = high_table(rules)
    primes, suits = CARD_PRIMES, CARD_SUITS
    for _, _, a, b, c, d, e in SPLITS:
        back = (cards[a], cards[b], cards[c], cards[d], cards[e])
        code = primes[back[0]] * primes[back[1]] * primes[back[2]] * primes[back[3]] * primes[back[4]]
        if suits[back[0]] & suits[back[1]] & suits[back[2]] & suits[back[3]] & suits[back[4]]:
            code = -code
        yield back, table[code]


Decision = tuple[C, int, int, tuple[int, ...]]


def _aces_to_front(h: tuple[int, ...], rules: HouseRules) -> tuple[int, int]:
    """Split four aces made with the joker (``h``: JK A A A x y z): the two natural aces to put in front,
    leaving the joker and the ace that make the best back with the three singletons (among equal backs,
    the highest-index ace stays, as in every other split)."""
    table = high_table(rules)
    primes, suits = CARD_PRIMES, CARD_SUITS
    rest = primes[h[4]] * primes[h[5]] * primes[h[6]] * primes[JOKER]
    rest_suits = suits[h[4]] & suits[h[5]] & suits[h[6]]
    keep = max((h[1], h[2], h[3]), key=lambda a: table[-rest * primes[a] if rest_suits & suits[a]
                                                    else rest * primes[a]])
    a, b = (c for c in h[1:4] if c != keep)
    return a, b


def _by_straight(s: list[int], h: tuple[int, ...], big: int, rules: HouseRules, way: Way[C]
                 ) -> Decision[C] | None:
    """The straight / flush setting of a hand with no pair, one pair or trips (``big`` 1, 2, 3), or the
    way's exception to it; None when no straight or flush can be made. A straight or flush back beats
    any front."""
    front = _best_straight_or_flush(s, rules) if _could_straight_or_flush(s) else None
    if front is None:
        return None
    exception = way.straight_exception
    other = exception(h, big, front, rules) if exception is not None and big > 1 else None
    if other is not None:
        return way.clauses[Rule.STRAIGHT_EXCEPTION], other[0], other[1], h
    return way.clauses[Rule.STRAIGHT_OR_FLUSH], front[0], front[1], h


def decide(indexes: Sequence[int], rules: HouseRules, way: Way[C]) -> Decision[C]:
    """``(clause, i, j, h)`` by ``way``: the front cards i and j (higher first), and the seven cards in
    group order ``h``: group by group, biggest group first, then highest rank first; within a group the
    joker (an ace) first, natural cards last. E.g. trips + pair + two singletons: t t t p p x y."""
    s = sorted(indexes, reverse=True)
    r = RANK
    pattern = (r[s[0]] == r[s[1]]) | (r[s[1]] == r[s[2]]) << 1 | (r[s[2]] == r[s[3]]) << 2 \
        | (r[s[3]] == r[s[4]]) << 3 | (r[s[4]] == r[s[5]]) << 4 | (r[s[5]] == r[s[6]]) << 5
    big, second, third, grouped = _GROUPINGS[pattern]
    h: tuple[int, ...] = grouped(s)
    clauses = way.clauses

    if big == 5:
        # Five aces: two aces in front; with a pair of kings, the kings in front.
        # Back: three aces (or five aces) beats the front pair.
        if second == 2 and r[h[5]] == KING:
            return clauses[Rule.FIVE_ACES], h[5], h[6], h
        return clauses[Rule.FIVE_ACES], h[3], h[4], h

    if big == 4:
        if second >= 2:
            if way.four_aces_split_beside and r[h[0]] == ACE and r[h[4]] != KING:
                # Four aces split beside a pair or trips: two aces in front; the back keeps two aces
                # with the pair (two pair) or the trips (a full house), either above a pair of aces.
                return clauses[Rule.FOUR_OF_A_KIND], h[2], h[3], h
            # Quads + trips: a pair from the trips in front; quads + a pair: that pair in front (back: the
            # four of a kind).
            k = 5 if second == 3 else 4
            return clauses[Rule.FOUR_OF_A_KIND], h[k], h[k + 1], h
        if r[h[4]] >= way.quads_need[r[h[3]]]:
            # Together: quads in back, the two highest singletons in front (back quads beats any non-pair).
            return clauses[Rule.FOUR_OF_A_KIND], h[4], h[5], h
        # Split: two of the quads in front; the back keeps the other two with the singletons, which
        # outranks the bare pair in front (the same pair plus kickers).
        if h[0] == JOKER:
            # Three aces and the joker: the joker stays in back with the natural ace that makes the better
            # back (it may complete a straight flush with one ace's suit and only a straight with another).
            front = _aces_to_front(h, rules)
            return clauses[Rule.FOUR_OF_A_KIND], front[0], front[1], h
        return clauses[Rule.FOUR_OF_A_KIND], h[2], h[3], h

    if big == 3:
        if second == 3:
            # Two trips: a pair from the higher trips in front (back: the lower trips).
            return clauses[Rule.TWO_TRIPS], h[1], h[2], h
        if second == 2:
            if third == 2:
                # Trips + two pairs: the higher pair in front (back: a full house).
                return clauses[Rule.FULL_HOUSE], h[3], h[4], h
            if way.twos_with_ace_king and r[h[3]] == 2 and r[h[5]] == ACE and r[h[6]] == KING:
                # A pair of twos with an ace and a king: A-K in front (back: a full house).
                return clauses[Rule.FULL_HOUSE], h[5], h[6], h
            # Trips + pair: the pair in front (back: the trips).
            return clauses[Rule.FULL_HOUSE], h[3], h[4], h
        # Trips and four singletons. With a straight or flush, a pair of the trips goes in front.
        by_straight = _by_straight(s, h, 3, rules, way)
        if by_straight is not None:
            return by_straight
        if r[h[2]] == ACE:
            # Three aces: a pair of aces in back, an ace and the highest singleton in front (the back pair
            # beats a non-pair front).
            return clauses[Rule.THREE_OF_A_KIND], h[2], h[3], h
        # Trips in back, the two highest singletons in front.
        return clauses[Rule.THREE_OF_A_KIND], h[3], h[4], h

    if big == 2:
        if second == 2:
            if third == 2:
                # Three pair: the highest pair in front (back: the two lower pairs).
                return clauses[Rule.THREE_PAIR], h[0], h[1], h
            if r[h[4]] >= way.two_pair_need[r[h[0]] * 15 + r[h[2]]]:
                # Together: both pairs in back with the lowest singleton, the two highest singletons in
                # front (the back's two pair beats a non-pair front).
                return clauses[Rule.TWO_PAIR], h[4], h[5], h
            # Split: the higher pair in back with the singletons, the lower pair in front.
            return clauses[Rule.TWO_PAIR], h[2], h[3], h
        # One pair and five singletons. With a straight or flush, the pair goes in front only if a
        # straight or flush survives without it.
        by_straight = _by_straight(s, h, 2, rules, way)
        if by_straight is not None:
            return by_straight
        # The pair in back, the two highest singletons in front.
        return clauses[Rule.ONE_PAIR], h[2], h[3], h

    # Seven singletons.
    by_straight = _by_straight(s, h, 1, rules, way)
    if by_straight is not None:
        return by_straight
    # The highest card in back, the next two in front (the back's top card outranks the front's).
    return clauses[Rule.NO_PAIR], h[1], h[2], h
