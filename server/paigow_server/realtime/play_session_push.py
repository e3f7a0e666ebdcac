"""``PlaySessionPush``: tells each seated player's connections their play session, and shows reality checks.

**The figures follow the settle.** The play accounting's script (``store/play_accounting.py``, run with
the table's commit) publishes a player's figures on ``paigow:play-sessions`` whenever it changes them (a
round settled with money in it, a session started or ended); the setting of a reality-check interval
publishes the bare player id. Each process hears it (``changed``, from the process's listener) and, at its
next step, takes the figures of those players it holds a connection of as published, and reads (one
pipeline) those named bare and the players whose connection is new here; every connected player's figures
are read again only every ``FULL_EVERY`` steps (a message lost while a process was cut from Redis). A
settled round costs no Redis call here. A connection gets ``play_session`` when what it was last sent
differs (so right after ``hello``, and after each round the player settles).

**Reality checks.** One task per process, every ``interval_s``. A check that is due is claimed (one
script: once per player across every table and process) only while the player is in play nowhere: at
none of their tables here (no bet, no dealt hand, not the banker, not offered the bank or the Dragon hand),
and at none of the other tables they sit at (``PlaySessions.seated_at``: the ``seat:<table>``
fields the play accounting keeps, each such table's state read from Redis, only when a check is due). So
it waits for the round's end at any table on any process and never lands on a clock the player must act
on; it then goes to each of the player's connections here.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import replace
from typing import Protocol

from paigow.protocol.server import PlaySession, RealityCheck, encode_server_message
from paigow.table.state import Phase, TableState
from paigow.table.views import PlayerViewer, Viewer
from paigow_server.process.tasks import Every
from paigow_server.store.errors import FAILURES, StoreUnavailable
from paigow_server.store.play_sessions import PlaySessions, SessionFigures

__all__ = ["PlaySessionPush", "SessionConnection", "in_play"]

log = logging.getLogger("paigow_server.play_sessions")

FULL_EVERY = 150
"""Every this many steps (5 minutes at 2 s), every connected player's figures are read again."""


class SessionConnection(Protocol):
    """A table connection (``web.ws.TableConnection``), as this task sees it."""

    table_id: str

    @property
    def viewer(self) -> Viewer: ...

    def deliver(self, text: str) -> None: ...


def in_play(state: TableState | None, player_id: str) -> bool:
    """The player has a stake or a clock in the table's round: a bet or side bet, a dealt hand, the bank, or
    the bank or the Dragon hand offered to them. An unknown state counts as in play (wait for it)."""
    if state is None:
        return True
    r = state.round
    if r is None or state.phase in (Phase.IDLE, Phase.CLOSED):
        return False
    if player_id in (r.banker_player_id, r.offer_player_id):
        return True
    if any(b.player_id == player_id for b in (*r.bets, *r.bonuses, *r.queens_dragon_bets)):
        return True
    if any(h.player_id == player_id for h in r.hands):
        return True
    dragon = r.dragon
    if dragon is not None and player_id == dragon.buyer_player_id:
        return True
    if dragon is not None and dragon.offered_seat is not None:
        seat = state.seats[dragon.offered_seat]
        return seat is not None and seat.player_id == player_id
    return False


