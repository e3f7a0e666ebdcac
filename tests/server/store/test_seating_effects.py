"""The seating effects of a table's commit (``seating_effects``): written by the commit script on one Redis,
carried by its outbox entry on a cluster (``TableRepo(outbox=True)`` runs that path here), so each stands
exactly when its commit does.

- A host's bar (``host_remove``): a refused commit writes none, and a crash between the commit and its
  outbox delivery leaves the bar waiting in the outbox, delivered by the sweep, never a bar without its
  commit.
- Each player's waiting lists (``waitlists``): a list joined before a sit at another table is left behind,
  one joined after it is not, whatever order the cluster's outbox entries arrive in.
"""

from __future__ import annotations

import time

import pytest
from redis.asyncio import Redis
from redis.exceptions import ConnectionError as RedisConnectionError

from paigow.table import Timers, new_table
from paigow.table.commands import CloseTable, Leave, Sit
from paigow.table.home import Home
from paigow.table.home_commands import HostAct, JoinWaitlist, LeaveWaitlist, RemovePlayer
from paigow.table.machine import apply
from paigow_server.store import keys
from paigow_server.store.accounts import Accounts
from paigow_server.store.bars import Bar, Bars
from paigow_server.store.tables import CommitResult, TableRepo
from paigow_server.store.waitlists import SAT, SAT_KEPT_MS, Waitlists
from support.commits import commit_now
from support.tables import TableDriver

TABLE = "h_bars"
MINUTE = 60_000


class _Crash:
    """Stands in for ``Outbox.after_commit`` of a process that dies right after its commit."""

    async def __call__(self, table_id: str, text: str, *, now_ms: int,
                       publish: tuple[str, str] | None = None) -> None:
        raise RedisConnectionError("the process died here")


@pytest.fixture(params=["direct", "outbox"])
def repo(request: pytest.FixtureRequest, redis: Redis) -> TableRepo:
    return TableRepo(redis, outbox=request.param == "outbox")


async def _player(redis: Redis, name: str) -> str:
    return (await Accounts(redis, starting_balance_cents=100_000).create(name)).player_id


async def _home_game(repo: TableRepo, redis: Redis) -> tuple[TableDriver, str, str]:
    """A private table hosted by Hal (seated), Bob seated beside him: (the table, Hal's id, Bob's id)."""
    hal, bob = await _player(redis, "Hal"), await _player(redis, "Bob")
    await repo.create(new_table(TABLE, "Friday", timers=Timers(), home=Home(hal, "Hal")))
    table = TableDriver(repo, TABLE)
    table.now_ms = time.time_ns() // 1_000_000  # a bar is kept until a time still to come
    for seat, player in ((1, hal), (2, bob)):
        assert await table.do(Sit(player, player, seat, 10_000)) is CommitResult.OK
    return table, hal, bob


async def test_the_commit_of_a_removal_writes_the_hosts_bar(redis: Redis, repo: TableRepo) -> None:
    table, hal, bob = await _home_game(repo, redis)
    until = table.now_ms + 30 * MINUTE
    assert await Bars(redis).get(TABLE, bob) is None
    assert await table.do(HostAct(hal, RemovePlayer(bob, until))) is CommitResult.OK
    bar = Bar(TABLE, bob, until, table.now_ms, f"host:{hal}", "removed by the host")
    assert await Bars(redis).get(TABLE, bob) == bar
    assert await Bars(redis).active(table.now_ms, table_id=TABLE) == [bar]
    assert await redis.pttl(keys.bar(TABLE, bob)) > 0  # it ends by itself at until_ms


async def test_a_player_removed_from_the_waiting_list_is_barred_too(redis: Redis, repo: TableRepo) -> None:
    table, hal, _ = await _home_game(repo, redis)
    cat = await _player(redis, "Cat")
    for seat in range(3, 7):
        assert await table.do(Sit(await _player(redis, f"P{seat}"), "P", seat, 10_000)) is CommitResult.OK
    assert await table.do(JoinWaitlist(cat, "Cat")) is CommitResult.OK
    until = table.now_ms + 5 * MINUTE
    assert await table.do(HostAct(hal, RemovePlayer(cat, until))) is CommitResult.OK
    assert (await table.state()).waiting == ()
    bar = await Bars(redis).get(TABLE, cat)
    assert bar is not None
    assert (bar.until_ms, bar.actor) == (until, f"host:{hal}")


async def test_a_refused_commit_writes_no_bar(redis: Redis, repo: TableRepo) -> None:
    table, hal, bob = await _home_game(repo, redis)
    stale = await table.state()
    assert await table.do(HostAct(hal, RemovePlayer(bob, table.now_ms + MINUTE))) is CommitResult.OK
    await Bars(redis).lift(TABLE, bob)
    # decided on a version the table has left: the compare-and-set refuses it, nothing is written
    after, events = apply(stale, HostAct(hal, RemovePlayer(bob, table.now_ms + 2 * MINUTE)), seed=bytes(32))
    assert await repo.commit(commit_now(stale, after, events)) is CommitResult.CONFLICT
    assert await Bars(redis).get(TABLE, bob) is None
    assert await redis.zcard(keys.BARS) == 0


