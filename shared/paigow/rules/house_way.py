"""The House Way (Trump Plaza, Atlantic City): how the house sets seven cards, as docs/rules.md §7 says.

Apply the first clause that matches, in the order of docs/rules.md; each branch below cites its clause:

1. five aces, 2. four of a kind, 3. full houses, 4. straight / flush / straight flush, 5. three of a kind,
6. three pair, 7. two pair, 8. one pair, 9. no pair.

The joker counts as an ace (so joker + aces is more aces, and a lone joker is an ace singleton), except
inside a straight or flush it completes: clause 4 looks at every five-card back with ``hand_value`` (which
knows what the joker completes) and keeps those that are a straight, flush or straight flush.

Two layers, like ``hand_value``:

* ``house_way(cards7, rules) -> Split`` and ``house_way_clause(cards7, rules) -> HouseWayClause`` take
  ``Card`` values and check them (seven distinct cards).
* ``set_front(indexes7, rules) -> (clause, i, j)`` works on card indexes (``Card.index``, joker 52), does no
  checking and builds no objects: ``i`` and ``j`` are the indexes of the two front (low-hand) cards and the
  other five are the back. The simulator uses it.

The result is never a foul: every branch leaves a back that outranks its front (each clause's comment says
why), and the tests check ``splits.is_foul`` on every shape.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum
from operator import itemgetter

from .cards import DECK, Card, InvalidCardError, check_distinct, format_cards
from .hand_value import CARD_PRIMES, CARD_SUITS, HandCategory, high_table, low_key
from .house_rules import DEFAULT_RULES, HouseRules
from .splits import Split

__all__ = ["HouseWayClause", "house_way", "house_way_clause", "set_front"]


class HouseWayClause(IntEnum):
    """The clause of docs/rules.md §7 that set a hand (its number is the clause number)."""

    FIVE_ACES = 1
    FOUR_OF_A_KIND = 2
    FULL_HOUSE = 3
    STRAIGHT_OR_FLUSH = 4
    THREE_OF_A_KIND = 5
    THREE_PAIR = 6
    TWO_PAIR = 7
    ONE_PAIR = 8
    NO_PAIR = 9


_ACE = 14
_KING = 13
_JOKER = 52

# Rank of each card index as the House Way counts it: the joker is an ace.
_RANK: tuple[int, ...] = (*[i // 4 + 2 for i in range(52)], _ACE)

# Two-pair groups (clause 7): 2-6 low, 7-10 medium, J-K high, aces apart.
_LOW, _MEDIUM, _HIGH, _ACES = 0, 1, 2, 3
_GROUP: tuple[int, ...] = (
    0, 0, *[_LOW if r <= 6 else _MEDIUM if r <= 10 else _HIGH if r <= 13 else _ACES for r in range(2, 15)])

def _positions(p: int, q: int) -> tuple[int, int, int, int, int, int, int]:
    """Front positions p, q and the five back positions of seven cards."""
    a, b, c, d, e = (k for k in range(7) if k not in (p, q))
    return p, q, a, b, c, d, e


_SPLITS = tuple(_positions(p, q) for p in range(7) for q in range(p + 1, 7))  # all 21

# Rank bits of a 14-bit mask: bit r-1 for rank r (bit 0 is the ace played low); the joker has none.
_RANK_BIT: tuple[int, ...] = (*[2 << (i // 4) for i in range(52)], 0)
# Suit counters: four 4-bit fields; a field reaches 8 (bit 3 set) once 3 (4 with the joker) is added to 5.
_SUIT_COUNT: tuple[int, ...] = (*[1 << 4 * (i % 4) for i in range(52)], 0)
_FIVE_SUITED, _FOUR_SUITED, _SUIT_HIGH_BITS = 0x3333, 0x4444, 0x8888
_FIRST_STRAIGHT_KEY = HandCategory.STRAIGHT << 24  # the lowest straight's high key (hand_value's key layout)


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
    joker = a == _JOKER
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
    """Clause 4: the front leaving a straight/flush back with the highest front, then the higher back."""
    table = high_table(rules)
    primes, suits = CARD_PRIMES, CARD_SUITS
    best = -1
    front: tuple[int, int] | None = None
    for p, q, a, b, c, d, e in _SPLITS:
        ia, ib, ic, id_, ie = cards[a], cards[b], cards[c], cards[d], cards[e]
        code = primes[ia] * primes[ib] * primes[ic] * primes[id_] * primes[ie]
        if suits[ia] & suits[ib] & suits[ic] & suits[id_] & suits[ie]:
            code = -code
        back = table[code]
        # In the shapes that reach clause 4 (trips, one pair, no pair) a back of a straight or better is a
        # straight, flush or straight flush: a full house, quads or five aces would need more matched ranks.
        if back >= _FIRST_STRAIGHT_KEY:
            score = low_key(cards[p], cards[q]) << 32 | back
            if score > best:
                best = score
                front = (cards[p], cards[q])
    return front


def _grouped(s: list[int]) -> tuple[int, int, int, tuple[int, ...]]:
    """Group sizes (biggest, second, third) and the cards group by group (see ``_grouping``) of seven card
    indexes in descending order."""
    a, b, c, d, e, f, g = s
    r = _RANK
    ra, rb, rc, rd, re, rf, rg = r[a], r[b], r[c], r[d], r[e], r[f], r[g]
    pattern = (ra == rb) | (rb == rc) << 1 | (rc == rd) << 2 | (rd == re) << 3 | (re == rf) << 4 \
        | (rf == rg) << 5
    big, second, third, grouped = _GROUPINGS[pattern]
    return big, second, third, grouped(s)


def set_front(indexes: Sequence[int], rules: HouseRules = DEFAULT_RULES) -> tuple[HouseWayClause, int, int]:
    """The House Way for seven distinct card indexes (not checked): ``(clause, i, j)``, front cards i, j."""
    clause, i, j, _ = _set(indexes, rules)
    return clause, i, j


_Decision = tuple[HouseWayClause, int, int, tuple[int, ...]]


def _set(indexes: Sequence[int], rules: HouseRules) -> _Decision:
    """``(clause, i, j, h)``: the clause, the front cards i and j (higher first), and the seven cards in
    group order ``h`` (for display)."""
    s = sorted(indexes, reverse=True)
    # h: the cards group by group, biggest group first, then highest rank first; within a group the joker
    # (an ace) first, natural cards last. E.g. trips + pair + two singletons: t t t p p x y (x above y).
    big, second, third, h = _grouped(s)
    r = _RANK

    if big == 5:
        # Clause 1, five aces: two aces in front; with a pair of kings, the kings in front.
        # Back: three aces (or five aces) beats the front pair.
        if second == 2 and r[h[5]] == _KING:
            return HouseWayClause.FIVE_ACES, h[5], h[6], h
        return HouseWayClause.FIVE_ACES, h[3], h[4], h

    if big == 4:
        if second == 3:
            # Clause 2, quads + trips: a pair from the trips in front (back: the four of a kind).
            return HouseWayClause.FOUR_OF_A_KIND, h[5], h[6], h
        if second == 2:
            # Clause 2, quads + a pair: that pair in front (back: the four of a kind).
            return HouseWayClause.FOUR_OF_A_KIND, h[4], h[5], h
        rank, top_single = r[h[3]], r[h[4]]
        if rank <= 6:
            together = True  # Clause 2: quads 2-6 stay together.
        elif rank <= 10:
            together = top_single >= _KING  # Clause 2: 7-10 split unless a king or ace can go in front.
        elif rank <= _KING:
            together = top_single == _ACE  # Clause 2: J-K split unless an ace can go in front.
        else:
            together = False  # Clause 2: aces split.
        if together:
            # Quads in back, the two highest singletons in front (back quads beats any non-pair).
            return HouseWayClause.FOUR_OF_A_KIND, h[4], h[5], h
        # Split: two of the quads in front; the back keeps the other two with the singletons, which
        # outranks the bare pair in front (the same pair plus kickers).
        return HouseWayClause.FOUR_OF_A_KIND, h[2], h[3], h

    if big == 3:
        if second == 3:
            # Clause 3, two trips: a pair from the higher trips in front (back: the lower trips).
            return HouseWayClause.FULL_HOUSE, h[1], h[2], h
        if second == 2:
            if third == 2:
                # Clause 3, trips + two pairs: the higher pair in front (back: a full house).
                return HouseWayClause.FULL_HOUSE, h[3], h[4], h
            # Clause 3, trips + pair: the pair in front (back: the trips), except a pair of twos with an
            # ace and a king: A-K in front (back: a full house).
            if r[h[3]] == 2 and r[h[5]] == _ACE and r[h[6]] == _KING:
                return HouseWayClause.FULL_HOUSE, h[5], h[6], h
            return HouseWayClause.FULL_HOUSE, h[3], h[4], h
        # Trips and four singletons.
        front = _best_straight_or_flush(s, rules) if _could_straight_or_flush(s) else None
        if front is not None:
            # Clause 4 (with trips, a pair of them goes in front): a straight or flush beats any front.
            return HouseWayClause.STRAIGHT_OR_FLUSH, front[0], front[1], h
        if r[h[2]] == _ACE:
            # Clause 5, three aces: a pair of aces in back, an ace and the highest singleton in front
            # (the back pair beats a non-pair front).
            return HouseWayClause.THREE_OF_A_KIND, h[2], h[3], h
        # Clause 5: trips in back, the two highest singletons in front.
        return HouseWayClause.THREE_OF_A_KIND, h[3], h[4], h

    if big == 2:
        if second == 2:
            if third == 2:
                # Clause 6, three pair: the highest pair in front (back: the two lower pairs).
                return HouseWayClause.THREE_PAIR, h[0], h[1], h
            return _two_pair(h)
        # One pair and five singletons.
        front = _best_straight_or_flush(s, rules) if _could_straight_or_flush(s) else None
        if front is not None:
            # Clause 4 (the pair goes in front only if a straight or flush survives without it).
            return HouseWayClause.STRAIGHT_OR_FLUSH, front[0], front[1], h
        # Clause 8: the pair in back, the two highest singletons in front.
        return HouseWayClause.ONE_PAIR, h[2], h[3], h

    # Seven singletons.
    front = _best_straight_or_flush(s, rules) if _could_straight_or_flush(s) else None
    if front is not None:
        # Clause 4.
        return HouseWayClause.STRAIGHT_OR_FLUSH, front[0], front[1], h
    # Clause 9: the highest card in back, the next two in front (the back's top card outranks the front's).
    return HouseWayClause.NO_PAIR, h[1], h[2], h


def _two_pair(h: tuple[int, ...]) -> _Decision:
    """Clause 7, two pair; ``h``: higher pair, lower pair, then three singletons highest first."""
    high, low, top_single = _GROUP[_RANK[h[0]]], _GROUP[_RANK[h[2]]], _RANK[h[4]]
    if high == _ACES or (high, low) in ((_HIGH, _MEDIUM), (_HIGH, _HIGH)):
        together = False  # Clause 7: medium + high, high + high, aces + any pair: always split.
    elif high == _HIGH or (high, low) == (_MEDIUM, _MEDIUM):
        together = top_single == _ACE  # Clause 7: low + high, medium + medium: split unless an ace.
    else:
        together = top_single >= _KING  # Clause 7: low + low, low + medium: split unless a king or ace.
    if together:
        # Together: both pairs in back with the lowest singleton, the two highest singletons in front
        # (the back's two pair beats a non-pair front).
        return HouseWayClause.TWO_PAIR, h[4], h[5], h
    # Split: the higher pair in back with the singletons, the lower pair in front (the higher pair wins).
    return HouseWayClause.TWO_PAIR, h[2], h[3], h


def _checked_indexes(cards7: Sequence[Card]) -> list[int]:
    if len(cards7) != 7:
        raise InvalidCardError(
            f"the House Way sets seven cards, not {len(cards7)}: {format_cards(list(cards7))!r}")
    indexes = [c.index for c in cards7]
    if len(set(indexes)) != 7:
        check_distinct(list(cards7))
    return indexes


def house_way_clause(cards7: Sequence[Card], rules: HouseRules = DEFAULT_RULES) -> HouseWayClause:
    """The clause of the House Way that sets these seven cards."""
    return _set(_checked_indexes(cards7), rules)[0]


def house_way(cards7: Sequence[Card], rules: HouseRules = DEFAULT_RULES) -> Split:
    """The House Way split of seven distinct cards (never a foul).

    Both hands list their cards group by group (pairs first), highest first: ``6 6 Q 9 2 | 3 3``.
    Raises ``InvalidCardError`` (a ``ValueError``) unless there are exactly seven distinct cards.
    """
    _, i, j, h = _set(_checked_indexes(cards7), rules)
    deck = DECK
    return Split(tuple([deck[c] for c in h if c != i and c != j]), (deck[i], deck[j]))
