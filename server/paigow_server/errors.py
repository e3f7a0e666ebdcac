"""The server's errors: one tree under ``ServerError``, and the one mapping of it to the wire and to HTTP.

Every error the server raises is a ``ServerError``. Its class (or, for a few, the instance) says how it is
answered: ``code``, the wire's ``ErrorCode`` in an ``error`` message (docs/protocol.md) and the ``"error"``
of an HTTP error body (docs/http-api.md) unless ``http_code`` names another one; ``http_status``; and
``message``, what the client reads. ``http_status`` 500 means a failure of the server's own (a bug, a
record that does not add up): it is logged and answered ``INTERNAL_ERROR`` without its message, never
told. A refusal by the table's rules is not a server error: it is the core's
``paigow.table.rejections.Rejection`` (its ``RejectCode`` on the wire, 409 over HTTP). The core's own
failures (``paigow.ledger``'s ``EffectsError``, ``FortuneEntriesError``: a record that does not add up) are
not either: like any other exception they are the server's own failure, logged and answered
``INTERNAL_ERROR``.

``wire_error`` and ``http_error`` are that mapping; the table connection (``web.ws``) and the JSON API
(``web.api.api_error_response``, the operator's table actions) both answer through them. Most classes keep
the built-in base they had beside ``ServerError`` (``ValueError``, ``RuntimeError``, ``LookupError``), so
what catches those still catches them. Redis's own errors are the data store being unavailable (the wire's
``INTERNAL_ERROR``, HTTP ``503 UNAVAILABLE``)::

    ServerError                                  INTERNAL_ERROR   500
    ├── ApiError (here)                          an HTTP error answer: its own status, code, message,
    │                                            headers (the API's handlers; the bots, for one they got)
    ├── ServiceError (realtime.tables)           INTERNAL_ERROR   503   a command not executed
    │   ├── TableNotFoundError                   TABLE_NOT_FOUND  404
    │   ├── TableBusyError, FencedError,         BUSY             503
    │   │   RouteTimeoutError (realtime.router)
    │   └── UnconfirmedError                     UNCONFIRMED      503
    ├── TableGoneError (realtime.table_feed)     TABLE_NOT_FOUND  404
    ├── AccountError (store.accounts)            INVALID_FIELD    400
    │   ├── InsufficientBalanceError             INSUFFICIENT_BALANCE 409 (a buy-in, or a debit)
    │   ├── UnknownPlayerError                   PLAYER_NOT_FOUND 404
    │   ├── UsernameTakenError                   USERNAME_TAKEN   409
    │   └── AdjustmentError                      INVALID_FIELD    400
    ├── PageError (store.streams)                INVALID_FIELD    400
    ├── SnapshotError (store.money)              UNAVAILABLE      503
    ├── TopUpBusy (store.top_ups)                BUSY             503   the balance kept moving
    ├── CodecError, OutcomeUnknown, CommitNotConfirmed, HoldUnconfirmed (store)   INTERNAL_ERROR 500
    ├── StateNotConfirmed (store.confirmed)      a RedisError first: the data store unavailable
    ├── OperatorAuthError (web.operator_auth)    UNAUTHORIZED     401, its own HTTP code
    ├── ChatRefused (web.chat)                   its CHAT_* (or INVALID_VALUE) code
    ├── HostTooFast (web.host_audit)             RATE_LIMITED     429   a host message past its budget
    ├── UsernameError, PasswordError (web.passwords)   INVALID_USERNAME, INVALID_PASSWORD 400
    ├── InvalidNameError, NameTooLongError (web.names), TooManyMarksError (web.marks)   INVALID_FIELD 400
    ├── QueueFull, QueueBusy (process.fair_queue)      ANALYSIS_QUEUE_FULL 429, ANALYSIS_BUSY 503
    ├── SettingsError, RedisUrlError, EmbeddedRedisError (process), BadInput (commands.verify)
    │                                            the command line's: printed, never answered
    └── StoreUnavailable (store.errors)          INTERNAL_ERROR   503, HTTP code UNAVAILABLE: the data
                                                 store failed (with the store, which raises it)
"""

from __future__ import annotations

from paigow.protocol.codes import ErrorCode
from paigow.table.rejections import RejectCode, Rejection

__all__ = ["ApiError", "ServerError", "http_error", "wire_error"]

INTERNAL = 500
"""The ``http_status`` of a failure of the server's own: never told, logged."""


class ServerError(Exception):
    """The base of every error the server raises; the class attributes say how it is answered."""

    code: str = ErrorCode.INTERNAL_ERROR
    """The wire's ``ErrorCode`` (an error only HTTP answers names its HTTP code here)."""
    http_status: int = INTERNAL
    http_code: str | None = None
    """The HTTP error body's ``"error"`` when it is not ``code``."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
        self.fields: dict[str, int] = {}
        """Values the ``message`` names, sent beside it in the wire's ``error`` (``retry_after_s``,
        ``max_chars``: ``ErrorMessage``) so that a client words the refusal in its own language."""


class ApiError(ServerError):
    """An HTTP error answer: ``{"error": code, "message": message}`` with ``http_status`` and ``headers``.
    The API's handlers raise it (``web.api.api_error_response`` answers it); the bots raise it for an error
    answer they got."""

    def __init__(self, status: int, code: str, message: str, *,
                 headers: dict[str, str] | None = None, extra: dict[str, object] | None = None) -> None:
        super().__init__(message)
        self.http_status = status
        self.code = code
        self.headers = dict(headers or {})
        self.extra = dict(extra or {})
        """More fields of the error body (``until_ms`` of a ``BARRED``)."""

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"


def wire_error(exc: ServerError | Rejection) -> tuple[ErrorCode | RejectCode, str] | None:
    """The code and message of the wire's ``error`` for ``exc``; None for a failure of the server's own
    (the caller logs it and answers ``INTERNAL_ERROR``)."""
    if isinstance(exc, Rejection):
        return exc.code, exc.message
    if exc.http_status == INTERNAL:
        return None
    try:
        return ErrorCode(exc.code), exc.message
    except ValueError:  # an error HTTP alone answers: it has no code on the wire
        return ErrorCode.INTERNAL_ERROR, exc.message


def http_error(exc: ServerError | Rejection) -> ApiError | None:
    """``exc`` as the HTTP API answers it; None for a failure of the server's own (a plain 500, logged)."""
    if isinstance(exc, ApiError):
        return exc
    if isinstance(exc, Rejection):
        return ApiError(409, str(exc.code), exc.message, extra=dict(exc.fields))
    if exc.http_status == INTERNAL:
        return None
    return ApiError(exc.http_status, exc.http_code or exc.code, exc.message)
