"""Several ``paigow serve`` processes on one private Redis (the ``cluster`` fixture of conftest.py): one
table played from two processes; the owner SIGKILLed mid-round and the round finished by another; a
stale owner (SIGSTOPped past its lease) that wakes up cannot write. Every run ends with the money and the
ledger checked."""

from __future__ import annotations

import asyncio
import os
import signal
from collections.abc import Awaitable, Callable

import httpx
import pytest
from redis.asyncio import Redis

from paigow.rules.house_rules import HouseRules
from paigow.table.state import Timers, new_table
from paigow_server.bots.player import Behaviour
from paigow_server.bots.run import BotsConfig, run_bots
from paigow_server.store import keys
from paigow_server.store.history import TABLE_ROUNDS_KEPT, History
from paigow_server.store.tables import TableRepo
from support.checks import IN_PLAY, assert_money_and_ledger_intact, wait_for_round_in_play
from support.harness import ServerProcess, WsClient

StartCluster = Callable[[int], Awaitable[list[ServerProcess]]]

QUIET = Behaviour(bank_rate=0.3, drop_rate=0.0, bad_input_rate=0.0)

def bots_config(processes: list[ServerProcess], **options: object) -> BotsConfig:
    settings: dict[str, object] = {"tables": 1, "players_per_table": 4, "spectators": 2, "rounds": 2,
                                   "seed": 5, "timeout_s": 90.0, "behaviour": QUIET}
    settings.update(options)
    return BotsConfig(url=processes[0].url, operator_token=processes[0].operator_token,
                      table_urls=tuple(p.ws_url for p in processes), **settings)  # type: ignore[arg-type]


async def owner_process(redis: Redis, table_id: str, processes: list[ServerProcess]) -> ServerProcess:
    lease = await redis.get(keys.table_lease(table_id))
    assert lease is not None, "the table being played has a lease"
    pid = int(lease.split(" ")[0].split(".")[-2])  # owner ids are host.pid.random
    return next(p for p in processes if p.pid == pid)


async def settled_round_ids(redis: Redis, table_id: str) -> set[str]:
    return {record["round_id"] for record in await History(redis).table_rounds(table_id, TABLE_ROUNDS_KEPT)}


async def test_players_on_two_processes_play_one_table_together(cluster: StartCluster, redis: Redis) -> None:
    processes = await cluster(2)
    result = await run_bots(bots_config(processes))
    assert result.completed_tables == 1, result.summary()
    assert result.stats.rounds >= 2
    owner = await owner_process(redis, result.table_ids[0], processes)
    other = next(p for p in processes if p is not owner)
    owner_metrics, other_metrics = await metrics_of(owner), await metrics_of(other)
    assert owner_metrics["paigow_leases_held"] == 1.0
    assert other_metrics["paigow_leases_held"] == 0.0
    assert other_metrics["paigow_router_forwarded_total"] > 0, "the other process's bots went through Redis"
    assert owner_metrics["paigow_router_served_total"] == other_metrics["paigow_router_forwarded_total"]
    await assert_money_and_ledger_intact(redis, result)


async def metrics_of(process: ServerProcess) -> dict[str, float]:
    async with httpx.AsyncClient() as client:
        text = (await client.get(process.url + "/metrics")).text
    return {name: float(value) for name, _, value in
            (line.partition(" ") for line in text.splitlines() if line and not line.startswith("#"))}


@pytest.mark.failover
async def test_killing_the_owner_mid_round_lets_another_process_finish_the_round(
        cluster: StartCluster, redis: Redis) -> None:
    processes = await cluster(2)
    run = asyncio.create_task(run_bots(bots_config(processes, rounds=3)))
    table_id, round_id = await wait_for_round_in_play(redis)
    victim = await owner_process(redis, table_id, processes)
    await asyncio.to_thread(victim.kill)  # SIGKILL: no shutdown code, the lease is left to expire
    result = await run
    assert result.completed_tables == 1, result.summary()
    assert round_id in await settled_round_ids(redis, table_id), "the round in progress at the kill settled"
    survivor = next(p for p in processes if p is not victim)
    assert await owner_process(redis, table_id, processes) is survivor
    await assert_money_and_ledger_intact(redis, result)


@pytest.mark.failover
async def test_a_stale_owner_that_wakes_up_cannot_write(cluster: StartCluster, redis: Redis) -> None:
    processes = await cluster(2)
    run = asyncio.create_task(run_bots(bots_config(processes, rounds=3)))
    table_id, _ = await wait_for_round_in_play(redis)
    stale = await owner_process(redis, table_id, processes)
    assert stale.pid is not None
    token_before = int(await redis.get(keys.table_fence(table_id)) or 0)
    os.kill(stale.pid, signal.SIGSTOP)  # frozen: no renewals, no answers, sockets open
    try:
        loop = asyncio.get_running_loop()
        give_up = loop.time() + 40
        while int(await redis.get(keys.table_fence(table_id)) or 0) == token_before:
            assert loop.time() < give_up, "nobody took the frozen owner's table over"
            await asyncio.sleep(0.05)
    finally:
        os.kill(stale.pid, signal.SIGCONT)
    result = await run
    assert result.completed_tables == 1, result.summary()
    survivor = next(p for p in processes if p is not stale)
    assert await owner_process(redis, table_id, processes) is survivor, "the woken one did not take it back"
    for _ in range(100):  # its renewal loop runs within ttl/3 of waking, unless a write was fenced first
        if "lease lost" in stale.output() or "fenced write" in stale.output():
            break
        await asyncio.sleep(0.05)
    else:
        raise AssertionError(f"the woken process never noticed it lost the lease:\n{stale.output()}")
    await assert_money_and_ledger_intact(redis, result)


