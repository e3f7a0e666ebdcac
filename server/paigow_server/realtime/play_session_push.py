"""``PlaySessionPush``: tells each seated player's connections their play session, and shows reality checks.

One task per process, every ``interval_s``: the players with a connection here have their figures read in
one pipeline (``store/play_sessions.py``); a connection gets ``play_session`` when what it was last sent
differs (so right after ``hello``, and after each round the player settles). A reality check that is due is
claimed (one script: once per player across every table and process) only while the player is in play at
none of their tables here - no bet, no dealt hand, not the banker, not offered the bank or the Dragon hand -
so it waits for the round's end and never lands on a clock the player must act on; it then goes to each of
the player's connections here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Protocol

from paigow.protocol.server import PlaySession, RealityCheck, encode_server_message
from paigow.table.state import Phase, TableState
from paigow.table.views import PlayerViewer, Viewer
from paigow_server.process.tasks import Every
from paigow_server.store.errors import StoreUnavailable
from paigow_server.store.play_sessions import PlaySessions, SessionFigures

__all__ = ["PlaySessionPush", "SessionConnection", "in_play"]


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
                 default_minutes: Callable[[], int], interval_s: float = 2.0) -> None:
        self.sessions = sessions
        self._connections = connections
        self._state_of = state_of
        self._clock = clock
        self._default_minutes = default_minutes
        self._sent: dict[int, str] = {}
        """By ``id(connection)``: the last ``play_session`` text sent on it."""
        self._every = Every("paigow-play-sessions", interval_s, self.step,
                            failures=(StoreUnavailable, OSError))
        self.start = self._every.start
        self.stop = self._every.stop

    async def step(self) -> int:
        """One pass; the number of reality checks sent."""
        players: dict[str, list[SessionConnection]] = {}
        for conn in self._connections():
            viewer = conn.viewer
            if isinstance(viewer, PlayerViewer):
                players.setdefault(viewer.player_id, []).append(conn)
        live = {id(conn) for conns in players.values() for conn in conns}
        self._sent = {key: text for key, text in self._sent.items() if key in live}
        if not players:
            return 0
        figures = await self.sessions.figures_many(list(players))
        now, default = self._clock(), self._default_minutes()
        shown = 0
        for player_id, conns in players.items():
            got = figures[player_id]
            self._tell(conns, got)
            if not got.check_due(now, default) or any(in_play(self._state_of(c.table_id), player_id)
                                                       for c in conns):
                continue
            claimed = await self.sessions.claim_check(player_id, now, default)
            if claimed is None:
                continue
            start, net, wagered, next_ms = claimed
            text = encode_server_message(RealityCheck(started_ms=start, elapsed_ms=max(now - start, 0),
                                                      net_cents=net, wagered_cents=wagered, next_ms=next_ms))
            for conn in conns:
                conn.deliver(text)
            shown += 1
        return shown

    def _tell(self, conns: list[SessionConnection], got: SessionFigures) -> None:
        text = encode_server_message(PlaySession(started_ms=got.started_ms, net_cents=got.net_cents,
                                                 wagered_cents=got.wagered_cents))
        for conn in conns:
            if self._sent.get(id(conn)) != text:
                self._sent[id(conn)] = text
                conn.deliver(text)
