"""From a client's protocol command to the table command it asks for.

The protocol message says what the client wants; the server adds who is asking (the authenticated player)
and when (its clock), so a client can never act for another seat or choose the time.
"""

from __future__ import annotations

from paigow.protocol import client
from paigow.protocol.chip_convert import chip_command
from paigow.protocol.chip_messages import CancelBuyIn, HostBuyIn, HostChips, HostChipSettings, Rebuy
from paigow.protocol.home_convert import home_command
from paigow.table import commands

__all__ = ["to_command"]


def to_command(msg: client.ClientCommand, *, player_id: str, name: str, now_ms: int) -> commands.Command:
    """The table command for ``msg`` sent by ``player_id`` (display name ``name``) at ``now_ms``."""
    match msg:
        case client.Sit(seat=seat, buy_in_cents=buy_in):
            return commands.Sit(player_id=player_id, name=name, seat=seat, buy_in_cents=buy_in)
        case client.Leave():
            return commands.Leave(player_id=player_id, now_ms=now_ms)
        case client.SitOut():
            return commands.SitOut(player_id=player_id, now_ms=now_ms)
        case client.SitIn():
            return commands.SitIn(player_id=player_id)
        case client.AcceptBank(bonus_cents=bonus, co_bank=co_bank):
            return commands.AcceptBank(player_id=player_id, now_ms=now_ms, bonus_cents=bonus, co_bank=co_bank)
        case client.DeclineBank():
            return commands.DeclineBank(player_id=player_id, now_ms=now_ms)
        case client.PlaceBet(amount_cents=amount, bonus_cents=bonus, queens_dragon_cents=qd):
            return commands.PlaceBet(player_id=player_id, amount_cents=amount, now_ms=now_ms,
                                     bonus_cents=bonus, queens_dragon_cents=qd)
        case client.PlaceBonus(bonus_cents=bonus):
            return commands.PlaceBonus(player_id=player_id, bonus_cents=bonus, now_ms=now_ms)
        case client.RemoveBet():
            return commands.RemoveBet(player_id=player_id)
        case client.SetHand(low=low):
            return commands.SetHand(player_id=player_id, low=low, now_ms=now_ms)
        case client.UseHouseWay():
            return commands.UseHouseWay(player_id=player_id, now_ms=now_ms)
        case client.SetOwnLimit(max_bet_cents=limit):
            return commands.SetOwnLimit(player_id=player_id, max_bet_cents=limit, now_ms=now_ms)
        case client.PlaceQueensDragon(amount_cents=amount):
            return commands.PlaceQueensDragon(player_id=player_id, amount_cents=amount, now_ms=now_ms)
        case client.TakeDragon(amount_cents=amount):
            return commands.TakeDragon(player_id=player_id, amount_cents=amount, now_ms=now_ms)
        case client.PassDragon():
            return commands.PassDragon(player_id=player_id, now_ms=now_ms)
        case client.SetDragon(low=low):
            return commands.SetDragon(player_id=player_id, low=low, now_ms=now_ms)
        case Rebuy() | CancelBuyIn() | HostBuyIn() | HostChips() | HostChipSettings():
            return chip_command(msg, player_id=player_id, now_ms=now_ms)
    return home_command(msg, player_id=player_id, name=name, now_ms=now_ms)
