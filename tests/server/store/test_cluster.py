"""Tables sharded over a real Redis Cluster on loopback: three primaries (``support.cluster``), two
``paigow serve`` processes on ``redis+cluster://``, bots at eight tables spread over both processes; one
process is SIGKILLed while a table it drives is mid-round (other tables may still be seating their
players). The survivor takes its tables over and finishes their rounds; afterwards every table's keys are
on one node (its hash slot), the tables are on every node, every outbox was delivered, a hold the victim
left is counted and then released, no round settled twice, each player's history holds their hands, and
the money balances end to end (balances + chips + house = issued, every account as the ledger says).
"""

from __future__ import annotations

import asyncio
import time
from collections import defaultdict
from pathlib import Path
from typing import cast

import pytest
import redis as sync_redis
from redis.asyncio import Redis
from redis.crc import key_slot

from paigow.protocol.chat import ChatRole, ChatSetting
from paigow.table import Timers, new_table
from paigow.table.commands import Leave, PlaceBet, Sit, UseHouseWay
from paigow.table.home import Home
from paigow.table.home_chips import HomeChips
from paigow.table.home_commands import HostAct, JoinWaitlist, RemovePlayer
from paigow.table.machine import apply
from paigow.table.state import Phase
from paigow_server.bots.player import Behaviour
from paigow_server.bots.run import BotsConfig, run_bots
from paigow_server.process.redis_client import redis_from_url
from paigow_server.realtime.router import process_channel
from paigow_server.realtime.spectators import SpectatorCounts
from paigow_server.store import keys, money
from paigow_server.store.accounts import Accounts
from paigow_server.store.bars import Bar, Bars
from paigow_server.store.chat import ChatStore
from paigow_server.store.credentials import Credentials
from paigow_server.store.history import TABLE_ROUNDS_KEPT, History
from paigow_server.store.holds import HOLD_STALE_MS
from paigow_server.store.live_hands import LiveHands, fingerprint
from paigow_server.store.money import ledger_mismatches, money_totals
from paigow_server.store.play_limits import PlayLimits
from paigow_server.store.spectator_counts import SpectatorCountStore
from paigow_server.store.tables import CommitResult, TableRepo
from paigow_server.store.waitlists import Waitlists
from support.checks import (
    assert_money_and_ledger_intact,
    assert_rounds_settled_once,
    outboxes_delivered,
    wait_for_round_in_play,
)
from support.cluster import ClusterTopology
from support.commits import commit_now
from support.harness import ServerProcess
from support.tables import TableDriver

pytestmark = pytest.mark.failover

OPERATOR_TOKEN = "cluster-test-operator-token-0123456789"
TABLES = 8
MINUTE = 60_000
QUIET = Behaviour(bank_rate=0.3, drop_rate=0.0, bad_input_rate=0.0)



async def _owner(redis: Redis, table_id: str, servers: list[ServerProcess]) -> ServerProcess:
    lease = await redis.get(keys.table_lease(table_id))
    assert lease is not None, "the table in play has a lease"
    pid = int(lease.split(" ")[0].split(".")[-2])  # owner ids are host.pid.random
    return next(s for s in servers if s.pid == pid)


def _keys_by_node(topology: ClusterTopology) -> dict[int, list[str]]:
    out: dict[int, list[str]] = {}
    for port in topology.ports:
        client = sync_redis.Redis(port=port, decode_responses=True)
        try:
            out[port] = [str(k) for k in client.scan_iter(count=1000)]
        finally:
            client.close()
    return out


async def _holds_released(redis: Redis) -> int:
    """A hold left open (the victim died between a buy-in's hold and its commit) is counted in the money
    check while it is open, then released (void at its table, refund) as the servers' sweep does once it
    is ``HOLD_STALE_MS`` old — here at once, rather than waiting that long: how many there were."""
    repo = TableRepo(redis)
    left = await repo.holds.open_holds()
    totals = await money_totals(redis)
    assert totals.balanced, totals
    assert totals.holds_cents == sum(hold.amount_cents for hold, _ in left.values())
    if left:
        latest = max(hold.at_ms for hold, _ in left.values())
        assert await repo.holds.sweep(now_ms=latest + HOLD_STALE_MS) == len(left)
    assert await redis.hlen(keys.HOLDS) == 0
    return len(left)


