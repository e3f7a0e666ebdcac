"""``PlaySessionPush`` on real Redis with an injected clock: ``play_session`` follows the session figures,
read only for the players the play accounting's script names on ``paigow:play-sessions`` (a settle at a
table on another process included); a reality check due while the player has a dealt hand, here or at a
table on another process, waits and is sent right after the round settles; a player at two tables (two
processes) is shown each check once; ``checks_shown`` counts; a new session starts its own count; the
player's own interval wins over the deployment's."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass, field, replace

from redis.asyncio import Redis
from tests.server.store.test_play_limits import Table, _setup  # the limits' round driver

from paigow.rules.house_rules import HouseRules
from paigow.table.commands import PlaceBet, UseHouseWay
from paigow.table.state import Bet, LiveHand, Phase, Round, TableState, Timers, new_table
from paigow.table.views import PlayerViewer, SpectatorViewer, Viewer
from paigow_server.realtime.play_session_push import FULL_EVERY, PlaySessionPush, in_play
from paigow_server.store import keys
from paigow_server.store.channels import Channels
from paigow_server.store.play_sessions import PlaySessions, SessionFigures
from paigow_server.store.tables import TableRepo
from paigow_server.web.revocations import RevocationListener

T0 = 1_790_000_000_000
MIN = 60_000


@dataclass
class Conn:
    table_id: str
    viewer: Viewer
    got: list[dict[str, object]] = field(default_factory=list)

    def deliver(self, text: str) -> None:
        self.got.append(json.loads(text))

    def of(self, kind: str) -> list[dict[str, object]]:
        return [m for m in self.got if m["type"] == kind]


def idle(table_id: str) -> TableState:
    return new_table(table_id, "T", HouseRules(), Timers())


def dealt(table_id: str, player_id: str) -> TableState:
    hand = LiveHand(position=2, player_id=player_id, cards=("AS", "KD", "2C", "3H", "9S", "9D", "JK"))
    return replace(idle(table_id), phase=Phase.SETTING,
                   round=Round("r1", 1, "c", "s", banker_position=0, bets=(Bet(2, player_id, 1_000),),
                               hands=(hand,)))


def push(redis: Redis, conns: list[Conn], states: dict[str, TableState], clock: list[int],
         default_minutes: int = 30) -> PlaySessionPush:
    return PlaySessionPush(PlaySessions(redis), lambda: conns, states.get, lambda: clock[0],
                           default_minutes=lambda: default_minutes)


async def sit(redis: Redis, player_id: str, start_ms: int, net: int = 0, wagered: int = 0) -> None:
    await redis.hset(keys.rg(player_id), mapping={"sess_start_ms": start_ms, "sess_net_cents": net,
                                                  "sess_wager_cents": wagered})


def test_in_play_means_a_stake_or_a_clock_in_the_round() -> None:
    assert not in_play(idle("t1"), "p1")
    assert in_play(dealt("t1", "p1"), "p1")
    assert not in_play(dealt("t1", "p2"), "p1")
    betting = replace(idle("t1"), phase=Phase.BETTING, round=Round("r", 1, "c", "s", banker_position=0))
    assert not in_play(betting, "p1"), "betting open without a bet of theirs: not in play"
    assert in_play(replace(betting, round=replace(betting.round, bets=(Bet(2, "p1", 500),))), "p1")  # type: ignore[arg-type]
    assert in_play(replace(betting, round=replace(betting.round, banker_player_id="p1")), "p1")  # type: ignore[arg-type]
    assert in_play(None, "p1"), "a table not known here: wait"


async def test_the_figures_are_pushed_once_after_hello_and_when_they_change(redis: Redis) -> None:
    clock = [T0]
    ann, watcher = Conn("t1", PlayerViewer("p1")), Conn("t1", SpectatorViewer())
    states = {"t1": idle("t1")}
    task = push(redis, [ann, watcher], states, clock)
    await task.step()
    assert ann.of("play_session") == [{"type": "play_session", "started_ms": None, "net_cents": 0,
                                        "wagered_cents": 0}]
    await sit(redis, "p1", T0)
    task.changed("p1")  # the message the play accounting's script publishes
    await task.step()
    await task.step()  # nothing changed: nothing sent
    await sit(redis, "p1", T0, net=-1_050, wagered=2_000)  # a round lost, commission and a side bet in it
    task.changed(b"p1")
    await task.step()
    await sit(redis, "p1", T0, net=-1_000, wagered=2_000)  # changed with no message (one lost):
    for _ in range(FULL_EVERY):                             # read again within FULL_EVERY steps
        await task.step()
    assert [(m["started_ms"], m["net_cents"], m["wagered_cents"]) for m in ann.of("play_session")] == [
        (None, 0, 0), (T0, 0, 0), (T0, -1_050, 2_000), (T0, -1_000, 2_000)]
    assert watcher.got == [], "a spectator's connection hears nothing of it"


async def test_published_figures_are_shown_as_they_are_without_a_read(redis: Redis) -> None:
    clock = [T0]
    ann = Conn("t1", PlayerViewer("p1"))
    task = push(redis, [ann], {"t1": idle("t1")}, clock)
    await sit(redis, "p1", T0)
    await task.step()  # hello: read
    task.changed(json.dumps(["p1", T0, -500, 1_000]).encode())  # Redis still says 0 and 0: not read again
    task.changed("[oops")  # malformed: ignored
    task.changed('["p1", 1, 2]')
    task.changed(json.dumps(["p2", T0, 1, 1]))  # no connection of theirs here: nothing
    await task.step()
    task.changed(json.dumps(["p1", None, 0, 0]))  # the session ended
    await task.step()
    assert [(m["started_ms"], m["net_cents"], m["wagered_cents"]) for m in ann.of("play_session")] == [
        (T0, 0, 0), (T0, -500, 1_000), (None, 0, 0)]


async def test_a_check_due_mid_round_waits_for_the_settle_then_comes_once(redis: Redis) -> None:
    clock = [T0]
    ann = Conn("t1", PlayerViewer("p1"))
    states = {"t1": dealt("t1", "p1")}
    task = push(redis, [ann], states, clock)
    await sit(redis, "p1", T0, net=3_500, wagered=5_000)
    clock[0] = T0 + 30 * MIN - 1
    assert await task.step() == 0  # not due yet
    clock[0] = T0 + 31 * MIN
    assert await task.step() == 0
    assert ann.of("reality_check") == [], "due, but her hand is dealt"
    assert await PlaySessions(redis).checks_shown("p1") == 0
    states["t1"] = idle("t1")  # the round settled
    assert await task.step() == 1
    assert ann.of("reality_check") == [{"type": "reality_check", "started_ms": T0, "elapsed_ms": 31 * MIN,
                                        "net_cents": 3_500, "wagered_cents": 5_000,
                                        "next_ms": T0 + 61 * MIN}]
    assert await task.step() == 0, "claimed: not again until the interval passed once more"
    clock[0] = T0 + 61 * MIN
    assert await task.step() == 1
    assert await PlaySessions(redis).checks_shown("p1") == 2


async def test_a_player_at_two_tables_on_two_processes_is_shown_it_once(redis: Redis) -> None:
    clock = [T0]
    here, there = Conn("t1", PlayerViewer("p1")), Conn("t2", PlayerViewer("p1"))
    first = push(redis, [here], {"t1": idle("t1")}, clock)
    second = push(redis, [there], {"t2": idle("t2")}, clock)
    await sit(redis, "p1", T0)
    clock[0] = T0 + 30 * MIN
    shown = await first.step() + await second.step()
    assert shown == 1
    assert len(here.of("reality_check") + there.of("reality_check")) == 1
    assert await PlaySessions(redis).checks_shown("p1") == 1


async def test_own_interval_new_session_and_off(redis: Redis) -> None:
    clock = [T0]
    ann = Conn("t1", PlayerViewer("p1"))
    states = {"t1": idle("t1")}
    task = push(redis, [ann], states, clock, default_minutes=60)
    await sit(redis, "p1", T0)
    await redis.hset(keys.rg("p1"), "reality_check_minutes", 15)
    clock[0] = T0 + 15 * MIN
    assert await task.step() == 1, "her own 15 minutes, not the deployment's 60"
    later = T0 + 20 * MIN  # she left everywhere and sat again: a new session counts from its start
    await sit(redis, "p1", later)
    task.changed("p1")
    clock[0] = later + 14 * MIN
    assert await task.step() == 0
    clock[0] = later + 15 * MIN
    assert await task.step() == 1
    await redis.hset(keys.rg("p1"), "reality_check_minutes", 0)
    task.changed("p1")
    clock[0] = later + 600 * MIN
    assert await task.step() == 0, "0: no reality checks"
    await redis.hset(keys.rg("p1"), "reality_check_minutes", "null")
    task.changed("p1")
    assert await task.step() == 1, "null: the deployment's interval"
    await redis.delete(keys.rg("p1"))  # no session: nothing due
    task.changed("p1")
    clock[0] += 600 * MIN
    assert await task.step() == 0


async def test_real_rounds_the_figures_are_the_rounds_results_and_the_check_waits(redis: Redis) -> None:
    """Rounds played through a ``TableService`` with the play accounting (``PlayRisk``) and the table's
    clock: the session starts at the sit; mid-round with a dealt hand a due check is not sent; right after
    the settle it is, with the net the seat's chips say (bet, Fortune side bet and commission included)."""
    clock = [T0]
    [table], [p] = await _setup(redis, clock)
    ann = Conn(table.table_id, PlayerViewer(p))
    states: dict[str, TableState] = {}
    task = push(redis, [ann], states, clock, default_minutes=5)
    async with listening(redis, task):
        await task.step()
        await rounds_with_checks(task, table, ann, states, clock, p)
    assert await PlaySessions(redis).checks_shown(p) == 3


