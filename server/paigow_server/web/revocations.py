"""Revoked sessions reach every process: a message on ``paigow:revocations``, and one listener per process.

Signing out publishes ``{"token_hash"}``; signing out everywhere ``{"player_id"}``; disabling an operator
or signing one out ``{"operator"}`` / ``{"token_hash"}``. Each process's ``RevocationListener`` hands the
message to a callback that closes the matching table connections (``UNAUTHORIZED``, close 4401). The
same connection carries the process's other channels (``also``: the play-sessions channel). A
message lost while a process was cut from Redis is made up for by ``SessionWatch``, which re-checks every
open connection's token about once a minute.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from dataclasses import asdict, dataclass

from paigow_server.process.tasks import stop_task
from paigow_server.store import keys
from paigow_server.store.channels import Channels
from paigow_server.store.errors import StoreUnavailable

__all__ = ["RevocationListener", "Revoked", "publish_revocation"]

log = logging.getLogger("paigow_server.revocations")

_RECONNECT_PAUSE_S = 0.5


@dataclass(frozen=True, slots=True)
class Revoked:
    """Exactly one field is set: what was revoked."""

    player_id: str | None = None
    token_hash: str | None = None
    operator: str | None = None

    def to_json(self) -> str:
        return json.dumps({k: v for k, v in asdict(self).items() if v is not None})

    @classmethod
    def from_json(cls, text: str) -> Revoked | None:
        try:
            data = json.loads(text)
        except ValueError:
            return None
        if not isinstance(data, dict) or len(data) != 1 or not all(isinstance(v, str) for v in data.values()):
            return None
        name = next(iter(data))
        return cls(**{name: data[name]}) if name in ("player_id", "token_hash", "operator") else None


async def publish_revocation(channels: Channels, revoked: Revoked) -> None:
    await channels.publish(keys.REVOCATIONS, revoked.to_json())


class RevocationListener:
    def __init__(self, channels: Channels, on_revoked: Callable[[Revoked], None], *,
                 also: dict[str, Callable[[str | bytes], None]] | None = None) -> None:
        self._channels = channels
        self._on_revoked = on_revoked
        self._also = dict(also or {})
        """Other channels this process listens to on the same connection, each with its callback (given
        the message's payload): ``paigow:play-sessions``."""
        self._task: asyncio.Task[None] | None = None
        self._ready = asyncio.Event()

    async def start(self) -> None:
        self._task = asyncio.create_task(self._listen(), name="paigow-revocations")
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._ready.wait(), 2.0)

    async def stop(self) -> None:
        task, self._task = self._task, None
        await stop_task(task)

    async def _listen(self) -> None:
        while True:
            subscription = self._channels.subscription()
            try:
                await subscription.subscribe(keys.REVOCATIONS, *self._also)
                self._ready.set()
                while True:
                    message = await subscription.receive(30.0)
                    if message is None:
                        continue
                    data = message.data
                    other = self._also.get(message.channel)
                    if other is not None:
                        other(data)
                        continue
                    revoked = Revoked.from_json(data.decode() if isinstance(data, bytes) else str(data))
                    if revoked is None:
                        log.warning("ignored a malformed revocation %r", data)
                        continue
                    self._on_revoked(revoked)
            except StoreUnavailable as exc:
                log.warning("revocation listener lost Redis (%s); resubscribing", exc)
                await asyncio.sleep(_RECONNECT_PAUSE_S)
            finally:
                await subscription.close()
