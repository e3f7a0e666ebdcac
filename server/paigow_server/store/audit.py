"""The operator audit log: one append-only stream entry per operator action, refused ones included.

Every entry names its ``actor``: the named operator's username, ``"bootstrap"`` for the bootstrap operator
token (``--operator-token``), or ``"system"`` for what the server does by itself (starter tables, guest
collection); a private table's host messages name their sender (``host:<player id>``, ``player:<player
id>``, ``spectator:<network>``: ``web.host_audit``).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any

from redis.asyncio import Redis

from paigow_server.store import keys
from paigow_server.store.errors import store_boundary
from paigow_server.store.streams import Page, read_page

__all__ = ["BOOTSTRAP", "SYSTEM", "AuditEntry", "AuditLog"]

BOOTSTRAP = "bootstrap"
SYSTEM = "system"


@dataclass(frozen=True, slots=True)
class AuditEntry:
    action: str
    """What was asked, e.g. ``open_table``, ``pause_table``, ``credit``."""
    ts_ms: int
    outcome: str
    """``ok``, or the error code it was refused with."""
    actor: str
    """Who acted: an operator's username, ``BOOTSTRAP`` or ``SYSTEM``; a host message's sender."""
    table_id: str | None = None
    player_id: str | None = None
    params: dict[str, Any] = field(default_factory=dict)
    """The request's values (amounts, limits, reason...)."""
    detail: str | None = None
    """The refusal's message, or what resulted (e.g. the new version)."""

    def to_json(self) -> str:
        return json.dumps(asdict(self), separators=(",", ":"), default=str)


@store_boundary
class AuditLog:
    def __init__(self, redis: Redis) -> None:
        self.redis = redis

    async def append(self, entry: AuditEntry) -> str:
        entry_id = await self.redis.xadd(keys.AUDIT, {"e": entry.to_json()})
        return entry_id.decode() if isinstance(entry_id, bytes) else str(entry_id)

    async def page(self, *, after: str | None = None, limit: int = 100) -> Page:
        return await read_page(self.redis, keys.AUDIT, after=after, limit=limit)