async def test_a_graceful_stop_releases_the_leases_at_once(cluster: StartCluster, redis: Redis) -> None:
    [process] = await cluster(1)
    result = await run_bots(bots_config([process], players_per_table=2, spectators=0, rounds=1))
    assert result.completed_tables == 1, result.summary()
    table_id = result.table_ids[0]
    assert await owner_process(redis, table_id, [process]) is process
    assert await asyncio.to_thread(process.terminate) == 0
    assert await redis.get(keys.table_lease(table_id)) is None, "released at shutdown, not left to expire"


@pytest.mark.failover
async def test_the_timer_of_an_idle_table_is_taken_over_when_its_owner_dies(
        cluster: StartCluster, redis: Redis) -> None:
    """Nobody sends a command after the kill: only the survivor's timers can move the table on, once the
    dead owner's lease has expired (5 s) and its next rescan of the deadline index (every second) sees it."""
    owner, survivor = await cluster(2)
    headers = {"Authorization": f"Bearer {owner.operator_token}"}
    async with httpx.AsyncClient(base_url=owner.url) as http:
        opened = await http.post("/api/operator/tables", headers=headers, json={
            "name": "Idle", "timers": {"bank_offer_ms": 1_500, "betting_ms": 1_500, "between_rounds_ms": 0}})
        table_id = opened.json()["table_id"]
        tokens = [(await http.post("/api/session", json={"display_name": name})).json()["token"]
                  for name in ("Ann", "Bob")]
    players = [await WsClient.connect(owner.ws_url, table_id, token) for token in tokens]
    for seat, player in enumerate(players, start=1):
        assert (await player.command("sit", seat=seat, buy_in_cents=10_000))["type"] == "accepted"
    table_id, _ = await wait_for_round_in_play(redis)
    assert await owner_process(redis, table_id, [owner, survivor]) is owner
    repo = TableRepo(redis)
    await asyncio.to_thread(owner.kill)
    loop = asyncio.get_running_loop()
    killed_at = loop.time()
    at_kill = await repo.load(table_id)
    assert at_kill is not None
    assert at_kill.phase in IN_PLAY, "a deadline (bank offer or bets, 1.5 s) is pending at the kill"
    state = at_kill
    while loop.time() - killed_at < 15.0 and state.version == at_kill.version:
        await asyncio.sleep(0.05)
        loaded = await repo.load(table_id)
        assert loaded is not None
        state = loaded
    assert state.version > at_kill.version, f"the {at_kill.phase.value} deadline was never run"
    took = loop.time() - killed_at
    assert took < 9.0, f"the survivor ran the idle table's timer {took:.1f} s after the kill"
    assert await owner_process(redis, table_id, [owner, survivor]) is survivor


async def _bet(client: WsClient, amount: int, within_s: float = 15.0) -> dict[str, object]:
    """``place_bet`` as soon as the table takes bets: the answer (accepted, or a refusal other than the
    phase's)."""
    loop = asyncio.get_running_loop()
    give_up = loop.time() + within_s
    while True:
        answer = await client.command("place_bet", amount_cents=amount)
        if answer["type"] == "accepted" or answer.get("code") != "WRONG_PHASE" or loop.time() > give_up:
            return answer
        await asyncio.sleep(0.05)


