"""Private tables' and the waiting list's clocks through the table service, as the timers drive them: a
waiting player is offered the freed seat and takes it (the money through the usual buy-in), an offer runs
out, an idle private table closes and its codes stop working while its history stays readable, and the
host's grace passes the role on (docs/home-games.md)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from redis.asyncio import Redis

from paigow.protocol.convert import to_command
from paigow.protocol.home_messages import HostMute
from paigow.table import commands as c
from paigow.table import home_commands as h
from paigow.table.commands import Command
from paigow.table.home_events import SeatOffered, WaitlistLeft, WaitlistLeftReason
from paigow.table.rejections import RejectCode, Rejection
from paigow.table.state import Phase, TableState
from paigow_server.process.settings import Settings
from paigow_server.realtime.realtime import Realtime
from paigow_server.web.home_gate import HomeGate
from support.homes import Homes, asgi_homes, auth, home_settings

OPERATOR = {"Authorization": "Bearer test-operator-token-0123456789"}


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return home_settings(settings, home_idle_close_minutes=1, home_host_grace_seconds=5)


@pytest.fixture
async def homes(settings: Settings, redis: Redis) -> AsyncIterator[Homes]:
    async with asgi_homes(settings, redis) as h:
        yield h


async def _money_balanced(homes: Homes) -> bool:
    money = (await homes.client.get("/api/operator/money", headers=OPERATOR)).json()
    return bool(money["balanced"])


async def test_a_waiting_player_is_offered_the_freed_seat_and_an_offer_runs_out(homes: Homes) -> None:
    rt: Realtime = homes.rt
    opened = await homes.client.post("/api/operator/tables", json={"name": "Full"}, headers=OPERATOR)
    table_id = opened.json()["table_id"]
    players = [await homes.guest(f"P{i}") for i in range(1, 9)]
    for seat, (player_id, _) in enumerate(players[:6], start=1):
        await rt.service.execute(table_id, c.Sit(player_id, f"P{seat}", seat, 10_000))
    seventh, eighth = players[6][0], players[7][0]
    await rt.service.execute(table_id, h.JoinWaitlist(seventh, "P7"))
    await rt.service.execute(table_id, h.JoinWaitlist(eighth, "P8"))
    now = rt.service.now_ms()
    left = await rt.service.execute(table_id, c.Leave(players[2][0], now))
    offered = [e for e in left.events if isinstance(e, SeatOffered)]
    assert [(e.player_id, e.seat) for e in offered] == [(seventh, 3)]
    state = left.state
    assert state.seat_offer_ms == 30_000  # seat_offer_seconds
    taken = await rt.service.execute(table_id, h.TakeSeat(seventh, "P7", 10_000))
    assert taken.state.seat_of(seventh) == 3
    assert [w.player_id for w in taken.state.waiting] == [eighth]
    now = rt.service.now_ms()
    again = await rt.service.execute(table_id, c.Leave(players[3][0], now))
    assert any(isinstance(e, SeatOffered) and e.player_id == eighth for e in again.events)
    expired = await rt.service.execute(table_id, c.Tick(now + 30_000))
    assert WaitlistLeft(eighth, WaitlistLeftReason.OFFER_EXPIRED) in expired.events
    assert expired.state.waiting == ()
    assert await _money_balanced(homes)


async def test_an_idle_private_table_closes_its_codes_end_and_its_rounds_stay_readable(homes: Homes) -> None:
    rt: Realtime = homes.rt
    host_id, token = await homes.account()
    body = await homes.table(token)
    table_id = body["table_id"]
    now = rt.service.now_ms()
    await rt.service.execute(table_id, c.Tick(now))
    await rt.service.execute(table_id, c.Sit(host_id, "Host", 1, 10_000))
    await rt.service.execute(table_id, c.Leave(host_id, now))
    state = await rt.store.load(table_id)
    assert state is not None
    assert state.home is not None
    assert state.home.idle_since_ms is not None
    not_yet = await rt.service.execute(table_id, c.Tick(state.home.idle_since_ms + 59_999))
    assert not_yet.state.phase != Phase.CLOSED
    closed = await rt.service.execute(table_id, c.Tick(state.home.idle_since_ms + 60_000))
    assert closed.state.phase == Phase.CLOSED
    for code in (body["invite"]["code"], body["invite"]["short_code"]):
        assert (await homes.resolve(code)).status_code == 404
    rounds = await homes.client.get(f"/api/tables/{table_id}/rounds", headers=auth(token))
    assert rounds.status_code == 200
    assert await _money_balanced(homes)


async def test_a_host_who_dropped_passes_the_role_after_the_grace(homes: Homes) -> None:
    rt: Realtime = homes.rt
    host_id, token = await homes.account()
    table_id = (await homes.table(token))["table_id"]
    bob_id, _ = await homes.account()
    await rt.service.execute(table_id, c.Sit(host_id, "Host", 1, 10_000))
    await rt.service.execute(table_id, c.Sit(bob_id, "Bob", 2, 10_000))
    now = rt.service.now_ms()
    await rt.service.execute(table_id, c.Drop(host_id, now))
    passed = await rt.service.execute(table_id, c.Tick(now + 5_000))
    assert passed.state.home is not None
    assert passed.state.home.host_player_id == bob_id


async def _next_round(rt: Realtime, table_id: str) -> None:
    """Tick until a round is open for bets (a bank offer accepted: a player banks when they may)."""
    for _ in range(400):
        state = await rt.store.load(table_id)
        assert state is not None
        if state.phase == Phase.BANK_OFFER and state.round is not None and state.round.offer_player_id:
            await rt.service.execute(table_id, c.AcceptBank(state.round.offer_player_id))
            continue
        if state.phase == Phase.BETTING:
            return
        await rt.service.execute(table_id, c.Tick(rt.service.now_ms() + 60_000))
    raise AssertionError("no round opened")


async def test_a_home_game_from_approval_to_closing_with_a_player_banker(homes: Homes) -> None:
    """The issue's evening, through the service: a friend waits for approval and is let in, five rounds
    with a player-banker, the host pauses, removes a player, hands over and closes; the money balances."""
    rt: Realtime = homes.rt
    host_id, token = await homes.account()
    table_id = (await homes.table(token, seating="approval"))["table_id"]
    bob_id, _ = await homes.account()
    cat_id, _ = await homes.account()
    await rt.service.execute(table_id, c.Sit(host_id, "Host", 1, 20_000))
    for friend, name in ((bob_id, "Bob"), (cat_id, "Cat")):
        await rt.service.execute(table_id, h.RequestSeat(friend, name))
        await rt.service.execute(table_id, h.HostAct(host_id, h.ApproveSeat(friend)))
    await rt.service.execute(table_id, c.Sit(bob_id, "Bob", 2, 20_000))
    await rt.service.execute(table_id, c.Sit(cat_id, "Cat", 3, 20_000))
    player_banked = 0
    for _ in range(5):
        await _next_round(rt, table_id)
        state = await rt.store.load(table_id)
        assert state is not None
        assert state.round is not None
        banker = state.round.banker_player_id
        player_banked += banker is not None
        for pid in (host_id, bob_id, cat_id):
            if pid != banker:
                await rt.service.execute(table_id, c.PlaceBet(pid, 500))
        for pid in (host_id, bob_id, cat_id):
            await rt.service.execute(table_id, c.UseHouseWay(pid))
        state = await rt.store.load(table_id)
        assert state is not None
        assert state.phase == Phase.IDLE
    assert player_banked >= 1
    await rt.service.execute(table_id, h.HostAct(host_id, c.PauseTable()))
    barred_until = rt.service.now_ms() + 60_000
    await rt.service.execute(table_id, h.HostAct(host_id, h.RemovePlayer(cat_id, barred_until)))
    await rt.service.execute(table_id, h.HostAct(host_id, h.HandOver(bob_id)))
    closed = await rt.service.execute(table_id, h.HostAct(bob_id, c.CloseTable()))
    assert closed.state.phase == Phase.CLOSED
    assert await _money_balanced(homes)
    rounds = (await homes.client.get(f"/api/tables/{table_id}/rounds", headers=auth(token))).json()["rounds"]
    assert len(rounds) == 5
    assert any(r["banker_player_id"] is not None for r in rounds)


async def test_an_ex_hosts_mute_checked_before_a_hand_over_is_refused_by_the_table(homes: Homes) -> None:
    """The host check and the mute are one commit: a mute whose sender was the host when the server last
    read the table, but not when it is written (a hand-over committed in between), changes nothing."""
    rt: Realtime = homes.rt
    (ann_id, ann), (bob_id, _), (cat_id, _) = [await homes.account() for _ in range(3)]
    table_id = (await homes.table(ann))["table_id"]
    for seat, player_id in ((1, ann_id), (2, bob_id)):
        await rt.service.execute(table_id, c.Sit(player_id, f"P{seat}", seat, 10_000))
    before = await rt.store.load(table_id)  # what the server read when Ann's mute came ...
    await rt.service.execute(table_id, h.HostAct(ann_id, h.HandOver(bob_id)))  # ... as the hand-over went in

    async def read_before(_: str) -> TableState | None:
        return before

    async def execute(command: Command) -> int:
        return (await rt.service.execute(table_id, command)).version

    gate = HomeGate(homes.ctx.homes, homes.ctx.bars, homes.ctx.audit, read_before, homes.ctx.rate_limits)
    mute = HostMute(id="m1", player_id=cat_id, muted=True)
    command = to_command(mute, player_id=ann_id, name="Ann", now_ms=rt.service.now_ms())
    with pytest.raises(Rejection) as refused:
        await gate.host(table_id, mute, player_id=ann_id, name="Ann", command=command, execute=execute)
    assert refused.value.code == RejectCode.NOT_HOST
    state = await rt.store.load(table_id)
    assert state is not None
    assert state.home is not None
    assert state.home.muted == ()
    assert not await homes.ctx.chat.is_muted(table_id, cat_id)
