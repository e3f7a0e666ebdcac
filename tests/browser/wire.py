"""Players that fill a table's other seats over the wire (docs/protocol.md) instead of in a browser each: a
guest session over HTTP, a table connection by websockets' threaded client, commands answered by id. The
browser tests use them to seat a full table cheaply on two cores."""

from __future__ import annotations

import contextlib
import itertools
import json
import queue
import threading
from collections.abc import Callable
from typing import Any

import httpx
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from paigow.protocol.version import PROTOCOL_VERSION


class WirePlayer:
    """A guest at one table; ``command`` sends a command and returns its answer. A thread reads every push
    as it comes, so the server never finds this connection slow."""

    def __init__(self, base_url: str, table_id: str, name: str, invite: str | None = None,
                 token: str | None = None) -> None:
        """``invite``: a private table's long code, said in the hello (it admits the guest); ``token``: an
        account's session (a home game's host) instead of a new guest's."""
        if token is None:
            res = httpx.post(f"{base_url}/api/session", json={"display_name": name}, timeout=10)
            assert res.status_code == 201, res.text
            token = str(res.json()["token"])
        self.name = name
        self._ids = itertools.count(1)
        ws_url = base_url.replace("http://", "ws://", 1)
        self._stack = contextlib.ExitStack()
        self.connection: ClientConnection = self._stack.enter_context(
            connect(f"{ws_url}/ws/tables/{table_id}", open_timeout=10))
        hello = {"type": "hello", "protocol": PROTOCOL_VERSION, "token": token}
        self.connection.send(json.dumps({**hello, "invite": invite} if invite else hello))
        first = json.loads(self.connection.recv(timeout=10))
        while first["type"] == "play_session":  # pushed on its own clock, it may come first
            first = json.loads(self.connection.recv(timeout=10))
        assert first["type"] == "snapshot", first
        self.player_id: str = first["player_id"]
        self._answers: queue.Queue[dict[str, Any]] = queue.Queue()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        with contextlib.suppress(ConnectionClosed):
            for text in self.connection:
                message: dict[str, Any] = json.loads(text)
                if message["type"] in ("accepted", "error") and message.get("id"):
                    self._answers.put(message)

    def command(self, kind: str, **fields: Any) -> dict[str, Any]:
        """Send a command; its answer, which must be ``accepted``."""
        command_id = f"w{next(self._ids)}"
        self.connection.send(json.dumps({"type": kind, "id": command_id, **fields}))
        while True:
            message = self._answers.get(timeout=10)
            if message.get("id") == command_id:
                assert message["type"] == "accepted", (self.name, kind, message)
                return message

    def close(self) -> None:
        self._stack.close()
        self._reader.join(timeout=5)


Wire = Callable[..., WirePlayer]
"""The ``wire`` fixture (tests/browser/conftest.py): ``wire(table_id, name, invite=None, token=None)``
connects a guest, or the account of ``token`` (unseated)."""
