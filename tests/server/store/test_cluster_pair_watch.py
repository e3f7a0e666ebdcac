"""The second looks on a Redis Cluster (three primaries on loopback): the settling commit's ``look`` effects
ride its outbox entry from the table's slot to ``{global}`` (``pair_watch`` through ``seating_effects``),
so the pair's figures there are exactly the sums of the rounds' own, and the reader flags the dumper."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from redis.crc import key_slot

from paigow_server.process.redis_client import redis_from_url
from paigow_server.store import keys
from paigow_server.store.networks import NetworkSightings
from paigow_server.store.pair_watch import buckets_at, window_sums
from paigow_server.store.second_looks import SecondLooks
from paigow_server.store.tables import TableRepo
from support.cluster import ClusterTopology
from support.pair_rounds import banked_table, pair_sums, play_banked_round

pytestmark = pytest.mark.failover


async def test_the_second_looks_figures_go_through_the_outbox_of_a_cluster(tmp_path: Path) -> None:
    topology = ClusterTopology(tmp_path / "redis")
    await asyncio.to_thread(topology.start)
    redis = redis_from_url(topology.url, decode_responses=True)
    try:
        repo = TableRepo(redis)
        assert not repo.direct
        table, (bank, dump, fair) = await banked_table(repo, redis, "t_cluster_looks")
        pair_slot = key_slot(keys.floor_pair(bank, dump).encode())
        assert key_slot(keys.table("t_cluster_looks").encode()) != pair_slot
        records = [await play_banked_round(table, bank, {dump: 10_000, fair: 500}, fouling=frozenset({dump}))
                   for _ in range(20)]
        assert await repo.outbox.pending("t_cluster_looks") == []
        fields = await redis.hgetall(keys.floor_pair(bank, dump))
        assert window_sums(fields, "30d", buckets_at(table.now_ms), 6) == pair_sums(records, bank, dump)
        looks = SecondLooks(redis)
        assert [(p.banker_id, p.player_id) for p in await looks.pairs("30d", table.now_ms, limit=5)] == [
            (bank, dump)]
        assert [(f.player_id, f.banker_id) for f in await looks.fouls("30d", table.now_ms, limit=5)] == [
            (dump, bank)]
        sightings = NetworkSightings(redis)  # its script and reads stay in {global} too
        for player in (bank, dump):
            await sightings.seen("198.51.100.0/24", "t_cluster_looks", player, table.now_ms)
        [shared] = await sightings.shared(table.now_ms - 3_600_000, limit=5)
        assert (shared.players, shared.tables) == (tuple(sorted((bank, dump))), ("t_cluster_looks",))
        assert shared.round_refs, "their histories hold rounds they played together"
    finally:
        await redis.aclose()
        await asyncio.to_thread(topology.stop)
