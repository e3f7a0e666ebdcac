"""Shared fixtures: a private Redis for the session, a clean client per test, the app in-process (ASGI and
real uvicorn on a free port), and a ``paigow serve`` subprocess that can be SIGKILLed and restarted."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import os
import re
import signal
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
import websockets
from redis.asyncio import Redis

from paigow.protocol.patch import apply_patch
from paigow.protocol.server import decode_server_message
from paigow.protocol.version import PROTOCOL_VERSION
from paigow.rules.house_rules import HouseRules
from paigow.table.state import Timers, new_table
from paigow_server.app import create_app
from paigow_server.process.embedded_redis import EmbeddedRedis, free_port
from paigow_server.process.settings import Settings
from paigow_server.store import keys
from paigow_server.store.tables import TableRepo
from paigow_server.web.ws_protocol import WebSocketProtocol
from support.harness import AppHandle, LiveServer, ServerProcess

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
                    starting_balance_cents=100_000, log_format="plain")


@pytest.fixture
async def app_client(settings: Settings, redis: Redis) -> AsyncIterator[AppHandle]:
    """The app with its lifespan running, driven through ASGI (no socket) by an httpx client."""
    app = create_app(settings, redis=redis)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://localhost") as client:
            yield AppHandle(app, client, {"Authorization": f"Bearer {settings.operator_token}"})


class _InProcessServer(uvicorn.Server):
    """Leaves the test runner's signal handlers alone."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


def _tasks_now() -> str:
    """Every task of this loop but the current one, each with where it waits."""
    current = asyncio.current_task()
    lines = []
    for other in asyncio.all_tasks():
        if other is not current:
            frames = other.get_stack(limit=3)
            where = " <- ".join(f"{f.f_code.co_filename}:{f.f_lineno} {f.f_code.co_name}" for f in frames)
            lines.append(f"{other.get_name()}: {where}")
    return "\n".join(lines)


