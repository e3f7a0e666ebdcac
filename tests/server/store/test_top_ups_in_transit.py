"""A free top-up never adds to money at a table, even money between two places: run on one Redis with the
scripts a Redis Cluster runs (``TableRepo(outbox=True)``), a buy-in's hold on its way to a seat and chips on
their way back from one (an outbox entry not yet delivered) each refuse it, changing nothing, until they
arrive; then the top-up is given once and the books still balance."""

from __future__ import annotations

import pytest
from redis.asyncio import Redis
from redis.exceptions import ConnectionError as RedisConnectionError

from paigow.table.commands import Leave, Sit
from paigow.table.state import new_table
from paigow_server.store import keys
from paigow_server.store.accounts import Accounts
from paigow_server.store.money import ledger_mismatches, money_totals
from paigow_server.store.tables import CommitResult, TableRepo
from paigow_server.store.top_ups import TopUpReason, TopUps, TopUpStatus, TopUpTaken
from support.tables import TableDriver

START = 100_000
BUY_IN = 20_000
NETWORK = "198.51.100.0/24"


class _Crash:
    """Stands in for ``Outbox.after_commit`` of a process that dies right after its commit."""

    async def __call__(self, table_id: str, text: str, *, now_ms: int,
                       publish: tuple[str, str] | None = None) -> None:
        raise RedisConnectionError("the process died here")


async def refused(top_ups: TopUps, redis: Redis, player_id: str, words: str) -> None:
    kept = (await redis.hget(keys.player(player_id), "balance"), await redis.xlen(keys.LEDGER),
            await redis.xlen(keys.AUDIT), await redis.get(keys.MONEY_ISSUED))
    status = await top_ups.take(player_id, NETWORK)
    assert isinstance(status, TopUpStatus)
    assert status.reason is TopUpReason.AT_TABLE
    assert words in status.detail
    assert status.below_minimum
    assert (await redis.hget(keys.player(player_id), "balance"), await redis.xlen(keys.LEDGER),
            await redis.xlen(keys.AUDIT), await redis.get(keys.MONEY_ISSUED)) == kept


async def test_money_on_its_way_to_or_from_a_table_refuses_a_top_up_until_it_arrives(
        redis: Redis, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = TableRepo(redis, outbox=True)
    accounts = Accounts(redis, starting_balance_cents=START)
    top_ups = TopUps(redis, repo, accounts, hours=24, per_network_per_day=20)
    await repo.create(new_table("t1", "Main"))  # the default limits: $5 to $300
    table = TableDriver(repo, "t1")
    ann = (await accounts.create("Ann")).player_id
    await accounts.debit(ann, START - 300, "lost it", actor="test")

    hold = await repo.holds.reserve(ann, "t1", 200)  # a buy-in on its way: $1 left in the balance
    assert hold is not None
    await refused(top_ups, redis, ann, "a buy-in of yours is on its way to a table")
    await repo.holds.release(hold)

    await accounts.credit(ann, BUY_IN, "back in", actor="test")
    assert await table.do(Sit(ann, "Ann", 1, BUY_IN)) is CommitResult.OK
    await refused(top_ups, redis, ann, "you are seated at Main: stand up there first")

    monkeypatch.setattr(repo.outbox, "after_commit", _Crash())
    assert await table.do(Leave(ann)) is CommitResult.OK  # the chips left the seat, not yet the balance
    assert (await money_totals(redis)).in_transit_cents == BUY_IN
    await refused(top_ups, redis, ann, "chips of yours are on their way back from a table")

    monkeypatch.undo()
    assert await repo.sweep() == (1, 0)  # delivered: the balance covers the table's minimum again
    status = await top_ups.take(ann, NETWORK)
    assert isinstance(status, TopUpStatus)
    assert status.reason is TopUpReason.NOT_NEEDED
    await accounts.debit(ann, BUY_IN, "lost it again", actor="test")
    taken = await top_ups.take(ann, NETWORK)
    assert isinstance(taken, TopUpTaken)
    assert taken.amount_cents == START - 300
    totals = await money_totals(redis)
    assert (totals.balanced, totals.top_ups_cents) == (True, START - 300)
    assert await ledger_mismatches(redis) == []
