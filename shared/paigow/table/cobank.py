"""Co-banking (docs/rules.md §4c): a player who takes the bank at a table with ``HouseRules.co_banking``
may bank with the house instead of alone (``AcceptBank(co_bank=True)``; ``Round.co_banked``).

- The player and the house each cover half of every wager against the bank and take half of every losing
  one. In whole cents the co-banker's half of the bank's gross ``g`` is ``g // 2`` (the smaller half of a
  win, the larger of a loss) and the house's the rest, so the co-banker never gets more than half.
- The coverage check is for the co-banker's half: half of every wager, rounded up, never exceeds the chips
  (less the co-banker's own Fortune bonus).
- The commission is charged on the co-banker's half when it is a win (``payout.commission_cents``: 5%
  rounded up to the table's step, never more than the half, so a 6¢ half owes 6¢, not 25¢); the house's
  half pays none. A co-banked round is commissioned on a commission-free table too.
- The house dealer places no wager against a co-banker (the house is on the bank), and the co-banker's
  hand is set by the House Way at the deal (they may not set it).
"""

from __future__ import annotations

from paigow.rules.house_rules import HouseRules
from paigow.rules.payout import commission_cents
from paigow.table.state import Round, SeatPlayer

__all__ = ["bank_shares", "cobank_coverage_left", "half_up"]


def half_up(cents: int) -> int:
    """Half of ``cents``, rounded up to a whole cent: the co-banker's cover of a wager."""
    return -(-cents // 2)


def cobank_coverage_left(rnd: Round, bank: SeatPlayer, excluding_pos: int | None) -> int:
    """How much more wager a co-bank covers: every wager's half (rounded up) and the co-banker's own
    Fortune bonus come out of their chips, and a wager of ``a`` more takes ``half_up(a)``."""
    own_bonus = sum(b.amount_cents for b in rnd.bonuses if b.position == rnd.banker_position)
    halves = sum(half_up(b.amount_cents) for b in rnd.bets if b.position != excluding_pos)
    dragon = rnd.dragon.wager_cents if rnd.dragon is not None else 0
    room = bank.chips_cents - own_bonus - halves - half_up(dragon)
    return 2 * room


def bank_shares(gross_cents: int, rules: HouseRules) -> tuple[int, int, int]:
    """(the co-banker's gross, their commission, the house's gross) of the bank's gross result; the
    commission is ``commission_cents`` of the co-banker's half, never more than it."""
    mine = gross_cents // 2
    return mine, commission_cents(mine, rules), gross_cents - mine
