from __future__ import annotations

import fcntl
import os
import signal
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from redis import Redis

from paigow_server.process.embedded_redis import EmbeddedRedis, EmbeddedRedisError, find_redis_server


def test_the_bundled_redis_server_is_found() -> None:
    path = find_redis_server()
    assert path.name == "redis-server"
    assert os.access(path, os.X_OK)


def test_data_survives_a_stop_and_start_in_the_same_folder(tmp_path: Path) -> None:
    with EmbeddedRedis(tmp_path) as first:
        assert first.port != 6379
        client = Redis.from_url(first.url)
        client.set("k", "v")
        client.close()
    assert (tmp_path / "appendonly.aof").exists()
    with EmbeddedRedis(tmp_path) as second:
        client = Redis.from_url(second.url)
        assert client.get("k") == b"v"
        client.close()


def test_a_second_server_on_the_same_folder_is_refused_at_once_naming_the_pid(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("paigow_server.process.embedded_redis._STOP_TIMEOUT_S", 3600.0)  # never waited for
    with EmbeddedRedis(tmp_path) as first:
        assert (tmp_path / "paigow.lock").read_text() == f"{os.getpid()}\n"
        with pytest.raises(EmbeddedRedisError) as refused:
            EmbeddedRedis(tmp_path).start()
        assert str(refused.value) == (f"{tmp_path} is in use by another paigow serve (pid {os.getpid()}); "
                                      "stop it or choose another --data-dir")
        assert Redis.from_url(first.url).ping()


def test_a_lock_left_by_a_killed_server_is_waited_for_then_named(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The pid in the lock file is gone but the lock is held (its Redis still exiting): the start waits
    ``_STOP_TIMEOUT_S``, then says so."""
    monkeypatch.setattr("paigow_server.process.embedded_redis._STOP_TIMEOUT_S", 0.2)
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                          text=True, check=True).stdout.strip()
    with (tmp_path / "paigow.lock").open("a+") as held:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        held.write(f"{gone}\n")
        held.flush()
        with pytest.raises(EmbeddedRedisError, match="in use by the Redis of a paigow serve that was stopped "
                                                     "and is still exiting"):
            EmbeddedRedis(tmp_path).start()


def test_stop_ends_the_process_and_frees_the_port(tmp_path: Path) -> None:
    server = EmbeddedRedis(tmp_path, appendonly=False)
    server.start()
    port = server.port
    server.stop()
    with pytest.raises(ConnectionRefusedError), socket.create_connection(("127.0.0.1", port), timeout=0.5):
        pass


@pytest.mark.failover
def test_redis_dies_with_the_process_that_started_it(tmp_path: Path) -> None:
    script = textwrap.dedent(f"""
        import sys, time
        from pathlib import Path
        from paigow_server.process.embedded_redis import EmbeddedRedis
        server = EmbeddedRedis(Path({str(tmp_path)!r}))
        server.start()
        print(server.pid, server.port, flush=True)
        time.sleep(60)
    """)
    with subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True) as parent:
        assert parent.stdout is not None
        pid_text, port_text = parent.stdout.readline().split()
        client = Redis(port=int(port_text))
        client.set("written", "before the crash")
        client.close()
        parent.send_signal(signal.SIGKILL)
    deadline = time.monotonic() + 10
    while _alive(int(pid_text)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(int(pid_text))
    with EmbeddedRedis(tmp_path) as again:  # the lock is free again and the data is there
        client = Redis.from_url(again.url)
        assert client.get("written") == b"before the crash"
        client.close()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:  # a zombie is dead for our purpose
        return stat.read().split()[2] != "Z"
