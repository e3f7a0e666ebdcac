"""Which table messages a break or self-exclusion refuses (``realtime/play_block_guard.py``).

A player on a break or self-excluded may not sit (``sit``, a private table's ``request_seat``, a waiting
list's ``join_waitlist`` and ``take_seat``), buy in (``rebuy``), bet (``place_bet``, ``place_bonus``, the
Queens Dragon bet, buying the Dragon hand) or bank (``accept_bank``, co-banking included). Leaving, setting
a dealt hand, sitting out, declining the bank and chat stay open: a hand in play is played out. The
sit-like ones read the block from Redis; the bets and the bank, every frame of play, only the
process's set. A host's messages are not refused for another player's block (the host is not told of it):
an approval seats nobody (the player's own ``sit`` follows, and is refused), and a chips game's buy-in
request made before the block and approved after it is stood up by ``PlayBlockGuard``'s sweep (the
player's bets are refused meanwhile).
"""

from __future__ import annotations

from paigow.protocol.chip_messages import Rebuy
from paigow.protocol.client import (
    AcceptBank,
    ClientCommand,
    PlaceBet,
    PlaceBonus,
    PlaceQueensDragon,
    TakeDragon,
)
from paigow_server.errors import ApiError
from paigow_server.realtime.play_block_guard import PlayBlocked, PlayBlockGuard
from paigow_server.web.ws_home import SITTING

__all__ = ["check_play", "refuse_blocked_http"]

_BUYING_IN = (*SITTING, Rebuy)
"""Read from Redis: each leads to a seat or more chips (rare messages)."""
_PLAYING = (AcceptBank, PlaceBet, PlaceBonus, PlaceQueensDragon, TakeDragon)
"""Read from the process's set: each puts money in play."""


async def check_play(guard: PlayBlockGuard, msg: ClientCommand, player_id: str) -> None:
    """Raise ``PlayBlocked`` when ``msg`` from ``player_id`` is one a block refuses, and one is in force."""
    if isinstance(msg, _BUYING_IN):
        await guard.check(player_id, fresh=True)
    elif isinstance(msg, _PLAYING):
        await guard.check(player_id)


async def refuse_blocked_http(guard: PlayBlockGuard, player_id: str) -> None:
    """An HTTP request that adds money to play (a top-up): ``403 ON_BREAK`` / ``SELF_EXCLUDED`` with
    ``until_ms`` when the player is blocked (read from Redis)."""
    try:
        await guard.check(player_id, fresh=True)
    except PlayBlocked as exc:
        raise ApiError(exc.http_status, str(exc.code), exc.message, extra=dict(exc.fields)) from None