async def test_the_stores_scripts_and_transactions_each_stay_in_one_slot(topology: ClusterTopology) -> None:
    """What the servers write outside table commits, on a cluster: a script or transaction whose keys (or a
    channel passed as a key) spanned slots would fail here (``CROSSSLOT``)."""
    redis = redis_from_url(topology.url, decode_responses=True)
    try:
        chat = ChatStore(redis)
        entry = await chat.post("t9", ts_ms=1, player_id="p_1", name="Ann", role=ChatRole.PLAYER,
                                text="hello", emote=None)
        await chat.set_setting("t9", ChatSetting.OFF)
        assert await chat.setting("t9") is ChatSetting.OFF
        assert await chat.delete("t9", entry.id) is not None
        accounts = Accounts(redis, starting_balance_cents=1_000)
        ann = await accounts.create("Ann", username="ann", pw_hash="old")
        await Credentials(redis).replace_hash(ann.player_id, "old", "new")  # WATCH + MULTI
        assert await redis.hget(keys.player(ann.player_id), "pw") == "new"
        assert await accounts.credit(ann.player_id, 500, "bonus", actor="op") == 1_500
        await PlayLimits(redis).set(ann.player_id, {"wager_day": 1_000}, 1, reality_check=15)  # + generation
        assert await redis.get(keys.RG_LIMITS_GEN) == "1"
        bars = Bars(redis)
        await bars.put(Bar("t9", ann.player_id, until_ms=4_000_000_000_000, created_ms=1, actor="op",
                           reason="test"))
        assert [b.player_id for b in await bars.active(2)] == [ann.player_id]
        assert await bars.lift("t9", ann.player_id) is not None
        counts = SpectatorCounts(SpectatorCountStore(redis, "proc-a"), lambda: {"t9": 2})
        await counts.refresh()  # MULTI of one key, then a SCAN of every node
        assert await redis.hget(keys.spectators("proc-a"), "t9") == "2"
        assert (await money_totals(redis)).balanced
        assert await ledger_mismatches(redis) == []
    finally:
        await redis.aclose()


async def test_the_money_check_reads_again_while_money_moves_and_says_so_when_it_never_stops(
        topology: ClusterTopology, monkeypatch: pytest.MonkeyPatch) -> None:
    """No script spans the slots: the figures are read between two reads of everything that moves with
    money, and read again until the two agree."""
    redis = redis_from_url(topology.url, decode_responses=True)
    try:
        accounts = Accounts(redis, starting_balance_cents=1_000)
        ann = await accounts.create("Ann")
        marks = money._marks
        calls = 0

        async def moved_once(client: Redis, table_ids: list[str]) -> tuple[object, ...]:
            nonlocal calls
            calls += 1
            if calls == 2:  # the second read of the first attempt: a credit landed in between
                await accounts.credit(ann.player_id, 250, "bonus", actor="op")
            return await marks(client, table_ids)

        monkeypatch.setattr(money, "_marks", moved_once)
        totals = await money_totals(redis)
        assert calls == 4  # two attempts, the first one discarded
        assert (totals.issued_cents, totals.balances_cents, totals.balanced) == (1_250, 1_250, True)

        async def always_moving(client: Redis, table_ids: list[str]) -> tuple[object, ...]:
            nonlocal calls
            calls += 1
            return (calls,)

        monkeypatch.setattr(money, "_marks", always_moving)
        monkeypatch.setattr(money, "SNAPSHOT_ATTEMPTS", 3)
        with pytest.raises(money.SnapshotError, match="money moved during each of 3 reads"):
            await money_totals(redis)
    finally:
        await redis.aclose()


