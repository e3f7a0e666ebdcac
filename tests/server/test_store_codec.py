"""``state_to_json`` writes exactly what pydantic writes for the whole state, though it keeps each table's
recent round records' text between commits, and the state reads back equal."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from pydantic import TypeAdapter

from paigow.table import commands as c
from paigow.table.machine import apply
from paigow.table.records import RoundRecord
from paigow.table.rejections import Rejection
from paigow.table.state import RECENT_RESULTS, Deadline, Ledger, TableState, new_table
from paigow.table.ticks import next_deadline
from paigow_server.store import codec
from paigow_server.store.codec import state_from_json, state_to_json

T0 = 1_800_000_000_000
_STATE: TypeAdapter[TableState] = TypeAdapter(TableState)


def _autoplay(table_id: str, players: int) -> Iterator[TableState]:
    """Every state of a table where each player does the first thing they may (take the bank, bet,
    take the House Way: each once) and the clock jumps to the next deadline when nobody may do anything."""
    state, now = new_table(table_id, f'Table "{table_id}" ☃'), T0
    ids = [f"{table_id}-p{i}" for i in range(1, players + 1)]
    for i, pid in enumerate(ids, start=1):
        state, _ = apply(state, c.Sit(pid, f"Pläyer {i}", i, 1_000_00), seed=bytes(32))
    while True:
        yield state
        seed = hashlib.sha256(f"{table_id}-{state.version}".encode()).digest()
        rnd = state.round
        done = ({b.player_id for b in rnd.bets} | {h.player_id for h in rnd.hands if h.set_by is not None}
                if rnd is not None else set())
        tried = [command for pid in ids if pid not in done
                 for command in (c.AcceptBank(pid), c.UseHouseWay(pid), c.PlaceBet(pid, 10_00))]
        for command in (*tried, c.Tick(now)):
            try:
                after, events = apply(state, command, seed=seed)
            except Rejection:
                continue
            if events:
                state = after
                break
        else:
            due = next_deadline(state)
            assert due is not None, "nothing to do and nothing timed"
            now = max(now + 1, due)


def _interleaved(tables: int, steps: int) -> Iterator[TableState]:
    plays = [_autoplay(f"t{i}", 2 + i) for i in range(tables)]
    for _ in range(steps):
        for play in plays:
            yield next(play)


def test_states_of_tables_written_in_turn_are_pydantics_json_and_read_back() -> None:
    last: dict[str, TableState] = {}
    for state in _interleaved(3, 300):
        text = state_to_json(state)
        assert text == _STATE.dump_json(state).decode(), state.version
        assert state_from_json(text) == state
        last[state.table_id] = state
    assert all(len(s.recent) == RECENT_RESULTS for s in last.values())


def test_a_decoded_state_and_the_tables_beyond_the_bound_are_written_alike(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A state read back (no object shared with the one written before) and more tables than the codec
    keeps texts for are written from their own values."""
    monkeypatch.setattr(codec, "RECENT_TABLES", 2)
    monkeypatch.setattr(codec, "_recent", {})
    for state in _interleaved(3, 200):
        copy = state_from_json(state_to_json(state))
        for s in (state, copy, state):
            assert state_to_json(s) == _STATE.dump_json(s).decode(), state.version
        assert len(codec._recent) <= 2


@dataclass(frozen=True, slots=True)
class _Versioned:
    version: int


@dataclass(frozen=True, slots=True)
class _Holds:
    inner: tuple[_Versioned, ...] | None


@dataclass(frozen=True, slots=True)
class _Good:
    recent: tuple[RoundRecord, ...]
    version: int
    deadline: Deadline | None
    ledger: Ledger
    tags: frozenset[str]


@dataclass(frozen=True, slots=True)
class _VersionFirst:
    version: int
    recent: tuple[RoundRecord, ...]


@dataclass(frozen=True, slots=True)
class _NestedVersion:
    recent: tuple[RoundRecord, ...]
    version: int
    later: _Holds


@dataclass(frozen=True, slots=True)
class _Dict:
    recent: tuple[RoundRecord, ...]
    version: int
    extra: dict[str, int]


@dataclass(frozen=True, slots=True)
class _Anything:
    recent: tuple[RoundRecord, ...]
    version: int
    extra: Any


def test_the_recent_records_splice_is_checked_against_the_states_fields() -> None:
    """``state_to_json`` writes the records before the last ``,"version":``: the module refuses to load
    when ``version`` is not the field after ``recent``, or a later field may hold a ``version`` key (in a
    nested value, a dict's free keys or an untyped value)."""
    codec.check_recent_splice(TableState)
    codec.check_recent_splice(_Good)
    for cls, message in ((_VersionFirst, "followed by"), (_NestedVersion, "later"), (_Dict, "extra"),
                         (_Anything, "extra")):
        with pytest.raises(TypeError, match=message):
            codec.check_recent_splice(cls)


def test_a_state_stored_before_the_house_way_setting_loads_as_trump_plaza() -> None:
    import json

    from paigow.rules.house_rules import HouseRules, HouseWayName

    state = new_table("old", "Old table", HouseRules(min_bet_cents=1_00))
    stored = json.loads(state_to_json(state))
    del stored["rules"]["house_way"]  # as the state was written before the field existed
    loaded = state_from_json(json.dumps(stored))
    assert loaded.rules.house_way is HouseWayName.TRUMP_PLAZA
    assert loaded == state
    foxwoods = new_table("new", "New table", HouseRules(house_way=HouseWayName.FOXWOODS))
    text = state_to_json(foxwoods)
    assert json.loads(text)["rules"]["house_way"] == "foxwoods"
    assert state_from_json(text).rules.house_way is HouseWayName.FOXWOODS
