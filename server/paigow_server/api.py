"""What the JSON API handlers share: errors as ``{"error": CODE, "message": ...}``, body parsing, bearer
tokens, paging parameters."""

from __future__ import annotations

import json
import math
from typing import Any

from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response

__all__ = [
    "MAX_BODY_BYTES",
    "ApiError",
    "api_error_response",
    "bearer_token",
    "int_field",
    "json_body",
    "page_params",
    "retry_after",
    "str_field",
]

MAX_BODY_BYTES = 16_384


class ApiError(Exception):
    """An API request that cannot be served; becomes an HTTP error with a JSON body."""

    def __init__(self, status: int, code: str, message: str, *,
                 headers: dict[str, str] | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.headers = dict(headers or {})


def retry_after(status: int, code: str, message: str, seconds: float) -> ApiError:
    """A refusal to try again later: the ``Retry-After`` header (whole seconds, at least 1) and
    ``retry_after_s`` in the body say when."""
    return ApiError(status, code, message, headers={"Retry-After": str(max(1, math.ceil(seconds)))})


async def api_error_response(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    headers = dict(exc.headers)
    if exc.status == 401:
        headers.setdefault("WWW-Authenticate", "Bearer")
    body: dict[str, object] = {"error": exc.code, "message": exc.message}
    if "Retry-After" in headers:
        body["retry_after_s"] = int(headers["Retry-After"])
    return JSONResponse(body, status_code=exc.status, headers=headers or None)


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
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        raise ApiError(400, "MALFORMED_JSON", "the body is not valid JSON") from None
    if not isinstance(data, dict):
        raise ApiError(400, "INVALID_FIELD", f"the body must be a JSON object, not {type(data).__name__}")
    return data


def str_field(data: dict[str, Any], name: str, *, required: bool = True) -> str | None:
    value = data.get(name)
    if value is None and not required:
        return None
    if not isinstance(value, str):
        raise ApiError(400, "INVALID_FIELD", f"{name} must be text, not {value!r}")
    return value


def int_field(data: dict[str, Any], name: str) -> int:
    value = data.get(name)
    if type(value) is not int:
        raise ApiError(400, "INVALID_FIELD", f"{name} must be a whole number, not {value!r}")
    return value


def only_fields(data: dict[str, Any], allowed: set[str] | frozenset[str]) -> None:
    extra = sorted(set(data) - set(allowed))
    if extra:
        raise ApiError(400, "UNKNOWN_FIELD",
                       f"unknown field {extra[0]!r}; allowed: {', '.join(sorted(allowed))}")


def page_params(request: Request) -> tuple[str | None, int]:
    after = request.query_params.get("after") or None
    limit_text = request.query_params.get("limit", "100")
    if not limit_text.isdigit():
        raise ApiError(400, "INVALID_FIELD", f"limit={limit_text!r} must be a whole number")
    return after, int(limit_text)
