"""Floor benchmark: ``paigow serve``'s CPU per command against the floor of its own stack (issue 22).

    python benchmarks/bench_floor.py                          # 100 tables, 2 rounds, 3 repetitions
    python benchmarks/bench_floor.py --tables 285 --repeat 1  # 1,995 connections
    python benchmarks/bench_floor.py --compare ../main         # this checkout against another, same run

Each repetition runs, one after the other on one private Redis:
1. **the project**: one ``paigow serve`` under ``bench_load``'s bots (6 players and a spectator per table,
   thinking 1 to 4 s before each decision, as people do), its CPU per bot command as ``bench_load`` measures
   it (from the moment the bots start);
2. **the floor** (``floor_server.py``): the same stack doing only this traffic's I/O per command, under the
   same shape: as many tables with 7 connections each, the same number of commands per table spread at
   random over the same time, so the command rate and the fan-out are the project's. Like ``paigow serve``
   it does not compress frames (``--floor-compression``: permessage-deflate on, as uvicorn's default has
   it and as this benchmark ran before 2026-12-02: a dearer floor).

With ``--compare DIR`` each repetition also runs ``paigow serve`` from another checkout (``DIR/server`` and
``DIR/shared`` first on its ``PYTHONPATH``; the bots stay this checkout's) beside this one, the two in turn
first, and prints its figures and ratios too: a change's before and after in one run.

With ``--core`` each repetition also runs **the floor plus the core** (``floor_server.py --core``): the
floor that, per command, also runs the project's pure commit (``decide_commit``: the rules, each kind of
viewer's update and its text, the ledger effects) on a replay of recorded rounds, plus as many commits
per command that no client sent as the project's timers made in this repetition (its ``EVALSHA`` per
command less one), each with the core, its ``EVALSHA`` and its push. That is the least any server could
cost that plays these rules with this core on this stack; "project / core" is what the server itself adds.

The runs alternate, ``--repeat`` times, so a change in the machine's load falls on both alike; the figures
are process CPU time (``/proc``), not wall time. Per run it also counts **Redis round trips per command**:
for ``--window`` seconds in the middle of the run a ``MONITOR`` client counts the commands clients sent
(not those that scripts ran inside Redis), divided by the commands the bots sent meanwhile; and **frames
per command** (messages the clients received per command sent). The last line is the median ratio.

Everything is on loopback and bounded: ``--timeout`` per run, R rounds per table.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

import redis
from websockets.asyncio.client import ClientConnection, connect

import bench_load
from paigow_server.bots.stats import RunStats
from paigow_server.process import event_loop
from paigow_server.process.embedded_redis import EmbeddedRedis, free_port

HERE = Path(__file__).resolve().parent
VIEWERS = 7


@dataclass
class Figures:
    cpu_ms_per_command: float
    commands: int
    duration_s: float
    round_trips_per_command: float
    frames_per_command: float
    p99_ms: float = float("nan")
    """Command to push, the bots' p99 (the project's runs only)."""
    per_command: dict[str, float] = field(default_factory=dict)
    """Each Redis command's count per bot command over the window (``MONITOR``), most frequent first."""


