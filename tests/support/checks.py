"""What the multi-process tests check after a run, importable by every test that plays through real
processes (``tests/server/realtime/test_multiprocess.py``, ``store/test_sentinel_failover.py``): the
money and the ledger agree, no round settled twice; and helpers that wait for a round in play (the moment
to strike) and for play to resume after a fault.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections import Counter
from collections.abc import Callable
from typing import cast

from redis.asyncio import Redis
from redis.exceptions import RedisError

from paigow.table.state import Phase
from paigow_server.bots.run import RunResult
from paigow_server.store import keys
from paigow_server.store.ledger import Ledger
from paigow_server.store.tables import TableRepo

__all__ = ["IN_PLAY", "assert_money_and_ledger_intact", "assert_rounds_settled_once", "outboxes_delivered",
           "play_resumed", "table_versions", "wait_for_round_in_play"]

IN_PLAY = (Phase.BANK_OFFER, Phase.BETTING, Phase.SETTING)


async def outboxes_delivered(redis: Redis, within: float = 15.0) -> None:
    """Wait until every table's outbox is empty: a commit's consequences reach the balances, ledger and
    history right after it, or, where a process died or Redis failed over in between, with the next
    sweep (every 5 s, ``realtime/outbox_sweeper.py``). Reads that fail (a failover) are tried again."""
    repo = TableRepo(redis)
    loop = asyncio.get_running_loop()
    give_up = loop.time() + within
    while True:
        try:
            ids = await repo.list_ids()
            left = {t: n for t in ids if (n := int(await redis.llen(keys.table_outbox(t))))}
        except (RedisError, OSError):
            left = {"?": 1}
        if not left:
            return
        assert loop.time() < give_up, f"outbox entries left behind: {left}"
        await asyncio.sleep(0.1)


async def assert_money_and_ledger_intact(redis: Redis, result: RunResult) -> None:
    """The run's money check passed, nobody saw a hidden card, and once every outbox is delivered
    (``outboxes_delivered``) every balance and the house's result are what the ledger says, no money is
    left in a round or a seat, and the ledger sums to zero."""
    assert result.money_ok, result.money_message
    assert result.stats.hidden_card_leaks == 0
    await outboxes_delivered(redis)
    derived = await Ledger(redis).balances()
    for player_id in cast("set[str]", await redis.smembers(keys.PLAYERS)):
        balance = int(await redis.hget(keys.player(player_id), "balance") or 0)
        assert derived.get(f"player:{player_id}", 0) == balance, f"ledger and balance of {player_id} differ"
    assert derived.get("house", 0) == int(await redis.get(keys.HOUSE_NET) or 0)
    leftovers = {account: cents for account, cents in derived.items()
                 if account.startswith(("round:", "seat:")) and cents != 0}
    assert not leftovers, f"money left in rounds or seats after every bot left: {leftovers}"
    assert sum(derived.values()) == 0


async def assert_rounds_settled_once(redis: Redis) -> int:
    """Every round is in the rounds export at most once, and no ledger entry of a settlement (a stake
    won or lost, a commission) is there twice; the number of settled rounds."""
    entries = cast("list[tuple[str, dict[str, str]]]", await redis.xrange(keys.ROUNDS, "-", "+"))
    records = [json.loads(fields["e"]) for _, fields in entries]
    settled = Counter(r["round"]["round_id"] for r in records if r["status"] == "settled")
    voided = Counter(r["round_id"] for r in records if r["status"] == "voided")
    twice = {round_id: n for round_id, n in (settled + voided).items() if n > 1}
    assert not twice, f"rounds in the export more than once: {twice}"
    assert not set(settled) & set(voided), "a round both settled and voided"
    settlement = Counter((e["round_id"], e.get("player_id"), e["kind"]) for e in await Ledger(redis).entries()
                         if e.get("round_id") is not None and e["kind"] in ("stake_won", "stake_lost",
                                                                              "commission"))
    repeated = {key: n for key, n in settlement.items() if n > 1}
    assert not repeated, f"settlement ledger entries written twice: {repeated}"
    return len(settled)


async def wait_for_round_in_play(redis: Redis, within: float = 30.0) -> tuple[str, str]:
    """(table id, round id) of the first table seen with a round in play (bank offer, bets or setting).
    A read that fails (a Redis failover under way) is tried again."""
    repo = TableRepo(redis)
    loop = asyncio.get_running_loop()
    give_up = loop.time() + within
    while loop.time() < give_up:
        try:
            states = await repo.load_many(await repo.list_ids())
        except (RedisError, OSError):
            states = []
        for state in states:
            if state is not None and state.round is not None and state.phase in IN_PLAY:
                return state.table_id, state.round.round_id
        await asyncio.sleep(0.005)
    raise AssertionError("no table had a round in play")


async def table_versions(redis: Redis) -> dict[str, int | None]:
    """Every table's current version."""
    repo = TableRepo(redis)
    ids = await repo.list_ids()
    return dict(zip(ids, await repo.versions(ids), strict=True))


async def play_resumed(redis: Redis, before: dict[str, int | None], since: float, *,
                       over: Callable[[], bool], within: float = 60.0) -> float:
    """Seconds from ``since`` (``time.monotonic``) until every table has written a version past
    ``before`` (read through a failover: failed reads are tried again), or ``over()`` says the play is
    done anyway."""
    loop = asyncio.get_running_loop()
    give_up = loop.time() + within
    while True:
        try:
            now = await table_versions(redis)
            if over() or all(b is not None and (now.get(t) or 0) > b for t, b in before.items()):
                return time.monotonic() - since
        except (RedisError, OSError):
            pass
        assert loop.time() < give_up, "play did not resume after the failover"
        await asyncio.sleep(0.02)
