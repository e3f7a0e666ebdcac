"""State, commands, events and views survive a JSON round trip through pydantic's TypeAdapter (how the
server stores and sends them). The table package itself never imports pydantic."""

from __future__ import annotations

import subprocess
import sys
import typing

from pydantic import TypeAdapter

from paigow.rules.house_rules import HouseRules
from paigow.table import (
    OperatorViewer,
    PlayerViewer,
    SpectatorViewer,
    TableState,
    TableView,
    Timers,
    view_for,
)
from paigow.table import commands as c
from paigow.table import events as ev
from paigow.table.home_chip_commands import CHIP_COMMANDS
from paigow.table.home_chip_events import CHIP_EVENTS
from paigow.table.home_commands import HOME_COMMANDS
from paigow.table.home_events import HOME_EVENTS
from paigow.table.records import SetBy
from paigow.table.state import BankReason, Bet, DeadlineKind


def _mid_round(driver):
    d = driver()
    d.sit(4)
    d.play_round()
    d.start_round()
    d.do(c.AcceptBank("p1"))
    d.do(c.SetOwnLimit("p2", 50_00, d.now))
    d.do(c.PlaceBet("p2", 20_00))
    d.do(c.PlaceBet("p3", 10_00))
    d.do(c.SitOut("p4"))
    d.do(c.UseHouseWay("p2"))
    d.do(c.Drop("p3", d.now))
    d.do(c.ChangeTimers(Timers(betting_ms=9_000)))
    d.do(c.Leave("p1"))
    return d


def test_a_mid_round_state_round_trips(driver) -> None:
    d = _mid_round(driver)
    s = d.state
    assert s.round is not None
    assert s.round.hands
    assert s.pending_timers is not None
    adapter = TypeAdapter(TableState)
    back = adapter.validate_json(adapter.dump_json(s))
    assert back == s
    # and the round keeps working from the decoded state
    d.state = back
    d.house_way_all()


def test_every_event_type_round_trips(driver) -> None:
    d = _mid_round(driver)
    d.house_way_all()
    d.do(c.PauseTable())
    d.do(c.ResumeTable())
    d.do(c.ChangeRules(HouseRules(commission_round_cents=1)))
    d.do(c.Kick("p4"))
    d.start_round()
    d.do(c.VoidRound())
    d.do(c.CloseTable())
    d.do(c.OpenTable())
    samples = {type(e): e for e in d.events}
    extra: list[ev.Event] = [
        ev.PlayerReconnected("p3", 3), ev.PlayerMissedRound("p1", 1, 2), ev.PlayerSatIn("p1", 1),
        ev.BankDeclined(1, "p1", True), ev.BetRemoved("p1", 1), ev.TableClosing(),
        ev.BonusPlaced("p1", 1, 5_00), ev.BonusRemoved("p1", 1),
        ev.PlayerStoodUp("p1", 1, 5_00, ev.StandUpReason.MISSED_ROUNDS),
        ev.PlayerLeaving("p1", 1, True), ev.RoundVoided("t-1", "ab" * 32, (Bet(1, "p1", 5_00),), "x"),
        ev.BettingOpened(0, None, BankReason.TIMED_OUT, 0), ev.DeadlineSet(DeadlineKind.SETTING, None, 5),
        ev.HandSet(0, None, ("As", "Kd", "Qh", "Jc", "9s"), ("2c", "3d"), SetBy.DEALER, False),
        ev.QueensDragonPlaced("p1", 1, 5_00), ev.QueensDragonRemoved("p1", 1), ev.CoBankChosen(1, "p1"),
        ev.DragonOffered(5, 1, "p1", (1, 2, 3), 6), ev.DragonPassed(1, "p1", True),
        ev.DragonTaken(1, "p1", 5_00), ev.DragonDealt(5, "p1", ("As",) * 7, True),
        ev.DragonSet(5, "p1", ("As", "Kd", "Qh", "Jc", "9s"), ("2c", "3d"), SetBy.PLAYER, False, True),
    ]
    for e in extra:
        samples.setdefault(type(e), e)
    # the home and chip events: tests/table/test_home_serialization.py
    home_events = set(typing.get_args(HOME_EVENTS)) | set(typing.get_args(CHIP_EVENTS))
    assert set(samples) == set(typing.get_args(ev.Event)) - home_events
    adapter: TypeAdapter[ev.Event] = TypeAdapter(ev.Event)
    for e in (*d.events, *extra):
        back = adapter.validate_json(adapter.dump_json(e))
        assert back == e
        assert type(back) is type(e)


def test_every_command_type_round_trips() -> None:
    commands: list[c.Command] = [
        c.Sit("p1", "Ann", 1, 50_00), c.Leave("p1"), c.StandUp("p1", ev.StandUpReason.BREAK, 4),
        c.Drop("p1", 5), c.Reconnect("p1", 6),
        c.AcceptBank("p1"), c.DeclineBank("p1"), c.PlaceBet("p1", 5_00, bonus_cents=1_00),
        c.PlaceBonus("p1", 2_00, 9), c.RemoveBet("p1"),
        c.SetHand("p1", ("As", "JK")), c.UseHouseWay("p1"), c.SitOut("p1"), c.SitIn("p1"),
        c.SetOwnLimit("p1", None, 7), c.OpenTable(), c.CloseTable(), c.PauseTable(), c.ResumeTable(),
        c.ChangeLimits(1_00, 2_00), c.ChangeTimers(Timers()), c.ChangeRules(HouseRules()), c.Kick("p1"),
        c.VoidRound(), c.Tick(8),
        c.PlaceQueensDragon("p1", 1_00), c.TakeDragon("p1", 5_00, 3), c.PassDragon("p1"),
        c.SetDragon("p1", ("As", "JK")),
    ]
    home_commands = set(typing.get_args(HOME_COMMANDS)) | set(typing.get_args(CHIP_COMMANDS))
    assert {type(x) for x in commands} == set(typing.get_args(c.Command)) - home_commands
    adapter: TypeAdapter[c.Command] = TypeAdapter(c.Command)
    for cmd in commands:
        back = adapter.validate_json(adapter.dump_json(cmd))
        assert back == cmd
        assert type(back) is type(cmd)


def test_views_round_trip(driver) -> None:
    d = _mid_round(driver)
    adapter = TypeAdapter(TableView)
    for viewer in (PlayerViewer("p2"), SpectatorViewer(), OperatorViewer()):
        view = view_for(d.state, viewer)
        assert adapter.validate_json(adapter.dump_json(view)) == view


def test_the_table_package_does_not_import_pydantic() -> None:
    code = ("import sys, paigow.table, paigow.table.machine, paigow.fair; "
            "print(any(m == 'pydantic' or m.startswith('pydantic.') for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
