"""What the JSON API handlers share: errors as ``{"error": CODE, "message": ...}`` (``api_error_response``
answers every ``ServerError`` through ``paigow_server.errors.http_error``), body parsing, bearer tokens,
paging parameters."""

from __future__ import annotations

import json
import math
import re
from typing import Any

from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Match, Route
from starlette.types import Receive, Scope, Send

from paigow.protocol.parse import DuplicateKeyError, unique_object
from paigow_server.errors import ApiError, ServerError, http_error
from paigow_server.store.streams import MAX_PAGE, PageError, check_cursor

__all__ = [
    "MAX_BODY_BYTES",
    "ApiError",
    "api_error_response",
    "api_fallback",
    "bearer_token",
    "int_field",
    "json_body",
    "leading_field",
    "page_params",
    "retry_after",
    "str_field",
]

MAX_BODY_BYTES = 16_384
_LEADING_NAME = re.compile(r"[a-z_]+")
_LIMIT = re.compile(r"[0-9]{1,4}")


def retry_after(status: int, code: str, message: str, seconds: float) -> ApiError:
    """A refusal to try again later: the ``Retry-After`` header (whole seconds, at least 1) and
    ``retry_after_s`` in the body say when."""
    return ApiError(status, code, message, headers={"Retry-After": str(max(1, math.ceil(seconds)))})


async def api_error_response(request: Request, exc: Exception) -> Response:
    """The JSON error answer of a ``ServerError`` (``http_error``); a failure of the server's own is raised
    again (a plain 500, logged)."""
    error = http_error(exc) if isinstance(exc, ServerError) else None
    if error is None:
        raise exc
    headers = dict(error.headers)
    if error.http_status == 401:
        headers.setdefault("WWW-Authenticate", "Bearer")
    body: dict[str, object] = {"error": error.code, "message": error.message, **error.extra}
    if "Retry-After" in headers:
        body["retry_after_s"] = int(headers["Retry-After"])
    return JSONResponse(body, status_code=error.http_status, headers=headers or None)


def bearer_token(conn: HTTPConnection) -> str | None:
    scheme, _, token = conn.headers.get("authorization", "").partition(" ")
    token = token.strip()
    return token if scheme.lower() == "bearer" and token else None


async def json_body(request: Request) -> dict[str, Any]:
    """The request's JSON object body (``{}`` when empty), read no further than ``MAX_BODY_BYTES``."""
    too_large = ApiError(413, "BODY_TOO_LARGE", f"the body is over {MAX_BODY_BYTES} bytes")
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_BODY_BYTES:
        raise too_large
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            raise too_large
        chunks.append(chunk)
    body = b"".join(chunks)
    if not body:
        return {}
    try:
        data = json.loads(body, object_pairs_hook=unique_object)
    except DuplicateKeyError as exc:
        raise ApiError(400, "MALFORMED_JSON", f"the body is not valid JSON: {exc}") from None
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise ApiError(400, "MALFORMED_JSON", "the body is not valid JSON") from None
    try:  # a \u escape of half a surrogate pair is JSON of no Unicode text (the WebSocket parser refuses
        json.dumps(data, ensure_ascii=False).encode()  # it too): kept, it could never be sent back out
    except UnicodeEncodeError as exc:
        raise ApiError(400, "MALFORMED_JSON", f"the body is not valid JSON: a \\u escape makes a lone "
                                              f"surrogate U+{ord(str(exc.object)[exc.start]):04X}, "
                                              f"which is no character") from None
    except RecursionError:
        raise ApiError(400, "MALFORMED_JSON", "the body is not valid JSON") from None
    if not isinstance(data, dict):
        raise ApiError(400, "INVALID_FIELD", f"the body must be a JSON object, not {type(data).__name__}")
    return data


def str_field(data: dict[str, Any], name: str, *, required: bool = True) -> str | None:
    value = data.get(name)
    if value is None and not required:
        return None
    if not isinstance(value, str):
        raise ApiError(400, "INVALID_FIELD", f"{name} must be text, not {value!r}", extra={"field": name})
    return value


