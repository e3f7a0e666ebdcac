"""A guest flood from many addresses (issue 19, point 3): how many guests get in a minute, and what each costs
Redis.

Everything runs on loopback and stops by itself: a private Redis (redis-server) in a temporary folder, one
``paigow serve --redis-url ...`` with the default limits unless ``--env`` says otherwise, and the flood in
this process: ``--addresses`` clients, each bound to its own source address 127.0.0.2, 127.0.0.3, ... (all
of 127.0.0.0/8 is loopback on Linux), each sending ``--per-address`` ``POST /api/session`` in turn, round
after round, until ``--seconds`` have passed or ``--max-requests`` were sent. Reported: requests, guests
accepted (and per minute over the run), Redis ``used_memory`` and its dataset before and after (``MEMORY
PURGE`` first), their growth per accepted guest, ``MEMORY USAGE`` of one guest's own keys, and what an hour
at the server's budget of new guests would leave in Redis.

    python benchmarks/bench_guest_flood.py                                   # the defaults: /24 networks
    python benchmarks/bench_guest_flood.py --env PAIGOW_LIMIT_IPV4_PREFIX=32 # each address its own network
    python benchmarks/bench_guest_flood.py --budget 0 --env PAIGOW_SESSIONS_PER_MINUTE=10  # a server
                                                                     # without the budget (before issue 19)
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path

import httpx
from redis.asyncio import Redis

import harness_path  # noqa: F401  (puts tests/ on sys.path: the harness, support)
from paigow_server.process.embedded_redis import EmbeddedRedis
from paigow_server.store import keys
from support.harness import ServerProcess, player_ids

TOKEN = "bench-guest-flood-operator-token-0123"
DEFAULTS = {"PAIGOW_LOG_LEVEL": "warning", "PAIGOW_SESSIONS_PER_MINUTE": "10",
            "PAIGOW_GUESTS_PER_MINUTE": "120", "PAIGOW_SPECTATORS_PER_ADDRESS": "20",
            "PAIGOW_CHAT_PER_ADDRESS_PER_MINUTE": "20",
            "PAIGOW_PRACTICE_DEALS_PER_MINUTE": "30", "PAIGOW_ROUND_READS_PER_MINUTE": "120"}
"""The server's own defaults (``ServerProcess`` lifts the per-address limits for tests unless told)."""
BEFORE = {"PAIGOW_LOG_LEVEL": "warning", "PAIGOW_SESSIONS_PER_MINUTE": "10"}
"""``--budget 0``: only the settings a server from before issue 19 knows."""


async def redis_figures(redis: Redis) -> tuple[int, int, int, int]:
    """``used_memory``, its dataset, the number of keys, and the sum of every key's ``MEMORY USAGE``."""
    await redis.memory_purge()
    info = await redis.info("memory")
    usage = [int(await redis.memory_usage(k, samples=0) or 0) async for k in redis.scan_iter(count=1000)]
    return int(info["used_memory"]), int(info["used_memory_dataset"]), int(await redis.dbsize()), sum(usage)


async def flood(url: str, args: argparse.Namespace) -> tuple[int, int, float, list[str]]:
    """(requests, accepted, seconds, the accepted guests' tokens)."""
    clients = [httpx.AsyncClient(base_url=url, timeout=10,
                                 transport=httpx.AsyncHTTPTransport(local_address=f"127.0.0.{i + 2}"))
               for i in range(args.addresses)]
    requests = 0
    tokens: list[str] = []
    started = time.perf_counter()

    async def one_address(http: httpx.AsyncClient, n: int) -> None:
        nonlocal requests
        for k in range(args.per_address):
            requests += 1
            answer = await http.post("/api/session", json={"display_name": f"F{n}x{k}"})
            if answer.status_code == 201:
                tokens.append(answer.json()["token"])
            elif answer.status_code != 429:
                raise RuntimeError(f"unexpected answer {answer.status_code}: {answer.text[:200]}")

    try:
        while time.perf_counter() - started < args.seconds and requests < args.max_requests:
            await asyncio.gather(*(one_address(http, n) for n, http in enumerate(clients)))
    finally:
        for http in clients:
            await http.aclose()
    return requests, len(tokens), time.perf_counter() - started, tokens


