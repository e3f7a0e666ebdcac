"""The working area of ``decide``: events are emitted one by one and applied to a working state, so each
step of a command sees the effect of the steps before it. Also the small lookups every handler needs."""

from __future__ import annotations

from typing import NoReturn

from paigow.table.cardtext import format_cents
from paigow.table.events import DeadlineCleared, DeadlineSet, Event
from paigow.table.evolve import evolve
from paigow.table.rejections import RejectCode, Rejection
from paigow.table.state import DeadlineKind, Phase, Round, SeatPlayer, TableState

__all__ = ["Emitter", "money", "reject"]

money = format_cents


def reject(code: RejectCode, message: str, *, amount_cents: int | None = None,
           limit_cents: int | None = None, until_ms: int | None = None) -> NoReturn:
    raise Rejection(code, message, amount_cents=amount_cents, limit_cents=limit_cents, until_ms=until_ms)


class Emitter:
    """Collects a command's events; ``state`` is always the state after the events so far."""

    __slots__ = ("events", "seed", "state")

    def __init__(self, state: TableState, seed: bytes) -> None:
        self.state = state
        self.seed = seed
        self.events: list[Event] = []

    def emit(self, event: Event) -> None:
        self.events.append(event)
        self.state = evolve(self.state, event)

    # --- lookups --------------------------------------------------------------------------------------
    def seated(self, player_id: str) -> tuple[int, SeatPlayer]:
        pos = self.state.seat_of(player_id)
        if pos is None:
            reject(RejectCode.NOT_SEATED,
                   f"player {player_id!r} has no seat at table {self.state.table_id!r}")
        sp = self.state.seats[pos]
        assert sp is not None
        return pos, sp

    def round(self) -> Round:
        rnd = self.state.round
        if rnd is None:
            reject(RejectCode.NO_ROUND, f"no round is in progress (the table is {self.state.phase})")
        return rnd

    def require_phase(self, phase: Phase, action: str) -> Round:
        if self.state.phase != phase:
            reject(RejectCode.WRONG_PHASE,
                   f"{action} only in the {phase} phase; the table is in the {self.state.phase} phase")
        return self.round()

    def set_deadline(self, kind: DeadlineKind, duration_ms: int, now_ms: int | None) -> None:
        """Start a timer; without ``now_ms`` it is pending until the next Tick stamps it."""
        at = None if now_ms is None else now_ms + duration_ms
        self.emit(DeadlineSet(kind, at, duration_ms))

    def clear_deadline(self) -> None:
        if self.state.deadline is not None:
            self.emit(DeadlineCleared())

    # --- derived facts --------------------------------------------------------------------------------
    def in_round(self, pos: int) -> bool:
        """Whether the seat has something at stake in the round in progress (banker, bet, live hand)."""
        rnd = self.state.round
        if rnd is None:
            return False
        if rnd.banker_position == pos and pos != 0:
            return True
        if self.state.phase == Phase.DRAGON_OFFER and any(b.position == pos for b in rnd.bets):
            return True  # betting is over: the bet stands (the Dragon is offered before the deal)
        return any(h.position == pos for h in rnd.hands)

    def bet_of(self, pos: int) -> int:
        rnd = self.state.round
        if rnd is None:
            return 0
        return next((b.amount_cents for b in rnd.bets if b.position == pos), 0)

    def wants_round(self) -> bool:
        """A new round should start: open, not paused or closing, no round, someone active (two players
        when the players bank in turn: the house dealer plays no hand there)."""
        s = self.state
        needed = 2 if s.rules.players_bank_in_turn else 1
        return (s.phase == Phase.IDLE and s.round is None and not s.paused and not s.closing
                and sum(1 for sp in s.seats if sp is not None and sp.playing) >= needed)

    def schedule_next_round(self, delay_ms: int, now_ms: int | None) -> None:
        """Set the NEXT_ROUND timer if a round is wanted and none is scheduled; clear timers otherwise."""
        dl = self.state.deadline
        if self.wants_round():
            if dl is None or dl.kind != DeadlineKind.NEXT_ROUND:
                self.set_deadline(DeadlineKind.NEXT_ROUND, delay_ms, now_ms)
        elif self.state.round is None:
            self.clear_deadline()
