"""One sign-in check for players and operators: the attempt's counters (``store/sign_ins.py``), then the
password.

Answers (as ``ApiError``): ``429 SIGN_IN_BACKOFF`` with ``Retry-After`` (and ``retry_after_s``) while a
counter of the attempt makes it wait, ``401 BAD_CREDENTIALS`` for a wrong username or password (never
which; the message says how long the next attempt waits, if it does). Nothing locks an account: a device
that signed in to it before (its device token, ``device``) waits only for its own failures.
"""

from __future__ import annotations

import math

from paigow_server.store.sign_ins import SignInGuard, Verdict
from paigow_server.web.api import ApiError, retry_after
from paigow_server.web.passwords import Passwords

__all__ = ["verify_sign_in"]


def _seconds(ms: int) -> int:
    return max(1, math.ceil(ms / 1000))


async def verify_sign_in(guard: SignInGuard, passwords: Passwords, username: str, password: str,
                         stored_hash: str | None, now_ms: int, *, device: str | None, prefix: str) -> None:
    """Return when ``password`` matches ``stored_hash`` (None: no such account, checked anyway).
    ``device``: the id of the request's valid device token for this account; ``prefix``: the client's
    address prefix."""
    attempt = await guard.begin(username, device, prefix, now_ms)
    if attempt.verdict is Verdict.BACKOFF:
        wait = _seconds(attempt.until_ms - now_ms)
        where = "on this device" if device is not None else "from devices that have not signed in before"
        raise retry_after(429, "SIGN_IN_BACKOFF",
                          f"too many failed sign-ins for {username!r} {where}: try again in {wait} s", wait)
    if await passwords.verify(stored_hash, password):
        await guard.succeeded(username, device, prefix)
        return
    failed = await guard.failed(username, device, prefix, now_ms)
    if failed.verdict is Verdict.BACKOFF:
        wait = _seconds(failed.until_ms - now_ms)
        raise ApiError(401, "BAD_CREDENTIALS", f"wrong username or password; try again in {wait} s",
                       extra={"retry_after_s": wait})
    raise ApiError(401, "BAD_CREDENTIALS", "wrong username or password")
