"""Shared helpers for the table tests: a ``Driver`` that applies commands with deterministic seeds and a
clock, and checks that a rejected command leaves the state untouched."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import replace

import pytest

from paigow import fair
from paigow.rules.house_rules import DEFAULT_RULES, HouseRules
from paigow.table import (
    Phase,
    Rejection,
    TableState,
    Timers,
    apply,
    new_table,
    next_deadline,
)
from paigow.table import commands as c
from paigow.table.events import Event, RoundSettled, RoundStarted
from paigow.table.records import RoundRecord
from paigow.table.rejections import RejectCode

START_MS = 1_700_000_000_000


def seed_for(i: int | str) -> bytes:
    return hashlib.sha256(f"table-test-seed-{i}".encode()).digest()


def seed_with_total(round_id: str, total: int) -> bytes:
    """A deterministic seed whose dice for ``round_id`` add up to ``total``."""
    for i in range(100_000):
        s = seed_for(f"{round_id}/{i}")
        if sum(fair.roll_dice(s, round_id)) == total:
            return s
    raise AssertionError(f"no seed found for total {total}")


class Driver:
    """Drives one table: ``do`` applies a command, ``refuse`` expects a rejection."""

    def __init__(self, rules: HouseRules = DEFAULT_RULES, timers: Timers | None = None,
                 table_id: str = "t1") -> None:
        self.state: TableState = new_table(table_id, "Test table", rules, timers or Timers())
        self.now = START_MS
        self.count = 0
        self.events: list[Event] = []
        self.next_seed: bytes | None = None

    def seed(self) -> bytes:
        """``next_seed`` if set (kept until a round starts with it), else a fresh deterministic seed."""
        if self.next_seed is not None:
            return self.next_seed
        self.count += 1
        return seed_for(f"{self.state.table_id}-{self.count}")

    def do(self, cmd: c.Command) -> tuple[Event, ...]:
        before = self.state
        self.state, events = apply(self.state, cmd, seed=self.seed())
        if any(isinstance(e, RoundStarted) for e in events):
            self.next_seed = None
        assert self.state.version == before.version + (1 if events else 0)
        self.events.extend(events)
        return events

    @property
    def last_record(self) -> RoundRecord:
        """The record of the last round settled (its ``RoundSettled`` event: the state keeps none)."""
        return next(e.record for e in reversed(self.events) if isinstance(e, RoundSettled))

    def refuse(self, cmd: c.Command, code: RejectCode) -> Rejection:
        before = self.state
        with pytest.raises(Rejection) as info:
            apply(self.state, cmd, seed=self.seed())
        assert info.value.code == code, info.value.message
        assert self.state == before
        return info.value

    def tick(self, advance_ms: int = 0) -> tuple[Event, ...]:
        self.now += advance_ms
        return self.do(c.Tick(self.now))

    def run_due(self) -> list[Event]:
        """Tick while something is due now (pending timers get stamped, due deadlines fire)."""
        out: list[Event] = []
        for _ in range(20):
            due = next_deadline(self.state)
            if due is None or due > self.now:
                return out
            out.extend(self.tick())
        raise AssertionError("deadlines keep firing")

    def expire(self) -> list[Event]:
        """Advance the clock to the next deadline and process it."""
        self.run_due()
        due = next_deadline(self.state)
        assert due is not None, "nothing is timed"
        self.now = max(self.now, due)
        return self.run_due()

    def sit(self, n: int, buy_in_cents: int = 100_00) -> None:
        for i in range(1, n + 1):
            self.do(c.Sit(f"p{i}", f"Player {i}", i, buy_in_cents))

    def start_round(self) -> None:
        """From idle, run the clock until a round starts (bank offer or betting)."""
        for _ in range(10):
            self.run_due()
            if self.state.phase in (Phase.BANK_OFFER, Phase.BETTING):
                return
            due = next_deadline(self.state)
            assert due is not None, "nothing is timed"
            self.now = max(self.now, due)
        raise AssertionError(f"no round started; phase {self.state.phase}")

    def bet_all(self, amount_cents: int = 10_00) -> None:
        rnd = self.state.round
        assert rnd is not None
        for pos, sp in enumerate(self.state.seats):
            if (sp is not None and self.state.phase == Phase.BETTING and pos != rnd.banker_position
                    and sp.status == "active"):
                self.do(c.PlaceBet(sp.player_id, amount_cents))

    def house_way_all(self) -> None:
        rnd = self.state.round
        assert rnd is not None
        for h in rnd.hands:
            if h.player_id is not None and self.state.phase == Phase.SETTING:
                self.do(c.UseHouseWay(h.player_id))

    def play_round(self, amount_cents: int = 10_00, accept: bool = True) -> None:
        self.start_round()
        rnd = self.state.round
        assert rnd is not None
        if self.state.phase == Phase.BANK_OFFER:
            assert rnd.offer_player_id is not None
            self.do(c.AcceptBank(rnd.offer_player_id) if accept else c.DeclineBank(rnd.offer_player_id))
        self.bet_all(amount_cents)
        self.house_way_all()
        assert self.state.phase == Phase.IDLE

    def with_chips(self, position: int, cents: int) -> None:
        """Test set-up: give a seat exactly ``cents`` (the ledger's buy-ins follow, keeping it balanced)."""
        sp = self.state.seats[position]
        assert sp is not None
        seats = list(self.state.seats)
        seats[position] = replace(sp, chips_cents=cents)
        ledger = replace(self.state.ledger,
                         bought_in_cents=self.state.ledger.bought_in_cents + cents - sp.chips_cents)
        self.state = replace(self.state, seats=tuple(seats), ledger=ledger)


def chips_balanced(state: TableState) -> bool:
    total = sum(sp.chips_cents for sp in state.seats if sp is not None)
    return total + state.ledger.house_net_cents == state.ledger.bought_in_cents - state.ledger.returned_cents


@pytest.fixture
def driver() -> Callable[..., Driver]:
    return Driver


@pytest.fixture
def helpers() -> dict[str, Callable[..., object]]:
    return {"seed_for": seed_for, "seed_with_total": seed_with_total, "chips_balanced": chips_balanced}
