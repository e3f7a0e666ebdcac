"""``Witness``: a spectator that writes down every version of a table it is shown, for the failover tests.

It watches one table over a WebSocket, reconnecting (to the next server process in its list) with its last
version whenever the connection drops, and keeps each ``patch`` it receives: the versions it spans and the
events and JSON Patch operations it carries. ``check_against(log)`` then holds what it saw against the
table's final event log (``TableRepo.event_log`` on the surviving primary): every version it saw must be
there, with the very events and patch the spectators' update of that commit holds. A version shown with
other events than the log keeps (a history taken back by a failover) fails the check.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from paigow.protocol.projection import SPECTATOR
from paigow.protocol.version import PROTOCOL_VERSION
from paigow.table.commit import VersionedEvents

__all__ = ["Seen", "Witness"]


@dataclass(frozen=True, slots=True)
class Seen:
    """One ``patch``: versions ``since`` + 1 .. ``version`` with their events and operations, in order."""

    since: int
    version: int
    events: list[Any]
    patch: list[Any]


@dataclass
class Witness:
    ws_bases: Sequence[str]
    table_id: str
    seen: list[Seen] = field(default_factory=list)
    shown_at: dict[int, float] = field(default_factory=dict)
    """Each version shown (by a snapshot, or within a patch) -> when first (``time.monotonic()``)."""
    version: int | None = None
    reconnects: int = 0
    _task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name=f"witness-{self.table_id}")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self) -> None:
        attempt = 0
        while True:
            base = self.ws_bases[attempt % len(self.ws_bases)]
            try:
                async with connect(f"{base}/ws/tables/{self.table_id}", open_timeout=5) as ws:
                    hello: dict[str, Any] = {"type": "hello", "protocol": PROTOCOL_VERSION}
                    if self.version is not None:
                        hello["last_version"] = self.version
                    await ws.send(json.dumps(hello))
                    async for raw in ws:
                        reply = self._receive(json.loads(raw))
                        if reply is not None:
                            await ws.send(json.dumps(reply))
            except (ConnectionClosed, OSError, InvalidStatus, TimeoutError):
                pass
            attempt += 1
            self.reconnects += 1
            await asyncio.sleep(0.2)

    def _receive(self, message: dict[str, Any]) -> dict[str, Any] | None:
        """Keep what ``message`` shows; a ``sync`` to send when a patch does not follow on."""
        kind = message.get("type")
        now = time.monotonic()
        if kind == "snapshot":
            self.version = int(message["version"])
            self.shown_at.setdefault(self.version, now)
        elif kind == "patch":
            since, version = int(message["since"]), int(message["version"])
            if since != self.version:
                return {"type": "sync", "last_version": self.version}
            if version > since:
                self.seen.append(Seen(since, version, message["events"], message["patch"]))
            for shown in range(since + 1, version + 1):
                self.shown_at.setdefault(shown, now)
            self.version = version
        return None

    def check_against(self, log: Sequence[VersionedEvents]) -> int:
        """Assert every patch seen is what the final log's spectator updates say; the versions checked."""
        updates = {commit.version: commit.views for commit in log}
        checked = 0
        for seen in self.seen:
            events: list[Any] = []
            patch: list[Any] = []
            for version in range(seen.since + 1, seen.version + 1):
                views = updates.get(version)
                assert views is not None, (f"table {self.table_id}: version {version} was shown to a "
                                           "spectator but is not in the final log")
                update = json.loads(views[SPECTATOR])
                events += update["events"]
                patch += update["patch"]
                checked += 1
            assert (seen.events, seen.patch) == (events, patch), (
                f"table {self.table_id}: versions {seen.since + 1}..{seen.version} were shown to a spectator "
                f"with other events than the final log keeps:\n seen {seen.events}\n kept {events}")
        return checked
