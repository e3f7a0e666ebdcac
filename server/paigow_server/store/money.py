"""The money invariant, checked against Redis: no cent appears or vanishes.

``money_totals``: everything issued to players (starting balances + operator credits - debits) equals
the sum of balances, plus the chips at every table, plus the house's result. ``ledger_mismatches``: the
balance of every account as the ledger tells it equals the balance Redis holds (players, seats, house,
bank), and every round's pot is empty. The operator API shows the first; the crash tests use both.
"""

from __future__ import annotations

from dataclasses import dataclass

from redis.asyncio import Redis

from paigow_server.store import keys
from paigow_server.store.accounts import Accounts
from paigow_server.store.ledger import BANK, HOUSE, Ledger, player_account, seat_account
from paigow_server.store.tables import TableRepo

__all__ = ["MoneyTotals", "ledger_mismatches", "money_totals"]


@dataclass(frozen=True, slots=True)
class MoneyTotals:
    issued_cents: int
    balances_cents: int
    chips_at_tables_cents: int
    house_net_cents: int

    @property
    def balanced(self) -> bool:
        return self.issued_cents == self.balances_cents + self.chips_at_tables_cents + self.house_net_cents


async def _seat_chips(redis: Redis) -> dict[str, int]:
    repo = TableRepo(redis)
    chips: dict[str, int] = {}
    for state in await repo.load_many(await repo.list_ids()):
        if state is not None:
            for seat in state.seats:
                if seat is not None:
                    chips[seat_account(state.table_id, seat.player_id)] = seat.chips_cents
    return chips


async def money_totals(redis: Redis) -> MoneyTotals:
    chips = await _seat_chips(redis)
    return MoneyTotals(
        issued_cents=int(await redis.get(keys.MONEY_ISSUED) or 0),
        balances_cents=await Accounts(redis, starting_balance_cents=0).total_balance(),
        chips_at_tables_cents=sum(chips.values()),
        house_net_cents=int(await redis.get(keys.HOUSE_NET) or 0),
    )


async def ledger_mismatches(redis: Redis) -> list[str]:
    """Every account whose ledger balance differs from Redis's (empty: all agree)."""
    derived = await Ledger(redis).balances()
    held: dict[str, int] = dict(await _seat_chips(redis))
    accounts = Accounts(redis, starting_balance_cents=0)
    for player_id in await accounts.all_ids():
        held[player_account(player_id)] = await accounts.balance(player_id) or 0
    held[HOUSE] = int(await redis.get(keys.HOUSE_NET) or 0)
    held[BANK] = -int(await redis.get(keys.MONEY_ISSUED) or 0)
    problems = [f"{account}: ledger says {derived.get(account, 0)}, Redis holds {amount}"
                for account, amount in sorted(held.items()) if derived.get(account, 0) != amount]
    problems += [f"{account}: ledger says {amount}, but no such balance is held"
                 for account, amount in sorted(derived.items()) if account not in held and amount != 0]
    return problems
