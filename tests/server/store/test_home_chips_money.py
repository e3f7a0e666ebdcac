"""The money check with a home game that plays its own chips (issue 31, ``store.home_money``): on one Redis
(one script a commit) and through the scripts a Redis Cluster runs (``TableRepo(outbox=True)``: holds and
the outbox), a chips game's buy-ins, rebuys, corrections, settlements and cash-outs never read or move a
casino balance nor make a hold; the casino's check leaves its chips out and stays balanced beside a casino
table in play; each game has its own check, and the ledger's accounts of the game agree with its table."""

from __future__ import annotations

import json

import pytest
from redis.asyncio import Redis

from paigow.rules.house_rules import HouseRules
from paigow.table import home_commands as h
from paigow.table.commands import Leave, Sit
from paigow.table.home import Home
from paigow.table.home_chip_commands import AdjustChips, Rebuy
from paigow.table.home_chips import HomeChips, HomeCommission
from paigow.table.operator_commands import CloseTable
from paigow.table.state import Phase, Timers, new_table
from paigow_server.store import keys
from paigow_server.store.accounts import Accounts
from paigow_server.store.history import HOME_ROUNDS_KEPT, TABLE_ROUNDS_KEPT, History
from paigow_server.store.money import ledger_mismatches, money_totals
from paigow_server.store.tables import CommitResult, TableRepo
from support.tables import TableDriver

START = 100_000
TIMERS = Timers(between_rounds_ms=0)


@pytest.fixture(params=[False, True], ids=["one-script", "cluster-scripts"])
def repo(request: pytest.FixtureRequest, redis: Redis) -> TableRepo:
    return TableRepo(redis, outbox=request.param)


async def _home_game(repo: TableRepo, host: str) -> TableDriver:
    chips = HomeChips(auto_approve=True, commission=HomeCommission.FIVE_PERCENT)
    rules = HouseRules(commission_bps=500, commission_round_cents=1)
    table = new_table("h_game", "Friday game", rules, TIMERS,
                      home=Home(host, "Ann", chips=chips, max_buy_in_cap_cents=1_000_000))
    assert await repo.create(table)
    return TableDriver(repo, "h_game")


async def _check(redis: Redis, *, casino_chips: int) -> dict[str, object]:
    totals = await money_totals(redis)
    assert totals.balanced, totals
    assert totals.chips_at_tables_cents == casino_chips
    assert await ledger_mismatches(redis) == []
    (game,) = totals.home_games
    assert game.balanced, game
    return game.to_json()


async def test_a_chips_game_moves_no_casino_money_and_has_its_own_check(redis: Redis,
                                                                         repo: TableRepo) -> None:
    accounts = Accounts(redis, starting_balance_cents=START)
    ann, maya, carl = [await accounts.create(name) for name in ("Ann", "Maya", "Carl")]
    await accounts.debit(maya.player_id, START, "spent it all", actor="test")  # a zero casino balance
    casino = TableDriver(repo, "t1")
    assert await repo.create(new_table("t1", "Main", timers=TIMERS))
    assert await casino.do(Sit(carl.player_id, "Carl", 1, 30_000)) is CommitResult.OK
    game = await _home_game(repo, ann.player_id)
    assert await game.do(Sit(ann.player_id, "Ann", 1, 50_000)) is CommitResult.OK
    assert await game.do(Sit(maya.player_id, "Maya", 2, 20_000)) is CommitResult.OK
    assert (await game.state()).seat_of(maya.player_id) == 2  # seated with no casino money at all
    figures = await _check(redis, casino_chips=30_000)
    assert figures == {"table_id": "h_game", "name": "Friday game", "issued_cents": 70_000,
                       "stacks_cents": 70_000, "cashed_out_cents": 0, "house_cents": 0, "commission_cents": 0,
                       "balanced": True}
    for _ in range(3):
        await game.play_house_round({ann.player_id: 2_000, maya.player_id: 3_000})
        await _check(redis, casino_chips=30_000)
    await casino.play_house_round({carl.player_id: 1_000})
    carl_chips = (await casino.state()).seats[1].chips_cents
    assert await game.do(Rebuy(maya.player_id, 10_000)) is CommitResult.OK
    assert await game.do(h.HostAct(ann.player_id, AdjustChips(maya.player_id, 1_500, "a chip fell"))) \
        is CommitResult.OK
    assert await game.do(h.HostAct(ann.player_id, AdjustChips(ann.player_id, -500, "miscount"))) \
        is CommitResult.OK
    await _check(redis, casino_chips=carl_chips)
    assert await game.do(Leave(maya.player_id)) is CommitResult.OK
    await _check(redis, casino_chips=carl_chips)
    assert await game.do(h.HostAct(ann.player_id, CloseTable())) is CommitResult.OK
    assert (await game.state()).phase == Phase.CLOSED
    figures = await _check(redis, casino_chips=carl_chips)
    assert figures["stacks_cents"] == 0
    assert figures["issued_cents"] == 70_000 + 10_000 + 1_500 - 500
    assert await accounts.balance(maya.player_id) == 0
    assert await accounts.balance(ann.player_id) == START
    assert await redis.hlen(keys.HOLDS) == 0
    assert await redis.hlen(keys.table_holds("h_game")) == 0
    kinds = [json.loads(fields["e"])["kind"] for _, fields in await redis.xrange(keys.LEDGER)]
    assert kinds.count("home_buy_in") == 3
    assert "home_cash_out" in kinds
    assert int(await redis.get(keys.HOUSE_NET) or 0) == (await casino.state()).ledger.house_net_cents