class PlaySessionPush:
    def __init__(self, sessions: PlaySessions, connections: Callable[[], Iterable[SessionConnection]],
                 state_of: Callable[[str], TableState | None], clock: Callable[[], int], *,
                 default_minutes: Callable[[], int], interval_s: float = 2.0,
                 load: Callable[[str], Awaitable[TableState | None]] | None = None) -> None:
        self.sessions = sessions
        self._connections = connections
        self._state_of = state_of
        self._clock = clock
        self._default_minutes = default_minutes
        self._sent: dict[int, str] = {}
        """By ``id(connection)``: the last ``play_session`` text sent on it."""
        self._load = load
        """A table's state from Redis (for a table of the player's that no connection here follows)."""
        self._figures: dict[str, SessionFigures] = {}
        self._changed: set[str] = set()
        """Players whose figures are to be read again (``changed``: a bare id)."""
        self._heard: dict[str, tuple[int | None, int, int]] = {}
        """Per player, the last figures published (``changed``) since the last step."""
        self._steps = 0
        self._every = Every("paigow-play-sessions", interval_s, self.step,
                            failures=(StoreUnavailable, *FAILURES))
        self.start = self._every.start
        self.stop = self._every.stop

    def changed(self, data: str | bytes) -> None:
        """A message on ``paigow:play-sessions``: a player's figures as the play accounting's script left
        them, JSON ``[player, started_ms or null, net, wagered]`` (used at the next step, if the player has a
        connection here), or a bare player id (a preference changed: read them at the next step)."""
        text = data.decode() if isinstance(data, bytes) else data
        if not text.startswith("["):
            self._changed.add(text)
            return
        try:
            player_id, start, net, wagered = json.loads(text)
        except ValueError:
            log.warning("ignored a malformed play-sessions message %r", text[:200])
            return
        if isinstance(player_id, str) and (start is None or type(start) is int) \
                and type(net) is int and type(wagered) is int:
            self._heard[player_id] = (start, net, wagered)

    async def step(self) -> int:
        """One pass; the number of reality checks sent."""
        players: dict[str, list[SessionConnection]] = {}
        for conn in self._connections():
            viewer = conn.viewer
            if isinstance(viewer, PlayerViewer):
                players.setdefault(viewer.player_id, []).append(conn)
        live = {id(conn) for conns in players.values() for conn in conns}
        self._sent = {key: text for key, text in self._sent.items() if key in live}
        self._figures = {p: f for p, f in self._figures.items() if p in players}
        self._steps += 1
        full = self._steps % FULL_EVERY == 0
        changed, self._changed = self._changed, set()
        heard, self._heard = self._heard, {}
        stale = [p for p in players if full or p in changed or p not in self._figures]
        if stale:
            try:
                self._figures.update(await self.sessions.figures_many(stale))
            except BaseException:
                self._changed |= changed  # not read: the next step reads them
                self._heard = heard | self._heard
                raise
        for player_id in heard.keys() & players.keys() - set(stale):  # a read is as new as what was heard
            start, net, wagered = heard[player_id]  # before it; what is heard during it waits a step
            self._figures[player_id] = replace(self._figures[player_id], started_ms=start, net_cents=net,
                                               wagered_cents=wagered)
        now, default = self._clock(), self._default_minutes()
        shown = 0
        for player_id, conns in players.items():
            got = self._figures[player_id]
            self._tell(conns, got)
            if not got.check_due(now, default) or any(in_play(self._state_of(c.table_id), player_id)
                                                       for c in conns):
                continue
            if await self._in_play_elsewhere(player_id, {c.table_id for c in conns}):
                continue
            claimed = await self.sessions.claim_check(player_id, now, default)
            if claimed is None:  # another table or process showed it: read the next one's time
                self._figures.pop(player_id, None)
                continue
            start, net, wagered, next_ms = claimed
            self._figures[player_id] = replace(got, next_check_ms=next_ms, check_session_ms=start)
            text = encode_server_message(RealityCheck(started_ms=start, elapsed_ms=max(now - start, 0),
                                                      net_cents=net, wagered_cents=wagered, next_ms=next_ms))
            for conn in conns:
                conn.deliver(text)
            shown += 1
        return shown

    async def _in_play_elsewhere(self, player_id: str, here: set[str]) -> bool:
        """The player is in play at a table they sit at that no connection of theirs here follows."""
        if self._load is None:
            return False
        for table_id in await self.sessions.seated_at(player_id):
            state = None if table_id in here else await self._load(table_id)
            if state is not None and in_play(state, player_id):  # a table gone (None) holds no round
                return True
        return False

    def _tell(self, conns: list[SessionConnection], got: SessionFigures) -> None:
        text = encode_server_message(PlaySession(started_ms=got.started_ms, net_cents=got.net_cents,
                                                 wagered_cents=got.wagered_cents))
        for conn in conns:
            if self._sent.get(id(conn)) != text:
                self._sent[id(conn)] = text
                conn.deliver(text)