class Window:
    """Counts, from a thread, the Redis commands clients send for ``seconds`` once ``start_after`` seconds
    have passed since ``begin()``, and the commands ``count()`` says were sent meanwhile."""

    def __init__(self, url: str, start_after: float, seconds: float) -> None:
        self.url, self.start_after, self.seconds = url, start_after, seconds
        self.count: Callable[[], tuple[int, int]] = lambda: (0, 0)
        self.result: tuple[int, int, int] | None = None
        self.names: Counter[str] = Counter()
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()

    def begin(self, count: Callable[[], tuple[int, int]]) -> None:
        self.count = count
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        if self._stop.wait(self.start_after):
            return
        client = redis.Redis.from_url(self.url)
        try:
            with client.monitor() as monitor:
                commands0, frames0 = self.count()
                started = time.monotonic()
                sent = 0
                for command in monitor.listen():
                    if command.get("client_type") != "lua" and command.get("command", "") != "MONITOR":
                        sent += 1
                        self.names[str(command.get("command", "")).split(" ", 1)[0].upper()] += 1
                    if time.monotonic() - started >= self.seconds or self._stop.is_set():
                        break
                commands1, frames1 = self.count()
                self.result = (sent, commands1 - commands0, frames1 - frames0)
        finally:
            client.close()

    def end(self) -> tuple[float, float]:
        """(round trips per command, frames per command) over the window (NaN when it never ran)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=30)
        if not self.result or not self.result[1]:
            return float("nan"), float("nan")
        sent, commands, frames = self.result
        return sent / commands, frames / commands

    def per_command(self) -> dict[str, float]:
        commands = self.result[1] if self.result else 0
        return {name: count / commands for name, count in self.names.most_common()} if commands else {}


async def project_run(backend: bench_load.Backend, data: Path, args: argparse.Namespace,
                      checkout: Path | None = None) -> Figures:
    """``paigow serve`` under the bots: this checkout's, or ``checkout``'s."""
    window = Window(backend.url, args.window_after, args.window)
    holder: list[RunStats] = []

    def observe(stats: RunStats) -> None:
        if not holder:
            holder.append(stats)
            window.begin(lambda: (stats.commands, stats.messages_received))

    try:
        r = await bench_load.one_run(backend, data, 1, args.tables, args.rounds, 1, args.timeout, args.seed,
                                     (1000, 4000), observe=observe, server_env=_pythonpath(checkout))
    finally:
        round_trips, frames = window.end()
    if not r.money_ok:
        raise SystemExit("the project's money check failed")
    return Figures(r.server_cpu_ms_per_command, r.commands, r.duration_s, round_trips, frames, r.p99_ms,
                   window.per_command())


class FloorClient:
    """One connection: counts every frame and answers each command's ``accepted``."""

    def __init__(self, connection: ClientConnection, counter: list[int]) -> None:
        self.connection = connection
        self.counter = counter
        self.waiting: dict[int, asyncio.Future[None]] = {}
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for frame in self.connection:
            self.counter[0] += 1
            if isinstance(frame, str) and frame.startswith('{"type": "accepted"'):
                future = self.waiting.pop(json.loads(frame)["id"], None)
                if future is not None and not future.done():
                    future.set_result(None)

    async def command(self, command_id: int) -> None:
        future = asyncio.get_running_loop().create_future()
        self.waiting[command_id] = future
        await self.connection.send(json.dumps({"type": "place_bet", "id": command_id, "amount_cents": 500}))
        await asyncio.wait_for(future, timeout=30)


def cpu_seconds(pid: int) -> float:
    return bench_load.cpu_seconds(pid)


def _pythonpath(checkout: Path | None) -> dict[str, str]:
    if checkout is None:
        return {}
    paths = [str(checkout / "server"), str(checkout / "shared")]
    if os.environ.get("PYTHONPATH"):
        paths.append(os.environ["PYTHONPATH"])
    return {"PYTHONPATH": os.pathsep.join(paths)}


def start_floor(port: int, redis_url: str, log: IO[str], *, compression: bool = False,
                ticks: float | None = None) -> subprocess.Popen[bytes]:
    """``floor_server.py`` on ``port``, once it answers; with ``ticks``, the floor plus the core."""
    core = [] if ticks is None else ["--core", "--ticks", f"{ticks:.3f}"]
    process = subprocess.Popen([sys.executable, str(HERE / "floor_server.py"), "--port", str(port),
                                "--redis-url", redis_url, *(["--compression"] if compression else []), *core],
                               stdout=log, stderr=subprocess.STDOUT)
    for _ in range(600):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/count", timeout=1).read()
            return process
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit("the floor server did not start")


async def floor_run(backend: bench_load.Backend, data: Path, args: argparse.Namespace, commands: int,
                    duration_s: float, ticks: float | None = None) -> Figures:
    """The floor under the project's load shape; with ``ticks`` (commits per command no client sent),
    the floor plus the core (``floor_server.py --core``)."""
    redis.Redis.from_url(backend.url).flushall()
    port = free_port()
    log = (data / f"floor-{port}.log").open("w")
    process = await asyncio.to_thread(lambda: start_floor(port, backend.url, log, ticks=ticks,
                                                          compression=args.floor_compression))
    window = Window(backend.url, args.window_after, args.window)
    try:
        counter = [0]
        tables: list[list[FloorClient]] = []
        for t in range(args.tables):
            connections = await asyncio.gather(*(connect(f"ws://127.0.0.1:{port}/ws/t{t}", max_queue=None)
                                                 for _ in range(VIEWERS)))
            tables.append([FloorClient(c, counter) for c in connections])
        per_table = max(1, round(commands / args.tables))
        rng = random.Random(args.seed)
        sent = [0]

        async def play(clients: list[FloorClient], table: int) -> None:
            times = sorted(rng.uniform(0, duration_s) for _ in range(per_table))
            start = time.monotonic()
            for i, at in enumerate(times):
                await asyncio.sleep(max(0.0, start + at - time.monotonic()))
                await clients[rng.randrange(VIEWERS - 1)].command(table * 1_000_000 + i)
                sent[0] += 1

        cpu0 = cpu_seconds(process.pid)
        started = time.monotonic()
        window.begin(lambda: (sent[0], counter[0]))
        await asyncio.gather(*(play(clients, t) for t, clients in enumerate(tables)))
        elapsed = time.monotonic() - started
        cpu = cpu_seconds(process.pid) - cpu0
        round_trips, frames = window.end()
        for clients in tables:
            for client in clients:
                await client.connection.close()
                client.reader.cancel()
        return Figures(round(cpu * 1000 / max(sent[0], 1), 2), sent[0], round(elapsed, 1), round_trips,
                       frames)
    finally:
        window.end()
        process.kill()
        process.wait()
        log.close()