async def test_a_hosts_bar_and_the_waiting_lists_go_through_the_outbox_of_a_cluster(
        topology: ClusterTopology) -> None:
    """A host's bar reaches ``{global}`` through the removal's outbox entry (a refused removal writes none),
    and the waiting-list record of a player who waits at one table and sits at another (another slot) says
    which list the sit left behind (``store.seating_effects``)."""
    redis = redis_from_url(topology.url, decode_responses=True)
    try:
        repo = TableRepo(redis)
        assert not repo.direct
        accounts = Accounts(redis, starting_balance_cents=100_000)
        players = [(await accounts.create(f"P{i}")).player_id for i in range(8)]
        hal, wes, xia = players[0], players[6], players[7]
        await repo.create(new_table("h_full", "Full", timers=Timers(), home=Home(hal, "Hal")))
        await repo.create(new_table("t_other", "Other"))
        assert key_slot(keys.table("h_full").encode()) != key_slot(keys.table("t_other").encode())
        full, other = TableDriver(repo, "h_full"), TableDriver(repo, "t_other")
        full.now_ms = other.now_ms = time.time_ns() // 1_000_000
        for seat, player in enumerate(players[:6], start=1):
            assert await full.do(Sit(player, f"P{seat}", seat, 10_000)) is CommitResult.OK
        assert await full.do(JoinWaitlist(wes, "Wes")) is CommitResult.OK
        assert await full.do(JoinWaitlist(xia, "Xia")) is CommitResult.OK
        other.now_ms += 1
        assert await other.do(Sit(wes, "Wes", 1, 10_000)) is CommitResult.OK
        assert await Waitlists(redis).left_behind(wes) == ["h_full"]
        assert await Waitlists(redis).sat_elsewhere("h_full", [wes, xia]) == [wes]

        stale = await full.state()
        until = full.now_ms + 30 * MINUTE
        assert await full.do(HostAct(hal, RemovePlayer(players[1], until))) is CommitResult.OK
        bar = await Bars(redis).get("h_full", players[1])
        assert bar is not None
        assert (bar.until_ms, bar.actor) == (until, f"host:{hal}")
        after, events = apply(stale, HostAct(hal, RemovePlayer(players[2], until)), seed=bytes(32))
        assert await repo.commit(commit_now(stale, after, events)) is CommitResult.CONFLICT
        assert await Bars(redis).get("h_full", players[2]) is None
        assert await repo.outbox.pending("h_full") == []
    finally:
        await redis.aclose()


async def test_a_live_hand_is_indexed_in_global_before_the_deal_and_removed_by_its_settlement_on_a_cluster(
        topology: ClusterTopology) -> None:
    """The live-hand index (``store.live_hands``) on a cluster: written in ``{global}`` before the table's
    script deals (its own slot), removed by the settling commit's outbox entry."""
    redis = redis_from_url(topology.url, decode_responses=True)
    try:
        repo = TableRepo(redis)
        assert not repo.direct
        accounts = Accounts(redis, starting_balance_cents=100_000)
        players = [(await accounts.create(name)).player_id for name in ("Ann", "Bob")]
        await repo.create(new_table("t_live", "Live", timers=Timers()))
        table = TableDriver(repo, "t_live")
        for seat, player in enumerate(players, start=1):
            assert await table.do(Sit(player, player, seat, 10_000)) is CommitResult.OK
        await table.tick_until(Phase.BETTING)
        for player in players:
            assert await table.do(PlaceBet(player, 1_000)) is CommitResult.OK
        await table.tick_until(Phase.SETTING)
        rnd = (await table.state()).round
        assert rnd is not None
        hands = [h.cards for h in rnd.hands if h.player_id is not None]
        live = LiveHands(redis)
        assert [await live.is_live(cards) for cards in hands] == [True, True]
        assert await redis.get(keys.live_hand(fingerprint(hands[0]))) == f"t_live {rnd.round_id}"
        for player in players:
            assert await table.do(UseHouseWay(player)) is CommitResult.OK
        assert [await live.is_live(cards) for cards in hands] == [False, False]
        assert await repo.outbox.pending("t_live") == []
    finally:
        await redis.aclose()


