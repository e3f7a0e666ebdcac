"""The floor: the least a server on this project's stack can do for one table command (issue 22).

    python benchmarks/floor_server.py --port 8123 --redis-url redis://127.0.0.1:6379/0

Starlette on uvicorn (``websockets-sansio``, uvloop), redis-py with hiredis: exactly the project's stack, and
only this traffic's I/O per command. A client opens ``/ws/{table}``; any frame it sends is a command
(``{"id": N, ...}``). Per command the server parses the frame (``json.loads``), makes one ``EVALSHA`` that
compare-and-sets the table's 2.8 kB state and publishes the command's 520-byte push on the table's channel,
answers ``{"type": "accepted", "id": N, "v": V}`` to the sender and sends the same pre-encoded 520-byte frame
to every viewer of the table (the sender included, as the project does). ``GET /count`` gives the commands
handled so far. No rules, no views, no patches: what is left is the cost of the libraries. Like ``paigow
serve`` (``ws_compression`` off by default) it does not compress frames (uvicorn's own default would
deflate every frame for every viewer: ``--compression``).

``--core``: the floor plus the project's pure core, no more. Per command it also runs
``paigow.table.commit.decide_commit`` (the rules, every kind of viewer's update and its text, the ledger
effects) on the next commit of a replay of recorded six-player rounds (``bench_table``'s, each with the
views kept from the commit before, as the server keeps them); and ``--ticks F`` adds F commits per command
that no client sent (the project's timers: the bank offer, the deal, deadlines), each one more
``decide_commit``, ``EVALSHA`` and push to every viewer. What the project costs beyond this is the server's
own work; this is the least any server playing these rules with this core on this stack could cost.

``benchmarks/bench_floor.py`` runs it beside ``paigow serve`` under the same load; nothing else imports it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any

import redis.asyncio as aioredis
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from paigow.protocol.projection import Seen
from paigow.table import TableState
from paigow.table.commands import Command
from paigow.table.commit import decide_commit

STATE_BYTES = 2_800
PUSH_BYTES = 520
CAS = """
local v = tonumber(redis.call('HGET', KEYS[1], 'v') or '0')
if v ~= tonumber(ARGV[1]) then return -1 end
redis.call('HSET', KEYS[1], 'v', v + 1, 'state', ARGV[2])
redis.call('PUBLISH', KEYS[2], ARGV[3])
return v + 1
"""


def push_frame(size: int = PUSH_BYTES) -> str:
    """A patch-like JSON frame of exactly ``size`` bytes."""
    head = '{"type":"patch","v":1,"ops":[{"op":"replace","path":"/note","value":"'
    tail = '"}]}'
    return head + "x" * (size - len(head) - len(tail)) + tail


Step = tuple[TableState, Command, bytes, Seen | None]
NOW_MS = 1_700_000_000_000


def replay(rounds: int = 30) -> list[Step]:
    """``rounds`` recorded rounds (14 commits each) as steps: the state before, the command, its seed and
    the views kept from the commit before."""
    from bench_table import _record_round, _start_state  # the benchmarks' own folder, beside this file

    start, now = _start_state()
    steps: list[Step] = []
    for k in range(rounds):
        state, seen = start, None
        for command, seed in _record_round(start, now, k):
            steps.append((state, command, seed, seen))
            commit = decide_commit(state, command, seed=seed, now_ms=NOW_MS, seen=seen)
            assert commit is not None
            state, seen = commit.after, commit.seen
    return steps


class Floor:
    def __init__(self, redis_url: str, *, core: bool = False, ticks: float = 0.0) -> None:
        self.redis = aioredis.Redis.from_url(redis_url)
        self.viewers: dict[str, set[WebSocket]] = {}
        self.versions: dict[str, int] = {}
        self.locks: dict[str, asyncio.Lock] = {}
        self.sha = ""
        self.state = "s" * STATE_BYTES
        self.push = push_frame()
        self.count = 0
        self.steps = replay() if core else []
        self.step = 0
        self.ticks = ticks
        self.owed = 0.0

    def decide(self) -> None:
        """The pure core's work for one commit (``--core``), on the replay's next step."""
        if self.steps:
            state, command, seed, seen = self.steps[self.step % len(self.steps)]
            self.step += 1
            decide_commit(state, command, seed=seed, now_ms=NOW_MS, seen=seen)

    async def start(self) -> None:
        self.sha = await self.redis.script_load(CAS)

    async def command(self, table: str, frame: str) -> str:
        message: dict[str, Any] = json.loads(frame)
        answer = await self.commit(table, message.get("id"))
        self.owed += self.ticks
        while self.owed >= 1.0:  # the timers' commits (--ticks), answered to nobody
            self.owed -= 1.0
            await self.commit(table, None)
        return answer

    async def commit(self, table: str, command_id: Any) -> str:
        self.decide()
        async with self.locks.setdefault(table, asyncio.Lock()):
            version = self.versions.get(table, 0)
            result = int(await self.redis.evalsha(self.sha, 2, f"floor:{{{table}}}",  # type: ignore[misc]
                                                  f"floor:chan:{table}", version, self.state, self.push))
            if result < 0:  # another writer: read the version and answer a conflict, as a CAS server would
                self.versions[table] = int(await self.redis.hget(f"floor:{{{table}}}", "v") or 0)
                return json.dumps({"type": "error", "id": command_id, "code": "CONFLICT"})
            self.versions[table] = result
        self.count += 1
        for viewer in tuple(self.viewers.get(table, ())):
            try:
                await viewer.send_text(self.push)
            except (WebSocketDisconnect, RuntimeError):
                self.viewers.get(table, set()).discard(viewer)
        return json.dumps({"type": "accepted", "id": command_id, "v": result})


def build(redis_url: str, *, core: bool = False, ticks: float = 0.0) -> Starlette:
    floor = Floor(redis_url, core=core, ticks=ticks)

    async def socket(websocket: WebSocket) -> None:
        table = websocket.path_params["table"]
        await websocket.accept()
        viewers = floor.viewers.setdefault(table, set())
        viewers.add(websocket)
        try:
            while True:
                frame = await websocket.receive_text()
                await websocket.send_text(await floor.command(table, frame))
        except WebSocketDisconnect:
            pass
        finally:
            viewers.discard(websocket)

    async def count(request: Request) -> PlainTextResponse:
        return PlainTextResponse(str(floor.count))

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await floor.start()
        yield
        await floor.redis.aclose()

    return Starlette(routes=[WebSocketRoute("/ws/{table}", socket), Route("/count", count)],
                     lifespan=lifespan)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--redis-url", required=True)
    parser.add_argument("--compression", action="store_true",
                        help="permessage-deflate on (uvicorn's default; paigow serve's is off, so is this)")
    parser.add_argument("--core", action="store_true",
                        help="also run the project's pure commit per command (the floor plus the core)")
    parser.add_argument("--ticks", type=float, default=0.0,
                        help="commits per command that no client sent, each with the core (with --core)")
    args = parser.parse_args()
    uvicorn.run(build(args.redis_url, core=args.core, ticks=args.ticks), host="127.0.0.1", port=args.port,
                ws="websockets-sansio", loop="uvloop", log_level="warning", access_log=False,
                server_header=False, ws_per_message_deflate=args.compression)


if __name__ == "__main__":
    main()
