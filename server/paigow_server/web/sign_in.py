"""One sign-in check for players and operators: the username's backoff and lock, then the password.

Answers (as ``ApiError``): ``429 SIGN_IN_BACKOFF`` with ``Retry-After`` while the username backs off after
a failure, ``423 ACCOUNT_LOCKED`` once three failures in a row locked it (the message says until when and
that an operator can unlock it), ``401 BAD_CREDENTIALS`` for a wrong username or password (never which).
"""

from __future__ import annotations

import time

from paigow_server.store.sign_ins import MAX_FAILURES, SignInGuard, Verdict
from paigow_server.web.api import ApiError, retry_after
from paigow_server.web.passwords import Passwords

__all__ = ["verify_sign_in"]


def _when(ms: int) -> str:
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(ms / 1000))


def _locked(username: str, until_ms: int) -> ApiError:
    return ApiError(423, "ACCOUNT_LOCKED",
                    f"the account {username!r} is locked after {MAX_FAILURES} failed sign-ins in a row, "
                    f"until {_when(until_ms)}; an operator can unlock it sooner")


async def verify_sign_in(guard: SignInGuard, passwords: Passwords, username: str, password: str,
                         stored_hash: str | None, now_ms: int) -> None:
    """Return when ``password`` matches ``stored_hash`` (None: no such account, checked anyway)."""
    attempt = await guard.begin(username, now_ms)
    if attempt.verdict is Verdict.LOCKED:
        raise _locked(username, attempt.until_ms)
    if attempt.verdict is Verdict.BACKOFF:
        wait_s = (attempt.until_ms - now_ms) / 1000
        raise retry_after(429, "SIGN_IN_BACKOFF",
                          f"sign-in for {username!r} failed recently: try again in {max(1, round(wait_s))} s",
                          wait_s)
    if await passwords.verify(stored_hash, password):
        await guard.succeeded(username)
        return
    failed = await guard.failed(username, now_ms)
    if failed.verdict is Verdict.LOCKED:
        raise _locked(username, failed.until_ms)
    wait = max(1, round((failed.until_ms - now_ms) / 1000))
    left = MAX_FAILURES - failed.failures
    raise ApiError(401, "BAD_CREDENTIALS",
                   f"wrong username or password; try again in {wait} s ({left} more "
                   f"{'failure locks' if left == 1 else 'failures lock'} the account)")