async def test_the_check_names_a_home_game_whose_chips_do_not_add_up(redis: Redis, repo: TableRepo) -> None:
    accounts = Accounts(redis, starting_balance_cents=START)
    ann = await accounts.create("Ann")
    game = await _home_game(repo, ann.player_id)
    assert await game.do(Sit(ann.player_id, "Ann", 1, 50_000)) is CommitResult.OK
    await _check(redis, casino_chips=0)
    text = await redis.hget(keys.table("h_game"), "state")
    state = json.loads(text)
    state["seats"][1]["chips_cents"] += 100  # a cent appears at the game's seat, outside the ledger
    await redis.hset(keys.table("h_game"), "state", json.dumps(state))
    totals = await money_totals(redis)
    assert totals.balanced  # the casino's money is untouched
    assert not totals.home_games[0].balanced
    problems = await ledger_mismatches(redis)
    assert any(p.startswith(f"seat:h_game:{ann.player_id}:") for p in problems), problems
    assert any(p.startswith("home game h_game:") for p in problems), problems


async def test_a_fresh_guest_who_sits_at_a_chips_game_is_settled_with_its_balance_untouched(
        redis: Redis, repo: TableRepo) -> None:
    """Its buy-in moves no balance, so no buy-in settles it: the sit's commit does (its seating effect), so
    a seated guest never lapses, and the starting balance it keeps is issued with its opening entry."""
    accounts = Accounts(redis, starting_balance_cents=START)
    ann = await accounts.create("Ann")
    guest = await accounts.create("Gus", fresh_ms=60_000)
    assert await redis.hget(keys.player(guest.player_id), "fresh") == "1"
    game = await _home_game(repo, ann.player_id)
    assert await game.do(Sit(guest.player_id, "Gus", 2, 20_000)) is CommitResult.OK
    assert (await game.state()).seat_of(guest.player_id) == 2
    assert await redis.hget(keys.player(guest.player_id), "fresh") is None
    assert await redis.pttl(keys.player(guest.player_id)) == -1  # no time to live any more
    assert await accounts.balance(guest.player_id) == START
    assert await redis.sismember(keys.PLAYERS, guest.player_id)
    totals = await money_totals(redis)
    assert totals.issued_cents == 2 * START
    await _check(redis, casino_chips=0)


async def test_a_chips_game_keeps_every_round_for_its_hand_log(redis: Redis, repo: TableRepo) -> None:
    """A casino table keeps its last 100 rounds; a chips game its last 2,001 (its hand log shows 2,000 and
    knows when it lost the first), each with the time it settled."""
    accounts = Accounts(redis, starting_balance_cents=START)
    ann = await accounts.create("Ann")
    game = await _home_game(repo, ann.player_id)
    assert await repo.create(new_table("t1", "Main", timers=TIMERS))
    casino = TableDriver(repo, "t1")
    for table_id in ("h_game", "t1"):
        await redis.rpush(keys.table_rounds(table_id), *(["{}"] * 150))
    assert await game.do(Sit(ann.player_id, "Ann", 1, 50_000)) is CommitResult.OK
    assert await casino.do(Sit(ann.player_id, "Ann", 1, 50_000)) is CommitResult.OK
    settled = await game.play_house_round({ann.player_id: 1_000})
    await casino.play_house_round({ann.player_id: 1_000})
    assert await redis.llen(keys.table_rounds("h_game")) == 151
    assert await redis.llen(keys.table_rounds("t1")) == TABLE_ROUNDS_KEPT
    await redis.rpush(keys.table_rounds("h_game"), *(["{}"] * HOME_ROUNDS_KEPT))
    await game.play_house_round({ann.player_id: 1_000})
    assert await redis.llen(keys.table_rounds("h_game")) == HOME_ROUNDS_KEPT + 1
    times = await History(redis).round_times("h_game")
    assert settled.record.number in times
    assert await redis.hlen(keys.table_round_times("t1")) == 0
