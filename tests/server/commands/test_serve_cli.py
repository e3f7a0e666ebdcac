from __future__ import annotations

import asyncio
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from support.harness import ServerProcess, WsClient


def test_serve_answers_health_checks_and_exits_cleanly_on_sigterm(server_process: ServerProcess) -> None:
    server_process.start()
    assert httpx.get(server_process.url + "/healthz").json() == {"status": "ok"}
    assert httpx.get(server_process.url + "/readyz").json() == {"status": "ready"}
    assert server_process.terminate() == 0
    output = server_process.output()
    assert f"serving on {server_process.url}" in output
    assert "operator token" not in output  # it was given, so it is not printed


def test_bad_settings_stop_the_start_with_a_clear_message() -> None:
    result = subprocess.run([sys.executable, "-m", "paigow_server.cli", "serve", "--port", "99999"],
                            capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 2
    assert "--port='99999': must be a whole number from 1 to 65535" in result.stderr


def test_a_second_serve_on_the_same_data_folder_fails_at_once_with_one_plain_line(tmp_path: Path) -> None:
    first = ServerProcess(data_dir=tmp_path / "data", redis_url=None)
    first.start()
    try:
        second = ServerProcess(data_dir=tmp_path / "data", redis_url=None)
        result = subprocess.run(second.command(), capture_output=True, text=True, timeout=60, check=False)
        assert result.returncode == 1
        # One line naming the folder and the server using it (the pid: not the wait for a dying Redis).
        assert result.stderr.splitlines() == [
            f"paigow serve: {tmp_path / 'data'} is in use by another paigow serve (pid {first.pid}); stop it "
            "or choose another --data-dir"]
        assert "serving on" not in result.stdout
        assert httpx.get(first.url + "/readyz").json() == {"status": "ready"}  # the first serves on
    finally:
        assert first.terminate() == 0


def test_the_terminal_gets_plain_log_lines_and_the_way_to_keep_the_operator_token(tmp_path: Path) -> None:
    server = ServerProcess(data_dir=tmp_path / "data", redis_url=None)  # no PAIGOW_LOG_FORMAT: the default
    server.start()
    assert server.terminate() == 0
    lines = server.output().splitlines()
    assert not [line for line in lines if line.lstrip().startswith("{")], lines  # no JSON line
    assert any(line.endswith("to keep one across restarts, start with --operator-token TOKEN or set "
                             "PAIGOW_OPERATOR_TOKEN (at least 16 characters)") for line in lines)
    [redis_line] = [line for line in lines if "started a private Redis" in line]
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d info started a private Redis "
                        r"redis_url=redis://127\.0\.0\.1:\d+/0 data_dir=\S+/data", redis_line)


def test_help_lists_every_option_with_its_environment_variable() -> None:
    result = subprocess.run([sys.executable, "-m", "paigow_server.cli", "serve", "--help"],
                            capture_output=True, text=True, timeout=60, check=True)
    for option, variable in (("--redis-url", "PAIGOW_REDIS_URL"), ("--data-dir", "PAIGOW_DATA_DIR"),
                             ("--operator-token", "PAIGOW_OPERATOR_TOKEN"), ("--port", "PAIGOW_PORT")):
        assert option in result.stdout
        assert variable in result.stdout


async def test_sigterm_tells_connected_clients_to_reconnect(server_process: ServerProcess) -> None:
    server_process.start()
    async with httpx.AsyncClient(base_url=server_process.url) as http:
        opened = await http.post("/api/operator/tables", json={"name": "Main"},
                                 headers={"Authorization": f"Bearer {server_process.operator_token}"})
        token = (await http.post("/api/session", json={"display_name": "Ann"})).json()["token"]
    table_id = opened.json()["table_id"]
    player = await WsClient.connect(server_process.ws_url, table_id, token)
    spectator = await WsClient.connect(server_process.ws_url, table_id)
    assert player.first["type"] == "snapshot"
    assert spectator.first["type"] == "snapshot"
    assert await asyncio.to_thread(server_process.terminate) == 0
    assert await _close_code(player) == 1012  # service restart: reconnect
    assert await _close_code(spectator) == 1012


async def _close_code(client: WsClient) -> int | None:
    try:
        while True:
            await client.receive()
    except ConnectionClosed as exc:
        return None if exc.rcvd is None else exc.rcvd.code


