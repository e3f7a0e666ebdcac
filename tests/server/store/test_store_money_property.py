"""Property: whatever players, the operator and the clock do, no cent appears or vanishes.

Random sequences of commands (sit, bet with and without the Fortune bonus, bonus alone, take the bank with
a bonus, House Way, leave, kick, void, close, reopen, ticks) and
operator credits and debits run against a real Redis through ``TableRepo.commit``; the table refuses
what its rules refuse, and after the run (and along the way) the ledger agrees with every balance, every
seat's chips and the house result, and everything issued is accounted for.
"""

from __future__ import annotations

import asyncio
import secrets

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from redis.asyncio import Redis

from paigow.rules.house_rules import HouseRules
from paigow.table.commands import (
    AcceptBank,
    CloseTable,
    Command,
    DeclineBank,
    Kick,
    Leave,
    OpenTable,
    PlaceBet,
    PlaceBonus,
    Sit,
    Tick,
    UseHouseWay,
    VoidRound,
)
from paigow.table.events import RoundSettled
from paigow.table.machine import apply, next_deadline
from paigow.table.rejections import Rejection
from paigow.table.state import Timers, new_table
from paigow_server.store.accounts import AccountError, Accounts
from paigow_server.store.money import ledger_mismatches, money_totals
from paigow_server.store.tables import CommitResult, TableRepo
from support.commits import commit_now

PLAYERS = 4
START = 20_000

step = st.one_of(
    st.tuples(st.just("sit"), st.integers(0, PLAYERS - 1), st.sampled_from([500, 5_000, 15_000, 25_000])),
    st.tuples(st.just("bet"), st.integers(0, PLAYERS - 1), st.sampled_from([500, 1_000, 4_000, 9_000])),
    st.tuples(st.just("bonus"), st.integers(0, PLAYERS - 1), st.sampled_from([0, 100, 500, 2_000])),
    st.tuples(st.just("house_way"), st.integers(0, PLAYERS - 1), st.just(0)),
    st.tuples(st.just("leave"), st.integers(0, PLAYERS - 1), st.just(0)),
    st.tuples(st.just("kick"), st.integers(0, PLAYERS - 1), st.just(0)),
    st.tuples(st.just("credit"), st.integers(0, PLAYERS - 1), st.sampled_from([1, 700])),
    st.tuples(st.just("debit"), st.integers(0, PLAYERS - 1), st.sampled_from([1, 3_000, 30_000])),
    st.tuples(st.sampled_from(["bet_all", "house_way_all", "round", "round"]), st.just(0),
              st.sampled_from([500, 2_000])),
    st.tuples(st.sampled_from(["tick", "wait", "wait", "void", "close", "open"]), st.just(0), st.just(0)),
)
"""One step: (what, which player, amount). ``bet_all`` / ``house_way_all`` act for every player, and
``round`` plays a whole round (the bank taken or declined), so rounds get settled often; ``tick`` is
the clock at the current time (pending deadlines get stamped), ``wait`` lets time run to the next
deadline. Every run starts with every player seated."""


def _command(kind: str, player_id: str, amount: int, seat: int, now_ms: int) -> Command:
    match kind:
        case "sit":
            return Sit(player_id, player_id, seat, amount)
        case "bet":  # with a Fortune bonus of a fifth of the bet from $10 up
            return PlaceBet(player_id, amount, bonus_cents=amount // 5 if amount >= 1_000 else None)
        case "bonus":
            return PlaceBonus(player_id, amount)
        case "house_way":
            return UseHouseWay(player_id)
        case "accept":
            return AcceptBank(player_id, bonus_cents=500)
        case "decline":
            return DeclineBank(player_id)
        case "leave":
            return Leave(player_id)
        case "kick":
            return Kick(player_id)
        case "void":
            return VoidRound()
        case "close":
            return CloseTable()
        case "open":
            return OpenTable()
        case _:
            return Tick(now_ms)


def _expand(steps: list[tuple[str, int, int]]) -> list[tuple[str, int, int]]:
    out: list[tuple[str, int, int]] = []
    for kind, who, amount in steps:
        if kind == "round":  # the player at the marker takes the bank when the amount is 2000
            out += _expand([("tick", 0, 0), ("accept_all" if amount == 2_000 else "decline_all", 0, 0),
                            ("tick", 0, 0), ("bet_all", 0, amount), ("tick", 0, 0), ("house_way_all", 0, 0)])
        elif kind.endswith("_all"):
            out += [(kind.removesuffix("_all"), p, amount) for p in range(PLAYERS)]
        else:
            out.append((kind, who, amount))
    return out


async def _run(redis_url: str, steps: list[tuple[str, int, int]]) -> None:
    redis = Redis.from_url(redis_url, decode_responses=True)
    try:
        await redis.flushall()
        repo = TableRepo(redis)
        accounts = Accounts(redis, starting_balance_cents=START)
        players = [(await accounts.create(f"P{i}")).player_id for i in range(PLAYERS)]
        rules = HouseRules(fortune_enabled=True)
        await repo.create(new_table("t1", "Prop", rules, timers=Timers(between_rounds_ms=0)))
        now_ms = 1_000_000
        issued = START * PLAYERS
        settled: list[RoundSettled] = []
        seated = [("sit", p, 10_000) for p in range(PLAYERS)]
        for index, (kind, who, amount) in enumerate(_expand(seated + steps)):
            player_id = players[who]
            if kind in ("credit", "debit"):
                try:
                    if kind == "credit":
                        await accounts.credit(player_id, amount, "property test", actor="bootstrap")
                    else:
                        await accounts.debit(player_id, amount, "property test", actor="bootstrap")
                    issued += amount if kind == "credit" else -amount
                except AccountError:
                    pass
                continue
            before = await repo.load("t1")
            assert before is not None
            if kind == "wait":  # let time run to the next deadline
                now_ms = max(now_ms, next_deadline(before) or now_ms)
            try:
                after, events = apply(before, _command(kind, player_id, amount, who + 1, now_ms),
                                      seed=secrets.token_bytes(32))
            except Rejection:
                continue
            if events:
                settled.extend(e for e in events if isinstance(e, RoundSettled))
                result = await repo.commit(commit_now(before, after, events, now_ms=now_ms))
                assert result in (CommitResult.OK, CommitResult.INSUFFICIENT_BALANCE)
            if index % 10 == 0:
                assert await ledger_mismatches(redis) == []
        totals = await money_totals(redis)
        assert totals.balanced, totals
        assert totals.issued_cents == issued
        assert await ledger_mismatches(redis) == []
        event(f"rounds settled: {min(len(settled), 3)}{'+' if len(settled) >= 3 else ''}")
        event(f"a player banked a settled round: {any(e.record.banker_player_id for e in settled)}")
        event(f"a Fortune bonus was settled: {any(e.record.bonus_house_net_cents for e in settled)}")
    finally:
        await redis.aclose()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(step, min_size=5, max_size=80))
def test_no_cent_appears_or_vanishes(redis_url: str, steps: list[tuple[str, int, int]]) -> None:
    asyncio.run(_run(redis_url, steps))
