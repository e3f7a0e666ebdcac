"""Usernames and passwords: the rules for what players type, and argon2id hashing off the event loop.

Hashing is ``argon2-cffi``'s ``PasswordHasher`` (argon2id). The default parameters (settings
``argon2_memory_kib`` 47104, ``argon2_time_cost`` 1, ``argon2_parallelism`` 1) are OWASP's first argon2id
configuration (46 MiB, one pass, one lane), about as costly to a guesser with GPUs as its 19 MiB / t=2
one but harder on memory. Measured on this project's 2-core machine (benchmarks/README.md, "Accounts"):
about 60 ms per verification when idle, where RFC 9106's 64 MiB took 90 ms at t=1, 140 ms at t=2 and
200 ms at t=3, and under the load of other work all of them two or three times that: t=1 keeps a sign-in
under the 250 ms a person notices even then. One lane, because the server's cores are for the tables.
Every hash runs in a worker thread, at most ``HASH_THREADS`` at once, so a burst of sign-ins queues there
instead of blocking the event loop or taking all the memory (each hash holds its 46 MiB while it runs).
A hash made with older parameters is replaced at the next successful sign-in (``check_needs_rehash``).
"""

from __future__ import annotations

import asyncio
import re
from concurrent.futures import ThreadPoolExecutor

from argon2 import PasswordHasher, Type
from argon2.exceptions import InvalidHashError, VerificationError

from paigow_server.errors import ServerError

__all__ = [
    "HASH_THREADS",
    "MAX_PASSWORD_LENGTH",
    "MIN_PASSWORD_LENGTH",
    "PasswordError",
    "Passwords",
    "UsernameError",
    "check_password",
    "check_username",
]

MIN_PASSWORD_LENGTH = 8
MAX_PASSWORD_LENGTH = 128
HASH_THREADS = 2
_USERNAME = re.compile(r"[a-z0-9_.\-]{3,24}")


class UsernameError(ServerError, ValueError):
    """A username that is not 3–24 characters of a-z 0-9 _ . - (after case folding); quotes it."""

    code = "INVALID_USERNAME"
    http_status = 400


class PasswordError(ServerError, ValueError):
    """A password that is too short, too long or only space (the message never quotes it)."""

    code = "INVALID_PASSWORD"
    http_status = 400


def check_username(raw: object) -> str:
    """The username case-folded (``Ann`` and ``ann`` are one account)."""
    if not isinstance(raw, str):
        raise UsernameError(f"username must be text, not {raw!r}")
    name = raw.strip().casefold()
    if not _USERNAME.fullmatch(name):
        raise UsernameError(f"username {raw!r} must be 3 to 24 characters of a-z, 0-9, '_', '.' and '-'")
    return name


def check_password(raw: object) -> str:
    if not isinstance(raw, str):
        raise PasswordError(f"password must be text, not {type(raw).__name__}")
    if not MIN_PASSWORD_LENGTH <= len(raw) <= MAX_PASSWORD_LENGTH:
        raise PasswordError(f"the password is {len(raw)} characters; it must have "
                            f"{MIN_PASSWORD_LENGTH} to {MAX_PASSWORD_LENGTH}")
    if not raw.strip():
        raise PasswordError("the password must not be only space")
    return raw


class Passwords:
    """argon2id hashing and verification in a small thread pool (``close()`` it on shutdown)."""

    def __init__(self, *, memory_kib: int, time_cost: int, parallelism: int,
                 threads: int = HASH_THREADS) -> None:
        self._hasher = PasswordHasher(time_cost=time_cost, memory_cost=memory_kib,
                                      parallelism=parallelism, type=Type.ID)
        self._pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="paigow-argon2")
        self._dummy: str | None = None

    async def hash(self, password: str) -> str:
        return await asyncio.get_running_loop().run_in_executor(self._pool, self._hasher.hash, password)

    async def verify(self, stored_hash: str | None, password: str) -> bool:
        """Whether ``password`` matches. With no stored hash (an unknown username, a guest) a dummy hash
        is checked anyway, so the answer takes as long either way."""
        if stored_hash is None:
            if self._dummy is None:
                self._dummy = await self.hash("paigow dummy password")
            await self._check(self._dummy, password + "\0")
            return False
        return await self._check(stored_hash, password)

    async def _check(self, stored_hash: str, password: str) -> bool:
        def run() -> bool:
            try:
                return self._hasher.verify(stored_hash, password)
            except (VerificationError, InvalidHashError):
                return False

        return await asyncio.get_running_loop().run_in_executor(self._pool, run)

    def needs_rehash(self, stored_hash: str) -> bool:
        try:
            return self._hasher.check_needs_rehash(stored_hash)
        except InvalidHashError:
            return True

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
