"""Handles the test fixtures yield (``tests/conftest.py``), importable so tests can name their types."""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
from starlette.applications import Starlette
from websockets.asyncio.client import ClientConnection, connect

from paigow.protocol.version import PROTOCOL_VERSION
from paigow.table.commands import DeclineBank, PlaceBet, Tick, UseHouseWay
from paigow.table.machine import next_deadline
from paigow.table.state import Phase, TableState
from paigow_server.process.embedded_redis import free_port
from paigow_server.realtime.realtime import Realtime
from paigow_server.store import keys

if TYPE_CHECKING:
    import pytest

__all__ = ["LOOPBACK_LIMITS", "AppHandle", "LiveServer", "ServerProcess", "WsClient", "play_house_round",
           "player_ids", "run_cli", "wait_for_phase"]


LOOPBACK_LIMITS = {"PAIGOW_SESSIONS_PER_MINUTE": "1000000", "PAIGOW_SIGN_INS_PER_MINUTE": "1000000",
                   "PAIGOW_GUESTS_PER_MINUTE": "1000000", "PAIGOW_SPECTATORS_PER_ADDRESS": "100000",
                   "PAIGOW_CHAT_PER_ADDRESS_PER_MINUTE": "100000",
                   "PAIGOW_PRACTICE_DEALS_PER_MINUTE": "1000000", "PAIGOW_ROUND_READS_PER_MINUTE": "1000000"}
"""A ``ServerProcess``'s per-address limits unless its ``env`` says otherwise: tests, bots and benchmarks
make all their players from one loopback address (the limits' own tests set them)."""


@dataclass(frozen=True, slots=True)
class AppHandle:
    """The app with its lifespan running, driven through ASGI (no socket)."""

    app: Starlette
    client: httpx.AsyncClient
    operator_headers: dict[str, str]


@dataclass(frozen=True, slots=True)
class LiveServer:
    """A real uvicorn serving the app on a free loopback port."""

    url: str
    """http://127.0.0.1:PORT"""
    ws_url: str
    """ws://127.0.0.1:PORT"""
    operator_token: str
    app: Starlette