def show(name: str, f: Figures) -> str:
    return (f"{name:8s} {f.cpu_ms_per_command:6.2f} ms CPU/cmd over {f.commands} commands in "
            f"{f.duration_s} s | Redis round trips/cmd {f.round_trips_per_command:.2f} | frames/cmd "
            f"{f.frames_per_command:.2f}" + ("" if math.isnan(f.p99_ms) else f" | p99 {f.p99_ms:.1f} ms")
            + ("" if not f.per_command else "\n         Redis commands/cmd: "
               + ", ".join(f"{name} {n:.2f}" for name, n in list(f.per_command.items())[:10])))


async def main_async(args: argparse.Namespace) -> int:
    ratios: list[float] = []
    compared: list[float] = []
    against: list[float] = []
    cores: list[float] = []
    beyond: list[float] = []
    compare: Path | None = args.compare
    with tempfile.TemporaryDirectory(prefix="paigow-floor-") as tmp:
        data = Path(tmp)
        single = EmbeddedRedis(data / "redis")
        single.start()
        backend = bench_load.Backend(single.url, [single], cluster=False)
        try:
            for rep in range(args.repeat):
                other: Figures | None = None
                if compare is not None and rep % 2:
                    other = await project_run(backend, data / f"rep{rep}-compare", args, compare)
                    print(show("compare", other), flush=True)
                project = await project_run(backend, data / f"rep{rep}", args)
                print(show("project", project), flush=True)
                if compare is not None and other is None:
                    other = await project_run(backend, data / f"rep{rep}-compare", args, compare)
                    print(show("compare", other), flush=True)
                floor = await floor_run(backend, data, args, project.commands, project.duration_s)
                print(show("floor", floor), flush=True)
                ratio = project.cpu_ms_per_command / floor.cpu_ms_per_command
                ratios.append(ratio)
                line = f"rep {rep + 1}: project / floor = {ratio:.2f}x"
                if args.core:  # the project's own commits per command: its EVALSHA, less the command's own
                    ticks = max(0.0, project.per_command.get("EVALSHA", 1.0) - 1.0)
                    core = await floor_run(backend, data, args, project.commands, project.duration_s, ticks)
                    print(show("core", core) + f" | ticks/cmd {ticks:.2f}", flush=True)
                    cores.append(core.cpu_ms_per_command / floor.cpu_ms_per_command)
                    beyond.append(project.cpu_ms_per_command / core.cpu_ms_per_command)
                    line += f" | core / floor = {cores[-1]:.2f}x | project / core = {beyond[-1]:.2f}x"
                if other is not None:
                    compared.append(other.cpu_ms_per_command / floor.cpu_ms_per_command)
                    against.append(project.cpu_ms_per_command / other.cpu_ms_per_command)
                    line += (f" | compare / floor = {compared[-1]:.2f}x | project / compare = "
                             f"{against[-1]:.2f}")
                print(line, flush=True)
        finally:
            single.stop()
    for name, values in (("compare / floor", compared), ("project / compare", against),
                         ("core / floor", cores), ("project / core", beyond)):
        if values:
            unit = "" if name == "project / compare" else "x"
            print(f"median {name} over {len(values)} repetitions: {statistics.median(values):.2f}{unit}"
                  f" (each: {', '.join(f'{r:.2f}' for r in values)})")
    print(f"median ratio over {len(ratios)} repetitions: {statistics.median(ratios):.2f}x "
          f"(each: {', '.join(f'{r:.2f}' for r in ratios)})")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=100, help="tables (7 connections each; default 100)")
    parser.add_argument("--rounds", type=int, default=2, help="rounds per table for the project (default 2)")
    parser.add_argument("--repeat", type=int, default=3, help="interleaved repetitions (default 3)")
    parser.add_argument("--timeout", type=float, default=240.0, help="seconds per project run at most")
    parser.add_argument("--window", type=float, default=8.0, help="seconds of MONITOR per run (default 8)")
    parser.add_argument("--window-after", type=float, default=15.0,
                        help="seconds after the bots start before the MONITOR window (default 15)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--compare", type=Path, default=None, metavar="DIR",
                        help="also run paigow serve from this checkout in each repetition")
    parser.add_argument("--core", action="store_true",
                        help="also run the floor plus the project's pure core (floor_server.py --core) "
                             "with the project's own timers' commits per command")
    parser.add_argument("--floor-compression", action="store_true",
                        help="the floor with permessage-deflate (as before 2026-12-02)")
    return event_loop.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
