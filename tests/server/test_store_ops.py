"""The script operations ``TableRepo.commit`` sends are exactly ``json.dumps`` of the effects, though a
settlement's round record is encoded once for its export entry, every player's history entry and the
table's list of its last rounds, and the ledger entries without ``asdict``."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import asdict
from typing import Any

from paigow.table import commands as c
from paigow.table.events import Event
from paigow.table.machine import apply
from paigow.table.state import Phase, TableState, new_table
from paigow.table.ticks import next_deadline
from paigow_server.store import keys
from paigow_server.store.effects import Effects, effects_of
from paigow_server.store.history import HISTORY_LENGTH, TABLE_ROUNDS_KEPT
from paigow_server.store.tables import FIRST_EFFECT_KEY, _compact, _ops_of

T0 = 1_800_000_000_000
Step = tuple[TableState, TableState, tuple[Event, ...]]


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def _reference_ops(effects: Effects) -> list[list[Any]]:
    """The operations as ``_ops_of`` wrote them before: each value through ``json.dumps``, keys by name."""
    ops: list[list[Any]] = [["balance", keys.player(b.player_id), str(b.delta_cents)]
                            for b in effects.balances]
    if effects.house_delta_cents:
        ops.append(["incr", keys.HOUSE_NET, str(effects.house_delta_cents)])
    ops += [["xadd", keys.LEDGER, _dumps(asdict(entry))] for entry in effects.ledger]
    ops += [["lpush", keys.history(h.player_id), _dumps(h.record), HISTORY_LENGTH] for h in effects.history]
    ops += [["xadd", keys.ROUNDS, _dumps(record)] for record in effects.rounds]
    ops += [["lpush", keys.table_rounds(r["table_id"]), _dumps(r["round"]), TABLE_ROUNDS_KEPT]
            for r in effects.rounds if r["status"] == "settled"]
    return ops


def _play(players: int, rounds: int) -> Iterator[Step]:
    """Every commit of a table (non-ASCII names) where the players sit, then play ``rounds`` rounds: the
    player offered the bank takes it in every other round, everyone bets and takes the House Way, except that
    every third round is voided once dealt; then the last player leaves."""
    state, now = new_table("t1", 'Table "t1" ☃'), T0
    ids = [f"p{i}" for i in range(1, players + 1)]

    def do(command: c.Command) -> Iterator[Step]:
        nonlocal state
        after, events = apply(state, command, seed=hashlib.sha256(f"{state.version}".encode()).digest())
        if events:
            yield state, after, events
        state = after

    for i, pid in enumerate(ids, start=1):
        yield from do(c.Sit(pid, f"Pläyer {i}", i, 1_000_00))
    for number in range(rounds):
        while state.phase not in (Phase.BANK_OFFER, Phase.BETTING):
            now = max(now + 1, next_deadline(state) or now)
            yield from do(c.Tick(now))
        offer = state.round.offer_player_id if state.round is not None else None
        if offer is not None:
            yield from do(c.AcceptBank(offer) if number % 2 else c.DeclineBank(offer))
        banker = state.round.banker_player_id if state.round is not None else None
        for pid in ids:
            if pid != banker:
                yield from do(c.PlaceBet(pid, 10_00))
        yield from do(c.Tick(now))
        for command in [c.VoidRound()] if number % 3 == 2 else [c.UseHouseWay(pid) for pid in ids]:
            yield from do(command)
        assert not state.round, f"round {number} did not end"
    yield from do(c.Leave(ids[-1]))


def test_the_operations_of_every_commit_are_json_dumps_of_the_effects() -> None:
    seen: set[str] = set()
    for before, after, events in _play(players=4, rounds=7):
        effects = effects_of(before, after, events, now_ms=T0)
        ops = _ops_of(effects)
        named = [[op[0], ops.keys[op[1] - FIRST_EFFECT_KEY], *op[2:]] for op in ops.ops]
        assert named == _reference_ops(effects)
        assert _compact(ops.ops) == _dumps(ops.ops)
        seen |= {op[0] for op in ops.ops} | {r["status"] for r in effects.rounds}
    assert seen == {"balance", "incr", "xadd", "lpush", "settled", "voided"}
