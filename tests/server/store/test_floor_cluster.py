"""The floor's aggregates on a real Redis Cluster (``support.cluster``): the settling commits of tables in
other hash slots carry their floor effects through their outbox entries to ``{global}``, and
``GET /api/operator/floor`` reads them back there (its buckets, the table list and states: several slots)."""

from __future__ import annotations

import time
from pathlib import Path

import httpx
import pytest
from redis.crc import key_slot

from paigow.ledger.floor_figures import FloorFigures, round_figures
from paigow.table import Timers, new_table
from paigow.table.commands import Sit
from paigow_server.app import create_app
from paigow_server.process.redis_client import redis_from_url
from paigow_server.process.settings import Settings
from paigow_server.store import keys
from paigow_server.store.accounts import Accounts
from paigow_server.store.floor_stats import RESOLUTIONS, FloorStats
from paigow_server.store.tables import CommitResult, TableRepo
from support.cluster import ClusterTopology
from support.tables import TableDriver

pytestmark = pytest.mark.failover

TOKEN = "floor-cluster-operator-token-0123456789"



def _sum(figures: list[FloorFigures]) -> dict[str, int]:
    out: dict[str, int] = {}
    for f in figures:
        for name, value in f.items():
            out[name] = out.get(name, 0) + value
    return out


async def test_the_floor_of_tables_in_other_slots_is_written_and_read_on_a_cluster(
        topology: ClusterTopology, tmp_path: Path) -> None:
    redis = redis_from_url(topology.url, decode_responses=True)
    try:
        repo = TableRepo(redis)
        assert not repo.direct
        accounts = Accounts(redis, starting_balance_cents=100_000)
        players = [(await accounts.create(name)).player_id for name in ("Ann", "Bob", "Cat")]
        ids = ("t_floor_a", "t_floor_b")
        assert key_slot(keys.table(ids[0]).encode()) != key_slot(keys.table(ids[1]).encode())
        now = time.time_ns() // 1_000_000 // 60_000 * 60_000
        per_table: dict[str, list[FloorFigures]] = {}
        for table_id in ids:
            await repo.create(new_table(table_id, f"Table {table_id}", timers=Timers()))
            table = TableDriver(repo, table_id)
            table.now_ms = now
            for seat, player in enumerate(players, start=1):
                assert await table.do(Sit(player, player, seat, 10_000)) is CommitResult.OK
            per_table[table_id] = []
            for _ in range(2):
                settled = await table.play_house_round(dict.fromkeys(players, 500))
                per_table[table_id].append(round_figures(settled.record, seated=3))
            assert await repo.outbox.pending(table_id) == []
        minute = RESOLUTIONS[0]
        start = minute.start(now)
        deployment, first, second = await FloorStats(redis).buckets(minute, [start], [None, *ids])
        assert first == [_sum(per_table[ids[0]])]
        assert second == [_sum(per_table[ids[1]])]
        every = _sum([*per_table[ids[0]], *per_table[ids[1]]])
        assert deployment == [every]

        settings = Settings(redis_url=topology.url, data_dir=tmp_path / "data", operator_token=TOKEN,
                            log_format="plain")
        app = create_app(settings, redis=redis)
        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://localhost") as client:
                response = await client.get("/api/operator/floor", params={"window": "hour"},
                                            headers={"Authorization": f"Bearer {TOKEN}"})
        assert response.status_code == 200, response.text
        body = response.json()
        assert body["totals"]["rounds"] == 4
        assert body["totals"]["handle_cents"] == every["handle"] == 4 * 1_500
        assert body["totals"]["win_cents"] == every.get("win", 0)
        assert sorted(row["table_id"] for row in body["tables"]) == sorted(ids)
        assert body["now"]["tables_open"] >= 2
    finally:
        await redis.aclose()
