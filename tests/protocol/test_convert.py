"""Client commands become table commands for the authenticated player, at the server's time."""

from __future__ import annotations

import typing

import pytest

from paigow.protocol import client
from paigow.protocol.convert import to_command
from paigow.protocol.parse import parse_client_message
from paigow.table import commands
from paigow.table import home_chip_commands as chips
from paigow.table import home_commands as h
from paigow.table.home import Seating, SpectatorsPolicy

NOW = 1_700_000_000_000

CASES: list[tuple[str, commands.Command]] = [
    ('{"type":"sit","id":"1","seat":3,"buy_in_cents":20000}',
     commands.Sit(player_id="p1", name="Ann", seat=3, buy_in_cents=20000)),
    ('{"type":"leave","id":"1"}', commands.Leave(player_id="p1", now_ms=NOW)),
    ('{"type":"sit_out","id":"1"}', commands.SitOut(player_id="p1", now_ms=NOW)),
    ('{"type":"sit_in","id":"1"}', commands.SitIn(player_id="p1")),
    ('{"type":"accept_bank","id":"1"}', commands.AcceptBank(player_id="p1", now_ms=NOW)),
    ('{"type":"decline_bank","id":"1"}', commands.DeclineBank(player_id="p1", now_ms=NOW)),
    ('{"type":"place_bet","id":"1","amount_cents":1500}',
     commands.PlaceBet(player_id="p1", amount_cents=1500, now_ms=NOW)),
    ('{"type":"place_bet","id":"1","amount_cents":1500,"bonus_cents":500}',
     commands.PlaceBet(player_id="p1", amount_cents=1500, now_ms=NOW, bonus_cents=500)),
    ('{"type":"place_bet","id":"1","amount_cents":1500,"bonus_cents":0}',
     commands.PlaceBet(player_id="p1", amount_cents=1500, now_ms=NOW, bonus_cents=0)),
    ('{"type":"place_bonus","id":"1","bonus_cents":100}',
     commands.PlaceBonus(player_id="p1", bonus_cents=100, now_ms=NOW)),
    ('{"type":"accept_bank","id":"1","bonus_cents":100}',
     commands.AcceptBank(player_id="p1", now_ms=NOW, bonus_cents=100)),
    ('{"type":"remove_bet","id":"1"}', commands.RemoveBet(player_id="p1")),
    ('{"type":"set_hand","id":"1","low":["Kd","JK"]}',
     commands.SetHand(player_id="p1", low=("Kd", "JK"), now_ms=NOW)),
    ('{"type":"use_house_way","id":"1"}', commands.UseHouseWay(player_id="p1", now_ms=NOW)),
    ('{"type":"set_own_limit","id":"1","max_bet_cents":2500}',
     commands.SetOwnLimit(player_id="p1", max_bet_cents=2500, now_ms=NOW)),
    ('{"type":"set_own_limit","id":"1","max_bet_cents":null}',
     commands.SetOwnLimit(player_id="p1", max_bet_cents=None, now_ms=NOW)),
    ('{"type":"request_seat","id":"1"}', h.RequestSeat("p1", "Ann")),
    ('{"type":"cancel_request","id":"1"}', h.CancelRequest("p1")),
    ('{"type":"join_waitlist","id":"1"}', h.JoinWaitlist("p1", "Ann")),
    ('{"type":"leave_waitlist","id":"1"}', h.LeaveWaitlist("p1")),
    ('{"type":"take_seat","id":"1","buy_in_cents":5000}', h.TakeSeat("p1", "Ann", 5000)),
    ('{"type":"host_approve","id":"1","player_id":"p2"}', h.HostAct("p1", h.ApproveSeat("p2"), NOW)),
    ('{"type":"host_deny","id":"1","player_id":"p2"}', h.HostAct("p1", h.DenySeat("p2"), NOW)),
    ('{"type":"host_remove","id":"1","player_id":"p2","bar_minutes":30}',
     h.HostAct("p1", h.RemovePlayer("p2", NOW + 30 * 60_000), NOW)),
    ('{"type":"host_hand_over","id":"1","player_id":"p2"}', h.HostAct("p1", h.HandOver("p2"), NOW)),
    ('{"type":"host_pause","id":"1"}', h.HostAct("p1", commands.PauseTable(), NOW)),
    ('{"type":"host_resume","id":"1"}', h.HostAct("p1", commands.ResumeTable(), NOW)),
    ('{"type":"host_close","id":"1"}', h.HostAct("p1", commands.CloseTable(), NOW)),
    ('{"type":"host_limits","id":"1","min_bet_cents":100,"max_bet_cents":900}',
     h.HostAct("p1", commands.ChangeLimits(100, 900), NOW)),
    ('{"type":"host_timers","id":"1","betting_ms":9000}',
     h.HostAct("p1", h.AdjustTimers(betting_ms=9000), NOW)),
    ('{"type":"host_settings","id":"1","seating":"approval","spectators":"none"}',
     h.HostAct("p1", h.ChangeHomeSettings(Seating.APPROVAL, SpectatorsPolicy.NONE), NOW)),
    ('{"type":"accept_bank","id":"1","co_bank":true}',
     commands.AcceptBank(player_id="p1", now_ms=NOW, co_bank=True)),
    ('{"type":"place_bet","id":"1","amount_cents":1500,"queens_dragon_cents":100}',
     commands.PlaceBet(player_id="p1", amount_cents=1500, now_ms=NOW, queens_dragon_cents=100)),
    ('{"type":"place_queens_dragon","id":"1","amount_cents":0}',
     commands.PlaceQueensDragon(player_id="p1", amount_cents=0, now_ms=NOW)),
    ('{"type":"take_dragon","id":"1","amount_cents":500}',
     commands.TakeDragon(player_id="p1", amount_cents=500, now_ms=NOW)),
    ('{"type":"pass_dragon","id":"1"}', commands.PassDragon(player_id="p1", now_ms=NOW)),
    ('{"type":"set_dragon","id":"1","low":["Kd","JK"]}',
     commands.SetDragon(player_id="p1", low=("Kd", "JK"), now_ms=NOW)),
    ('{"type":"set_dragon","id":"1","low":[]}', commands.SetDragon(player_id="p1", low=(), now_ms=NOW)),
    ('{"type":"rebuy","id":"1","amount_cents":5000}', chips.Rebuy("p1", 5000)),
    ('{"type":"cancel_buy_in","id":"1","request_id":"b3"}', chips.CancelBuyIn("p1", "b3")),
    ('{"type":"host_buy_in","id":"1","request_id":"b3","approve":true}',
     h.HostAct("p1", chips.AnswerBuyIn("b3", True), NOW)),
    ('{"type":"host_buy_in","id":"1","request_id":"b3","approve":true,"amount_cents":7500}',
     h.HostAct("p1", chips.AnswerBuyIn("b3", True, 7500), NOW)),
    ('{"type":"host_buy_in","id":"1","request_id":"b3","approve":false}',
     h.HostAct("p1", chips.AnswerBuyIn("b3", False), NOW)),
    ('{"type":"host_chips","id":"1","player_id":"p2","amount_cents":-2500,"reason":" counted  twice "}',
     h.HostAct("p1", chips.AdjustChips("p2", -2500, "counted twice"), NOW)),
    ('{"type":"host_chips","id":"1","player_id":"p1","amount_cents":1000,"reason":"my own rebuy"}',
     h.HostAct("p1", chips.AdjustChips("p1", 1000, "my own rebuy"), NOW)),
    ('{"type":"host_chip_settings","id":"1","min_buy_in_cents":1000,"auto_approve":true}',
     h.HostAct("p1", chips.ChangeChips(min_buy_in_cents=1000, auto_approve=True), NOW)),
    ('{"type":"host_chip_settings","id":"1","default_buy_in_cents":5000,"max_buy_in_cents":9000,'
     '"rebuys":false}',
     h.HostAct("p1", chips.ChangeChips(default_buy_in_cents=5000, max_buy_in_cents=9000, rebuys=False), NOW)),
]
NOT_TABLE_COMMANDS = {'{"type":"host_mute","id":"1","player_id":"p2","muted":true}'}
"""A chat setting: the server mutes at the table's chat itself (tests/server/web/test_home_ws.py)."""


@pytest.mark.parametrize(("frame", "expected"), CASES)
def test_each_client_command_becomes_its_table_command(frame: str, expected: commands.Command) -> None:
    msg = parse_client_message(frame)
    assert not isinstance(msg, client.Hello | client.Sync | client.Ping)
    assert to_command(msg, player_id="p1", name="Ann", now_ms=NOW) == expected


def test_every_client_command_type_is_covered() -> None:
    union = typing.get_args(typing.get_args(client.ClientCommand)[0])
    covered = {type(parse_client_message(frame)) for frame, _ in CASES}
    covered |= {type(parse_client_message(frame)) for frame in NOT_TABLE_COMMANDS}
    assert covered == set(union)


def test_the_player_comes_from_the_connection_not_the_frame() -> None:
    # A frame cannot even name a player: player_id is an unknown field.
    with pytest.raises(ValueError, match="unknown field 'player_id'"):
        parse_client_message('{"type":"leave","id":"1","player_id":"someone-else"}')
