"""The start-up migration from the first key layout (no hash tags) to today's (``keys``).

Version 2 of the layout puts every key of a table in the hash slot of ``{table_id}`` and every other key
in the slot of ``{global}``, so that a Redis Cluster can hold them (a script's keys must share a slot).
A Redis written by an older server holds the old names: ``migrate_key_names`` renames them all in one
script (atomic: a process starting beside it sees either none or all of them renamed) and records the
layout in ``keys.SCHEMA``. It runs at every start and does nothing once the layout is recorded. Only a
single Redis (plain or behind Sentinel) can hold the old layout: a cluster starts empty (to move a single
Redis into a cluster, start the new server once on it, then import it: ``deploy/RUNBOOK.md``).

Stop every old server before starting a new one on the same Redis: an old process would go on writing
the old names, which nothing reads any more.
"""

from __future__ import annotations

import logging

from redis.asyncio import Redis

from paigow_server.store import keys
from paigow_server.store.errors import guarded

__all__ = ["SCHEMA_VERSION", "migrate_key_names"]

log = logging.getLogger("paigow_server.migration")

SCHEMA_VERSION = 2

# KEYS: 1 the schema key, then pairs (old name, new name). ARGV: 1 the schema version.
# Answers -1 when the layout was recorded already, else how many keys it renamed (a pair whose new name
# exists already keeps both: its old name is left, and counted in the second reply).
_MIGRATE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return {-1, 0} end
local moved, kept = 0, 0
for i = 2, #KEYS, 2 do
  if redis.call('EXISTS', KEYS[i]) == 1 then
    if redis.call('RENAMENX', KEYS[i], KEYS[i + 1]) == 1 then moved = moved + 1 else kept = kept + 1 end
  end
end
redis.call('SET', KEYS[1], ARGV[1])
return {moved, kept}
"""


@guarded
async def migrate_key_names(redis: Redis) -> int:
    """Rename every key of the old layout; how many were renamed (0: nothing to do)."""
    if await redis.get(keys.SCHEMA) == str(SCHEMA_VERSION):
        return 0
    pairs: list[str] = []
    async for name in redis.scan_iter(match=f"{keys.PREFIX}*", count=1000):
        text = name.decode() if isinstance(name, bytes) else str(name)
        new = keys.renamed(text)
        if new is not None:
            pairs += [text, new]
    script = redis.register_script(_MIGRATE)
    moved, kept = (int(n) for n in await script(keys=[keys.SCHEMA, *pairs], args=[SCHEMA_VERSION]))
    if kept:
        log.warning("key migration: %d old keys kept, their new names exist already", kept)
    if moved > 0:
        log.info("migrated %d keys to the tagged layout", moved, extra={"schema": SCHEMA_VERSION})
    return max(moved, 0)
