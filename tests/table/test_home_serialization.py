"""Private tables' and the waiting list's state, commands and events survive the JSON round trip the
server's codec makes (pydantic's TypeAdapter), each coming back as its own class."""

from __future__ import annotations

import typing

from pydantic import TypeAdapter

from paigow.table import TableState, new_table
from paigow.table import commands as c
from paigow.table import events as ev
from paigow.table import home_chip_commands as hc
from paigow.table import home_chip_events as ce
from paigow.table import home_commands as h
from paigow.table import home_events as he
from paigow.table.home import Home, Seating, SeatRequest, SpectatorsPolicy, Waiter
from paigow.table.home_chips import ChipLine, ChipLineKind, ChipRequest, HomeChips, HomeCommission
from paigow.table.state import Timers


def _each_round_trips(samples: list[ev.Event], union: object) -> None:
    """``samples`` hold one of each event of ``union``, and each comes back as itself."""
    assert {type(e) for e in samples} == set(typing.get_args(union))
    adapter: TypeAdapter[ev.Event] = TypeAdapter(ev.Event)
    for e in samples:
        back = adapter.validate_json(adapter.dump_json(e))
        assert back == e
        assert type(back) is type(e)


def test_every_home_event_round_trips() -> None:
    samples: list[ev.Event] = [
        he.SeatRequested("p1", "Ann"), he.SeatRequestApproved("p1"), he.SeatRequestDenied("p1"),
        he.SeatRequestCancelled("p1"), he.WaitlistJoined("p1", "Ann"),
        he.WaitlistLeft("p1", he.WaitlistLeftReason.OFFER_EXPIRED), he.SeatOffered("p1", 3, None, 30_000),
        he.HostChanged("p2", "Bob", he.HostChangeReason.GRACE_ENDED), he.HostAway(5), he.HostBack(),
        he.HomeSettingsChanged(Seating.APPROVAL, SpectatorsPolicy.NONE), he.AdmissionEnded("p1", 60_000),
        he.TableIdle(None), he.PlayerMuted("p1", True),
    ]
    _each_round_trips(samples, he.HOME_EVENTS)


def test_every_home_command_and_host_action_round_trips() -> None:
    actions: list[h.HostAction] = [
        c.PauseTable(), c.ResumeTable(), c.CloseTable(), c.ChangeLimits(1, 2), c.ChangeTimers(Timers()),
        h.AdjustTimers(betting_ms=5), h.ApproveSeat("p1"), h.DenySeat("p1"), h.RemovePlayer("p1", 9),
        h.HandOver("p1"), h.ChangeHomeSettings(spectators=SpectatorsPolicy.LINK), h.MuteChat("p1", False),
        hc.AnswerBuyIn("b1", True, 5_000), hc.AnswerBuyIn("b2", False),
        hc.AdjustChips("p1", -500, "miscount"),
        hc.ChangeChips(min_buy_in_cents=1_000, auto_approve=True),
    ]
    assert {type(a) for a in actions} == set(typing.get_args(h.HostAction))
    commands: list[c.Command] = [
        h.RequestSeat("p1", "Ann"), h.CancelRequest("p1"), h.JoinWaitlist("p1", "Ann"), h.LeaveWaitlist("p1"),
        h.LeaveWaitlist("p1", seated_elsewhere=True), h.TakeSeat("p1", "Ann", 500),
        *(h.HostAct("p1", a, 7) for a in actions),
    ]
    assert {type(x) for x in commands} == set(typing.get_args(h.HOME_COMMANDS))
    chip_commands: list[c.Command] = [hc.Rebuy("p1", 5_000), hc.CancelBuyIn("p1", "b3")]
    assert {type(x) for x in chip_commands} == set(typing.get_args(hc.CHIP_COMMANDS))
    commands += chip_commands
    adapter: TypeAdapter[c.Command] = TypeAdapter(c.Command)
    for cmd in commands:
        back = adapter.validate_json(adapter.dump_json(cmd))
        assert back == cmd
        assert type(back) is type(cmd)
        if isinstance(cmd, h.HostAct):
            assert type(back.action) is type(cmd.action)  # type: ignore[attr-defined]


def test_every_chip_event_round_trips() -> None:
    samples: list[ev.Event] = [
        ce.BuyInRequested("b1", "p1", "Ann", 10_000, False, 3),
        ce.BuyInRequested("b2", "p1", "Ann", 5_000, True, None),
        ce.BuyInApproved("b1", "p1", "Ann", 10_000, False, "p9", "Host", False),
        ce.BuyInApproved("b2", "p1", "Ann", 5_000, True, "p9", "Host", True, deferred=True),
        ce.BuyInDenied("b1", "p1", "p9", "Host"), ce.BuyInCancelled("b1", "p1", "closed"),
        ce.ChipsAdded("b2", "p1", 3, 5_000), ce.ChipsAdjusted("p1", 3, -200, "miscount", "p9", "Host"),
        ce.ChipSettingsChanged(10_000, 2_000, 50_000, True, False, HomeCommission.FIVE_PERCENT),
        ce.ChipLinesStamped(7),
    ]
    _each_round_trips(samples, ce.CHIP_EVENTS)


def test_a_chips_game_state_round_trips() -> None:
    chips = HomeChips(auto_approve=True, commission=HomeCommission.FIVE_PERCENT,
                      requests=(ChipRequest("b2", "p2", "Bob", 3_000, True, None, 3_000, "p1", "Ann", True),),
                      lines=(ChipLine(1, ChipLineKind.BUY_IN, "p2", "Bob", 10_000, "p1", "Ann", True, None, 0,
                                      5),),
                      next_request=3, commission_cents=25)
    state = new_table("h1", "Home", home=Home("p1", "Ann", chips=chips, max_buy_in_cap_cents=200_000))
    adapter = TypeAdapter(TableState)
    assert adapter.validate_json(adapter.dump_json(state)) == state


def test_a_private_table_state_round_trips() -> None:
    home = Home("p1", "Ann", Seating.APPROVAL, SpectatorsPolicy.NONE, requests=(SeatRequest("p2", "Bob"),),
                approved=("p3",), muted=("p5",), sat_order=("p1",), host_away=True)
    state = new_table("h1", "Home", home=home)
    state = TableState(**{**{f: getattr(state, f) for f in state.__dataclass_fields__},
                          "waiting": (Waiter("p4", "Cat", 2, None),)})
    adapter = TypeAdapter(TableState)
    assert adapter.validate_json(adapter.dump_json(state)) == state


def test_a_private_table_stored_before_the_hosts_mutes_reads_none_muted() -> None:
    adapter = TypeAdapter(TableState)
    data = adapter.dump_python(new_table("h1", "Home", home=Home("p1", "Ann")), mode="json")
    del data["home"]["muted"]
    assert adapter.validate_python(data).home.muted == ()


def test_a_kick_stored_before_it_said_who_kicked_reads_by_none() -> None:
    adapter: TypeAdapter[ev.Event] = TypeAdapter(ev.Event)
    for event in (ev.PlayerKicked("p1", 2, 500, None), ev.PlayerLeaving("p1", 2, True, 9)):
        data = adapter.dump_python(event, mode="json")
        del data["by"]
        assert adapter.validate_python(data) == event