async def test_a_crash_after_the_commit_leaves_the_bar_in_the_outbox_never_a_bar_alone(
        redis: Redis, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = TableRepo(redis, outbox=True)
    table, hal, bob = await _home_game(repo, redis)
    monkeypatch.setattr(repo.outbox, "after_commit", _Crash())
    until = table.now_ms + 10 * MINUTE
    assert await table.do(HostAct(hal, RemovePlayer(bob, until))) is CommitResult.OK
    assert (await table.state()).seat_of(bob) is None
    assert await Bars(redis).get(TABLE, bob) is None  # not yet in {global}: it waits with the commit
    assert len(await repo.outbox.pending(TABLE)) == 1
    await repo.sweep()  # any process's sweep delivers it
    bar = await Bars(redis).get(TABLE, bob)
    assert bar is not None
    assert (bar.until_ms, bar.actor) == (until, f"host:{hal}")
    assert await repo.outbox.pending(TABLE) == []


async def test_a_bar_that_ended_before_it_is_written_is_left_out(redis: Redis, repo: TableRepo) -> None:
    """An outbox entry delivered after its bar's end (a long outage) still applies: the bar is no more."""
    table, hal, bob = await _home_game(repo, redis)
    assert await table.do(HostAct(hal, RemovePlayer(bob, table.now_ms - 1))) is CommitResult.OK
    assert (await table.state()).seat_of(bob) is None
    assert await Bars(redis).get(TABLE, bob) is None
    assert await redis.zcard(keys.BARS) == 0
    assert await repo.outbox.pending(TABLE) == []


async def _table(repo: TableRepo, redis: Redis, table_id: str, *, full: bool) -> TableDriver:
    await repo.create(new_table(table_id, table_id))
    table = TableDriver(repo, table_id)
    for seat in range(1, 7 if full else 1):
        assert await table.do(Sit(await _player(redis, f"{table_id}{seat}"), "P", seat, 10_000)) is \
            CommitResult.OK
    return table


async def test_a_sit_elsewhere_leaves_behind_the_lists_joined_before_it(redis: Redis,
                                                                        repo: TableRepo) -> None:
    a, c = await _table(repo, redis, "ta", full=True), await _table(repo, redis, "tc", full=True)
    b = await _table(repo, redis, "tb", full=False)
    wes, xia = await _player(redis, "Wes"), await _player(redis, "Xia")
    a.now_ms, c.now_ms, b.now_ms = 1_000, 2_000, 3_000
    for table, player in ((a, wes), (a, xia), (c, wes)):
        assert await table.do(JoinWaitlist(player, "W")) is CommitResult.OK
    waitlists = Waitlists(redis)
    assert await redis.hgetall(keys.waitlists(wes)) == {"ta": "1000", "tc": "2000"}
    assert await waitlists.left_behind(wes) == []

    assert await b.do(Sit(wes, "Wes", 1, 10_000)) is CommitResult.OK
    assert await redis.hget(keys.waitlists(wes), SAT) == "3000 tb"
    assert await waitlists.left_behind(wes) == ["ta", "tc"]
    assert await waitlists.sat_elsewhere("ta", [wes, xia]) == [wes]
    assert await waitlists.left_behind(xia) == []

    assert await a.do(LeaveWaitlist(wes, seated_elsewhere=True)) is CommitResult.OK
    assert await waitlists.left_behind(wes) == ["tc"]
    assert await c.do(CloseTable()) is CommitResult.OK  # a closing empties the list: the record follows
    assert await redis.hgetall(keys.waitlists(wes)) == {SAT: "3000 tb"}
    assert 0 < await redis.pttl(keys.waitlists(wes)) <= SAT_KEPT_MS  # no list left: it expires
    assert await redis.ttl(keys.waitlists(xia)) == -1  # on a list: kept


async def test_a_list_joined_after_the_sit_stays(redis: Redis, repo: TableRepo) -> None:
    a, b = await _table(repo, redis, "ta", full=True), await _table(repo, redis, "tb", full=False)
    wes = await _player(redis, "Wes")
    b.now_ms, a.now_ms = 1_000, 2_000
    assert await b.do(Sit(wes, "Wes", 1, 10_000)) is CommitResult.OK  # seated at tb, then waits at ta
    assert await a.do(JoinWaitlist(wes, "Wes")) is CommitResult.OK
    assert await redis.pttl(keys.waitlists(wes)) == -1
    assert await Waitlists(redis).left_behind(wes) == []
    assert await Waitlists(redis).sat_elsewhere("ta", [wes]) == []
    b.now_ms = 3_000
    assert await b.do(Leave(wes, 3_000)) is CommitResult.OK  # leaving a seat is no sit
    assert await Waitlists(redis).left_behind(wes) == []


async def test_a_join_delivered_after_a_later_sit_is_still_left_behind(
        redis: Redis, monkeypatch: pytest.MonkeyPatch) -> None:
    """On a cluster two tables' outbox entries may arrive in either order (here: the join's process died
    before delivering it, the sweep delivers it after the sit's)."""
    repo = TableRepo(redis, outbox=True)
    a, b = await _table(repo, redis, "ta", full=True), await _table(repo, redis, "tb", full=False)
    wes = await _player(redis, "Wes")
    a.now_ms, b.now_ms = 1_000, 2_000
    deliver = repo.outbox.after_commit
    monkeypatch.setattr(repo.outbox, "after_commit", _Crash())
    assert await a.do(JoinWaitlist(wes, "Wes")) is CommitResult.OK
    monkeypatch.setattr(repo.outbox, "after_commit", deliver)
    assert await b.do(Sit(wes, "Wes", 1, 10_000)) is CommitResult.OK
    assert await Waitlists(redis).left_behind(wes) == []  # the join is not in {global} yet
    await repo.sweep()
    assert await Waitlists(redis).left_behind(wes) == ["ta"]
    assert await Waitlists(redis).sat_elsewhere("ta", [wes]) == [wes]
