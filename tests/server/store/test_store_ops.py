"""What ``TableRepo.commit`` writes beside the state (``writes_of``: the outbox entry and the table's list
of its last rounds) is exactly ``json.dumps`` of the effects, though a settlement's round record is encoded
once for its export entry, every player's history entry and the table's list of its last rounds, and the
ledger entries without ``asdict``."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import asdict
from typing import Any

from paigow.ledger.accounts import EntryKind
from paigow.ledger.effects import Effects, effects_of
from paigow.table import commands as c
from paigow.table.events import Event
from paigow.table.machine import apply
from paigow.table.state import Phase, TableState, new_table
from paigow.table.ticks import next_deadline
from paigow_server.store.direct_commit import compact as _compact
from paigow_server.store.outbox_commit import writes_of

T0 = 1_800_000_000_000
Step = tuple[TableState, TableState, tuple[Event, ...]]


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def _reference(effects: Effects, hold_ids: list[str]) -> dict[str, Any]:
    """The outbox entry and the table's rounds as ``json.dumps`` makes them, field by field."""
    held = iter(hold_ids)
    ledger = [{**asdict(e), "from_account": f"hold:{next(held)}"} if e.kind is EntryKind.BUY_IN else asdict(e)
              for e in effects.ledger]
    return {"credits": [[e.player_id, str(e.amount_cents)] for e in effects.ledger
                        if e.kind is EntryKind.CASH_OUT],
            "house": str(effects.house_delta_cents), "ledger": [_dumps(e) for e in ledger],
            "history": [[h.player_id, _dumps(h.record)] for h in effects.history],
            "rounds": [_dumps(r) for r in effects.rounds], "holds": hold_ids,
            "table_rounds": [_dumps(r["round"]) for r in effects.rounds if r["status"] == "settled"]}


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


def test_what_every_commit_writes_is_json_dumps_of_the_effects() -> None:
    seen: set[str] = set()
    for before, after, events in _play(players=4, rounds=7):
        effects = effects_of(before, after, events, now_ms=T0)
        hold_ids = [f"h{i}" for i, e in enumerate(effects.ledger) if e.kind is EntryKind.BUY_IN]
        writes = writes_of(after.table_id, effects, hold_ids)
        body = json.loads("{" + writes.outbox.body_json())
        assert body.pop("table_id") == "t1"
        assert {**body, "table_rounds": writes.table_rounds} == _reference(effects, hold_ids)
        assert "{" + writes.outbox.body_json() == _dumps({"table_id": "t1", **body})
        assert _compact(writes.table_rounds) == _dumps(writes.table_rounds)
        seen |= {e.kind.value for e in effects.ledger} | {r["status"] for r in effects.rounds}
    assert {"buy_in", "cash_out", "stake_lost", "stake_won", "commission", "settled", "voided"} <= seen