async def test_a_limit_counts_two_tables_driven_by_two_processes(cluster: StartCluster, redis: Redis) -> None:
    """docs/responsible-play.md "Limits": a wager limit set through one process counts the money at risk
    at a table driven by the other process; the refused bet changes nothing."""
    processes = await cluster(2)
    repo = TableRepo(redis)
    table_ids = []
    for name in ("A", "B"):
        table_id = await repo.next_id()
        assert await repo.create(new_table(table_id, name, HouseRules(player_banking=False), Timers()))
        table_ids.append(table_id)
    async with httpx.AsyncClient(base_url=processes[0].url) as http:
        session = (await http.post("/api/session", json={"display_name": "Limited"})).json()
    token, player_id = session["token"], session["player_id"]
    async with httpx.AsyncClient(base_url=processes[1].url) as http:
        put = await http.put("/api/account/responsible-play", headers={"Authorization": f"Bearer {token}"},
                             json={"limits": {"wager_day": 3_000}})
    assert put.status_code == 200, put.text
    assert put.json()["limits"]["wager_day"] == 3_000
    clients = [await WsClient.connect(p.ws_url, t, token) for p, t in zip(processes, table_ids, strict=True)]
    try:
        for client in clients:
            assert (await client.command("sit", seat=1, buy_in_cents=10_000))["type"] == "accepted"
        assert (await _bet(clients[0], 2_000))["type"] == "accepted"
        owners = {await owner_process(redis, t, processes) for t in table_ids}
        assert len(owners) == 2, "each table is driven by its own process"
        before = (await redis.hgetall(keys.table(table_ids[1])), await redis.xlen(keys.LEDGER),
                  await redis.hget(keys.player(player_id), "balance"))
        refused = await _bet(clients[1], 1_500)
        assert (refused["type"], refused["code"], refused["limit_cents"], refused["amount_cents"]) == (
            "error", "WAGER_LIMIT_REACHED", 3_000, 3_500)
        assert (await redis.hgetall(keys.table(table_ids[1])), await redis.xlen(keys.LEDGER),
                await redis.hget(keys.player(player_id), "balance")) == before
        assert (await _bet(clients[1], 1_000))["type"] == "accepted"
    finally:
        for client in clients:
            await client.close()


async def _player(process: ServerProcess, name: str) -> tuple[str, str]:
    async with httpx.AsyncClient(base_url=process.url) as http:
        session = (await http.post("/api/session", json={"display_name": name})).json()
    return session["token"], session["player_id"]


async def _tables(redis: Redis, count: int) -> list[str]:
    repo = TableRepo(redis)
    table_ids = []
    for n in range(count):
        table_id = await repo.next_id()
        assert await repo.create(new_table(table_id, f"T{n}", HouseRules(player_banking=False), Timers()))
        table_ids.append(table_id)
    return table_ids


async def test_a_first_limit_set_through_one_process_is_in_force_on_the_other_at_once(
        cluster: StartCluster, redis: Redis) -> None:
    """docs/responsible-play.md "Limits": the table's process has just read that the player has no limit
    (her bet); a first limit set through the other process is in force for her next bet there, sent the
    moment the answer came (no 2 s of "no limit" remembered)."""
    processes = await cluster(2)
    [table_id] = await _tables(redis, 1)
    token, _ = await _player(processes[0], "Limited")
    other_token, _ = await _player(processes[0], "Other")  # seated, never bets: the round waits for him
    clients = [await WsClient.connect(processes[0].ws_url, table_id, t) for t in (token, other_token)]
    try:
        for seat, client in enumerate(clients, start=1):
            assert (await client.command("sit", seat=seat, buy_in_cents=10_000))["type"] == "accepted"
        assert (await _bet(clients[0], 1_000))["type"] == "accepted"
        owner = await owner_process(redis, table_id, processes)
        elsewhere = next(p for p in processes if p is not owner)
        async with httpx.AsyncClient(base_url=elsewhere.url) as http:
            put = await http.put("/api/account/responsible-play", json={"limits": {"wager_day": 1_500}},
                                 headers={"Authorization": f"Bearer {token}"})
        assert put.status_code == 200, put.text
        refused = await clients[0].command("place_bet", amount_cents=2_000)
        assert (refused["type"], refused.get("code"), refused.get("limit_cents")) == (
            "error", "WAGER_LIMIT_REACHED", 1_500)
        assert (await clients[0].command("place_bet", amount_cents=1_500))["type"] == "accepted"
    finally:
        for client in clients:
            await client.close()


async def test_a_round_settled_on_one_process_reaches_the_session_strip_on_the_other(
        cluster: StartCluster, redis: Redis) -> None:
    """docs/protocol.md "Play session messages": her connection on one process is at table A, where she
    only sits; she plays a round at table B through the other process. A's connection gets
    ``play_session`` with that round's wager (pushed from the settle, not from A's table moving)."""
    processes = await cluster(2)
    table_a, table_b = await _tables(redis, 2)
    token, _ = await _player(processes[0], "Strip")
    here = await WsClient.connect(processes[0].ws_url, table_a, token)
    there = await WsClient.connect(processes[1].ws_url, table_b, token)
    try:
        assert (await here.command("sit", seat=1, buy_in_cents=10_000))["type"] == "accepted"
        assert (await there.command("sit", seat=1, buy_in_cents=10_000))["type"] == "accepted"
        assert (await _bet(there, 1_000))["type"] == "accepted"  # alone: the bet deals
        loop = asyncio.get_running_loop()
        give_up = loop.time() + 15.0
        while True:  # the hand is dealt, then set by the House Way: the round settles
            answer = await there.command("use_house_way")
            if answer["type"] == "accepted" or loop.time() > give_up:
                break
            await asyncio.sleep(0.05)
        assert answer["type"] == "accepted", answer
        while True:
            message = await here.receive(timeout_s=max(give_up - loop.time(), 0.1))
            if message["type"] == "play_session" and message["wagered_cents"] == 1_000:
                break
        assert message["started_ms"] is not None
    finally:
        await here.close()
        await there.close()
