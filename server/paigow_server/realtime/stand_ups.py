"""The server standing a player up at one table (``StandUp``: a break, a self-exclusion, a session time
limit, a closed account), for the background tasks that do it: a refusal by the table's rules (not seated
any more, already leaving) is nothing to do, and a command that could not run (a busy table, one that went
away) is logged for the task's next turn to look again."""

from __future__ import annotations

import logging

from paigow.table.commands import StandUp
from paigow.table.events import StandUpReason
from paigow.table.rejections import Rejection
from paigow_server.errors import ServerError
from paigow_server.realtime.tables import TableService

__all__ = ["stand_up"]

log = logging.getLogger(__name__)


async def stand_up(service: TableService, table_id: str, player_id: str, reason: StandUpReason,
                   now_ms: int) -> bool:
    """Whether the table took the stand-up."""
    try:
        await service.execute(table_id, StandUp(player_id, reason, now_ms))
    except Rejection:
        return False
    except ServerError as exc:
        log.warning("standing %s up at %s (%s) failed: %s", player_id, table_id, reason.value, exc)
        return False
    return True
