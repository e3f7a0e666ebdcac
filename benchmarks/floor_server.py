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


class Floor:
    def __init__(self, redis_url: str) -> None:
        self.redis = aioredis.Redis.from_url(redis_url)
        self.viewers: dict[str, set[WebSocket]] = {}
        self.versions: dict[str, int] = {}
        self.locks: dict[str, asyncio.Lock] = {}
        self.sha = ""
        self.state = "s" * STATE_BYTES
        self.push = push_frame()
        self.count = 0

    async def start(self) -> None:
        self.sha = await self.redis.script_load(CAS)

    async def command(self, table: str, frame: str) -> str:
        message: dict[str, Any] = json.loads(frame)
        async with self.locks.setdefault(table, asyncio.Lock()):
            version = self.versions.get(table, 0)
            result = int(await self.redis.evalsha(self.sha, 2, f"floor:{{{table}}}",  # type: ignore[misc]
                                                  f"floor:chan:{table}", version, self.state, self.push))
            if result < 0:  # another writer: read the version and answer a conflict, as a CAS server would
                self.versions[table] = int(await self.redis.hget(f"floor:{{{table}}}", "v") or 0)
                return json.dumps({"type": "error", "id": message.get("id"), "code": "CONFLICT"})
            self.versions[table] = result
        self.count += 1
        for viewer in tuple(self.viewers.get(table, ())):
            try:
                await viewer.send_text(self.push)
            except (WebSocketDisconnect, RuntimeError):
                self.viewers.get(table, set()).discard(viewer)
        return json.dumps({"type": "accepted", "id": message.get("id"), "v": result})


def build(redis_url: str) -> Starlette:
    floor = Floor(redis_url)

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
    args = parser.parse_args()
    uvicorn.run(build(args.redis_url), host="127.0.0.1", port=args.port, ws="websockets-sansio",
                loop="uvloop", log_level="warning", access_log=False, server_header=False,
                ws_per_message_deflate=args.compression)


if __name__ == "__main__":
    main()
