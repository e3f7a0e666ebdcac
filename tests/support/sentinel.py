"""``SentinelTopology``: a real Sentinel-managed Redis on loopback, for the failover tests and benchmark.

A primary, one replica (or more: ``replicas``) and three sentinels (quorum 2), each a ``redis-server``
child process (``EmbeddedRedis``: the same binary as the private Redis, in sentinel mode for the
sentinels) on a free loopback port, with its data in its own folder. The data nodes refuse writes unless a
replica is in sync (``min-replicas-to-write 1``, ``min-replicas-max-lag``), as ``deploy/`` configures them
(``min_replicas_to_write=0``: a deployment that missed that line, writes taken with no replica at all).
The sentinels notice a primary that stopped answering after ``down_after_ms`` and promote the replica.

``kill``, ``pause`` / ``resume`` (SIGSTOP / SIGCONT: a partition, as the primary sees the world) and
``restart`` (the same port and data folder: it comes back as a replica) act on one data node.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path
from types import TracebackType
from typing import Any

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from paigow_server.process.embedded_redis import EmbeddedRedis, free_port
from paigow_server.store import keys

__all__ = ["SERVICE", "SentinelTopology", "node_version"]

SERVICE = "paigow"
"""The master service name the sentinels monitor (the ``/paigow`` of the ``redis+sentinel://`` URL)."""
QUORUM = 2
SENTINELS = 3


def _client(port: int, timeout_s: float = 2.0) -> redis.Redis:
    return redis.Redis(port=port, socket_timeout=timeout_s, socket_connect_timeout=timeout_s,
                       decode_responses=True, retry=Retry(NoBackoff(), 0))


def _ask(port: int, *args: str, timeout_s: float = 2.0) -> Any:
    """One command to 127.0.0.1:``port``, its reply (``OSError`` when the node does not answer)."""
    client = _client(port, timeout_s)
    try:
        return client.execute_command(*args)  # type: ignore[no-untyped-call]
    except redis.RedisError as exc:
        raise OSError(f"127.0.0.1:{port}: {exc}") from exc
    finally:
        client.close()


def node_version(port: int, table_id: str) -> tuple[str, int | None]:
    """(the node's role: ``master``, ``slave`` or ``down``; its version of ``table_id``, None if none)."""
    client = _client(port, 1.0)
    try:
        role = str(client.execute_command("ROLE")[0])  # type: ignore[no-untyped-call]
        version = client.hget(keys.table(table_id), "version")
        return role, None if version is None else int(str(version))
    except redis.RedisError:
        return "down", None
    finally:
        client.close()


class SentinelTopology:
    """``with SentinelTopology(folder) as topo: topo.url`` — start all five, wait until the sentinels agree
    on the primary and see its replica; stop them all on exit."""

    def __init__(self, base_dir: Path, *, replicas: int = 1, down_after_ms: int = 1_000,
                 failover_timeout_ms: int = 3_000, max_lag_s: int = 2,
                 min_replicas_to_write: int = 1) -> None:
        self.base_dir = Path(base_dir)
        self.down_after_ms = down_after_ms
        self.failover_timeout_ms = failover_timeout_ms
        ports = [free_port() for _ in range(1 + replicas)]
        self._durability = ("--min-replicas-to-write", str(min_replicas_to_write),
                            "--min-replicas-max-lag", str(max_lag_s), "--appendfsync", "always")
        self.nodes = [EmbeddedRedis(self.base_dir / f"node{i}", port=port, extra_args=self._durability)
                      for i, port in enumerate(ports)]
        for replica in self.nodes[1:]:
            replica.extra_args += ("--replicaof", "127.0.0.1", str(ports[0]))
        self.sentinels: list[EmbeddedRedis] = []

    # -- the URL and what the sentinels say ------------------------------------------------------------
    @property
    def url(self) -> str:
        hosts = ",".join(f"127.0.0.1:{s.port}" for s in self.sentinels)
        return f"redis+sentinel://{hosts}/{SERVICE}/0"

    def master_port(self) -> int | None:
        """The primary's port as the sentinels' majority names it (None while they do not agree)."""
        votes: dict[int, int] = {}
        for sentinel in self.sentinels:
            try:
                reply = _ask(sentinel.port, "SENTINEL", "GET-MASTER-ADDR-BY-NAME", SERVICE)
            except OSError:
                continue
            if reply:
                votes[int(reply[1])] = votes.get(int(reply[1]), 0) + 1
        best = max(votes.items(), key=lambda item: item[1], default=None)
        return best[0] if best is not None and best[1] >= QUORUM else None

    def node(self, port: int) -> EmbeddedRedis:
        return next(n for n in self.nodes if n.port == port)

    def primary(self) -> EmbeddedRedis:
        port = self.master_port()
        if port is None:
            raise RuntimeError("the sentinels do not agree on a primary")
        return self.node(port)

    def replicas(self) -> list[EmbeddedRedis]:
        primary = self.primary()
        return [n for n in self.nodes if n is not primary]

    def role(self, node: EmbeddedRedis) -> str:
        """``master`` or ``slave`` as the node itself says (``ROLE``), or ``down``."""
        try:
            return str(_ask(node.port, "ROLE", timeout_s=1.0)[0])
        except OSError:
            return "down"

    def wait_for_primary(self, *, other_than: int | None = None, timeout_s: float = 30.0) -> int:
        """Wait until the sentinels agree on a primary (other than port ``other_than``) that says it is
        one; its port."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            port = self.master_port()
            if port is not None and port != other_than and self.role(self.node(port)) == "master":
                return port
            time.sleep(0.05)
        raise RuntimeError(f"no primary other than {other_than} within {timeout_s} s:\n{self.logs()}")

    def wait_for_replica(self, node: EmbeddedRedis, *, timeout_s: float = 30.0) -> None:
        """Wait until ``node`` replicates the primary and the primary lists it online."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            try:
                info = _ask(node.port, "INFO", "replication", timeout_s=1.0)
                if info.get("role") == "slave" and info.get("master_link_status") == "up":
                    primary = _ask(self.primary().port, "INFO", "replication", timeout_s=1.0)
                    online = [primary.get(f"slave{i}", {}) for i in range(primary.get("connected_slaves", 0))]
                    if any(r.get("port") == node.port and r.get("state") == "online" for r in online):
                        return
            except (OSError, RuntimeError):
                pass
            time.sleep(0.05)
        raise RuntimeError(f"{node.port} did not become an in-sync replica in {timeout_s} s:\n{self.logs()}")

    # -- faults ----------------------------------------------------------------------------------------
    def kill(self, node: EmbeddedRedis) -> None:
        node.kill()

    def pause(self, node: EmbeddedRedis) -> None:
        if node.pid is not None:
            os.kill(node.pid, signal.SIGSTOP)

    def resume(self, node: EmbeddedRedis) -> None:
        if node.pid is not None:
            os.kill(node.pid, signal.SIGCONT)

    def restart(self, node: EmbeddedRedis) -> None:
        """Start a killed node again at its port, with its data: the sentinels make it a replica."""
        node.extra_args = self._durability
        node.start()

    def logs(self) -> str:
        parts = []
        for node in [*self.nodes, *self.sentinels]:
            path = node.data_dir / "redis.log"
            text = path.read_text(errors="replace")[-3000:] if path.exists() else "(no log)"
            parts.append(f"--- {node.data_dir.name} :{node.port}\n{text}")
        return "\n".join(parts)

    # -- lifecycle -------------------------------------------------------------------------------------
    def start(self) -> None:
        for node in self.nodes:
            node.start()
        for i in range(SENTINELS):
            folder = self.base_dir / f"sentinel{i}"
            folder.mkdir(parents=True, exist_ok=True)
            config = folder / "sentinel.conf"
            config.write_text(
                f"sentinel monitor {SERVICE} 127.0.0.1 {self.nodes[0].port} {QUORUM}\n"
                f"sentinel down-after-milliseconds {SERVICE} {self.down_after_ms}\n"
                f"sentinel failover-timeout {SERVICE} {self.failover_timeout_ms}\n"
                f"sentinel parallel-syncs {SERVICE} 1\n")
            sentinel = EmbeddedRedis(folder, appendonly=False, config_file=config, extra_args=("--sentinel",))
            sentinel.start()
            self.sentinels.append(sentinel)
        self.wait_for_primary()
        for replica in self.nodes[1:]:
            self.wait_for_replica(replica)
        self._wait_sentinels_know_each_other()

    def _wait_sentinels_know_each_other(self, timeout_s: float = 30.0) -> None:
        """Quorum needs each sentinel to have heard of the others (their hello messages)."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            known = []
            for sentinel in self.sentinels:
                known.append(len(_ask(sentinel.port, "SENTINEL", "SENTINELS", SERVICE)))
            if all(count >= SENTINELS - 1 for count in known):
                return
            time.sleep(0.05)
        raise RuntimeError(f"the sentinels did not find each other in {timeout_s} s:\n{self.logs()}")

    def stop(self) -> None:
        everyone = [*self.sentinels, *self.nodes]
        for node in everyone:  # a paused node cannot flush and exit, nor a primary wait out a paused replica
            self.resume(node)  # (it waits up to its shutdown-timeout, 10 s, for a lagging replica)
        for node in everyone:
            node.stop()

    def __enter__(self) -> SentinelTopology:
        self.start()
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()