async def guest_keys_bytes(redis: Redis) -> int:
    """``MEMORY USAGE`` of one accepted guest's own keys: its hash, its session key and its sessions set."""
    players = sorted(await player_ids(redis))
    if not players:
        return 0
    owned = [keys.player(players[0]), keys.player_sessions(players[0])]
    owned += [keys.session(str(h)) for h in await redis.smembers(keys.player_sessions(players[0]))]
    return sum([int(await redis.memory_usage(k) or 0) for k in owned])


async def main(args: argparse.Namespace) -> None:
    env = dict(BEFORE if args.budget == 0 else DEFAULTS)
    if args.budget:
        env["PAIGOW_GUESTS_PER_MINUTE"] = str(args.budget)
    env.update(dict(item.split("=", 1) for item in args.env))
    with tempfile.TemporaryDirectory() as folder:
        data = Path(folder)
        redis_server = EmbeddedRedis(data / "redis", appendonly=False)
        redis_server.start()
        redis = Redis(host=redis_server.host, port=redis_server.port, decode_responses=True)
        server = ServerProcess(data_dir=data / "server", redis_url=redis_server.url, operator_token=TOKEN,
                               env=env)
        try:
            await asyncio.to_thread(server.start, 60.0)
            before = await redis_figures(redis)
            requests, accepted, elapsed, _ = await flood(server.url, args)
            after = await redis_figures(redis)
            own = await guest_keys_bytes(redis)
        finally:
            server.kill()
            await redis.aclose()
            redis_server.stop()
    settings = ", ".join(f"{k}={v}" for k, v in sorted(env.items()) if k != "PAIGOW_LOG_LEVEL")
    print(f"server: {settings}")
    print(f"flood: {requests} requests from {args.addresses} addresses in {elapsed:.1f} s "
          f"({requests / elapsed:.0f}/s): {accepted} guests accepted ({accepted / elapsed * 60:.0f} a minute "
          f"over the run), {requests - accepted} refused with 429")
    grown, dataset, stored = after[0] - before[0], after[1] - before[1], after[3] - before[3]
    per_guest = stored / accepted if accepted else 0.0
    print(f"redis: used_memory {before[0]:,} -> {after[0]:,} bytes (+{grown:,}: with the server's "
          f"connections and scripts), dataset {before[1]:,} -> {after[1]:,} (+{dataset:,}), keys {before[2]} "
          f"-> {after[2]}, MEMORY USAGE of every key {before[3]:,} -> {after[3]:,} (+{stored:,})")
    if accepted:
        print(f"per accepted guest: {per_guest:,.0f} bytes of keys (every key's MEMORY USAGE, the ledger, "
              f"the players set and the guest index included); one guest's hash, session and sessions set: "
              f"{own:,} bytes")
    budget = int(env.get("PAIGOW_GUESTS_PER_MINUTE", "0"))
    if budget and accepted:
        hour = (budget * 60 + budget) * per_guest  # an hour's steady rate plus the first minute's burst
        print(f"an hour at the budget ({budget} a minute, plus its burst): {budget * 61:,} guests, about "
              f"{hour / 1e6:,.1f} MB of Redis")
    elif accepted:
        rate = accepted / elapsed
        print(f"an hour at this flood's rate ({rate:.0f} guests a second): about "
              f"{rate * 3600 * per_guest / 1e9:,.2f} GB")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--addresses", type=int, default=100)
    parser.add_argument("--per-address", type=int, default=11)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--max-requests", type=int, default=6_000)
    parser.add_argument("--budget", type=int, default=None,
                        help="PAIGOW_GUESTS_PER_MINUTE (default: the server's 120); 0: a server from before "
                             "issue 19 (no budget, no new settings passed)")
    parser.add_argument("--env", action="append", default=[], metavar="PAIGOW_X=V",
                        help="a server setting (repeatable)")
    asyncio.run(main(parser.parse_args()))
