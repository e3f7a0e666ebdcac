"""``PubSubProbe``: notice a pub/sub connection that hears no more of what is published, and drop it.

A subscriber gets no error when its Redis is frozen or cut off without a reset (SIGSTOP, a partition), nor
when a failover moved the primary elsewhere and its own node, alive, no longer gets the publications: it
just hears nothing. The probe subscribes its listener to a channel of its own and, every ``every_s``,
publishes on it through the ordinary client (which follows the sentinels to the current primary). When
nobody was subscribed there (PUBLISH answers 0), or the message does not come back within ``timeout_s``,
it disconnects the listener's connection; the next read reconnects, asking the sentinels where the master
is under ``redis+sentinel://``, and subscribes to every channel again. The listener then checks what it
missed meanwhile, as after any reconnection.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Callable

from paigow_server.store import keys
from paigow_server.store.channels import Channels, Message, Subscription

__all__ = ["PubSubProbe"]

log = logging.getLogger("paigow_server.pubsub")

PROBE_EVERY_S = 1.0
PROBE_TIMEOUT_S = 3.0


class PubSubProbe:
    """``await start()`` once the listener's pub/sub exists; after every read (``None`` included) call
    ``heard(message)`` — True: the probe's own message, skip it — then ``await check()``: True when the
    connection was found deaf and dropped."""

    def __init__(self, channels: Channels, subscription: Subscription, name: str, *,
                 every_s: float = PROBE_EVERY_S, timeout_s: float = PROBE_TIMEOUT_S,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._channels = channels
        self._subscription = subscription
        self._name = name
        self.channel = keys.probe_channel(secrets.token_hex(8))
        self._every_s = every_s
        self._timeout_s = timeout_s
        self._clock = clock
        self._sent_at: float | None = None
        self._last_sent = clock()
        self.dropped = 0
        """How many times a deaf connection was dropped."""

    async def start(self) -> None:
        await self._subscription.subscribe(self.channel)

    def heard(self, message: Message | None) -> bool:
        if message is None or message.channel != self.channel:
            return False
        self._sent_at = None  # answered
        return True

    async def check(self) -> bool:
        """Publish a probe when due; drop the connection when the last one was not heard."""
        now = self._clock()
        if self._sent_at is not None and now - self._sent_at >= self._timeout_s:
            await self._drop(f"a probe published {now - self._sent_at:.1f} s ago never arrived")
            return True
        if self._sent_at is None and now - self._last_sent >= self._every_s:
            self._last_sent = now
            receivers = await self._channels.publish(self.channel, "probe")
            # A cluster's PUBLISH counts the subscribers of the node it reached only: the listener may be on
            # another one, so there only the message coming back (or not) tells.
            if receivers == 0 and self._channels.counts_every_receiver:
                await self._drop("it is not subscribed on the primary any more")
                return True
            self._sent_at = now
        return False

    async def _drop(self, why: str) -> None:
        self._sent_at = None
        self._last_sent = self._clock()
        self.dropped += 1
        log.warning("%s: %s; reconnecting", self._name, why)
        await self._subscription.disconnect()
