"""Device tokens: what a device that signed in to an account before shows, so that a stranger's failed
sign-ins never hold it back (OWASP, "Slow Down Online Guessing Attacks with Device Cookies").

A token is ``d1.<device id>.<issued ms>.<mac>``: a random 128-bit device id, when it was issued, and an
HMAC-SHA-256 (``store/device_keys.py``'s key, shared by every process) over the kind (``player`` or
``operator``), the username, the id and the time. It is valid for ``DEVICE_DAYS`` for that one account;
nothing is stored per device until that device fails a sign-in (``store/sign_ins.py`` counts it).

The browser keeps it as a cookie the page's scripts cannot read: ``paigow_device`` (players, ``Path=
/api/session/sign-in``) or ``paigow_operator_device`` (operators, ``Path=/api/operator/session``),
``HttpOnly; SameSite=Strict``, ``Secure`` when the request came over HTTPS, ``Max-Age`` the validity.
It is sent only to the sign-in endpoint and never leaves a session answer's body, unlike the session
token. Each success (and a registration, and keeping a guest) sets a new one; a device keeps one token
per kind: signing in to another account replaces it.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import time
from collections.abc import Callable

from starlette.requests import Request
from starlette.responses import Response

from paigow_server.store.device_keys import DeviceKey

__all__ = ["COOKIES", "DEVICE_DAYS", "DeviceTokens", "device_cookie", "set_device_cookie"]

DEVICE_DAYS = 180
_VALID_MS = DEVICE_DAYS * 86_400_000
_MAX_TOKEN = 120
COOKIES = {"player": "paigow_device", "operator": "paigow_operator_device"}
_PATHS = {"player": "/api/session/sign-in", "operator": "/api/operator/session"}


def _now_ms() -> int:
    return time.time_ns() // 1_000_000


def _mac(key: bytes, kind: str, username: str, device_id: str, issued_ms: int) -> str:
    digest = hmac.new(key, f"{kind}\n{username}\n{device_id}\n{issued_ms}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


class DeviceTokens:
    def __init__(self, key: DeviceKey, *, clock: Callable[[], int] = _now_ms) -> None:
        self.key = key
        self._clock = clock

    async def issue(self, kind: str, username: str) -> str:
        device_id, issued = secrets.token_hex(16), self._clock()
        mac = _mac(await self.key.get(), kind, username, device_id, issued)
        return f"d1.{device_id}.{issued}.{mac}"

    async def device_of(self, kind: str, username: str, token: str | None) -> str | None:
        """The device id of ``token`` when it is a valid, unexpired device token of this account."""
        if token is None or len(token) > _MAX_TOKEN:
            return None
        parts = token.split(".")
        if len(parts) != 4 or parts[0] != "d1" or not parts[2].isascii() or not parts[2].isdigit():
            return None
        _, device_id, issued_text, mac = parts
        issued = int(issued_text)
        if not 0 <= self._clock() - issued <= _VALID_MS:
            return None
        expected = _mac(await self.key.get(), kind, username, device_id, issued)
        return device_id if hmac.compare_digest(expected.encode(), mac.encode()) else None


def device_cookie(request: Request, kind: str) -> str | None:
    return request.cookies.get(COOKIES[kind])


def set_device_cookie(response: Response, request: Request, kind: str, token: str) -> None:
    response.set_cookie(COOKIES[kind], token, max_age=_VALID_MS // 1000, path=_PATHS[kind],
                        secure=request.url.scheme == "https", httponly=True, samesite="strict")
