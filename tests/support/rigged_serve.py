"""``paigow serve`` with deals a test chooses: for the browser tests of outcomes a fair deal gives too
rarely to wait for (a queen-high pai gow for the house dealer: 1.76% of rounds). Tests only; the product
has no such hook.

``support.rigged.RiggedServer`` runs this file instead of ``python -m paigow_server.cli``. It reads
``RIGGED_DEALS``, JSON
``{table name: {round number: rig}}``, and wraps the table service's ``decide_commit``: when a command
starts a round of a named table, the commit is decided again with other seeds (the command's seed hashed
with a counter) until the round's deal, as ``paigow.fair.deal`` makes it from that seed, is what the rig
asks. The deal stays provably fair in form (its commitment, its revealed seed, ``paigow verify``): only
the choice of the seed is the test's. The rigs (``RIGS``):

- ``queen_high_dealer``: the house dealer's seven cards are a queen-high pai gow (house-banked rounds).
- ``banker_wins``: the banker is the round's marker (a player who will take the bank) and their House Way
  hand beats both hands of every other seated player's House Way hand.
- ``banker_loses``: the other way round: every other seated player's House Way hand beats both hands of
  the banker's (the marker's).
- ``kicker_decides``: in a house-banked round, the House Way high hands of the dealer and of the first
  seated player are pairs of one rank, and a kicker decides between them (the names alike, the hands not).
- ``first_hand_to_seat_3``: the dice give the first hand to seat 3 (a bottom seat: its player's name is in
  the centre's "Dice N: first hand to ..." line, just above the seat).
- ``seat_one_wins_seat_two_loses``: in a house-banked round, seat 1's House Way hand beats the dealer's and
  the dealer's beats seat 2's (the hands of those seats, whoever sits there when the round starts).
- ``seat_one_fortune`` / ``seat_two_fortune``: in a house-banked round (a bank offered is declined), seat 1's
  (seat 2's) seven cards make a Fortune hand of four of a kind or better (docs/fortune.md: a bonus of 25 to
  1 or more, and Envy to the others).
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from collections.abc import Callable

from paigow.fair import deal
from paigow.protocol.projection import Seen
from paigow.rules.cards import Card
from paigow.rules.fortune import FortuneHand, fortune_hand
from paigow.rules.hand_value import HandCategory, evaluate_high
from paigow.rules.house_rules import HouseRules
from paigow.rules.house_way import house_way
from paigow.rules.queen_high import is_queen_high_pai_gow
from paigow.rules.showdown import Outcome, showdown
from paigow.table.commands import Command
from paigow.table.commit import Commit, decide_commit
from paigow.table.events import RoundStarted
from paigow.table.state import DEALER_POSITION, TableState

__all__ = ["RIGS", "install", "rigged_seed"]

Rig = Callable[[TableState, RoundStarted, bytes], bool]
TRIES = 20_000


def _queen_high_dealer(state: TableState, started: RoundStarted, seed: bytes) -> bool:
    return is_queen_high_pai_gow(deal(seed, started.round_id, DEALER_POSITION).hands[DEALER_POSITION])


def _beats(banker: tuple[Card, ...], player: tuple[Card, ...], rules: HouseRules) -> bool:
    result = showdown(house_way(player, rules), house_way(banker, rules), rules)
    return result.outcome is Outcome.LOSS


def _banker_wins(state: TableState, started: RoundStarted, seed: bytes) -> bool:
    hands = deal(seed, started.round_id, started.marker).hands
    others = [pos for pos, sp in enumerate(state.seats) if sp is not None and pos != started.marker]
    return all(_beats(hands[started.marker], hands[pos], state.rules) for pos in others)


def _banker_loses(state: TableState, started: RoundStarted, seed: bytes) -> bool:
    hands = deal(seed, started.round_id, started.marker).hands
    others = [pos for pos, sp in enumerate(state.seats) if sp is not None and pos != started.marker]
    banker = house_way(hands[started.marker], state.rules)
    return all(showdown(house_way(hands[pos], state.rules), banker, state.rules).outcome is Outcome.WIN
               for pos in others)


def _kicker_decides(state: TableState, started: RoundStarted, seed: bytes) -> bool:
    hands = deal(seed, started.round_id, started.marker).hands
    first = next(pos for pos, sp in enumerate(state.seats) if sp is not None and pos != DEALER_POSITION)
    dealer, player = (evaluate_high(house_way(hands[pos], state.rules).high, state.rules)
                      for pos in (DEALER_POSITION, first))
    return (dealer.category is HandCategory.ONE_PAIR and dealer.name == player.name
            and dealer.key != player.key)


def _first_hand_to_seat_3(state: TableState, started: RoundStarted, seed: bytes) -> bool:
    return deal(seed, started.round_id, started.marker).first_position == 3


def _seat_one_wins_seat_two_loses(state: TableState, started: RoundStarted, seed: bytes) -> bool:
    hands = deal(seed, started.round_id, DEALER_POSITION).hands
    dealer = house_way(hands[DEALER_POSITION], state.rules)
    won = showdown(house_way(hands[1], state.rules), dealer, state.rules).outcome is Outcome.WIN
    return won and _beats(hands[DEALER_POSITION], hands[2], state.rules)


def _fortune(seat: int) -> Rig:
    def rig(state: TableState, started: RoundStarted, seed: bytes) -> bool:
        hand = deal(seed, started.round_id, DEALER_POSITION).hands[seat]
        return fortune_hand(hand) >= FortuneHand.FOUR_OF_A_KIND
    return rig


RIGS: dict[str, Rig] = {"queen_high_dealer": _queen_high_dealer, "banker_wins": _banker_wins,
                        "banker_loses": _banker_loses, "kicker_decides": _kicker_decides,
                        "first_hand_to_seat_3": _first_hand_to_seat_3,
                        "seat_one_wins_seat_two_loses": _seat_one_wins_seat_two_loses,
                        "seat_one_fortune": _fortune(1), "seat_two_fortune": _fortune(2)}


def rigged_seed(state: TableState, started: RoundStarted, seed: bytes, rig: Rig) -> bytes:
    """The first seed of the command's seed's series whose deal the rig takes."""
    for i in range(TRIES):
        candidate = hashlib.sha256(seed + i.to_bytes(4, "big")).digest()
        if rig(state, started, candidate):
            return candidate
    raise RuntimeError(f"no seed in {TRIES} gives round {started.round_id} what the rig asks")


def install(rigs: dict[str, dict[str, str]]) -> None:
    """Wrap the table service's ``decide_commit`` with the rigs of these tables' rounds."""
    from paigow_server.realtime import tables

    fair = decide_commit

    def decide(state: TableState, command: Command, *, seed: bytes, now_ms: int,
               seen: Seen | None = None) -> Commit | None:
        commit = fair(state, command, seed=seed, now_ms=now_ms, seen=seen)
        started = None if commit is None else next(
            (e for e in commit.events if isinstance(e, RoundStarted)), None)
        rig = None if started is None else rigs.get(state.name, {}).get(str(started.number))
        if started is None or rig is None:
            return commit
        chosen = rigged_seed(state, started, seed, RIGS[rig])
        return fair(state, command, seed=chosen, now_ms=now_ms, seen=seen)

    setattr(tables, "decide_commit", decide)  # the name the table service calls  # noqa: B010


if __name__ == "__main__":
    install(json.loads(os.environ.get("RIGGED_DEALS", "{}")))
    from paigow_server.cli import main

    sys.exit(main())
