"""The floor's per-round aggregates (``floor_stats``): written by the commit that settles a round, on one
Redis by its script and on a cluster's path by its outbox entry (``TableRepo(outbox=True)``), into the
deployment's and the table's bucket at each resolution, with their expiry; nothing for other commits."""

from __future__ import annotations

import time

import pytest
from redis.asyncio import Redis
from redis.exceptions import ConnectionError as RedisConnectionError

from paigow.ledger.floor_figures import FloorFigures, round_figures
from paigow.table import Timers, new_table
from paigow.table.commands import PlaceBet, Sit, VoidRound
from paigow.table.home import Home
from paigow.table.home_chips import HomeChips, HomeCommission
from paigow.table.state import Phase
from paigow_server.store import keys
from paigow_server.store.accounts import Accounts
from paigow_server.store.floor_stats import RESOLUTIONS, TABLE_FIELDS, FloorStats
from paigow_server.store.tables import CommitResult, TableRepo
from support.tables import TableDriver

TABLE = "t_floor"


def _now_ms() -> int:
    return time.time_ns() // 1_000_000 // 60_000 * 60_000  # a minute's start: the test stays in it


@pytest.fixture(params=["direct", "outbox"])
def repo(request: pytest.FixtureRequest, redis: Redis) -> TableRepo:
    return TableRepo(redis, outbox=request.param == "outbox")


class _Crash:
    """Stands in for ``Outbox.after_commit`` of a process that dies right after its commit."""

    async def __call__(self, table_id: str, text: str, *, now_ms: int,
                       publish: tuple[str, str] | None = None) -> None:
        raise RedisConnectionError("the process died here")


async def _table(redis: Redis, repo: TableRepo) -> tuple[TableDriver, list[str]]:
    accounts = Accounts(redis, starting_balance_cents=100_000)
    players = [(await accounts.create(name)).player_id for name in ("Ann", "Bob")]
    await repo.create(new_table(TABLE, "Main", timers=Timers()))
    table = TableDriver(repo, TABLE)
    table.now_ms = _now_ms()
    for seat, player in enumerate(players, start=1):
        assert await table.do(Sit(player, player, seat, 10_000)) is CommitResult.OK
    return table, players


async def _floor_keys(redis: Redis) -> list[str]:
    # the buckets only (minute, hour, day): the second looks keep their figures under G:floor: too
    return sorted([k async for k in redis.scan_iter(match=keys.GLOBAL + "floor:[mhd]:*")])


async def test_a_settled_round_adds_its_figures_to_the_buckets_of_each_resolution(redis: Redis,
                                                                                   repo: TableRepo) -> None:
    table, (ann, bob) = await _table(redis, repo)
    assert await _floor_keys(redis) == []  # a sit settles no round: nothing written
    settled = await table.play_house_round({ann: 500, bob: 1_000})
    before_settle = table.now_ms
    figures = round_figures(settled.record, seated=2)
    assert (figures.rounds, figures.handle, figures.seated) == (1, 1_500, 2)
    written = await _floor_keys(redis)
    assert len(written) == 9
    stats = FloorStats(redis)
    for resolution in RESOLUTIONS:
        start = resolution.start(before_settle)
        (deployment, own), = zip(*await stats.buckets(resolution, [start], [None, TABLE]), strict=True)
        expected = dict(figures.items())
        assert own == expected
        assert deployment == expected
        per_table = {name: value for name, value in expected.items() if name in TABLE_FIELDS}
        assert await stats.table_figures([(resolution, start)]) == {TABLE: per_table}
        left = await redis.pttl(keys.floor_bucket(resolution.name, start, TABLE))
        expiry = start + resolution.size_ms + resolution.kept_ms
        assert abs(time.time() * 1000 + left - expiry) < 60_000


async def test_a_round_whose_outbox_entry_waits_is_counted_once_when_the_sweep_delivers_it(
        redis: Redis, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = TableRepo(redis, outbox=True)
    table, players = await _table(redis, repo)
    monkeypatch.setattr(repo.outbox, "after_commit", _Crash())
    settled = await table.play_house_round(dict.fromkeys(players, 700))
    minute = RESOLUTIONS[0]
    start = minute.start(table.now_ms)
    assert await FloorStats(redis).buckets(minute, [start], [TABLE]) == [[{}]]  # waiting in the outbox
    await repo.sweep()
    await repo.sweep()  # delivered once, whoever sweeps
    [[bucket]] = await FloorStats(redis).buckets(minute, [start], [TABLE])
    assert bucket == dict(round_figures(settled.record, seated=2).items())


async def test_a_voided_round_counts_as_voided_only(redis: Redis, repo: TableRepo) -> None:
    table, players = await _table(redis, repo)
    await table.tick_until(Phase.BETTING)
    assert await table.do(PlaceBet(players[0], 1_000)) is CommitResult.OK
    assert await table.do(VoidRound()) is CommitResult.OK
    minute = RESOLUTIONS[0]
    start = minute.start(table.now_ms)
    deployment, own = await FloorStats(redis).buckets(minute, [start], [None, TABLE])
    assert deployment == own == [{"voided": 1}]


async def test_the_direct_writer_adds_up(redis: Redis) -> None:
    stats = FloorStats(redis)
    now = _now_ms()
    await stats.add("t1", now, FloorFigures(rounds=1, handle=500, win=-500, win_sq=250_000))
    await stats.add("t1", now + 1_000, FloorFigures(rounds=1, handle=700, win=200, win_sq=40_000))
    minute = RESOLUTIONS[0]
    [[bucket]] = await stats.buckets(minute, [minute.start(now)], ["t1"])
    assert bucket == {"rounds": 2, "handle": 1_200, "win": -300, "win_sq": 290_000}
    [[deployment]] = await stats.buckets(minute, [minute.start(now)], [None])
    assert deployment == bucket
    pieces = [(minute, minute.start(now)), (RESOLUTIONS[1], RESOLUTIONS[1].start(now))]
    assert await stats.table_figures(pieces) == {"t1": {"rounds": 4, "handle": 2_400, "win": -600}}


async def test_a_home_game_with_its_own_chips_is_not_counted(redis: Redis, repo: TableRepo) -> None:
    accounts = Accounts(redis, starting_balance_cents=100_000)
    ann, bob = [(await accounts.create(name)).player_id for name in ("Ann", "Bob")]
    chips = HomeChips(auto_approve=True, commission=HomeCommission.FIVE_PERCENT)
    table = new_table("h_game", "Friday game", timers=Timers(between_rounds_ms=0),
                      home=Home(ann, "Ann", chips=chips, max_buy_in_cap_cents=1_000_000))
    assert await repo.create(table)
    game = TableDriver(repo, "h_game")
    game.now_ms = _now_ms()
    assert await game.do(Sit(ann, "Ann", 1, 50_000)) is CommitResult.OK
    assert await game.do(Sit(bob, "Bob", 2, 20_000)) is CommitResult.OK
    settled = await game.play_house_round({ann: 2_000, bob: 3_000})
    assert settled.record.hands
    assert await _floor_keys(redis) == []
