"""How many of the project's files one bet passes through, from its frame in to the pushes it causes.

Run: ``python benchmarks/bench_bet_path.py [--bets N]``. A private Redis and the app on a real uvicorn in
this process (long timers: no deadline falls inside the measured window); a guest, through the documented
HTTP and WebSocket API only, sits at a table the operator opened and, each round, places one bet while a
profiler (``sys.setprofile``) records every Python function called, until the bet's ``accepted`` and its
push have both arrived. Printed: the files of the project (``server/paigow_server``, ``shared/paigow``)
whose code was called (a coroutine resumed where it awaited is not a call: the middleware and handler
frames that merely hold the connection's task are not counted), by folder, for the median bet (the
window may also catch a background task's step: the median of several bets leaves those out), and the
list of files. ``PYTHONPATH=OTHER/server:OTHER/shared`` measures another checkout with this script.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dis
import inspect
import json
import statistics
import sys
import tempfile
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from types import CodeType, FrameType
from typing import Any

import httpx
import uvicorn
import websockets

import harness_path  # noqa: F401  (tests/ on sys.path: the test harness)
import paigow
import paigow_server
from paigow.protocol.patch import apply_patch
from paigow_server.app import create_app
from paigow_server.process.embedded_redis import EmbeddedRedis, free_port
from paigow_server.process.settings import Settings
from paigow_server.web.ws_protocol import WebSocketProtocol

PACKAGES = (Path(paigow.__file__).parent, Path(paigow_server.__file__).parent)
"""The checkout measured: where ``paigow`` and ``paigow_server`` are imported from."""
PROJECT = tuple(str(p) + "/" for p in PACKAGES)
ROOT = PACKAGES[0].parent.parent
OPERATOR = "bench-operator-token-0123456789"


class _Server(uvicorn.Server):
    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


@contextlib.asynccontextmanager
async def serving(data_dir: Path) -> AsyncIterator[str]:
    redis = EmbeddedRedis(data_dir / "redis", appendonly=False)
    url = redis.start()
    try:
        settings = Settings(redis_url=url, data_dir=data_dir / "data", operator_token=OPERATOR,
                            log_format="plain")
        port = free_port()
        server = _Server(uvicorn.Config(create_app(settings), host="127.0.0.1", port=port,
                                        ws=WebSocketProtocol, lifespan="on", log_config=None))
        task = asyncio.create_task(server.serve())
        for _ in range(1_000):
            if server.started:
                break
            await asyncio.sleep(0.01)
        yield f"127.0.0.1:{port}"
        server.should_exit = True
        await task
    finally:
        redis.stop()


_SUSPENDABLE = inspect.CO_COROUTINE | inspect.CO_GENERATOR | inspect.CO_ASYNC_GENERATOR
_FIRST_RESUME: dict[CodeType, int] = {}


def started(frame: FrameType) -> bool:
    """A call that starts running ``frame``'s code, not a coroutine or generator resumed where it awaited
    (``sys.setprofile`` reports both as ``call``): a suspendable frame starts at its first ``RESUME``."""
    code = frame.f_code
    if not code.co_flags & _SUSPENDABLE:
        return True
    first = _FIRST_RESUME.get(code)
    if first is None:
        first = _FIRST_RESUME[code] = next(
            (i.offset for i in dis.get_instructions(code) if i.opname == "RESUME"), 0)
    return frame.f_lasti <= first


class Player:
    def __init__(self, ws: Any, player_id: str) -> None:
        self.ws = ws
        self.player_id = player_id
        self.set_rounds: set[int] = set()
        self.view: dict[str, Any] = {}
        self.ids = 0

    def take(self, text: str) -> dict[str, Any]:
        frame: dict[str, Any] = json.loads(text)
        if frame["type"] == "snapshot":
            self.view = frame["view"]
        elif frame["type"] == "patch":
            self.view = apply_patch(self.view, frame["patch"])
        return frame

    async def send(self, kind: str, **fields: Any) -> str:
        self.ids += 1
        await self.ws.send(json.dumps({"type": kind, "id": f"c{self.ids}", **fields}))
        return f"c{self.ids}"

    async def until_betting(self) -> None:
        while True:
            you = self.view.get("you") or {}
            if self.view.get("phase") == "betting" and you.get("bet_cents") == 0:
                return
            if self.view.get("phase") == "bank_offer" and you.get("offered_bank"):
                await self.send("decline_bank")
            elif self.view.get("phase") == "setting":
                number = self.view["round"]["number"]
                mine = [h for h in self.view["round"]["hands"] if h["player_id"] == self.player_id]
                if mine and not mine[0]["is_set"] and number not in self.set_rounds:
                    self.set_rounds.add(number)
                    await self.send("use_house_way")
            self.take(await asyncio.wait_for(self.ws.recv(), 60))


async def measure(bets: int) -> list[set[str]]:
    seen: list[set[str]] = []
    with tempfile.TemporaryDirectory() as tmp:
        async with serving(Path(tmp)) as host:
            auth = {"Authorization": f"Bearer {OPERATOR}"}
            timers = {"bank_offer_ms": 60_000, "betting_ms": 60_000, "setting_ms": 60_000,
                      "between_rounds_ms": 300}
            async with httpx.AsyncClient(base_url=f"http://{host}") as http:
                opened = await http.post("/api/operator/tables", headers=auth,
                                         json={"name": "Bench", "timers": timers})
                table_id = opened.json()["table_id"]
                guest = (await http.post("/api/session", json={"display_name": "Bettor"})).json()
            async with websockets.connect(f"ws://{host}/ws/tables/{table_id}") as ws:
                player = Player(ws, guest["player_id"])
                await ws.send(json.dumps({"type": "hello", "protocol": 2, "token": guest["token"]}))
                player.take(await ws.recv())
                await player.send("sit", seat=1, buy_in_cents=50_000)
                for _ in range(bets):
                    await player.until_betting()
                    files: set[str] = set()

                    def profile(frame: FrameType, event: str, arg: object, files: set[str] = files) -> None:
                        if event == "call" and started(frame):
                            files.add(frame.f_code.co_filename)

                    answered = pushed = False
                    sys.setprofile(profile)
                    try:
                        command_id = await player.send("place_bet", amount_cents=500)
                        while not (answered and pushed):
                            text = await asyncio.wait_for(ws.recv(), 10)
                            frame = json.loads(text)
                            answered = answered or frame.get("id") == command_id
                            pushed = pushed or frame["type"] == "patch"
                            if frame["type"] in ("patch", "snapshot"):
                                sys.setprofile(None)
                                player.take(text)
                                sys.setprofile(profile)
                    finally:
                        sys.setprofile(None)
                    if frame.get("type") == "error":
                        raise RuntimeError(f"the bet was refused: {frame}")
                    seen.append({f for f in files if f.startswith(PROJECT)})
    return seen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bets", type=int, default=5)
    args = parser.parse_args()
    seen = asyncio.run(measure(args.bets))
    counts = [len(s) for s in seen]
    median = sorted(seen, key=len)[len(seen) // 2]
    print(f"files of the project a bet passes through, per bet: {counts} (median "
          f"{statistics.median(counts):g})")
    folders: dict[str, int] = {}
    for path in median:
        folder = str(Path(path).relative_to(ROOT).parent)
        folders[folder] = folders.get(folder, 0) + 1
    print(f"median bet: {len(median)} files in {len(folders)} folders")
    for folder, count in sorted(folders.items()):
        print(f"  {folder}: {count}")
    for path in sorted(median):
        print(f"    {Path(path).relative_to(ROOT)}")


if __name__ == "__main__":
    main()
