"""Each process's spectator counts in Redis: every other live process's are read without scanning the
keyspace, a process that stops takes its counts away, one that dies loses them when they expire."""

from __future__ import annotations

import asyncio
from typing import Any

from redis.asyncio import Redis

from paigow_server.store import keys
from paigow_server.store.spectator_counts import SpectatorCountStore
from support.monitor import sent_commands


async def _scans(redis: Redis) -> int:
    stats: dict[str, Any] = await redis.info("commandstats")
    return int(stats.get("cmdstat_scan", {}).get("calls", 0))


async def test_the_other_processes_counts_are_read_without_a_scan(redis: Redis) -> None:
    a, b, c = (SpectatorCountStore(redis, owner) for owner in ("proc-a", "proc-b", "proc-c"))
    for i in range(300):  # a keyspace with more in it than the counts
        await redis.set(f"paigow:other:{i}", "x")
    scans = await _scans(redis)
    await a.put({"t1": 2}, 60_000)
    await b.put({"t1": 3, "t2": 1, "t3": 0}, 60_000)
    await c.put({}, 60_000)  # none: not a counter
    assert dict(await a.others()) == {"t1": 3, "t2": 1}
    assert dict(await b.others()) == {"t1": 2}
    assert dict(await c.others()) == {"t1": 5, "t2": 1}
    assert await _scans(redis) == scans
    await b.clear()
    assert dict(await a.others()) == {}
    assert await redis.zrange(keys.SPECTATOR_COUNTERS, 0, -1) == ["proc-a"]


async def test_a_dead_process_counts_go_when_they_expire(redis: Redis) -> None:
    alive, dead = SpectatorCountStore(redis, "proc-alive"), SpectatorCountStore(redis, "proc-dead")
    await dead.put({"t1": 4}, 50)
    assert dict(await alive.others()) == {"t1": 4}
    await asyncio.sleep(0.1)
    assert dict(await alive.others()) == {}
    assert await redis.zrange(keys.SPECTATOR_COUNTERS, 0, -1) == []  # forgotten by the reader


async def test_a_put_is_one_command(redis: Redis) -> None:
    """A process puts its counts every second: one script call, not a transaction of six commands."""
    store = SpectatorCountStore(redis, "proc-one")
    await store.put({"t1": 1}, 60_000)  # the script loaded

    async def work() -> None:
        await store.put({"t1": 2, "t2": 0, "t3": 5}, 60_000)
        await store.put({}, 60_000)

    assert await sent_commands(redis, work) == ["EVALSHA", "EVALSHA"]
    assert await redis.hgetall(keys.spectators("proc-one")) == {}
    assert await redis.zrange(keys.SPECTATOR_COUNTERS, 0, -1) == []
    await store.put({"t1": 2, "t2": 0, "t3": 5}, 60_000)
    assert await redis.hgetall(keys.spectators("proc-one")) == {"t1": "2", "t3": "5"}
    assert 0 < await redis.pttl(keys.spectators("proc-one")) <= 60_000