@contextlib.asynccontextmanager
async def listening(redis: Redis, task: PlaySessionPush) -> AsyncIterator[list[str]]:
    """The process's listener (``RevocationListener`` with ``also``) feeding ``task.changed``; yields the
    messages heard, in order."""
    heard: list[str] = []

    def changed(data: str | bytes) -> None:
        heard.append(data.decode() if isinstance(data, bytes) else data)
        task.changed(data)

    listener = RevocationListener(Channels(redis), lambda _: None, also={keys.PLAY_SESSIONS: changed})
    await listener.start()
    try:
        yield heard
    finally:
        await listener.stop()


async def heard_of(task: PlaySessionPush, player_id: str) -> None:
    for _ in range(200):
        if player_id in task._changed or player_id in task._heard:  # the message arrived
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"no play-sessions message for {player_id}")


async def rounds_with_checks(task: PlaySessionPush, table: Table, ann: Conn, states: dict[str, TableState],
                             clock: list[int], p: str) -> None:
    wagered = 0
    for _ in range(3):
        await table.until(Phase.BETTING)
        await table.do(PlaceBet(p, 1_000, bonus_cents=500))
        wagered += 1_500
        await table.until(Phase.SETTING)
        clock[0] += 5 * MIN  # a check falls due while her hand is dealt
        states[table.table_id] = await table.state()
        assert (await task.sessions.figures_many([p]))[p].check_due(clock[0], 5), "due"
        assert await task.step() == 0, "but her hand is dealt"
        await table.do(UseHouseWay(p))  # the round settles
        states[table.table_id] = await table.state()
        await heard_of(task, p)
        assert await task.step() == 1
        seat = next(s for s in states[table.table_id].seats if s is not None)
        net = seat.chips_cents - 100_000
        check = ann.of("reality_check")[-1]
        assert (check["started_ms"], check["net_cents"], check["wagered_cents"]) == (T0, net, wagered)
        assert ann.of("play_session")[-1] == {"type": "play_session", "started_ms": T0, "net_cents": net,
                                              "wagered_cents": wagered}