class ServerProcess:
    """``paigow serve`` as a child process on a fixed free port, for crash tests: ``start()``, ``kill()``
    (SIGKILL: no shutdown code runs), ``terminate()`` (SIGTERM: graceful), ``restart()``. Output goes to
    ``log_path``; ``start`` waits until ``/healthz`` answers and fails with the log if it never does."""

    def __init__(self, *, data_dir: Path, redis_url: str | None, operator_token: str | None = None,
                 env: Mapping[str, str] | None = None, extra_args: Sequence[str] = (),
                 starter_tables: int | None = 0) -> None:
        """``starter_tables``: passed as ``--starter-tables`` (0: tests open their own tables); ``None``
        leaves ``paigow serve``'s default."""
        self.data_dir = data_dir
        self.starter_tables = starter_tables
        self.redis_url = redis_url
        self.operator_token = operator_token
        self.env = dict(env or {})
        self.extra_args = tuple(extra_args)
        self.port = free_port()
        self.log_path = data_dir / "server.log"
        self._process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int | None:
        return None if self._process is None else self._process.pid

    def command(self) -> list[str]:
        args = [sys.executable, "-m", "paigow_server.cli", "serve", "--host", "127.0.0.1",
                "--port", str(self.port), "--data-dir", str(self.data_dir)]
        if self.redis_url is not None:
            args += ["--redis-url", self.redis_url]
        if self.operator_token is not None:
            args += ["--operator-token", self.operator_token]
        if self.starter_tables is not None:
            args += ["--starter-tables", str(self.starter_tables)]
        return args + list(self.extra_args)

    def start(self, timeout_s: float = 30.0) -> None:
        if self._process is not None:
            raise RuntimeError("the server process is already running")
        self.data_dir.mkdir(parents=True, exist_ok=True)
        env = {k: v for k, v in os.environ.items() if not k.startswith("PAIGOW_")}
        env.update({**LOOPBACK_LIMITS, **self.env})  # the logs in the default format: plain lines
        with self.log_path.open("ab") as log:
            self._process = subprocess.Popen(self.command(), stdin=subprocess.DEVNULL, stdout=log,
                                             stderr=subprocess.STDOUT, env=env)
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                code, self._process = self._process.returncode, None
                raise RuntimeError(f"paigow serve exited with {code}:\n{self.output()}")
            try:
                if httpx.get(self.url + "/healthz", timeout=0.5).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        self.kill()
        raise RuntimeError(f"paigow serve did not answer /healthz in {timeout_s} s:\n{self.output()}")

    def kill(self) -> None:
        """SIGKILL, as a crash would."""
        process, self._process = self._process, None
        if process is not None:
            process.kill()
            process.wait()

    def terminate(self, timeout_s: float = 20.0) -> int:
        """SIGTERM and wait: the exit status of a graceful shutdown."""
        process, self._process = self._process, None
        if process is None:
            raise RuntimeError("the server process is not running")
        process.send_signal(signal.SIGTERM)
        try:
            return process.wait(timeout_s)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
            raise RuntimeError(f"paigow serve ignored SIGTERM for {timeout_s} s:\n{self.output()}") from None

    def restart(self) -> None:
        self.kill()
        self.start()

    def output(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""


async def player_ids(redis: Any) -> set[str]:
    """Every player with a hash in Redis: the players set's, and fresh guests (``store.fresh_guests``),
    which are in no set until they are settled."""
    prefix = keys.player("")
    found = {str(k)[len(prefix):] async for k in redis.scan_iter(match=keys.player("*"), count=1000)}
    return {p for p in found if ":" not in p}


async def wait_for_phase(realtime: Realtime, table_id: str, phase: Phase, *,
                         timeout_s: float = 10.0) -> TableState:
    """Tick the table (through the service, as the timers do) until it reaches ``phase``, declining any
    bank offer; due deadlines only, so the background timers may do some of the ticks themselves."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        state = await realtime.store.load(table_id)
        if state is None:
            raise LookupError(f"no table {table_id!r}")
        if state.phase == phase:
            return state
        if state.phase == Phase.BANK_OFFER and state.round is not None and state.round.offer_player_id:
            await realtime.service.execute(table_id, DeclineBank(state.round.offer_player_id))
            continue
        due = next_deadline(state)
        if due is not None and due <= realtime.service.now_ms():
            await realtime.service.execute(table_id, Tick(realtime.service.now_ms()))
        else:
            await asyncio.sleep(0.01)
    raise TimeoutError(f"table {table_id!r} did not reach {phase} in {timeout_s} s")


async def play_house_round(realtime: Realtime, table_id: str, bets: Mapping[str, int]) -> TableState:
    """One round banked by the house (bank offers declined): every player in ``bets`` bets, then sets by
    the House Way. Returns the state after the settlement. Open the table with a short
    ``between_rounds_ms`` to play several quickly."""
    if not bets:
        raise ValueError("a house round needs at least one bet")
    await wait_for_phase(realtime, table_id, Phase.BETTING)
    for player_id, amount in bets.items():
        await realtime.service.execute(table_id, PlaceBet(player_id, amount))
    await wait_for_phase(realtime, table_id, Phase.SETTING)
    for player_id in bets:
        executed = await realtime.service.execute(table_id, UseHouseWay(player_id))
    return executed.state


class WsClient:
    """One table connection speaking the protocol in JSON, for integration tests. Every message received
    is kept in ``received``; ``command`` sends a command and returns its answer (accepted or error)."""

    def __init__(self, connection: ClientConnection) -> None:
        self.connection = connection
        self.received: list[dict[str, Any]] = []
        self.first: dict[str, Any] = {}
        self._ids = itertools.count(1)

    @classmethod
    async def connect(cls, ws_url: str, table_id: str, token: str | None = None, *,
                      last_version: int | None = None) -> WsClient:
        """Open ``/ws/tables/{table_id}``, say hello, and keep the first answer in ``first``."""
        client = cls(await connect(f"{ws_url}/ws/tables/{table_id}", open_timeout=10))
        hello: dict[str, Any] = {"type": "hello", "protocol": PROTOCOL_VERSION}
        if token is not None:
            hello["token"] = token
        if last_version is not None:
            hello["last_version"] = last_version
        await client.send(hello)
        client.first = await client.receive()
        return client

    async def send(self, message: dict[str, Any]) -> None:
        await self.connection.send(json.dumps(message))

    async def receive(self, timeout_s: float = 10.0) -> dict[str, Any]:
        text = await asyncio.wait_for(self.connection.recv(), timeout_s)
        message: dict[str, Any] = json.loads(text)
        self.received.append(message)
        return message

    async def command(self, kind: str, timeout_s: float = 10.0, **fields: Any) -> dict[str, Any]:
        command_id = f"c{next(self._ids)}"
        await self.send({"type": kind, "id": command_id, **fields})
        while True:
            message = await self.receive(timeout_s)
            if message["type"] in ("accepted", "error") and message.get("id") == command_id:
                return message

    async def close(self) -> None:
        await self.connection.close()


def run_cli(*argv: str) -> int:
    """``paigow ARGV`` in this process: its exit status, argparse's own exits (status 2) included."""
    from paigow_server.cli import main

    try:
        return main(list(argv))
    except SystemExit as exc:
        return int(exc.code or 0)


def run_cli_captured(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``run_cli`` and what it printed (from ``capsys``): ``(status, standard output, standard error)``."""
    code = run_cli(*argv)
    out, err = capsys.readouterr()
    return code, out, err