def int_field(data: dict[str, Any], name: str) -> int:
    value = data.get(name)
    if type(value) is not int:
        raise ApiError(400, "INVALID_FIELD", f"{name} must be a whole number, not {value!r}",
                       extra={"field": name})
    return value


def leading_field(message: str, names: set[str] | frozenset[str]) -> str | None:
    """The field a refusal's message starts with, when it is one of ``names``: ``"max_bet_cents"`` for
    ``"max_bet_cents (400) must not be below min_bet_cents (500)"``; else None."""
    leading = _LEADING_NAME.match(message)
    return leading.group(0) if leading is not None and leading.group(0) in names else None


def only_fields(data: dict[str, Any], allowed: set[str] | frozenset[str]) -> None:
    extra = sorted(set(data) - set(allowed))
    if extra:
        known = f"allowed: {', '.join(sorted(allowed))}" if allowed else "this request takes no fields"
        raise ApiError(400, "UNKNOWN_FIELD", f"unknown field {extra[0]!r}; {known}",
                       extra={"field": extra[0][:100]})


def page_params(request: Request) -> tuple[str | None, int]:
    """``after`` (a stream id, checked before Redis is asked) and ``limit`` (ASCII digits, 1 to
    ``MAX_PAGE``) from the query string; a bad one is a 400 ``INVALID_FIELD`` naming it."""
    after = request.query_params.get("after") or None
    limit_text = request.query_params.get("limit", "100")
    try:
        check_cursor(after)
    except PageError as exc:
        raise ApiError(400, "INVALID_FIELD", str(exc), extra={"field": "after"}) from None
    if _LIMIT.fullmatch(limit_text) is None or not 1 <= int(limit_text) <= MAX_PAGE:
        raise ApiError(400, "INVALID_FIELD",
                       f"limit={limit_text[:60]!r} must be a whole number from 1 to {MAX_PAGE} "
                       "(ASCII digits)", extra={"field": "limit"})
    return after, int(limit_text)


def api_fallback(api_routes: list[BaseRoute]) -> list[BaseRoute]:
    """Routes for what no API route serves under ``/api``: the JSON error body instead of the static
    files' plain text. A path an API route has, asked with another method, is ``405 METHOD_NOT_ALLOWED``
    (with ``Allow``); any other path, with any method, is ``404 NOT_FOUND``."""
    endpoint = _NotServed(api_routes)  # an ASGI app, not a function: the route takes every method
    return [Route("/api", endpoint), Route("/api/{rest:path}", endpoint)]


class _NotServed:
    def __init__(self, api_routes: list[BaseRoute]) -> None:
        self.api_routes = api_routes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        allowed: set[str] = set()
        for route in self.api_routes:
            if isinstance(route, Route) and route.matches(scope)[0] is Match.PARTIAL:
                allowed |= route.methods or set()
        request = Request(scope, receive)
        method, path = request.method, request.url.path[:200]
        if allowed:
            listed = ", ".join(sorted(allowed))
            response = JSONResponse({"error": "METHOD_NOT_ALLOWED",
                                     "message": f"{method} is not allowed on {path}; allowed: {listed}"},
                                    status_code=405, headers={"Allow": listed})
        else:
            response = JSONResponse({"error": "NOT_FOUND", "message": f"no API endpoint {method} {path}"},
                                    status_code=404)
        await response(scope, receive, send)


class StoredJSONResponse(JSONResponse):
    """A JSON answer made of stored entries (the audit log, the ledger, the export). An entry written before
    bodies were checked for lone surrogates may hold one, which UTF-8 cannot encode: such a page is written
    with ASCII escapes instead (``"\\ud800"``), so one old entry never makes the log unreadable."""

    def render(self, content: Any) -> bytes:
        try:
            return super().render(content)
        except UnicodeEncodeError:
            return json.dumps(content, ensure_ascii=True, allow_nan=False, separators=(",", ":")).encode()