async def test_a_home_game_with_its_own_chips_moves_no_balance_on_a_cluster(
        topology: ClusterTopology) -> None:
    """A chips game (issue 31) on a cluster: a player with no casino money buys in, plays and leaves; no
    hold is made, no balance moves, and the snapshot (one script per slot) keeps the game's chips out of the
    casino's check and checks the game on its own."""
    redis = redis_from_url(topology.url, decode_responses=True)
    try:
        repo = TableRepo(redis)
        accounts = Accounts(redis, starting_balance_cents=100_000)
        ann, bob = [(await accounts.create(name)).player_id for name in ("Ann", "Bob")]
        await accounts.debit(bob, 100_000, "spent", actor="test")
        chips = HomeChips(auto_approve=True)
        await repo.create(new_table("h_chips", "Chips", timers=Timers(between_rounds_ms=0),
                                    home=Home(ann, "Ann", chips=chips)))
        await repo.create(new_table("t_casino", "Casino", timers=Timers(between_rounds_ms=0)))
        game, casino = TableDriver(repo, "h_chips"), TableDriver(repo, "t_casino")
        game.now_ms = casino.now_ms = time.time_ns() // 1_000_000
        assert await game.do(Sit(ann, "Ann", 1, 20_000)) is CommitResult.OK
        assert await game.do(Sit(bob, "Bob", 2, 10_000)) is CommitResult.OK
        assert await casino.do(Sit(ann, "Ann", 1, 5_000)) is CommitResult.OK
        await game.play_house_round({ann: 1_000, bob: 2_000})
        assert await game.do(Leave(bob)) is CommitResult.OK
        await outboxes_delivered(redis)
        totals = await money_totals(redis)
        assert totals.balanced, totals
        assert totals.chips_at_tables_cents == 5_000
        assert [(g.table_id, g.issued_cents, g.balanced) for g in totals.home_games] == [
            ("h_chips", 30_000, True)]
        assert await ledger_mismatches(redis) == []
        assert (await accounts.balance(bob), await accounts.balance(ann)) == (0, 95_000)
        assert await redis.hlen(keys.HOLDS) == 0
    finally:
        await redis.aclose()


async def test_tables_on_three_shards_survive_a_killed_server_with_money_and_history_intact(
        topology: ClusterTopology, tmp_path: Path) -> None:
    redis = redis_from_url(topology.url, decode_responses=True)
    servers = [ServerProcess(data_dir=tmp_path / f"server{i}", redis_url=topology.url,
                             operator_token=OPERATOR_TOKEN) for i in range(2)]
    try:
        await asyncio.gather(*(asyncio.to_thread(s.start) for s in servers))
        run = asyncio.create_task(run_bots(BotsConfig(
            url=servers[0].url, operator_token=OPERATOR_TOKEN, tables=TABLES, players_per_table=3,
            spectators=1, rounds=3, seed=15, timeout_s=80.0, behaviour=QUIET,
            table_urls=tuple(s.ws_url for s in servers), by_table=True)))  # both servers drive tables
        table_id, round_id = await wait_for_round_in_play(redis)
        victim = await _owner(redis, table_id, servers)
        await asyncio.to_thread(victim.kill)  # SIGKILL mid-round: its leases, outbox and holds are left
        result = await run
        assert result.completed_tables == TABLES, (result.summary()["errors"], result.summary())
        settled = {r["round_id"] for r in await History(redis).table_rounds(table_id, TABLE_ROUNDS_KEPT)}
        assert round_id in settled, "the round in play at the kill was finished by the survivor"

        by_node = _keys_by_node(topology)
        nodes_of: dict[str, set[int]] = defaultdict(set)
        for port, names in by_node.items():
            for name in names:
                if name.startswith(f"{keys.PREFIX}table:{{"):
                    nodes_of[name.split("{", 1)[1].split("}", 1)[0]].add(port)
        assert set(nodes_of) == set(result.table_ids)
        assert all(len(ports) == 1 for ports in nodes_of.values()), nodes_of  # one slot per table
        assert {p for ports in nodes_of.values() for p in ports} == set(topology.ports)  # on every shard

        await outboxes_delivered(redis)
        await _holds_released(redis)
        assert await assert_rounds_settled_once(redis) >= TABLES * 3
        await assert_money_and_ledger_intact(redis, result)
        assert (await money_totals(redis)).balanced
        assert await ledger_mismatches(redis) == []
        exported = cast("list[tuple[str, dict[str, str]]]", await redis.xrange(keys.ROUNDS, "-", "+"))
        assert len(exported) >= TABLES * 3
        history = History(redis)
        players = {h["player_id"] for t in result.table_ids
                   for r in await history.table_rounds(t, TABLE_ROUNDS_KEPT) for h in r["hands"]
                   if h["player_id"] is not None}
        assert len(players) >= TABLES * 2
        for player_id in players:
            hands = await history.recent(player_id)
            assert hands, f"{player_id} played but has no history"
            assert len({h["round_id"] for h in hands}) == len(hands), f"a hand of {player_id} twice"
    finally:
        for server in servers:
            server.kill()
        await redis.aclose()


