"""The second looks' figures written by the settling commit (``pair_watch``, through ``seating_effects``): on
one Redis by the commit's script, through the outbox on the cluster path (``TableRepo(outbox=True)``); and
read back by ``SecondLooks``: a player who fouls at the maximum whenever one player banks is listed, in
both lists, and the honest player at the same table is not."""

from __future__ import annotations

import time

import pytest
from redis.asyncio import Redis

from paigow.ledger.pair_flows import round_figures
from paigow.table import Timers, new_table
from paigow.table.commands import Sit
from paigow.table.records import RoundRecord
from paigow_server.store import keys
from paigow_server.store.accounts import Accounts
from paigow_server.store.pair_watch import buckets_at, window_sums
from paigow_server.store.second_looks import THRESHOLD_Z, SecondLooks
from paigow_server.store.tables import CommitResult, TableRepo
from support.pair_rounds import BANK_IN_TURN, play_banked_round
from support.tables import TableDriver

TABLE = "t_pairs"
ROUNDS = 20


@pytest.fixture(params=["direct", "outbox"])
def repo(request: pytest.FixtureRequest, redis: Redis) -> TableRepo:
    return TableRepo(redis, outbox=request.param == "outbox")


async def _table(repo: TableRepo, redis: Redis) -> tuple[TableDriver, list[str]]:
    accounts = Accounts(redis, starting_balance_cents=1_000_000)
    players = [(await accounts.create(name)).player_id for name in ("Bank", "Dump", "Fair")]
    await repo.create(new_table(TABLE, "Pairs", BANK_IN_TURN, Timers()))
    table = TableDriver(repo, TABLE)
    table.now_ms = time.time_ns() // 1_000_000
    for seat, player in enumerate(players, start=1):
        assert await table.do(Sit(player, player, seat, 500_000)) is CommitResult.OK
    return table, players


def _expected(records: list[RoundRecord], banker: str, player: str) -> list[int]:
    """rounds, hands, fouls, flow, expected milli-cents, variance: the sums of the pure figures."""
    sums = [0] * 6
    for record in records:
        for pair in round_figures(record, BANK_IN_TURN.commission_bps).pairs:
            if (pair.banker_id, pair.player_id) == (banker, player):
                for i, v in enumerate((1, pair.hands, pair.fouls, pair.flow_cents, pair.expected_milli,
                                       pair.variance)):
                    sums[i] += v
    return sums


async def test_the_settling_commits_write_each_pairs_figures_and_the_reader_flags_the_dumper(
        redis: Redis, repo: TableRepo) -> None:
    table, (bank, dump, fair) = await _table(repo, redis)
    max_bet = 10_000  # the dumper bets big (a buy-in covers all the rounds)
    records = [await play_banked_round(table, bank, {dump: max_bet, fair: BANK_IN_TURN.min_bet_cents},
                                       fouling=frozenset({dump}))
               for _ in range(ROUNDS)]
    b = buckets_at(table.now_ms)
    for player in (dump, fair):
        fields = await redis.hgetall(keys.floor_pair(bank, player))
        for window in ("7d", "30d", "today", "hour"):
            assert window_sums(fields, window, b, 6) == _expected(records, bank, player)
        assert len(await redis.lrange(keys.floor_pair_rounds(bank, player), 0, -1)) == ROUNDS
        assert await redis.pttl(keys.floor_pair(bank, player)) > 0
    own = await redis.hgetall(keys.floor_player(dump))
    assert window_sums(own, "7d", b, 2) == [ROUNDS, _expected(records, bank, dump)[2]]
    assert _expected(records, bank, dump)[2] >= ROUNDS - 3  # nearly every hand has a foul split
    assert await redis.zscore(keys.floor_looks("pairs", "7d"), f"{bank} {dump}") is not None

    looks = SecondLooks(redis)
    pairs = await looks.pairs("7d", table.now_ms, limit=10)
    assert [(p.banker_id, p.player_id) for p in pairs] == [(bank, dump)]
    assert pairs[0].z >= THRESHOLD_Z
    assert pairs[0].rounds == ROUNDS
    assert [r.round_id for r in pairs[0].round_refs] == [r.round_id for r in reversed(records)]
    fouls = await looks.fouls("today", table.now_ms, limit=10)
    assert [(f.player_id, f.banker_id) for f in fouls] == [(dump, bank)]
    assert await looks.pairs("hour", table.now_ms, limit=10) == pairs  # the same rounds, this hour


async def test_a_pair_whose_rounds_left_the_window_leaves_its_index(redis: Redis, repo: TableRepo) -> None:
    table, (bank, dump, fair) = await _table(repo, redis)
    for _ in range(2):
        await play_banked_round(table, bank, {dump: 1_000, fair: 1_000})
    member = f"{bank} {dump}"
    assert await redis.zscore(keys.floor_looks("pairs", "7d"), member) is not None
    later = table.now_ms + 8 * 86_400_000
    assert await SecondLooks(redis).pairs("7d", later, limit=10) == []
    assert await redis.zscore(keys.floor_looks("pairs", "7d"), member) is None
    assert await redis.zscore(keys.floor_looks("pairs", "30d"), member) is not None