@contextlib.asynccontextmanager
async def _serving(settings: Settings, redis: Redis) -> AsyncIterator[LiveServer]:
    """A real uvicorn (websockets) serving a new app on a free port, in this test's event loop."""
    port = free_port()
    app = create_app(settings, redis=redis)
    config = uvicorn.Config(app, host="127.0.0.1", port=port, ws=WebSocketProtocol, lifespan="on",
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
        done, _ = await asyncio.wait([task], timeout=30)  # a loaded machine can take a while to close
        if not done:
            raise RuntimeError("uvicorn did not stop in 30 s; what is still running:\n" + _tasks_now())
        with contextlib.suppress(asyncio.CancelledError):
            await task


@pytest.fixture
async def live_server(settings: Settings, redis: Redis) -> AsyncIterator[LiveServer]:
    """A real uvicorn (websockets) serving the app on a free port, in this test's event loop."""
    async with _serving(settings, redis) as live:
        yield live


@pytest.fixture
async def other_ws_url(settings: Settings, redis: Redis, live_server: LiveServer) -> AsyncIterator[str]:
    """A second app on its own port, on the same Redis as ``live_server`` (another server process, as far
    as the tables know): its ws:// base URL."""
    async with _serving(settings, redis) as other:
        yield other.ws_url


@pytest.fixture
def server_process(redis_url: str, redis: Redis, tmp_path: Path) -> Iterator[ServerProcess]:
    """A ``paigow serve --redis-url <the private Redis>`` subprocess (not yet started) that a test can
    start, SIGKILL and restart on the same Redis; it is killed at the end of the test."""
    process = ServerProcess(data_dir=tmp_path / "server", redis_url=redis_url, operator_token=OPERATOR_TOKEN)
    yield process
    process.kill()


# ======================================================================================================
# protocol-ws: players, tables and WebSocket clients against ``live_server`` (the real app). Every frame a
# client receives is checked for cards its viewer may not see.
# ======================================================================================================

FAST_TIMERS = Timers(bank_offer_ms=2_000, betting_ms=400, setting_ms=3_000, between_rounds_ms=150,
                     reconnect_grace_ms=400)
"""Short timers so whole rounds play in well under a second."""


@dataclasses.dataclass
class Tables:
    """Players (real sessions through the HTTP API) and tables (written straight to the server's Redis)."""

    live: LiveServer
    redis: Redis
    repo: TableRepo

    async def player(self, name: str) -> tuple[str, str]:
        """A new session: (player_id, token)."""
        async with httpx.AsyncClient(base_url=self.live.url) as client:
            response = await client.post("/api/session", json={"display_name": name})
        assert response.status_code == 201, response.text
        body = response.json()
        return body["player_id"], body["token"]

    async def balance(self, player_id: str) -> int:
        return int(await self.redis.hget(keys.player(player_id), "balance") or -1)

    async def table(self, *, timers: Timers = FAST_TIMERS, rules: HouseRules | None = None) -> str:
        table_id = await self.repo.next_id()
        assert await self.repo.create(new_table(table_id, f"Table {table_id}", rules or HouseRules(), timers))
        return table_id

    def url(self, table_id: str) -> str:
        return f"{self.live.ws_url}/ws/tables/{table_id}"


@pytest.fixture
async def tables(live_server: LiveServer, redis: Redis) -> Tables:
    return Tables(live_server, redis, TableRepo(redis))


_CARD = re.compile(r"^(?:[2-9TJQKA][cdhs]|JK)$")
_PUBLIC_EVENT_KINDS = ("round_settled", "round_voided")


def _cards_in(value: Any, out: set[str]) -> None:
    """Every card text anywhere in a JSON value, except inside the public round records of the
    ``round_settled`` (and ``round_voided``) events: a view holds none."""
    if isinstance(value, dict):
        if value.get("kind") in _PUBLIC_EVENT_KINDS:
            return
        for item in value.values():
            _cards_in(item, out)
    elif isinstance(value, list):
        for item in value:
            _cards_in(item, out)
    elif isinstance(value, str) and _CARD.match(value):
        out.add(value)


def _bonus_results_in(value: Any, out: list[Any]) -> None:
    """Every Fortune result (a hand's ``fortune`` category, ``bonus_win_cents``, ``envy``) anywhere in a JSON
    value, except inside the public round records of ``round_settled`` events: before the settlement no
    frame says what category a hand holds (the view's ``fortune`` is the pay table, an object)."""
    if isinstance(value, dict):
        if value.get("kind") in _PUBLIC_EVENT_KINDS:
            return
        for key, item in value.items():
            if key in ("bonus_win_cents", "envy") or (key == "fortune" and isinstance(item, str)):
                out.append({key: item})
            _bonus_results_in(item, out)
    elif isinstance(value, list):
        for item in value:
            _bonus_results_in(item, out)


class TableClient:
    """A ``websockets`` client of one table. Every frame it receives is kept in ``frames`` and checked at
    once: it is a valid server message; no card but the viewer's own appears outside settled-round
    records; no round seed before the reveal; versions follow each other. ``view`` is the viewer's view of
    ``version``: the last snapshot with every patch since applied."""

    def __init__(self, ws: Any, player_id: str | None) -> None:
        self.ws = ws
        self.player_id = player_id
        self.frames: list[dict[str, Any]] = []
        self.view: dict[str, Any] | None = None
        self.version: int | None = None
        self.events: list[dict[str, Any]] = []
        self.own_cards: set[str] = set()
        self._next_id = 0

    async def send(self, message: dict[str, Any] | str) -> None:
        await self.ws.send(message if isinstance(message, str) else json.dumps(message))

    async def recv(self, within: float = 5.0) -> dict[str, Any]:
        text = await asyncio.wait_for(self.ws.recv(), within)
        decode_server_message(text)  # a valid message of the closed server set, or a ValidationError
        frame = json.loads(text)
        self._check(frame)
        self.frames.append(frame)
        return frame

    def _check(self, frame: dict[str, Any]) -> None:
        kind = frame["type"]
        if kind not in ("snapshot", "patch"):
            return
        if kind == "patch":
            assert self.version is not None, f"a patch before any snapshot: {frame}"
            assert frame["since"] == self.version, f"version gap: at {self.version}, got {frame}"
            assert self.view is not None, f"a patch with no view to apply it to: {frame}"
            view = apply_patch(self.view, frame["patch"])
            assert view["version"] == frame["version"], f"the patched view is not of version {frame}"
        else:
            view = frame["view"]
        rnd = view["round"]
        if rnd is not None:
            for hand in rnd["hands"]:
                if hand["player_id"] == self.player_id and self.player_id is not None:
                    self.own_cards |= set(hand["cards"])
        you = view.get("you")
        if you is not None and you.get("dragon") is not None:  # a Dragon its buyer sets (rules.md §4b)
            self.own_cards |= set(you["dragon"]["cards"])
        for event in frame.get("events", []):
            if event["kind"] == "hands_dealt":
                for hand in event["hands"]:
                    if hand["player_id"] == self.player_id and self.player_id is not None:
                        self.own_cards |= set(hand["cards"])
            if (event["kind"] == "dragon_dealt" and event["player_id"] == self.player_id
                    and event["shown_to_buyer"]):
                self.own_cards |= set(event["cards"])
            mine = event.get("player_id") == self.player_id and event.get("shown_to_buyer")
            if event["kind"] in ("dragon_dealt", "dragon_set") and not mine:
                assert not event.get("cards"), f"a Dragon's cards leaked: {event}"
                assert not event.get("high"), f"a Dragon's cards leaked: {event}"
            if event["kind"] == "round_started":
                assert event["server_seed"] is None, f"round seed sent before the reveal: {event}"
            if event["kind"] == "hand_set" and (self.player_id is None
                                                or event["player_id"] != self.player_id):
                told = (event["set_by"], event.get("house_way_clause"))
                assert told == ("hidden", None), (
                    f"how another seat's hand was set (or its House Way clause) reached "
                    f"{self.player_id or 'a spectator'}: {event}")
        results: list[Any] = []
        _bonus_results_in(frame, results)
        assert not results, f"a Fortune result outside a settled round's record: {results} in {frame}"
        seen: set[str] = set()
        _cards_in(frame, seen)
        assert seen <= self.own_cards, (
            f"viewer {self.player_id or 'spectator'} received cards {sorted(seen - self.own_cards)} "
            f"that are not theirs: {frame}")
        self.version = frame["version"]
        self.view = view
        self.events.extend(frame.get("events", []))

    async def hello(self, token: str | None = None, *, last_version: int | None = None,
                    view: dict[str, Any] | None = None, spectate: bool = False) -> dict[str, Any]:
        """Say hello; a resume says ``last_version`` and brings the ``view`` it had of that version."""
        message: dict[str, Any] = {"type": "hello", "protocol": PROTOCOL_VERSION}
        if token is not None:
            message["token"] = token
        if last_version is not None:
            message["last_version"] = last_version
            self.version = last_version
            self.view = view
        if spectate:
            message["spectate"] = True
        await self.send(message)
        return await self.recv()

    async def hello_as_operator(self, operator_token: str) -> dict[str, Any]:
        await self.send({"type": "hello", "protocol": PROTOCOL_VERSION, "operator_token": operator_token})
        return await self.recv()

    async def command(self, message: dict[str, Any], within: float = 5.0) -> dict[str, Any]:
        """Send a command and return its answer (``accepted`` or ``error``), reading pushes meanwhile."""
        self._next_id += 1
        command_id = f"c{self._next_id}"
        await self.send({**message, "id": command_id})
        return await self.until(lambda f: f["type"] in ("accepted", "error") and f.get("id") == command_id,
                                within)

    async def until(self, done: Callable[[dict[str, Any]], bool], within: float = 5.0) -> dict[str, Any]:
        """Read frames until one satisfies ``done`` (that frame is returned)."""
        loop = asyncio.get_running_loop()
        give_up = loop.time() + within
        while True:
            frame = await self.recv(max(0.01, give_up - loop.time()))
            if done(frame):
                return frame

    async def until_view(self, done: Callable[[dict[str, Any]], bool],
                         within: float = 5.0) -> dict[str, Any]:
        """Read until the current view satisfies ``done`` (returns at once if it already does)."""
        if self.view is not None and done(self.view):
            return self.view
        await self.until(lambda f: f["type"] in ("snapshot", "patch") and done(self.view or {}), within)
        assert self.view is not None
        return self.view

    async def until_event(self, match: Callable[[dict[str, Any]], bool],
                          within: float = 5.0) -> dict[str, Any]:
        """The first event received so far that ``match``es, reading more frames until one arrives."""
        seen = len(self.events)
        for event in self.events:
            if match(event):
                return event
        loop = asyncio.get_running_loop()
        give_up = loop.time() + within
        while True:
            await self.recv(max(0.01, give_up - loop.time()))
            for event in self.events[seen:]:
                if match(event):
                    return event
            seen = len(self.events)

    async def drain(self, quiet: float = 0.05) -> None:
        """Read everything that arrives until the connection is quiet for ``quiet`` seconds."""
        with contextlib.suppress(TimeoutError):
            while True:
                await self.recv(quiet)


Connect = Callable[..., contextlib.AbstractAsyncContextManager[TableClient]]


@pytest.fixture
def frame_checker() -> Callable[[str | None], TableClient]:
    """A ``TableClient`` without a socket, to test its frame checks."""
    return lambda player_id: TableClient(None, player_id)


@pytest.fixture
def connect(tables: Tables) -> Connect:
    """``async with connect(table_id, player_id=..., origin=...) as client``: an open WebSocket. Its
    frames queue without bound (``max_queue=None``): a client that a test leaves unread (a spectator
    beside a chat of a hundred messages) still reads the server's closing frame at the end, instead of
    waiting out the close timeout with its socket paused."""

    @contextlib.asynccontextmanager
    async def _connect(table_id: str, *, player_id: str | None = None, origin: str | None = None,
                       **options: Any) -> AsyncIterator[TableClient]:
        headers = {"Origin": origin} if origin is not None else None
        options = {"max_queue": None, **options}
        async with websockets.connect(tables.url(table_id), additional_headers=headers, max_size=None,
                                      **options) as ws:
            yield TableClient(ws, player_id)

    return _connect



# ======================================================================================================
# scale: several ``paigow serve`` processes on the private Redis (multi-process and proxy tests).
# ======================================================================================================

SCALE_OPERATOR_TOKEN = "scale-test-operator-token-0123456789"

StartCluster = Callable[[int], Awaitable[list[ServerProcess]]]


@pytest.fixture
def cluster(redis_url: str, redis: Redis, tmp_path: Path) -> Iterator[StartCluster]:
    """``await cluster(n)``: n ``paigow serve`` processes on the private Redis with the operator token
    ``SCALE_OPERATOR_TOKEN`` (``processes[0].operator_token``), started side by side; all are killed at the
    end of the test (and woken first, should a test have stopped one with SIGSTOP)."""
    started: list[ServerProcess] = []

    async def start(count: int) -> list[ServerProcess]:
        processes = [ServerProcess(data_dir=tmp_path / f"server{len(started) + i}", redis_url=redis_url,
                                   operator_token=SCALE_OPERATOR_TOKEN) for i in range(count)]
        started.extend(processes)
        await asyncio.gather(*(asyncio.to_thread(process.start) for process in processes))
        return processes

    yield start
    for process in started:
        if process.pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(process.pid, signal.SIGCONT)
        process.kill()


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups below
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Run the browser tests last: Playwright's sync API keeps an event loop running for the session,
    which the asyncio tests of every other folder must not meet.

    Under pytest-xdist (``-n 2 --dist loadgroup --no-loadscope-reorder``, pyproject.toml) each worker takes
    the tests in this order, so the same holds on every worker. A browser module runs whole on one worker
    (its module fixtures, its tests in order), and the tests that start a Sentinel or a Cluster or kill
    processes (``failover``) run one after another on one worker: two topologies at once on two cores
    would time each other out."""
    def in_browser(item: pytest.Item) -> bool:
        return "tests/browser/" in item.nodeid.replace("\\", "/")

    items.sort(key=in_browser)
    for item in items:
        if item.get_closest_marker("failover"):
            item.add_marker(pytest.mark.xdist_group("topology"))
        elif in_browser(item):
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::")[0]))
