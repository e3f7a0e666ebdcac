"""``Router``: send each table command to the one process that drives the table.

Every process listens on its own Redis channel (``paigow:proc:<owner>``). To execute a command on a table:

1. we hold the table's lease (or can take it: nobody holds it) → execute here, with our fencing token;
2. another process holds it → PUBLISH the command on that process's channel and wait for its answer on
   ours. PUBLISH says how many listeners got it: 0 means the owner is gone (its lease has not expired
   yet), so we wait for the lease to expire and take the table over;
3. a write refused by the fence (we lost the lease while working) or an owner that does not answer in
   time → forget what we believed and route again, until ``deadline_s`` runs out.

A command runs once however often it is sent: ``execute`` gives it one request id for all its attempts
once it has been sent to another process (forwarded or, after that, local), the owner passes the id to
``TableService.execute_owned``, whose commit records it atomically with the state
(``paigow:table:{id}:requests``), and an id already committed is answered with that commit instead of being
decided again, by whichever process holds the table then. A command only ever tried where it arrived needs
none of that (a fenced write wrote nothing).

Answers carry the outcome: ``Executed`` (version, state, events) or the ``Rejection`` / ``ServiceError``
with its code and message, raised again on the asking side exactly as a local execution would raise it.
A request carries its deadline (wall clock); the owner drops requests that arrive after it, so a command
the asker gave up on is never executed late.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from prometheus_client import CollectorRegistry, Counter, Gauge
from pydantic import TypeAdapter

from paigow.protocol.codes import ErrorCode
from paigow.table.commands import Command
from paigow.table.events import Event
from paigow.table.rejections import REJECTION_FIELDS, RejectCode, Rejection
from paigow.table.state import TableState
from paigow_server.errors import ServerError, wire_error
from paigow_server.process.tasks import stop_task
from paigow_server.realtime.lease import Lease, LeaseHolder, LeaseManager
from paigow_server.realtime.pubsub_probe import PubSubProbe
from paigow_server.realtime.tables import Executed, FencedError, ServiceError
from paigow_server.store.channels import Channels, Subscription
from paigow_server.store.errors import StoreUnavailable

__all__ = ["LocalExecutor", "RouteTimeoutError", "Router", "new_request_id", "process_channel"]

log = logging.getLogger("paigow_server.router")

_COMMAND = TypeAdapter[Command](Command)
_STATE = TypeAdapter(TableState)
_EVENTS = TypeAdapter(tuple[Event, ...])
_ERRORS: dict[str, type[ServerError]] = {}
"""The server's errors by class name (unique: ``paigow_server.errors``), those made of a message alone."""


def process_channel(owner: str) -> str:
    """The pub/sub channel of one server process (requests to it and answers for it)."""
    return f"paigow:proc:{owner}"


class RouteTimeoutError(ServiceError):
    """No process could execute the command in time (owner unresponsive, Redis down)."""

    code = ErrorCode.BUSY


class LocalExecutor(Protocol):
    """``TableService.execute_owned``: execute here, writing with ``fence`` as the fencing token."""

    def __call__(self, table_id: str, command: Command, *, received_at: float | None,
                 fence: int | None, request_id: str | None) -> Awaitable[Executed]: ...


def _encode_executed(executed: Executed) -> dict[str, Any]:
    return {"ok": True, "version": executed.version,
            "state": _STATE.dump_python(executed.state, mode="json"),
            "events": _EVENTS.dump_python(executed.events, mode="json")}


def _decode_executed(body: dict[str, Any]) -> Executed:
    return Executed(int(body["version"]), _STATE.validate_python(body["state"]),
                    _EVENTS.validate_python(body["events"]))


def _encode_error(exc: Rejection | ServerError) -> dict[str, Any]:
    if isinstance(exc, Rejection):
        return {"ok": False, "rejection": str(exc.code), "message": exc.message, **exc.fields}
    return {"ok": False, "error": type(exc).__name__, "code": str(exc.code), "message": exc.message,
            **({"fields": dict(exc.fields)} if exc.fields else {})}


def _raise_error(body: dict[str, Any]) -> None:
    if "rejection" in body:
        raise Rejection(RejectCode(body["rejection"]), str(body["message"]),
                        **{name: int(body[name]) for name in REJECTION_FIELDS if body.get(name) is not None})
    if body.get("error") == "StoreUnavailable":
        raise StoreUnavailable(f"the owner of the table: {body['message']}")
    if not _ERRORS:
        pending: list[type[ServerError]] = [ServerError]
        while pending:
            cls = pending.pop()
            if cls.__init__ is ServerError.__init__:
                _ERRORS[cls.__name__] = cls
            pending.extend(cls.__subclasses__())
    cls = _ERRORS.get(str(body.get("error")), ServiceError)
    error = cls(str(body["message"]))
    if cls is ServiceError:
        error.code = ErrorCode(body.get("code", ErrorCode.INTERNAL_ERROR))
    error.fields = {str(k): int(v) for k, v in dict(body.get("fields") or {}).items()}
    raise error


