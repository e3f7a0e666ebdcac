"""``state_to_json`` writes exactly what pydantic writes for the whole state, and the state reads back
equal; the JSON a commit writes does not grow with the rounds a table settles (the records are not in the
state); a state written before the records left it (with its ``recent`` field) still loads."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from pathlib import Path

from pydantic import TypeAdapter

from paigow.protocol.projection import OPERATOR, SPECTATOR, project_commit, update_text
from paigow.table import commands as c
from paigow.table.machine import apply
from paigow.table.rejections import Rejection
from paigow.table.state import Phase, TableState, new_table
from paigow.table.ticks import next_deadline
from paigow_server.store.codec import (
    commit_from_json,
    commit_to_json,
    commit_version_of,
    commit_views,
    state_from_json,
    state_to_json,
)

T0 = 1_800_000_000_000
OLD_STATE = Path(__file__).parent / "data" / "state_with_recent.json"
"""A state as the code before the round records left ``TableState`` wrote it (``state_to_json``): six
players, two settled rounds in ``recent``, the third round's bets being placed."""
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
    for state in _interleaved(3, 300):
        text = state_to_json(state)
        assert text == _STATE.dump_json(state).decode(), state.version
        assert state_from_json(text) == state


def test_the_state_a_commit_writes_does_not_grow_with_settled_rounds() -> None:
    """The state written between rounds is the same size after the first settled round as after the
    twelfth (give or take the digits of the counters and chips), and holds no card and no seed."""
    sizes: dict[int, int] = {}
    for state in _autoplay("t1", 6):
        if state.phase == Phase.IDLE and state.rounds_started and state.rounds_started not in sizes:
            text = state_to_json(state)
            assert "server_seed" not in text
            assert "dealt" not in text
            sizes[state.rounds_started] = len(text.encode())
        if len(sizes) == 12:
            break
    assert max(sizes.values()) - min(sizes.values()) <= 40, sizes
    assert max(sizes.values()) < 4_000, sizes


def test_a_state_written_before_the_records_left_it_still_loads() -> None:
    """Its ``recent`` records are ignored; everything else reads back as it was written, and the table
    plays on from it."""
    text = OLD_STATE.read_text()
    old = json.loads(text)
    assert len(old["recent"]) == 2
    assert old["recent"][0]["hands"]
    state = state_from_json(text)
    del old["recent"]
    old["rules"]["house_way"] = "trump_plaza"  # written before the House Way setting too: the default
    # ... and before the Fortune bonus: its settings, bets and ledger fields read as their defaults.
    old["rules"].update(fortune_enabled=False, fortune_pay_table="fortune-8000", fortune_min_bet_cents=100,
                        fortune_max_bet_cents=10_000, envy_min_bet_cents=500)
    old["rules"]["commission_form"] = "commissioned"  # and before the commission-free forms
    old["rules"].update(queens_dragon_enabled=False, queens_dragon_min_bet_cents=100,  # and the variants
                        queens_dragon_max_bet_cents=10_000, dragon_enabled=False, dragon_set_by="house_way",
                        dragon_max_bet_cents=None, dragon_offer_ms=10_000, co_banking=False)
    old["ledger"].update(bonus_house_net_cents=0, bonuses_settled=0, queens_dragon_house_net_cents=0)
    old["round"].update(queens_dragon_bets=[], co_banked=False, dragon=None)
    old["round"]["bonuses"] = []
    old["round"]["bank_ineligible"] = None  # and before the round said why the marker's player may not bank
    for seat in old["seats"]:  # and before a seat kept a kick's bar, and who kicked
        if seat is not None:
            seat["barred_until_ms"] = None
            seat["kicked_by"] = None
            seat["leave_reason"] = None  # and before a seat kept why the server stands its player up
    old["rules"]["player_banking"] = True  # and before home games: a public table, nobody waiting
    old.update(home=None, waiting=[], seat_offer_ms=30_000)
    old["rules"]["players_bank_in_turn"] = False  # and before the players banked in turn at home games
    old["round"]["bank_passed"] = []
    assert json.loads(state_to_json(state)) == old
    assert state.phase == Phase.BETTING
    after, events = apply(state, c.PlaceBet("p2", 10_00), seed=bytes(32))
    assert events
    assert after.version == state.version + 1


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


def test_a_commit_says_its_version_in_its_first_bytes_and_its_equal_updates_once() -> None:
    state = new_table("t9", "Codec")
    for i in (1, 2):
        state, _ = apply(state, c.Sit(f"p{i}", f"P{i}", i, 100_00), seed=bytes(32))
    after, events = apply(state, c.Sit("p3", "P3", 3, 100_00), seed=bytes(32))
    projection = project_commit(state, after, events)
    views = commit_views(projection.updates)
    # The players already seated see the third one sit down exactly as a spectator does: one text.
    assert projection.updates["p1"] == projection.updates["p2"] == projection.updates[SPECTATOR]
    assert views["p1"] is views["p2"] is views[SPECTATOR]
    assert views["p3"] is not views[SPECTATOR]
    assert views[OPERATOR] is not views[SPECTATOR]
    assert all(views[key] == update_text(update) for key, update in projection.updates.items())
    text = commit_to_json(after.version, events, views=views)
    assert text == commit_to_json(after.version, events, projection.updates)
    assert len(json.loads(text)["views"]["texts"]) == len({id(t) for t in views.values()}) == 3
    assert commit_from_json(text).views == views
    # The projection's own texts are these, shared alike: the commit's JSON is the same.
    assert projection.texts == views
    assert len({id(t) for t in projection.texts.values()}) == 3
    assert commit_to_json(after.version, events, views=projection.texts) == text
    assert commit_version_of(text) == commit_version_of(text.encode()) == after.version
    for not_a_commit in ('{"events":[],"version":3}', '{"version":"3",', "", '{"version":', "[1]"):
        assert commit_version_of(not_a_commit) is None