async def test_a_settle_at_a_table_on_another_process_reaches_the_strip_and_a_quiet_step_reads_nothing(
        redis: Redis) -> None:
    """The player's connection is here at table ``a``; she plays at ``b`` (another service: another
    process's worth, which this task follows nothing of). The settle there publishes her id; the next
    step here reads her figures and pushes them. A step with no message reads no figures."""
    clock = [T0]
    (a, b), [p] = await _setup(redis, clock, tables=2)
    ann = Conn(a.table_id, PlayerViewer(p))
    states = {a.table_id: await a.state()}
    task = push(redis, [ann], states, clock, default_minutes=0)
    reads: list[list[str]] = []
    figures_many = task.sessions.figures_many

    async def counted(player_ids: list[str]) -> dict[str, SessionFigures]:
        reads.append(list(player_ids))
        return await figures_many(player_ids)

    task.sessions.figures_many = counted  # type: ignore[method-assign]
    async with listening(redis, task) as heard:
        await task.step()  # hello: read once
        for _ in range(3):
            await task.step()
        assert reads == [[p]], "quiet steps read nothing"
        await b.until(Phase.BETTING)
        await b.do(PlaceBet(p, 1_000))
        await b.until(Phase.SETTING)
        await b.do(UseHouseWay(p))
        await heard_of(task, p)
        await task.step()
        assert reads == [[p]], "the settle's message holds the figures: nothing read"
    seat = next(s for s in (await b.state()).seats if s is not None)
    net = seat.chips_cents - 100_000
    assert [json.loads(m) for m in heard] == [[p, T0, net, 1_000]], "one message: the settle's (her session "
    assert ann.of("play_session")[-1] == {"type": "play_session", "started_ms": T0,  # began before)
                                          "net_cents": net, "wagered_cents": 1_000}


async def test_a_check_waits_while_her_hand_is_dealt_at_a_table_on_another_process(redis: Redis) -> None:
    """Her connection here is at ``a``, where she has no stake; at ``b`` (driven by another process, no
    connection of hers here) her hand is dealt: the due check waits for b's round to settle."""
    clock = [T0]
    (a, b), [p] = await _setup(redis, clock, tables=2)
    await b.until(Phase.BETTING)
    await b.do(PlaceBet(p, 1_000))
    await b.until(Phase.SETTING)
    ann = Conn(a.table_id, PlayerViewer(p))
    states = {a.table_id: await a.state()}
    task = PlaySessionPush(PlaySessions(redis), lambda: [ann], states.get, lambda: clock[0],
                           default_minutes=lambda: 5, load=TableRepo(redis).load)
    assert not in_play(states[a.table_id], p)
    clock[0] += 5 * MIN
    assert await task.step() == 0, "due, but her hand at b is dealt"
    assert await PlaySessions(redis).seated_at(p) == [a.table_id, b.table_id]
    await b.do(UseHouseWay(p))
    task.changed(p)
    assert await task.step() == 1
    assert len(ann.of("reality_check")) == 1
