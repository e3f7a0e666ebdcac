"""``ClusterTopology``: a real Redis Cluster on loopback, for the cluster tests and the load benchmark.

``primaries`` (3) ``redis-server`` child processes in cluster mode (``EmbeddedRedis``: the private Redis's
binary), each on a free loopback port with its data in its own folder; ``start`` introduces them to each
other (``CLUSTER MEET``), splits the 16384 hash slots between them in equal ranges (``CLUSTER ADDSLOTS``)
and waits until every node answers ``cluster_state:ok`` — what ``redis-cli --cluster create`` does, with
no ``redis-cli`` needed. ``url`` is the ``redis+cluster://`` URL naming every node.
"""

from __future__ import annotations

import time
from pathlib import Path
from types import TracebackType
from typing import Any

import redis

from paigow_server.process.embedded_redis import EmbeddedRedis

__all__ = ["SLOTS", "ClusterTopology"]

SLOTS = 16384


def _ask(port: int, *args: Any) -> Any:
    client = redis.Redis(port=port, socket_timeout=5, decode_responses=True)
    try:
        return client.execute_command(*args)  # type: ignore[no-untyped-call]
    finally:
        client.close()


class ClusterTopology:
    """``with ClusterTopology(folder) as cluster: cluster.url`` — start the nodes, make them a cluster;
    stop them all on exit."""

    def __init__(self, base_dir: Path, *, primaries: int = 3, replicas: int = 0,
                 node_timeout_ms: int = 2_000) -> None:
        """``replicas``: replicas per primary (each follows its primary; the cluster promotes one when its
        primary fails for ``node_timeout_ms``)."""
        if primaries < 1:
            raise ValueError(f"primaries={primaries}: a cluster needs at least one")
        self.base_dir = Path(base_dir)
        self.primaries = primaries
        args = ("--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
                "--cluster-node-timeout", str(node_timeout_ms), "--appendonly", "no")
        self.nodes = [EmbeddedRedis(self.base_dir / f"node{i}", extra_args=args,
                                    appendonly=False) for i in range(primaries * (1 + replicas))]

    @property
    def url(self) -> str:
        return "redis+cluster://" + ",".join(f"127.0.0.1:{n.port}" for n in self.nodes)

    @property
    def ports(self) -> list[int]:
        return [n.port for n in self.nodes]

    def start(self, *, within_s: float = 20.0) -> str:
        for node in self.nodes:
            node.start()
        first = self.nodes[0].port
        for node in self.nodes[1:]:
            _ask(first, "CLUSTER", "MEET", "127.0.0.1", node.port)
        primaries = self.nodes[:self.primaries]
        per = SLOTS // len(primaries)
        for i, node in enumerate(primaries):
            end = SLOTS if i == len(primaries) - 1 else (i + 1) * per
            _ask(node.port, "CLUSTER", "ADDSLOTS", *range(i * per, end))
        give_up = time.monotonic() + within_s
        for i, replica in enumerate(self.nodes[self.primaries:]):
            primary_id = str(_ask(primaries[i % len(primaries)].port, "CLUSTER", "MYID"))
            while True:  # the replica must have heard of its primary first
                try:
                    _ask(replica.port, "CLUSTER", "REPLICATE", primary_id)
                    break
                except redis.ResponseError:
                    if time.monotonic() > give_up:
                        raise
                    time.sleep(0.05)
        while not all(self._ok(node.port) for node in self.nodes):
            if time.monotonic() > give_up:
                raise RuntimeError(f"the cluster at {self.url} did not reach cluster_state:ok")
            time.sleep(0.05)
        return self.url

    def primary_of_slot(self, slot: int) -> EmbeddedRedis:
        """The node serving ``slot`` now (after a failover: the promoted replica)."""
        alive = next(n for n in self.nodes if n.pid is not None)  # a killed node answers nothing
        for low, high, master, *_ in _ask(alive.port, "CLUSTER", "SLOTS"):
            if int(low) <= slot <= int(high):
                port = int(master[1])
                return next(n for n in self.nodes if n.port == port)
        raise LookupError(f"no node serves slot {slot}")

    def _ok(self, port: int) -> bool:
        info = str(_ask(port, "CLUSTER", "INFO"))
        return "cluster_state:ok" in info and f"cluster_known_nodes:{len(self.nodes)}" in info

    def slots_of(self, port: int) -> int:
        """How many hash slots the node at ``port`` serves."""
        myself = next(line for line in str(_ask(port, "CLUSTER", "NODES")).splitlines() if "myself" in line)
        count = 0
        for part in myself.split()[8:]:
            low, _, high = part.partition("-")
            count += int(high or low) - int(low) + 1
        return count

    def keys_per_node(self) -> dict[int, int]:
        """``DBSIZE`` of every node: how the data is spread."""
        return {node.port: int(_ask(node.port, "DBSIZE")) for node in self.nodes}

    def cpu_seconds(self) -> dict[int, float]:
        """``used_cpu_sys + used_cpu_user`` of every node so far."""
        out: dict[int, float] = {}
        for node in self.nodes:
            info = _ask(node.port, "INFO", "cpu")
            out[node.port] = float(info["used_cpu_sys"]) + float(info["used_cpu_user"])
        return out

    def stop(self) -> None:
        for node in self.nodes:
            node.stop()

    def __enter__(self) -> ClusterTopology:
        self.start()
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()
