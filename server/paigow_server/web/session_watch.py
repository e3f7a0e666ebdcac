"""``SessionWatch``: open table connections follow their session — slid while open, closed when it ends.

Two paths, both closing with error ``UNAUTHORIZED`` and close code 4401:

- at once: every ``Revoked`` message (``revocations.py``: sign-out, sign-out everywhere, a disabled
  operator) closes the matching connections of this process;
- periodically (every ``interval_s``: the session tokens' refresh interval, a minute by default): each
  open player connection's token is touched, in one pipeline, which slides its expiry (so a player
  sitting at a table for days stays signed in) and closes the connections whose token has lapsed or was
  revoked while this process missed the message; operator session tokens are checked the same way.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable

from paigow_server.process.tasks import Every
from paigow_server.store.errors import StoreUnavailable
from paigow_server.store.session_tokens import hash_token
from paigow_server.web.revocations import Revoked
from paigow_server.web.ws import TableConnection

__all__ = ["SessionWatch"]

Check = Callable[[list[str]], Awaitable[list[bool]]]


class SessionWatch:
    def __init__(self, connections: Iterable[object], *, players: Check, operators: Check,
                 interval_s: float) -> None:
        """``connections``: this process's open connections (``Realtime.connections``); the table
        connections among them are watched."""
        self._connections = connections
        self._players = players
        self._operators = operators
        self._every = Every("paigow-session-watch", interval_s, self.check_once,
                            failures=(StoreUnavailable, OSError))
        self.start, self.stop = self._every.start, self._every.stop

    def revoked(self, revoked: Revoked) -> None:
        """Close this process's connections that ``revoked`` names."""
        for conn in self._open():
            if _matches(conn, revoked):
                conn.close_unauthorized("this session was signed out" if revoked.operator is None
                                        else "this operator was disabled")

    async def check_once(self) -> None:
        conns = self._open()
        players = [c for c in conns if c.token is not None]
        operators = [c for c in conns if c.operator_token is not None]
        for group, check, message in (
                (players, self._players, "the session expired or was signed out"),
                (operators, self._operators, "the operator session expired or was revoked")):
            tokens = [c.token if c.token is not None else c.operator_token or "" for c in group]
            for conn, valid in zip(group, await check(tokens), strict=True):
                if not valid:
                    conn.close_unauthorized(message)

    def _open(self) -> list[TableConnection]:
        return [conn for conn in self._connections if isinstance(conn, TableConnection)]


def _matches(conn: TableConnection, revoked: Revoked) -> bool:
    if revoked.player_id is not None:
        return conn.identity is not None and conn.identity.player_id == revoked.player_id
    if revoked.operator is not None:
        return conn.operator == revoked.operator
    held = conn.token or conn.operator_token
    return held is not None and hash_token(held) == revoked.token_hash
