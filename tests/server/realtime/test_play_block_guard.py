"""``PlayBlockGuard`` and ``PlayBlocks`` on real Redis with an injected clock: a block refuses until exactly
``until_ms`` and then ends by itself; exclusions run by the calendar (UTC); a sit that slipped in before the
block reached this process is stood up by the sweep, once, and idempotently on two processes."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from redis.asyncio import Redis

from paigow.protocol.codes import ErrorCode
from paigow.rules.house_rules import HouseRules
from paigow.table.commands import Sit
from paigow.table.events import PlayerStoodUp, StandUpReason
from paigow.table.state import Timers, new_table
from paigow_server.process.metrics import Metrics
from paigow_server.realtime.play_block_guard import PlayBlocked, PlayBlockGuard
from paigow_server.realtime.tables import TableService
from paigow_server.store import keys
from paigow_server.store.play_blocks import AlreadyBlocked, BlockKind, PlayBlocks, block_end
from paigow_server.store.tables import TableRepo

T0 = 1_790_000_000_000


def ms(text: str) -> int:
    return int(datetime.fromisoformat(text).replace(tzinfo=UTC).timestamp() * 1000)


def test_exclusions_run_by_the_calendar_in_utc() -> None:
    six = block_end(BlockKind.EXCLUSION, "6m", ms("2026-08-31T12:00:00.250"))
    assert six == ms("2027-02-28T12:00:00.250")
    assert block_end(BlockKind.EXCLUSION, "1y", ms("2028-02-29T00:00:00")) == ms("2029-02-28T00:00:00")
    assert block_end(BlockKind.EXCLUSION, "5y", ms("2026-12-06T20:48:00")) == ms("2031-12-06T20:48:00")
    assert block_end(BlockKind.BREAK, "7d", T0) == T0 + 7 * 86_400_000
    with pytest.raises(KeyError):
        block_end(BlockKind.BREAK, "6m", T0)


def _guard(redis: Redis, clock: list[int]) -> tuple[PlayBlockGuard, TableService, TableRepo]:
    repo = TableRepo(redis)
    service = TableService(repo, Metrics(), clock=lambda: clock[0])
    return PlayBlockGuard(PlayBlocks(redis), repo, service), service, repo


async def test_a_break_refuses_until_its_end_and_then_ends_by_itself(redis: Redis) -> None:
    clock = [T0]
    guard, _, _ = _guard(redis, clock)
    block = await guard.blocks.start("p1", BlockKind.BREAK, "24h", T0)
    guard.note("p1", block)
    for at in (T0, T0 + 86_400_000 - 1):
        clock[0] = at
        for fresh in (False, True):
            with pytest.raises(PlayBlocked) as info:
                await guard.check("p1", fresh=fresh)
            assert (info.value.code, info.value.fields) == (ErrorCode.ON_BREAK, {"until_ms": block.until_ms})
    with pytest.raises(AlreadyBlocked):  # not shortened, not replaced by one ending no later
        await guard.blocks.start("p1", BlockKind.BREAK, "24h", T0)
    clock[0] = T0 + 86_400_000
    await guard.check("p1")
    await guard.check("p1", fresh=True)
    assert await guard.blocks.get("p1", clock[0]) is None
    await guard.refresh()
    assert await guard.blocks.blocked(clock[0]) == {}
    again = await guard.blocks.start("p1", BlockKind.EXCLUSION, "6m", clock[0])  # a new one once it ended
    with pytest.raises(PlayBlocked) as info:
        await guard.check("p1", fresh=True)
    assert (info.value.code, info.value.fields) == (ErrorCode.SELF_EXCLUDED, {"until_ms": again.until_ms})


async def test_the_sweep_stands_up_a_sit_that_slipped_in_once_on_two_processes(redis: Redis) -> None:
    clock = [T0]
    first, service, repo = _guard(redis, clock)
    second, _, _ = _guard(redis, clock)
    table_id = await repo.next_id()
    assert await repo.create(new_table(table_id, "T", HouseRules(), Timers()))
    await redis.hset(keys.player("p1"), mapping={"name": "Ann", "balance": 100_000})
    await service.execute(table_id, Sit("p1", "Ann", 2, 10_000))  # a sit the block did not see yet
    await PlayBlocks(redis).start("p1", BlockKind.EXCLUSION, "1y", T0)  # written by another process
    await first.step()
    await second.step()  # the same player: already gone, nothing sent
    state = await repo.load(table_id)
    assert state is not None
    assert state.seat_of("p1") is None
    stood = [e for commit in await repo.event_log(table_id) for e in commit.events
             if isinstance(e, PlayerStoodUp)]
    assert [(e.player_id, e.reason, e.chips_returned_cents) for e in stood] == [
        ("p1", StandUpReason.SELF_EXCLUSION, 10_000)]
    assert int(await redis.hget(keys.player("p1"), "balance") or 0) == 100_000
    assert await first.sweep(["p1"]) == 0
    for guard in (first, second):  # each knew the block from the index only: its kind is read once
        for _ in range(2):
            with pytest.raises(PlayBlocked) as info:
                await guard.check("p1")
            assert info.value.code == ErrorCode.SELF_EXCLUDED

