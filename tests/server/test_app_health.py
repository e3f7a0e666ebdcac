from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from redis.asyncio import Redis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff

from paigow.table.commands import Sit
from paigow.table.rejections import Rejection
from paigow_server.app import create_app
from paigow_server.process.settings import Settings
from support.harness import AppHandle


async def test_healthz_and_readyz(app_client: AppHandle) -> None:
    client = app_client.client
    assert (await client.get("/healthz")).json() == {"status": "ok"}
    ready = await client.get("/readyz")
    assert ready.status_code == 200
    assert ready.json() == {"status": "ready"}


async def test_readyz_and_the_api_answer_503_when_redis_is_unreachable(
        settings: Settings, redis: Redis) -> None:
    dead = Redis(host="127.0.0.1", port=1, decode_responses=True, socket_connect_timeout=0.2,
                 retry=Retry(NoBackoff(), 0))
    app = create_app(settings, redis=dead)
    # the lifespan waits for Redis; enter the app without it to probe the readiness check alone
    from paigow_server.app import build
    from paigow_server.process.metrics import Metrics

    app.state.ctx = build(settings, dead, Metrics()).ctx
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://localhost") as client:
        assert (await client.get("/healthz")).status_code == 200
        response = await client.get("/readyz")
        assert response.status_code == 503
        assert response.json()["status"] == "unavailable"
        tables = await client.get("/api/tables")
        assert tables.status_code == 503
        assert tables.json()["error"] == "UNAVAILABLE"
        metrics = (await client.get("/metrics")).text
    assert 'paigow_redis_errors_total{operation="ping"} 1.0' in metrics
    assert 'paigow_redis_errors_total{operation="http"} 1.0' in metrics
    await dead.aclose()


async def test_metrics_are_prometheus_text(app_client: AppHandle) -> None:
    client = app_client.client
    response = await client.get("/metrics")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    for name in ("paigow_connections", "paigow_tables", "paigow_commands_total",
                 "paigow_command_to_push_seconds_bucket", "paigow_redis_errors_total"):
        assert f"# TYPE {name.removesuffix('_total').removesuffix('_bucket')}" in response.text


async def test_static_files_are_served_at_the_root(settings: Settings, redis: Redis, tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text("<!doctype html><title>table</title>")
    (tmp_path / "app.js").write_text("export const x = 1;")
    app = create_app(settings, redis=redis, static_dir=tmp_path)
    async with app.router.lifespan_context(app), httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url="http://localhost") as client:
        index = await client.get("/")
        assert index.status_code == 200
        assert "<title>table</title>" in index.text
        assert "javascript" in (await client.get("/app.js")).headers["content-type"]
        assert (await client.get("/missing.js")).status_code == 404


async def test_metrics_count_tables_and_commands_by_type_and_result(app_client: AppHandle) -> None:
    client = app_client.client
    table_id = (await client.post("/api/operator/tables", json={"name": "Main"},
                                  headers=app_client.operator_headers)).json()["table_id"]
    player_id = (await client.post("/api/session", json={"display_name": "Ann"})).json()["player_id"]
    service = app_client.app.state.realtime.service
    await service.execute(table_id, Sit(player_id, "Ann", 1, 5_000))
    with pytest.raises(Rejection):
        await service.execute(table_id, Sit(player_id, "Ann", 2, 5_000))
    text = (await client.get("/metrics")).text
    assert "paigow_tables 1.0" in text
    assert 'paigow_commands_total{result="accepted",type="sit"} 1.0' in text
    assert 'paigow_commands_total{result="ALREADY_SEATED",type="sit"} 1.0' in text


async def test_the_browser_client_is_served_at_the_root(app_client: AppHandle) -> None:
    index = await app_client.client.get("/")
    assert index.status_code == 200
    assert index.headers["content-type"].startswith("text/html")
    assert "<html" in index.text.lower()
