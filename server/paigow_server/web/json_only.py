"""Request bodies of the JSON API are ``application/json`` or nothing: ``415 UNSUPPORTED_MEDIA_TYPE``.

A page on another site may send this server a ``POST`` without asking first (no CORS preflight) only as
``text/plain``, a form's encoding or with no body: a sign-in, a new guest or any other call it could
make so from a visitor's browser is refused here, before any endpoint reads it, counts it or touches
Redis. A request with no body (``Content-Length: 0`` or none, and no ``Content-Type``) to an endpoint
that takes none still works (``POST /api/practice/deals``, the operator's pause and resume...). Only
``POST``, ``PUT``, ``PATCH`` and ``DELETE`` under ``/api`` are checked; the refused body is read (up to
``MAX_BODY_BYTES``) before the answer, so the client is not cut off while it is still sending.
"""

from __future__ import annotations

from starlette.datastructures import Headers
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from paigow_server.web.api import MAX_BODY_BYTES

__all__ = ["JSON_TYPE", "JsonOnly", "is_api_path", "refusal"]

JSON_TYPE = "application/json"
_CHECKED_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def is_api_path(path: str) -> bool:
    return path == "/api" or path.startswith("/api/")


def refusal(headers: Headers) -> str | None:
    """Why a request with these headers is refused (the 415 message), or None when it may go on."""
    declared = headers.get("content-type")
    if declared is None:
        length = headers.get("content-length", "0").strip()
        if length in ("", "0") and "transfer-encoding" not in headers:
            return None
        return f"the body has no Content-Type: send it as JSON with Content-Type: {JSON_TYPE}"
    if declared.split(";", 1)[0].strip().lower() == JSON_TYPE:
        return None
    return f"the body must be JSON sent as Content-Type: {JSON_TYPE}, not {declared[:80]!r}"


class JsonOnly:
    """Refuses (415) a ``POST``/``PUT``/``PATCH``/``DELETE`` under ``/api`` whose body is not JSON."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (scope["type"] != "http" or scope["method"] not in _CHECKED_METHODS
                or not is_api_path(scope["path"])):
            await self.app(scope, receive, send)
            return
        message = refusal(Headers(scope=scope))
        if message is None:
            await self.app(scope, receive, send)
            return
        read = 0
        while read <= MAX_BODY_BYTES:
            event = await receive()
            if event["type"] != "http.request":
                break
            read += len(event.get("body", b""))
            if not event.get("more_body", False):
                break
        response = JSONResponse({"error": "UNSUPPORTED_MEDIA_TYPE", "message": message}, status_code=415,
                                headers={"Accept": JSON_TYPE})
        await response(scope, receive, send)
