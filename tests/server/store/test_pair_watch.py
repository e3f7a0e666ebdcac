"""The second looks' figures written by the settling commit (``pair_watch``, through ``seating_effects``): on
one Redis by the commit's script, through the outbox on the cluster path (``TableRepo(outbox=True)``); and
read back by ``SecondLooks``: a player who fouls at the maximum whenever one player banks is listed, in
both lists, and the honest player at the same table is not."""

from __future__ import annotations

import pytest
from redis.asyncio import Redis

from paigow.ledger.pair_flows import flow_z
from paigow_server.store import keys
from paigow_server.store.pair_watch import buckets_at, window_sums
from paigow_server.store.second_looks import THRESHOLD_Z, SecondLooks
from paigow_server.store.tables import TableRepo
from support.pair_rounds import BANK_IN_TURN, banked_table, pair_sums, play_banked_round

TABLE = "t_pairs"
ROUNDS = 20


@pytest.fixture(params=["direct", "outbox"])
def repo(request: pytest.FixtureRequest, redis: Redis) -> TableRepo:
    return TableRepo(redis, outbox=request.param == "outbox")


async def test_the_settling_commits_write_each_pairs_figures_and_the_reader_flags_the_dumper(
        redis: Redis, repo: TableRepo) -> None:
    table, (bank, dump, fair) = await banked_table(repo, redis, TABLE)
    max_bet = 10_000  # the dumper bets big (a buy-in covers all the rounds)
    start = table.now_ms
    records = [await play_banked_round(table, bank, {dump: max_bet, fair: BANK_IN_TURN.min_bet_cents},
                                       fouling=frozenset({dump}))
               for _ in range(ROUNDS)]
    assert buckets_at(table.now_ms).hour == buckets_at(start).hour, "the rounds stayed in one hour"
    b = buckets_at(table.now_ms)
    for player in (dump, fair):
        fields = await redis.hgetall(keys.floor_pair(bank, player))
        for window in ("7d", "30d", "today", "hour"):
            assert window_sums(fields, window, b, 6) == pair_sums(records, bank, player)
        assert len(await redis.lrange(keys.floor_pair_rounds(bank, player), 0, -1)) == ROUNDS
        assert await redis.pttl(keys.floor_pair(bank, player)) > 0
    own = await redis.hgetall(keys.floor_player(dump))
    assert window_sums(own, "7d", b, 2) == [ROUNDS, pair_sums(records, bank, dump)[2]]
    assert pair_sums(records, bank, dump)[2] >= ROUNDS - 3  # nearly every hand has a foul split
    for player in (dump, fair):  # the index's score is the reader's |z| (the script computes it too)
        _, _, _, flow, expected, variance = pair_sums(records, bank, player)
        for name in ("7d", "30d", f"D{b.day}", f"H{b.hour}"):
            score = await redis.zscore(keys.floor_looks("pairs", name), f"{bank} {player}")
            assert score == pytest.approx(abs(flow_z(flow, expected, variance)))

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
    table, (bank, dump, fair) = await banked_table(repo, redis, TABLE)
    for _ in range(2):
        await play_banked_round(table, bank, {dump: 1_000, fair: 1_000})
    member = f"{bank} {dump}"
    assert await redis.zscore(keys.floor_looks("pairs", "7d"), member) is not None
    later = table.now_ms + 8 * 86_400_000
    assert await SecondLooks(redis).pairs("7d", later, limit=10) == []
    assert await redis.zscore(keys.floor_looks("pairs", "7d"), member) is None
    assert await redis.zscore(keys.floor_looks("pairs", "30d"), member) is not None


async def test_buckets_past_the_thirty_days_and_the_two_hours_are_dropped_when_the_pair_is_written(
        redis: Redis, repo: TableRepo) -> None:
    table, (bank, dump, fair) = await banked_table(repo, redis, TABLE)
    await play_banked_round(table, bank, {dump: 1_000, fair: 1_000})
    first = buckets_at(table.now_ms)
    table.now_ms += 31 * 86_400_000
    await play_banked_round(table, bank, {dump: 1_000, fair: 1_000})
    later = buckets_at(table.now_ms)
    for key in (keys.floor_pair(bank, dump), keys.floor_player(dump)):
        fields = set(await redis.hkeys(key))
        assert f"d{first.day}" not in fields
        assert f"h{first.hour}" not in fields
        assert {f"d{later.day}", f"h{later.hour}"} <= fields
    assert window_sums(await redis.hgetall(keys.floor_pair(bank, dump)), "30d", later, 6)[0] == 1
    assert len(await redis.lrange(keys.floor_pair_rounds(bank, dump), 0, -1)) == 2  # the list keeps 20
