"""Passwords too easy to guess are refused, with the reason: the account's own username or display name,
or what the ``zxcvbn`` strength estimator (Dropbox's, with its lists of common passwords, names and words,
keyboard patterns, repeats and sequences) scores below ``MIN_SCORE``.

``zxcvbn`` scores 0-4 by the guesses it estimates an attacker needs: below 10^3, 10^6, 10^8, 10^10,
more. 2 and up resists throttled online guessing (sign-in backs off, ``sign_in.py``), which is the attack
a server can see; ``password``, ``12345678``, ``aaaaaaaa`` and ``qwertyui`` score 0. It reads the first
``ESTIMATED_LENGTH`` characters (its own limit; the rest only makes a password stronger) and takes up to
about 30 ms, so it runs in a worker thread. The message never quotes the password.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable

from zxcvbn import zxcvbn

from paigow_server.web.passwords import PasswordError

__all__ = ["ESTIMATED_LENGTH", "MIN_SCORE", "check_strength"]

MIN_SCORE = 2
ESTIMATED_LENGTH = 72


def _fold(text: str) -> str:
    return "".join(text.split()).casefold()


def _problem(password: str, username: str | None, display_name: str | None) -> str | None:
    folded = _fold(password)
    if username is not None and folded == _fold(username):
        return "the password must not be the username"
    if display_name is not None and folded == _fold(display_name):
        return "the password must not be the display name"
    names: Iterable[str] = [n for n in (username, display_name) if n]
    result = zxcvbn(password[:ESTIMATED_LENGTH], user_inputs=list(names))
    if int(result["score"]) >= MIN_SCORE:
        return None
    feedback = result["feedback"]
    why = " ".join(part for part in [feedback["warning"], *feedback["suggestions"]] if part)
    return f"the password is too easy to guess{': ' + why if why else ''}"


async def check_strength(password: str, *, username: str | None, display_name: str | None = None) -> None:
    """Raise ``PasswordError`` saying why when ``password`` is too easy to guess for this account."""
    problem = await asyncio.to_thread(_problem, password, username, display_name)
    if problem is not None:
        raise PasswordError(problem)
