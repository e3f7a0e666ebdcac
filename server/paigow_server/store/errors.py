"""``StoreUnavailable``: the one error the store raises when Redis fails or cannot be reached.

Nothing above the store knows redis-py's errors. Every store object the other layers call is a
``@store_boundary`` class (or a ``@guarded`` function): a ``RedisError`` or an ``OSError`` leaving one of
its coroutine methods leaves as a ``StoreUnavailable`` (``from`` the original). The translation costs nothing
while nothing fails: it is one ``try`` around the call, and Python's ``try`` is free until it raises.

The translated error is still an instance of the original class too (a ``StoreUnavailable`` made for
``WatchError`` is a ``WatchError``), so a store method that calls another and handles a particular Redis
error (a lost ``WATCH``, a flushed script, a connection that broke mid-exchange) keeps handling it.

The HTTP API answers it ``503 UNAVAILABLE`` (``app.py``), a table command ``INTERNAL_ERROR`` ("the data
store is unavailable; nothing changed"); background tasks log it and try again on their next turn.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, ParamSpec, TypeVar

from redis.exceptions import RedisError

from paigow.protocol.codes import ErrorCode
from paigow_server.errors import ServerError

__all__ = ["FAILURES", "StoreUnavailable", "guarded", "store_boundary", "unavailable"]

P = ParamSpec("P")
R = TypeVar("R")
T = TypeVar("T")

FAILURES = (RedisError, OSError)
"""What redis-py raises when Redis fails or cannot be reached (a socket error can escape it unwrapped)."""


class StoreUnavailable(ServerError):
    """Redis failed or could not be reached; the message is the Redis client's. Answered ``INTERNAL_ERROR``
    on the wire ("the data store is unavailable"), ``503 UNAVAILABLE`` over HTTP."""

    code = ErrorCode.INTERNAL_ERROR
    http_status = 503
    http_code = "UNAVAILABLE"

    def __init__(self, *args: object) -> None:
        # Not ``ServerError.__init__`` (one message): a translated error is also its original class
        # (``_kind``), whose own constructor takes the original's arguments.
        super(ServerError, self).__init__(*args)
        self.message = PUBLIC_MESSAGE  # what a client may read: the Redis client's words stay in ``args``


PUBLIC_MESSAGE = "the data store is unavailable"
"""``StoreUnavailable.message``: never the Redis client's own words (host names, ports, errno)."""

_KINDS: dict[type[BaseException], type[StoreUnavailable]] = {}


def _reduce(self: StoreUnavailable) -> tuple[Any, tuple[Any, ...]]:
    """Pickled as what it is made of (a process pool, a log queue): the original error, translated again."""
    original = next(c for c in type(self).__mro__[2:] if not issubclass(c, StoreUnavailable)
                    and c is not ServerError)
    return _rebuild, (original, self.args)


def _rebuild(original: type[BaseException], args: tuple[Any, ...]) -> StoreUnavailable:
    return unavailable(original(*args))


def _kind(original: type[BaseException]) -> type[StoreUnavailable]:
    kind = _KINDS.get(original)
    if kind is None:
        try:
            kind = type(f"StoreUnavailable[{original.__name__}]", (StoreUnavailable, original),
                        {"__module__": __name__, "__reduce__": _reduce})
        except TypeError:  # a class that cannot be combined: the plain one
            kind = StoreUnavailable
        _KINDS[original] = kind
    return kind


def unavailable(exc: BaseException) -> StoreUnavailable:
    """``exc`` as a ``StoreUnavailable`` that is still an instance of ``exc``'s class."""
    if isinstance(exc, StoreUnavailable):
        return exc
    try:
        translated = _kind(type(exc))(*exc.args)
    except Exception:  # an error class whose constructor wants other arguments
        translated = StoreUnavailable(*exc.args)
    translated.__dict__.update(getattr(exc, "__dict__", {}))
    return translated


def guarded(call: Callable[P, Awaitable[R]]) -> Callable[P, Coroutine[Any, Any, R]]:
    """``call`` raising ``StoreUnavailable`` where it raised a ``RedisError`` or an ``OSError``."""

    @functools.wraps(call)
    async def run(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return await call(*args, **kwargs)
        except StoreUnavailable:
            raise
        except FAILURES as exc:
            raise unavailable(exc) from exc

    return run


def store_boundary(cls: type[T]) -> type[T]:
    """Every public coroutine method of ``cls`` ``@guarded``: what the other layers call of a store object."""
    for name, member in list(vars(cls).items()):
        if not name.startswith("_") and inspect.iscoroutinefunction(member):
            setattr(cls, name, guarded(member))
    return cls