def new_request_id() -> str:
    """An id for one command's attempts (unguessable, so one client cannot collide with another's)."""
    return secrets.token_hex(16)


class Router:
    """One per process; ``execute`` is what ``TableService.execute`` calls when a router is attached."""

    def __init__(self, channels: Channels, leases: LeaseManager, local: LocalExecutor | None = None, *,
                 deadline_s: float = 10.0, answer_timeout_s: float = 3.0,
                 clock_ms: Callable[[], int] = lambda: time.time_ns() // 1_000_000,
                 registry: CollectorRegistry | None = None) -> None:
        self.channels = channels
        self.leases = leases
        self.local = local
        self.deadline_s = deadline_s
        self.answer_timeout_s = answer_timeout_s
        self.clock_ms = clock_ms
        self.channel = process_channel(leases.owner)
        self.forwarded = 0
        """Commands this process sent to another owner (for metrics and the benchmarks)."""
        self.served = 0
        """Commands other processes sent to this one."""
        self._counters = {
            name: Counter(f"paigow_router_{name}", text, registry=registry)
            for name, text in (("forwarded", "Commands sent to the process that holds the table's lease"),
                               ("served", "Commands executed here for another process"),
                               ("fenced", "Writes refused because another process took the table over"),
                               ("timeouts", "Commands no process could execute in time"))
        }
        Gauge("paigow_leases_held", "Tables this process drives (table leases it holds)",
              registry=registry).set_function(lambda: len(self.leases.held_ids()))
        self._pending: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._subscription: Subscription | None = None
        self._probe: PubSubProbe | None = None
        self._listener: asyncio.Task[None] | None = None
        self._workers: set[asyncio.Task[None]] = set()

    @property
    def owner(self) -> str:
        return self.leases.owner

    def bind(self, local: LocalExecutor) -> None:
        """Set the local executor (``TableService.execute_owned``) when the service is built after us."""
        self.local = local

    # -- lifecycle -------------------------------------------------------------------------------------
    async def start(self) -> None:
        if self._listener is not None:
            return
        self._subscription = self.channels.subscription()
        await self._subscription.subscribe(self.channel)
        self._probe = PubSubProbe(self.channels, self._subscription, "router channel")
        await self._probe.start()
        self._listener = asyncio.create_task(self._listen(), name=f"router-{self.owner}")
        await self.leases.start()

    async def stop(self) -> None:
        """Stop listening, finish the requests in hand, release every lease (others take over at once)."""
        listener, self._listener = self._listener, None
        if listener is not None:
            await stop_task(listener)
        if self._workers:
            await asyncio.wait(list(self._workers), timeout=self.answer_timeout_s)
        await self.leases.stop(release=True)
        if self._subscription is not None:
            await self._subscription.close()
            self._subscription = None
        for future in self._pending.values():
            future.cancel()

    # -- routing ---------------------------------------------------------------------------------------
    def drives(self, table_id: str) -> bool:
        """This process holds ``table_id``'s lease (as far as it knows: the fence has the last word)."""
        return self.leases.held(table_id) is not None

    async def claim(self, table_id: str) -> bool:
        """Do we drive ``table_id`` (taking its lease if it is free)? The timers tick only these."""
        if self.leases.held(table_id) is not None:
            return True
        return isinstance(await self.leases.acquire(table_id), Lease)

    async def execute(self, table_id: str, command: Command, *, received_at: float | None = None,
                      within_s: float | None = None, request_id: str | None = None) -> Executed:
        """Run ``command`` where the table is driven; give up after ``within_s`` (default ``deadline_s``).
        ``request_id``: the id of a request another process sent us (its every attempt carries it). A command
        that has been sent to another process (by us, or to us) may have run there already, so from then on
        each attempt carries its id and runs at most once; a command only ever tried here carries none (a
        fenced attempt wrote nothing), and costs no request bookkeeping."""
        limit_s = self.deadline_s if within_s is None else within_s
        sent = request_id is not None
        request_id = request_id or new_request_id()
        give_up = time.monotonic() + limit_s
        while True:
            lease = self.leases.held(table_id)
            where: Lease | LeaseHolder = lease if lease is not None else await self.leases.acquire(table_id)
            if isinstance(where, Lease):
                if self.local is None:
                    raise RuntimeError("Router.bind(service.execute_owned) was not called")
                try:
                    return await self.local(table_id, command, received_at=received_at, fence=where.token,
                                            request_id=request_id if sent else None)
                except FencedError:
                    self._counters["fenced"].inc()
                    log.warning("fenced write: lease of table %s lost", table_id,
                                extra={"table_id": table_id})
                    self.leases.forget(table_id)
            else:
                remaining = give_up - time.monotonic()
                sent = True
                body = await self._forward(where, command, request_id,
                                           min(self.answer_timeout_s, max(remaining, 0.05)))
                if body is not None:
                    if body.get("ok"):
                        return _decode_executed(body)
                    _raise_error(body)
                # gone or silent owner: wait a little (for the lease to expire) and try again
                await asyncio.sleep(min(max(where.ttl_ms, 20) / 1000, 0.25))
            if time.monotonic() >= give_up:
                self._counters["timeouts"].inc()
                raise RouteTimeoutError(f"table {table_id!r}: no process could run {command.kind} within "
                                        f"{limit_s:.3g} s; nothing changed, send it again")

    async def _forward(self, holder: LeaseHolder, command: Command, request_id: str,
                       timeout_s: float) -> dict[str, Any] | None:
        """Send to the owner and wait for its answer; ``None`` if nobody listened or no answer came. An
        answer to an earlier attempt of the same request, arriving late, is taken as this one's."""
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[request_id] = future
        message = json.dumps({
            "kind": "request", "id": request_id, "reply_to": self.channel, "table_id": holder.table_id,
            "deadline_ms": self.clock_ms() + int(timeout_s * 1000),
            "command": _COMMAND.dump_python(command, mode="json"),
        })
        try:
            receivers = await self.channels.publish(process_channel(holder.owner), message)
            if receivers == 0:
                return None
            self.forwarded += 1
            self._counters["forwarded"].inc()
            return await asyncio.wait_for(future, timeout_s)
        except TimeoutError:
            log.warning("owner %s of table %s did not answer in %.1f s", holder.owner, holder.table_id,
                        timeout_s, extra={"table_id": holder.table_id})
            return None
        finally:
            self._pending.pop(request_id, None)

    # -- the listening side ------------------------------------------------------------------------------
    async def _listen(self) -> None:
        subscription = self._subscription
        assert subscription is not None
        probe = self._probe
        assert probe is not None
        while True:
            try:
                message = await subscription.receive(1.0)
                if probe.heard(message):
                    continue
                await probe.check()
            except StoreUnavailable:
                log.exception("router channel failed; resubscribing")
                await asyncio.sleep(0.5)
                with contextlib.suppress(StoreUnavailable):
                    await subscription.subscribe(self.channel)
                continue
            if message is None:
                continue
            try:
                body = json.loads(message.data)
            except (TypeError, ValueError):
                log.error("unreadable router message on %s", self.channel)
                continue
            if body.get("kind") == "answer":
                future = self._pending.get(str(body.get("id")))
                if future is not None and not future.done():
                    future.set_result(body)
            elif body.get("kind") == "request":
                worker = asyncio.create_task(self._serve(body))
                self._workers.add(worker)
                worker.add_done_callback(self._workers.discard)

    async def _serve(self, request: dict[str, Any]) -> None:
        left_ms = int(request["deadline_ms"]) - self.clock_ms()
        if left_ms <= 0:
            return  # the asker gave up already: never run a command late
        table_id = str(request["table_id"])
        command = _COMMAND.validate_python(request["command"])
        self.served += 1
        self._counters["served"].inc()
        try:
            executed = await self.execute(table_id, command, within_s=left_ms / 1000,
                                          request_id=str(request["id"]))
            answer = _encode_executed(executed)
        except Exception as exc:  # a refusal is told; a failure of the server's own is INTERNAL_ERROR
            if isinstance(exc, StoreUnavailable):  # the asker answers it as its own (``_raise_error``)
                log.error("forwarded %s on table %s failed: %s", command.kind, table_id, exc)
                answer = {"ok": False, "error": "StoreUnavailable", "code": str(exc.code),
                          "message": exc.message}
            elif isinstance(exc, Rejection | ServerError) and wire_error(exc) is not None:
                answer = _encode_error(exc)
            else:
                log.exception("forwarded %s on table %s failed", command.kind, table_id)
                answer = {"ok": False, "error": "ServiceError", "code": str(ErrorCode.INTERNAL_ERROR),
                          "message": "internal error"}
        answer.update(kind="answer", id=request["id"])
        with contextlib.suppress(StoreUnavailable):
            await self.channels.publish(str(request["reply_to"]), json.dumps(answer))
