"""Shared fixtures: a private Redis for the session, a clean client per test, the app in-process (ASGI and
real uvicorn on a free port), and a ``paigow serve`` subprocess that can be SIGKILLed and restarted."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest
import uvicorn
from redis.asyncio import Redis

from paigow_server.app import create_app
from paigow_server.embedded_redis import EmbeddedRedis, free_port
from paigow_server.settings import Settings
from paigow_server.testing import AppHandle, LiveServer, ServerProcess

OPERATOR_TOKEN = "test-operator-token-0123456789"


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmbeddedRedis]:
    """One private redis-server (never the system one) for the whole test session."""
    server = EmbeddedRedis(tmp_path_factory.mktemp("redis"), appendonly=False)
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def redis_url(redis_server: EmbeddedRedis) -> str:
    return redis_server.url


@pytest.fixture
async def redis(redis_url: str) -> AsyncIterator[Redis]:
    """A client of the private Redis, emptied before the test."""
    client = Redis.from_url(redis_url, decode_responses=True)
    await client.flushall()
    yield client
    await client.aclose()


@pytest.fixture
def settings(redis_url: str, tmp_path: Path) -> Settings:
    return Settings(redis_url=redis_url, data_dir=tmp_path / "data", operator_token=OPERATOR_TOKEN,
                    starting_balance_cents=100_000, log_format="text")


@pytest.fixture
async def app_client(settings: Settings, redis: Redis) -> AsyncIterator[AppHandle]:
    """The app with its lifespan running, driven through ASGI (no socket) by an httpx client."""
    app = create_app(settings, redis=redis)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
            yield AppHandle(app, client, {"Authorization": f"Bearer {settings.operator_token}"})


class _InProcessServer(uvicorn.Server):
    """Leaves the test runner's signal handlers alone."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


@pytest.fixture
async def live_server(settings: Settings, redis: Redis) -> AsyncIterator[LiveServer]:
    """A real uvicorn (websockets) serving the app on a free port, in this test's event loop."""
    port = free_port()
    app = create_app(settings, redis=redis)
    config = uvicorn.Config(app, host="127.0.0.1", port=port, ws="websockets-sansio", lifespan="on",
                            log_config=None, ws_max_size=settings.max_frame_bytes)
    server = _InProcessServer(config)
    task = asyncio.create_task(server.serve())
    try:
        for _ in range(500):
            if server.started or task.done():
                break
            await asyncio.sleep(0.01)
        if not server.started:
            raise RuntimeError("uvicorn did not start")
        yield LiveServer(f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}", settings.operator_token, app)
    finally:
        server.should_exit = True
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait_for(task, 10)


@pytest.fixture
def server_process(redis_url: str, redis: Redis, tmp_path: Path) -> Iterator[ServerProcess]:
    """A ``paigow serve --redis-url <the private Redis>`` subprocess (not yet started) that a test can
    start, SIGKILL and restart on the same Redis; it is killed at the end of the test."""
    process = ServerProcess(data_dir=tmp_path / "server", redis_url=redis_url, operator_token=OPERATOR_TOKEN)
    yield process
    process.kill()
