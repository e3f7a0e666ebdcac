"""The players' limits (store/play_limits.py, store/play_risk.py) on real Redis with the table's clock:
each limit's tighten-now / loosen-later rule across a period's end, a bet at a limit refused with nothing
changed, a limit counted across two tables driven by two services (two processes' worth), the
player-banker's exposure, the period totals and session figures equal to the ledger's, and the session
time limit standing a player up with the pause after it."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from redis.asyncio import Redis

from paigow.rules.house_rules import HouseRules
from paigow.table.commands import AcceptBank, Command, DeclineBank, PlaceBet, Sit, Tick, UseHouseWay
from paigow.table.events import PlayerStoodUp, StandUpReason
from paigow.table.machine import next_deadline
from paigow.table.rejections import RejectCode, Rejection
from paigow.table.state import Phase, TableState, Timers, new_table
from paigow_server.errors import ServerError
from paigow_server.process.metrics import Metrics
from paigow_server.realtime.tables import PlayLimitReached, TableService
from paigow_server.realtime.time_limits import TimeLimitGuard
from paigow_server.store import keys
from paigow_server.store.ledger import Ledger
from paigow_server.store.play_limits import LIMIT_NAMES, PlayLimits, effective_after, periods_at
from paigow_server.store.play_risk import PlayRisk
from paigow_server.store.tables import TableRepo


def ms(text: str) -> int:
    return int(datetime.fromisoformat(text).replace(tzinfo=UTC).timestamp() * 1000)


T0 = ms("2026-12-06T10:00:00")  # a Sunday
HOUR = 3_600_000


def test_periods_and_when_a_loosening_comes_into_force() -> None:
    periods = periods_at(T0)
    assert periods.ids == {"day": "D2026-12-06", "week": "W2026-49", "month": "M2026-12"}
    assert periods.ends_ms == {"day": ms("2026-12-07T00:00:00"), "week": ms("2026-12-07T00:00:00"),
                               "month": ms("2027-01-01T00:00:00")}
    new_york = periods_at(T0, ZoneInfo("America/New_York"))  # 05:00 there
    assert new_york.ends_ms["day"] == ms("2026-12-07T05:00:00")
    assert effective_after("loss_day", T0) == ms("2026-12-08T00:00:00")  # 24 h on is Monday 10:00
    assert effective_after("wager_week", T0) == ms("2026-12-14T00:00:00")
    assert effective_after("loss_month", T0) == ms("2027-01-01T00:00:00")
    assert effective_after("session_minutes", T0) == T0 + 24 * HOUR
    midnight = ms("2026-12-06T00:00:00")
    assert effective_after("wager_day", midnight) == ms("2026-12-07T00:00:00")  # exactly 24 h on


@pytest.mark.parametrize("name", LIMIT_NAMES)
async def test_a_limit_tightens_at_once_and_loosens_only_at_its_period_end(redis: Redis, name: str) -> None:
    limits = PlayLimits(redis)
    await limits.set("p1", {name: 1_000}, T0)  # none -> a value: in force at once
    assert (await limits.limits("p1", T0))[name] == 1_000
    await limits.set("p1", {name: 3_000}, T0 + 1)  # looser: waits
    due = effective_after(name, T0 + 1)
    status = await limits.status("p1", T0 + 2)
    assert status["limits"][name] == 1_000
    assert status["pending"] == {name: {"value": 3_000, "asked_ms": T0 + 1, "effective_ms": due}}
    assert (await limits.limits("p1", due - 1))[name] == 1_000
    assert (await limits.limits("p1", due))[name] == 3_000
    assert (await limits.status("p1", due))["pending"] == {}
    await limits.set("p1", {name: None}, due)  # none at all: a loosening too
    assert (await limits.limits("p1", due + 1))[name] == 3_000
    await limits.set("p1", {name: 500}, due + 2)  # tighter: at once, and the waiting one is dropped
    assert (await limits.limits("p1", due + 2))[name] == 500
    assert (await limits.status("p1", due + 10 * 86_400_000))["pending"] == {}
    assert (await limits.limits("p1", due + 40 * 86_400_000))[name] == 500


class Table:
    """A table driven through a ``TableService`` (its own: one process's worth) with a fake clock."""

    def __init__(self, service: TableService, table_id: str, clock: list[int]) -> None:
        self.service, self.table_id, self.clock = service, table_id, clock

    async def do(self, command: Command) -> None:
        await self.service.execute(self.table_id, command)

    async def state(self) -> TableState:
        state = await self.service._store.load(self.table_id)  # type: ignore[attr-defined]
        assert state is not None
        return state

    async def until(self, phase: Phase, *, bank: str | None = None) -> None:
        for _ in range(30):
            state = await self.state()
            if state.phase == phase:
                return
            if state.phase == Phase.BANK_OFFER and state.round is not None and state.round.offer_player_id:
                offer = state.round.offer_player_id
                await self.do(AcceptBank(offer) if offer == bank else DeclineBank(offer))
                continue
            due = next_deadline(state)
            assert due is not None, state.phase
            self.clock[0] = max(self.clock[0], due)
            await self.do(Tick(self.clock[0]))
        raise AssertionError(f"never reached {phase}")


async def _setup(redis: Redis, clock: list[int], tables: int = 1, *, players: int = 1,
                 rules: HouseRules | None = None, outbox: bool = False) -> tuple[list[Table], list[str]]:
    ids = [f"p{i}" for i in range(1, players + 1)]
    for p in ids:
        await redis.hset(keys.player(p), mapping={"name": p, "balance": 1_000_000})
    out = []
    for n in range(tables):
        repo = TableRepo(redis, outbox=outbox)
        service = TableService(repo, Metrics(), clock=lambda: clock[0])
        service.play_risk = PlayRisk(redis)
        table_id = f"t{n}"
        house = rules or HouseRules(player_banking=False, fortune_enabled=True)
        assert await repo.create(new_table(table_id, table_id, house, Timers()))
        table = Table(service, table_id, clock)
        for seat, p in enumerate(ids, start=1):
            await table.do(Sit(p, p, seat, 100_000))
        out.append(table)
    return out, ids


async def _snapshot(redis: Redis, table_id: str, player_id: str) -> Any:
    """Everything a refusal must leave alone (the refusal's count, ``limits_hit``, aside)."""
    rg = await redis.hgetall(keys.rg(player_id))
    rg.pop("limits_hit", None)
    return (await redis.hgetall(keys.table(table_id)), rg,
            await redis.hgetall(keys.rg_totals(player_id)), await redis.xlen(keys.LEDGER),
            await redis.hget(keys.player(player_id), "balance"),
            len(await TableRepo(redis).event_log(table_id)))


@pytest.mark.parametrize("outbox", [False, True], ids=["direct", "cluster-path"])
async def test_a_bet_past_a_wager_limit_is_refused_with_nothing_changed(redis: Redis, outbox: bool) -> None:
    clock = [T0]
    [table], [p] = await _setup(redis, clock, outbox=outbox)
    await PlayLimits(redis).set(p, {"wager_day": 1_000}, T0)
    await table.until(Phase.BETTING)
    before = await _snapshot(redis, table.table_id, p)
    with pytest.raises(PlayLimitReached) as info:
        await table.do(PlaceBet(p, 1_500))
    assert info.value.code == "WAGER_LIMIT_REACHED"
    assert info.value.fields == {"limit_cents": 1_000, "amount_cents": 1_500,
                                 "until_ms": ms("2026-12-07T00:00:00")}
    assert "day" in info.value.message
    assert await _snapshot(redis, table.table_id, p) == before
    assert await redis.hget(keys.rg(p), "limits_hit") == "1"
    await table.do(PlaceBet(p, 1_000))  # at the limit: allowed
    opened = json.loads(await redis.hget(keys.rg_totals(p), f"open:{table.table_id}"))
    assert opened["cents"] == 1_000


async def test_a_loosening_comes_into_force_by_the_tables_clock(redis: Redis) -> None:
    clock = [T0]
    [table], [p] = await _setup(redis, clock)
    limits = PlayLimits(redis)
    await limits.set(p, {"loss_day": 1_000}, T0)
    await limits.set(p, {"loss_day": 5_000}, T0)
    await table.until(Phase.BETTING)
    with pytest.raises(PlayLimitReached) as info:
        await table.do(PlaceBet(p, 2_000))
    assert info.value.code == "LOSS_LIMIT_REACHED"
    state = await table.state()
    clock[0] = ms("2026-12-08T00:00:00")  # the table's clock passes the first day's end 24 h on
    assert state.phase == Phase.BETTING
    await table.do(PlaceBet(p, 2_000))  # betting waits for a first bet: the same round
    assert (await limits.limits(p, clock[0]))["loss_day"] == 5_000


async def test_a_limit_counts_every_table_across_two_services(redis: Redis) -> None:
    clock = [T0]
    (a, b), [p] = await _setup(redis, clock, tables=2)
    await PlayLimits(redis).set(p, {"wager_week": 3_000}, T0)
    await a.until(Phase.BETTING)
    await b.until(Phase.BETTING)
    await a.do(PlaceBet(p, 2_000))
    with pytest.raises(PlayLimitReached) as info:
        await b.do(PlaceBet(p, 1_500))
    assert (info.value.code, info.value.fields["amount_cents"]) == ("WAGER_LIMIT_REACHED", 3_500)
    await b.do(PlaceBet(p, 1_000))


@pytest.mark.parametrize("outbox", [False, True], ids=["direct", "cluster-path"])
async def test_totals_and_the_session_equal_the_ledger(redis: Redis, outbox: bool) -> None:
    """On one Redis the commit's script writes them; on a cluster (``outbox=True`` runs that path here)
    the table's outbox carries them to ``{global}``."""
    clock = [T0]
    [table], [p] = await _setup(redis, clock, outbox=outbox)
    await PlayLimits(redis).set(p, {"loss_month": 1_000_000}, T0)
    chips0 = 100_000
    wagered = 0
    for _ in range(4):
        await table.until(Phase.BETTING)
        await table.do(PlaceBet(p, 1_000, bonus_cents=500))
        wagered += 1_500
        await table.until(Phase.SETTING)
        await table.do(UseHouseWay(p))
        await table.until(Phase.BETTING)
    seat = next(s for s in (await table.state()).seats if s is not None)
    net = seat.chips_cents - chips0
    totals = await redis.hgetall(keys.rg_totals(p))
    periods = periods_at(clock[0])
    for period in ("day", "week", "month"):
        assert int(totals[f"wager:{periods.ids[period]}"]) == wagered
        assert int(totals[f"net:{periods.ids[period]}"]) == net
    assert not [f for f in totals if f.startswith("open:")]
    seat_account = f"seat:{table.table_id}:{p}"
    played = [e for e in await Ledger(redis).entries() if e.get("round_id")
              and seat_account in (e["from_account"], e["to_account"])]
    assert {"bonus_lost", "bonus_won"} & {e["kind"] for e in played}, "a side bet was settled"
    assert sum(e["amount_cents"] if e["to_account"] == seat_account else -e["amount_cents"]
               for e in played) == net
    status = await PlayLimits(redis).status(p, clock[0])
    assert status["session"] == {"start_ms": T0, "net_cents": net, "wagered_cents": wagered}
    assert status["used"]["loss_month"] == {"used_cents": max(0, -net), "until_ms": periods.ends_ms["month"]}


async def test_a_player_bankers_exposure_counts_as_wager(redis: Redis) -> None:
    clock = [T0]
    [table], (banker, bettor) = await _setup(redis, clock, players=2, rules=HouseRules())
    await PlayLimits(redis).set(banker, {"wager_day": 3_000}, T0)
    for _ in range(12):  # the marker moves round until the banker is offered the bank
        await table.until(Phase.BETTING, bank=banker)
        rnd = (await table.state()).round
        assert rnd is not None
        if rnd.banker_player_id == banker:
            break
        bettors = [p for p in (banker, bettor) if p != rnd.banker_player_id]
        for p in bettors:
            await table.do(PlaceBet(p, 500))
        await table.until(Phase.SETTING)
        for p in (banker, bettor):
            await table.do(UseHouseWay(p))
    else:
        pytest.skip("the bank was never offered to the banker")
    used = (await PlayLimits(redis).status(banker, clock[0]))["used"]["wager_day"]["used_cents"]
    room = 3_000 - used - rnd.dealer_wager_cents  # the banker's earlier bets count; the dealer's wager too
    assert room >= 500
    before = await _snapshot(redis, table.table_id, bettor)
    with pytest.raises(Rejection) as info:
        await table.do(PlaceBet(bettor, room + 1))
    assert info.value.code == RejectCode.BET_OVER_COVERAGE
    assert await _snapshot(redis, table.table_id, bettor) == before
    await table.do(PlaceBet(bettor, room))
    opened = json.loads(await redis.hget(keys.rg_totals(banker), f"open:{table.table_id}"))
    assert opened["cents"] == 3_000 - used


async def test_the_session_time_limit_stands_the_player_up_then_pauses_sitting(redis: Redis) -> None:
    clock = [T0]
    limits = PlayLimits(redis)
    await limits.set("p1", {"session_minutes": 30}, T0 - 1)  # set before sitting: the sit indexes it
    [table], [p] = await _setup(redis, clock)
    assert await redis.zscore(keys.RG_TIME_LIMITS, p) == T0 + 30 * 60_000
    guard = TimeLimitGuard(limits, table.service.play_risk, table.service)  # type: ignore[arg-type]
    await guard.refresh(p)
    assert await guard.step() == 0
    clock[0] = T0 + 30 * 60_000
    assert await guard.step() == 1
    state = await table.state()
    assert all(s is None for s in state.seats)
    log = await table.service._store.event_log(table.table_id)  # type: ignore[attr-defined]
    stood = [e for c in log for e in c.events if isinstance(e, PlayerStoodUp)]
    assert [(e.player_id, e.reason, e.chips_returned_cents) for e in stood] == [
        (p, StandUpReason.TIME_LIMIT, 100_000)]
    assert int(await redis.hget(keys.player(p), "balance")) == 1_000_000
    [record] = await limits.sessions(p)
    assert (record["start_ms"], record["end_ms"], record["ended_by"], record["tables"]) == (
        T0, clock[0], "time_limit", [table.table_id])
    with pytest.raises(PlayLimitReached) as info:
        await table.do(Sit(p, p, 1, 10_000))
    assert (info.value.code, info.value.fields) == ("TIME_LIMIT_REACHED", {"until_ms": clock[0] + HOUR})
    clock[0] += HOUR
    await table.do(Sit(p, p, 1, 10_000))


async def test_the_time_limit_lets_a_dealt_hand_play_out_then_stands_up(redis: Redis) -> None:
    clock = [T0]
    limits = PlayLimits(redis)
    await limits.set("p1", {"session_minutes": 1}, T0 - 1)
    [table], [p] = await _setup(redis, clock)
    await table.until(Phase.BETTING)
    await table.do(PlaceBet(p, 1_000))
    await table.until(Phase.SETTING)
    clock[0] = max(clock[0], T0 + 60_000)
    guard = TimeLimitGuard(limits, table.service.play_risk, table.service)  # type: ignore[arg-type]
    assert await guard.step() == 1
    seat = next(s for s in (await table.state()).seats if s is not None)
    assert seat.status == "leaving", "the dealt hand plays out"
    assert await guard.step() == 0, "already leaving: a second sweep (another process) sends nothing"
    await table.do(UseHouseWay(p))
    state = await table.state()
    assert all(s is None for s in state.seats)
    log = await table.service._store.event_log(table.table_id)  # type: ignore[attr-defined]
    [stood] = [e for c in log for e in c.events if isinstance(e, PlayerStoodUp)]
    assert stood.reason == StandUpReason.TIME_LIMIT
    balance = int(await redis.hget(keys.player(p), "balance"))
    assert balance == 1_000_000 - 100_000 + stood.chips_returned_cents, "every chip back"
    [record] = await limits.sessions(p)
    assert record["ended_by"] == "time_limit"
    assert record["wagered_cents"] == 1_000
    assert await redis.zscore(keys.RG_TIME_LIMITS, p) is None


def test_a_limit_refusal_crosses_the_router_with_its_fields() -> None:
    """A command forwarded to the table's owner comes back refused exactly as a local one."""
    from paigow_server.realtime.router import _encode_error, _raise_error

    refused = PlayLimitReached("over", "LOSS_LIMIT_REACHED", {"limit_cents": 1_000, "amount_cents": 1_200,
                                                            "until_ms": T0})
    with pytest.raises(ServerError) as info:
        _raise_error(json.loads(json.dumps(_encode_error(refused))))
    assert (info.value.code, info.value.fields) == ("LOSS_LIMIT_REACHED", refused.fields)


@pytest.mark.parametrize("outbox", [False, True], ids=["direct", "cluster-path"])
async def test_a_first_limit_set_through_one_process_is_in_force_on_another_at_once(redis: Redis,
                                                                                    outbox: bool) -> None:
    """Each service (a process's worth) remembers that a player has no limit; a first limit set through
    another process (here ``PlayLimits`` alone, as the HTTP route on a third) counts the deployment's limits
    generation up, so the next commit on every process reads the limit: no moment in which it is not in
    force after the request that set it was answered. On one Redis a commit of players known to have none
    reads nothing (its script checks the generation: ``LIMITS``, then checked again); on a cluster it
    reads the generation first."""
    clock = [T0]
    (a, b), [p, _] = await _setup(redis, clock, tables=2, players=2, outbox=outbox)  # his bet would deal
    await a.until(Phase.BETTING)
    await b.until(Phase.BETTING)
    await a.do(PlaceBet(p, 1_000))  # each process reads: no limit, and remembers it
    await b.do(PlaceBet(p, 1_000))
    risk = b.service.play_risk
    assert risk is not None
    reads: list[list[str]] = []
    read = risk._read

    async def counted(player_ids: list[str]) -> tuple[int, list[list[str | None]]]:
        reads.append(player_ids)
        return await read(player_ids)

    risk._read = counted  # type: ignore[method-assign]
    await b.do(PlaceBet(p, 1_200))
    assert reads == ([[]] if outbox else []), "known to have none: one GET on a cluster, none on one Redis"
    await PlayLimits(redis).set(p, {"wager_day": 3_000}, T0)
    with pytest.raises(PlayLimitReached) as info:
        await b.do(PlaceBet(p, 4_000))
    assert (info.value.code, info.value.fields["amount_cents"]) == ("WAGER_LIMIT_REACHED", 4_000)
    with pytest.raises(PlayLimitReached):
        await a.do(PlaceBet(p, 3_500))
    await a.do(PlaceBet(p, 2_000))
    with pytest.raises(PlayLimitReached) as info:
        await b.do(PlaceBet(p, 1_500))  # a's 2,000 now counts: 3,500
    assert info.value.fields["amount_cents"] == 3_500
    assert await redis.get(keys.RG_LIMITS_GEN) == "1"
    await PlayLimits(redis).set(p, {"wager_day": 2_500}, T0)  # tighter: already limited, no new generation
    assert await redis.get(keys.RG_LIMITS_GEN) == "1"
