"""Confirmed commits: a table's commit script, then ``WAIT`` for the replicas, on one connection.

With ``Durability(replica_acks=N)`` (N > 0: a replicated Redis, e.g. behind Sentinel) a commit counts as
done only when N replicas acknowledged it: the script and ``WAIT N <ack_timeout_ms>`` go out together on
one connection (``WAIT`` counts the acknowledgements of that connection's last write), then, once
confirmed, the table's confirmed version is raised and the commit is published on the table channel from
the same connection (``confirmed.py``: every other reader stops at that version). Nothing reaches a
viewer or the client before a replica holds it, so a failover (which promotes a replica) can never take
back a commit anybody saw.

``confirmed_eval`` answers the script's own result and how many replicas acknowledged it; a connection
that breaks after the script was sent raises ``OutcomeUnknown``: the script may or may not have run
(the caller tells the client so, and the client resyncs). It never retries by itself: a retried commit
could look like a conflict with its own first attempt.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from redis.asyncio import Redis
from redis.asyncio.connection import AbstractConnection
from redis.commands.core import AsyncScript
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import NoScriptError, ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

from paigow_server.errors import ServerError

__all__ = ["BROKEN", "DEFAULT_ACK_TIMEOUT_MS", "Durability", "OutcomeUnknown", "confirmed_eval",
           "confirmed_then"]

DEFAULT_ACK_TIMEOUT_MS = 500
"""How long a commit waits for its replica acknowledgements before it is answered as unconfirmed."""


@dataclass(frozen=True, slots=True)
class Durability:
    """How many replicas must hold a commit before it counts (0: none, a lone Redis) and how long to wait."""

    replica_acks: int = 0
    ack_timeout_ms: int = DEFAULT_ACK_TIMEOUT_MS

    def __post_init__(self) -> None:
        if not 0 <= self.replica_acks <= 16:
            raise ValueError(f"replica_acks={self.replica_acks}: must be from 0 to 16")
        if not 1 <= self.ack_timeout_ms <= 60_000:
            raise ValueError(f"ack_timeout_ms={self.ack_timeout_ms}: must be from 1 to 60000")


class OutcomeUnknown(ServerError, RuntimeError):
    """The connection broke after the script was sent: it may or may not have run."""


BROKEN = (RedisConnectionError, RedisTimeoutError, OSError)
"""What a connection that broke (or timed out) mid-exchange raises."""


async def confirmed_eval(redis: Redis, script: AsyncScript, keys: Sequence[str | int],
                         args: Sequence[str | int], durability: Durability,
                         publish: tuple[str, str] | None = None,
                         confirm: tuple[str | int, ...] | None = None) -> tuple[Any, int]:
    """Run ``script`` and ``WAIT``; (the script's reply, replicas that acknowledged it). When the script
    answered ``OK`` (or a list whose first item is ``OK``) with enough acknowledgements, ``confirm`` (a
    command that records the confirmation, ``confirmed.CONFIRM_SCRIPT``) and then ``publish`` (channel,
    message) are sent from the same connection, in one round trip. Errors the script raises
    (``NOREPLICAS``: the node refuses writes while no replica is in sync) are raised as they are: nothing
    was written."""
    pool = redis.connection_pool
    conn = await pool.get_connection()  # type: ignore[no-untyped-call]
    try:
        await conn.connect()  # a failure here sent nothing: it is raised as it is
        try:
            reply, acked = await _eval_wait(conn, script, keys, args, durability)
            if _status(reply) == "OK" and acked >= durability.replica_acks:
                await _after_confirmed(conn, confirm, publish)
            return reply, acked
        except BROKEN as exc:
            await conn.disconnect()
            raise OutcomeUnknown(str(exc) or type(exc).__name__) from exc
    finally:
        await pool.release(conn)


async def confirmed_then(redis: Redis, script: AsyncScript, keys: Sequence[str | int],
                         args: Sequence[str | int | bytes], durability: Durability,
                         then: Callable[[Any], tuple[AsyncScript, Sequence[str], Sequence[str | int]]],
                         ) -> tuple[Any, int, Any]:
    """``confirmed_eval`` with one script to follow a confirmed commit (``then(reply)``: the script, its keys
    and arguments, sent by ``EVALSHA`` from the same connection, e.g. one that confirms and publishes): (the
    script's reply, the acknowledgements, ``then``'s reply or None when it did not run or failed). Two round
    trips: the script and ``WAIT`` together, then ``then``."""
    pool = redis.connection_pool
    conn = await pool.get_connection()  # type: ignore[no-untyped-call]
    try:
        await conn.connect()  # a failure here sent nothing: it is raised as it is
        try:
            reply, acked = await _eval_wait(conn, script, keys, args, durability)
        except BROKEN as exc:
            await conn.disconnect()
            raise OutcomeUnknown(str(exc) or type(exc).__name__) from exc
        if _status(reply) != "OK" or acked < durability.replica_acks:
            return reply, acked, None
        try:
            return reply, acked, await _run(conn, *then(reply))
        except ResponseError:  # e.g. NOREPLICAS: the commit stands, confirmed later (``ShownTables.repair``)
            return reply, acked, None
        except BROKEN:
            await conn.disconnect()
            return reply, acked, None
    finally:
        await pool.release(conn)


async def _run(conn: AbstractConnection, script: AsyncScript, keys: Sequence[str],
               args: Sequence[str | int]) -> Any:
    """``script`` by ``EVALSHA`` on ``conn`` (loaded first on a node that does not know it)."""
    for _attempt in range(2):
        await conn.send_command("EVALSHA", script.sha, len(keys), *keys, *args)
        try:
            return await conn.read_response()
        except NoScriptError:
            await conn.send_command("SCRIPT", "LOAD", script.script)
            await conn.read_response()
    raise ResponseError(f"script {script.sha} could not be loaded")


async def _after_confirmed(conn: AbstractConnection, confirm: tuple[str | int, ...] | None,
                           publish: tuple[str, str] | None) -> None:
    """Record the confirmation, then publish. Neither may undo the commit: a failure leaves the mark for
    the next commit or the fanout's repair (``confirmed.ShownTables.repair``), the publication to the
    feeds' version check."""
    commands: list[tuple[str | int, ...]] = []
    if confirm is not None:
        commands.append(confirm)
    if publish is not None:
        commands.append(("PUBLISH", *publish))
    if not commands:
        return
    try:
        await conn.send_packed_command(conn.pack_commands(commands))
        for _ in commands:
            with contextlib.suppress(ResponseError):  # e.g. NOREPLICAS: the connection stays in step
                await conn.read_response()
    except BROKEN:
        await conn.disconnect()


def _status(reply: Any) -> str:
    first = reply[0] if isinstance(reply, list) and reply else reply
    return first.decode() if isinstance(first, bytes) else str(first)


async def _eval_wait(conn: AbstractConnection, script: AsyncScript, keys: Sequence[str | int],
                     args: Sequence[str | int | bytes], durability: Durability) -> tuple[Any, int]:
    wait = ("WAIT", durability.replica_acks, durability.ack_timeout_ms)
    for _attempt in range(2):
        await conn.send_packed_command(conn.pack_commands(
            [("EVALSHA", script.sha, len(keys), *keys, *args), wait]))
        try:
            reply = await conn.read_response()
        except NoScriptError:  # a new or restarted node: load the script, then run it again
            await conn.read_response()
            await conn.send_command("SCRIPT", "LOAD", script.script)
            await conn.read_response()
            continue
        except ResponseError:
            await conn.read_response()  # WAIT's answer: the connection stays in step
            raise
        acked = int(await conn.read_response())
        return reply, acked
    raise ResponseError(f"script {script.sha} could not be loaded")
