"""From a home game's chip message (``paigow.protocol.chip_messages``) to the table command it asks for:
the players' ``Rebuy`` and ``CancelBuyIn``, the host's actions in a ``HostAct`` (the server adds who asks
and when, as ``paigow.protocol.convert`` does for the others)."""

from __future__ import annotations

from paigow.protocol import chip_messages as m
from paigow.table import commands as c
from paigow.table import home_chip_commands as chips
from paigow.table.home_commands import HostAct

__all__ = ["chip_command"]


def chip_command(msg: m.CHIP_CLIENT_COMMANDS, *, player_id: str, now_ms: int) -> c.Command:
    """The table command for ``msg`` sent by ``player_id`` at ``now_ms``."""
    match msg:
        case m.Rebuy(amount_cents=amount):
            return chips.Rebuy(player_id, amount)
        case m.CancelBuyIn(request_id=request_id):
            return chips.CancelBuyIn(player_id, request_id)
        case m.HostBuyIn(request_id=request_id, approve=approve, amount_cents=amount):
            return HostAct(player_id, chips.AnswerBuyIn(request_id, approve, amount), now_ms)
        case m.HostChips(player_id=target, amount_cents=amount, reason=reason):
            return HostAct(player_id, chips.AdjustChips(target, amount, reason), now_ms)
        case m.HostChipSettings():
            return HostAct(player_id, chips.ChangeChips(msg.default_buy_in_cents, msg.min_buy_in_cents,
                                                        msg.max_buy_in_cents, msg.rebuys, msg.auto_approve),
                           now_ms)
    raise TypeError(f"not a chip message: {msg!r}")