@pytest.mark.failover
async def test_without_redis_url_a_private_redis_keeps_everything_across_a_stop_and_a_sigkill(
        tmp_path: Path) -> None:
    server = ServerProcess(data_dir=tmp_path / "data", redis_url=None, starter_tables=None)
    await asyncio.to_thread(server.start)
    try:
        printed = server.output().split("operator token (generated for this run): ")
        assert len(printed) == 2, server.output()
        operator = {"Authorization": f"Bearer {printed[1].split()[0]}"}
        server.operator_token = printed[1].split()[0]  # the restarts keep it
        async with httpx.AsyncClient(base_url=server.url) as http:
            assert (await http.get("/readyz")).json() == {"status": "ready"}
            starter = (await http.get("/api/tables")).json()["tables"]  # a new server is playable at once
            assert [(t["name"], t["phase"], t["seats_taken"]) for t in starter] == [("Table 1", "idle", 0)]
            session = (await http.post("/api/session", json={"display_name": "Ann"})).json()
            table = (await http.post("/api/operator/tables", json={"name": "Kept"}, headers=operator)).json()
        assert await asyncio.to_thread(server.terminate) == 0
        assert (tmp_path / "data" / "appendonly.aof").exists()
        await asyncio.to_thread(server.start)
        async with httpx.AsyncClient(base_url=server.url) as http:
            resumed = await http.get("/api/session", headers={"Authorization": f"Bearer {session['token']}"})
            assert resumed.json()["player_id"] == session["player_id"]
            credit = await http.post(f"/api/operator/players/{session['player_id']}/credit",
                                     json={"amount_cents": 700, "reason": "kept"}, headers=operator)
            assert credit.status_code == 200
        server.kill()  # the private Redis gets SIGTERM from the kernel and flushes before it exits
        await asyncio.to_thread(server.start)
        async with httpx.AsyncClient(base_url=server.url) as http:
            tables = (await http.get("/api/tables")).json()["tables"]
            # the starter table was opened once, on the empty Redis, not again at each restart
            assert [t["table_id"] for t in tables] == [starter[0]["table_id"], table["table_id"]]
            player = await http.get(f"/api/operator/players/{session['player_id']}", headers=operator)
            assert player.json()["balance_cents"] == 100_000 + 700
    finally:
        server.kill()


def test_ctrl_c_in_a_terminal_stops_the_server_and_its_private_redis_without_a_traceback(
        tmp_path: Path) -> None:
    """A terminal's Ctrl+C sends SIGINT to its whole foreground process group: the server and, were it in
    that group, the private Redis at the same moment (then the shutdown was about a hundred lines of
    connection-refused tracebacks). The server alone gets it, stops, and stops its Redis."""
    server = ServerProcess(data_dir=tmp_path / "data", redis_url=None)
    log = (tmp_path / "serve.log").open("wb")
    process = subprocess.Popen(server.command(), stdin=subprocess.DEVNULL, stdout=log,
                               stderr=subprocess.STDOUT,
                               start_new_session=True)  # its own group, as a terminal's foreground job
    try:
        deadline = time.monotonic() + 60
        while not _ready(server.url):  # "serving on" is printed before the port is bound
            assert process.poll() is None, (tmp_path / "serve.log").read_text()
            assert time.monotonic() < deadline, (tmp_path / "serve.log").read_text()
            time.sleep(0.1)
        os.killpg(process.pid, signal.SIGINT)  # what Ctrl+C does
        assert process.wait(30) == 0
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        log.close()
    output = (tmp_path / "serve.log").read_text()
    for word in ("Traceback", "StoreUnavailable", " error ", " warning "):
        assert word not in output, output
    [port] = re.findall(r"started a private Redis redis_url=redis://127\.0\.0\.1:(\d+)/0", output)
    with pytest.raises(ConnectionRefusedError):  # the private Redis stopped with the server
        socket.create_connection(("127.0.0.1", int(port)), timeout=2).close()
    deadline = time.monotonic() + 10  # the pool's resource tracker leaves once its pipe closes
    while time.monotonic() < deadline and _group_alive(process.pid):
        time.sleep(0.05)
    assert not _group_alive(process.pid), "a process of the server's group outlived it"


def _ready(url: str) -> bool:
    try:
        return httpx.get(url + "/readyz", timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True