async def test_a_failed_primary_is_replaced_by_its_replica_and_the_servers_follow_it(tmp_path: Path) -> None:
    """Three primaries with a replica each; bots spread over both servers (half the commands forwarded
    through the router's channel); the primary serving the router channel of a table's owner is
    SIGKILLed mid-round. The cluster promotes its replica, the owner's router listener follows its channel
    to it (``FollowingClusterPubSub``), every table finishes, and the money and the ledger agree."""
    topology = ClusterTopology(tmp_path / "redis", replicas=1)
    await asyncio.to_thread(topology.start)
    redis = redis_from_url(topology.url, decode_responses=True)
    servers = [ServerProcess(data_dir=tmp_path / f"server{i}", redis_url=topology.url,
                             operator_token=OPERATOR_TOKEN) for i in range(2)]
    try:
        await asyncio.gather(*(asyncio.to_thread(s.start) for s in servers))
        run = asyncio.create_task(run_bots(BotsConfig(
            url=servers[0].url, operator_token=OPERATOR_TOKEN, tables=6, players_per_table=3, spectators=1,
            rounds=4, seed=3, timeout_s=60.0, behaviour=QUIET, table_urls=tuple(s.ws_url for s in servers))))
        table_id, _round_id = await wait_for_round_in_play(redis)
        owner = str(await redis.get(keys.table_lease(table_id))).split(" ")[0]
        slot = key_slot(process_channel(owner).encode())
        victim = topology.primary_of_slot(slot)
        await asyncio.to_thread(victim.kill)
        killed_at = time.monotonic()
        result = await run
        assert result.completed_tables == 6, (result.summary()["errors"], result.summary())
        # 8-12 s on loopback; a router left on the dead node makes forwarded commands wait out their
        # deadlines and tables finish much later, if at all
        assert time.monotonic() - killed_at < 30, "play took too long to go on after the failover"
        assert topology.primary_of_slot(slot).port != victim.port, "its replica serves the slot now"
        # Without replica acknowledgements (docs/cluster.md, "What is not done") the writes the dead primary
        # acknowledged last may be lost with it, a player's leave among them: so not "every seat empty",
        # but the money and the ledger agree on whatever stands, and no round is settled twice.
        assert result.money_ok, result.money_message
        assert result.stats.hidden_card_leaks == 0
        await outboxes_delivered(redis)
        assert (await money_totals(redis)).balanced
        assert await ledger_mismatches(redis) == []
        await assert_rounds_settled_once(redis)
    finally:
        for server in servers:
            server.kill()
        await redis.aclose()
        await asyncio.to_thread(topology.stop)
