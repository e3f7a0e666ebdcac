"""The floor's per-round aggregates (docs/floor.md): bucket hashes written by the commit that settles a
round.

A commit that settles (or voids) a round of a casino-money table carries one seating effect (``floor``,
``seating_effects``): ``["floor", table, expiry m, expiry h, expiry d, name, value, name, value, ...]``,
the round's non-zero figures (``paigow.ledger.floor_figures``) and when each resolution's buckets lapse.
``FLOOR_LUA``'s ``apply_floor`` adds them (``HINCRBY``) to nine hashes, ``floor_effect_keys``: at each
resolution (minute, kept 48 hours; hour, 90 days; day, 400 days; UTC) the deployment's bucket, the table's,
and the bucket's per-table figures (``TABLE_FIELDS`` of each table, for the list of a window's tables), and
sets their ``PEXPIREAT``. On one Redis the commit's script writes them, on a Cluster the outbox entry
carries them to ``{global}`` with the money, so a round is counted exactly when it is settled. A commit
that settles no round adds nothing; a home game with its own chips is not counted (its chips are not the
casino's money).

``FloorStats`` reads buckets back (one pipelined ``HGETALL`` per bucket) and, for the benchmark and tests,
writes a round's figures straight through the same ``apply_floor``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

from redis.asyncio import Redis

from paigow.ledger.floor_figures import FloorFigures, round_figures, voided_figures
from paigow.ledger.home_entries import plays_home_chips
from paigow.table.commit import Commit
from paigow.table.events import RoundSettled, RoundVoided
from paigow_server.store import keys
from paigow_server.store.errors import store_boundary

__all__ = ["DAY_MS", "FLOOR_LUA", "HOUR_MS", "MINUTE_MS", "RESOLUTIONS", "TABLE_FIELDS", "FloorStats",
           "Resolution", "commit_figures", "floor_effect", "floor_effect_keys", "floor_effects"]

MINUTE_MS = 60_000
HOUR_MS = 3_600_000
DAY_MS = 86_400_000


@dataclass(frozen=True, slots=True)
class Resolution:
    name: str
    """``m``, ``h`` or ``d``: the part of the key name."""
    size_ms: int
    kept_ms: int
    """How long after its end a bucket is kept."""

    def start(self, ms: int) -> int:
        return ms - ms % self.size_ms

    def expiry(self, ms: int) -> int:
        return self.start(ms) + self.size_ms + self.kept_ms


TABLE_FIELDS = ("rounds", "handle", "win", "theo_micro")
"""The figures a bucket also keeps per table (``keys.floor_tables``, fields ``<table>:<name>``), for the list
of a window's tables without a read per table (``FLOOR_LUA``'s ``floor_table_fields``)."""

RESOLUTIONS = (Resolution("m", MINUTE_MS, 48 * HOUR_MS), Resolution("h", HOUR_MS, 90 * DAY_MS),
               Resolution("d", DAY_MS, 400 * DAY_MS))


def commit_figures(commit: Commit) -> FloorFigures | None:
    """The figures of the round the commit settles or voids (None: it ends none, or the table plays a home
    game's own chips)."""
    figures: FloorFigures | None = None
    for event in commit.events:
        if isinstance(event, RoundSettled):
            before = commit.before
            seated = sum(seat is not None for seat in before.seats)
            figures = round_figures(event.record, before.rules, seated=seated)
        elif isinstance(event, RoundVoided):
            figures = voided_figures()
    if figures is None or plays_home_chips(commit.after):
        return None
    return figures


def floor_effect(table_id: str, now_ms: int, figures: FloorFigures) -> list[str]:
    """The seating effect that adds ``figures`` to the buckets of ``now_ms``."""
    effect = ["floor", table_id, *(str(r.expiry(now_ms)) for r in RESOLUTIONS)]
    for name, value in figures.items():
        effect += [name, str(value)]
    return effect


def floor_effects(commit: Commit) -> list[list[str]]:
    """The commit's floor effect: none, or one (a round settled or voided)."""
    if not commit.effects.rounds:  # most commits: no round ended
        return []
    figures = commit_figures(commit)
    return [] if figures is None else [floor_effect(commit.after.table_id, commit.now_ms, figures)]


def floor_effect_keys(effect: Sequence[str]) -> list[str]:
    """The nine hashes a ``floor`` effect adds to, in ``apply_floor``'s order (the buckets its expiries name):
    per resolution the deployment's bucket, the table's, and the bucket's per-table figures."""
    table_id = effect[1]
    out: list[str] = []
    for resolution, expiry in zip(RESOLUTIONS, effect[2:5], strict=True):
        start = int(expiry) - resolution.kept_ms - resolution.size_ms
        name = resolution.name
        out += [keys.floor_bucket(name, start), keys.floor_bucket(name, start, table_id),
                keys.floor_tables(name, start)]
    return out


# apply_floor(e, first): adds floor effect ``e``'s figures to KEYS[first .. first + 8]
# (``floor_effect_keys``: per resolution the deployment's bucket, the table's, the per-table figures).
FLOOR_LUA = """
local floor_table_fields = {rounds = true, handle = true, win = true, theo_micro = true}
local function apply_floor(e, first)
  for r = 0, 2 do
    local all, own, tables = KEYS[first + 3 * r], KEYS[first + 3 * r + 1], KEYS[first + 3 * r + 2]
    for f = 6, #e, 2 do
      redis.call('HINCRBY', all, e[f], e[f + 1])
      redis.call('HINCRBY', own, e[f], e[f + 1])
      if floor_table_fields[e[f]] then redis.call('HINCRBY', tables, e[2] .. ':' .. e[f], e[f + 1]) end
    end
    for _, key in ipairs({all, own, tables}) do redis.call('PEXPIREAT', key, e[3 + r]) end
  end
end
"""

# KEYS: the nine hashes. ARGV: 1 the effect (JSON).
_WRITE = FLOOR_LUA + """
apply_floor(cjson.decode(ARGV[1]), 1)
return 1
"""


def _ints(raw: dict[Any, Any]) -> dict[str, int]:
    return {(k.decode() if isinstance(k, bytes) else str(k)): int(v) for k, v in raw.items()}


@store_boundary
class FloorStats:
    """Reads the floor buckets (and writes them directly: the benchmark's simulated history, tests)."""

    def __init__(self, redis: Redis) -> None:
        self.redis = redis
        self._write = redis.register_script(_WRITE)

    async def add(self, table_id: str, now_ms: int, figures: FloorFigures) -> None:
        """Add one round's figures as its commit would (``apply_floor``)."""
        effect = floor_effect(table_id, now_ms, figures)
        await self._write(keys=floor_effect_keys(effect), args=[json.dumps(effect)])

    async def add_many(self, rounds: Sequence[tuple[str, int, FloorFigures]]) -> None:
        """``add`` each (table id, ms, figures), in one pipeline (the benchmark's history)."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for table_id, now_ms, figures in rounds:
                effect = floor_effect(table_id, now_ms, figures)
                await self._write(keys=floor_effect_keys(effect), args=[json.dumps(effect)], client=pipe)
            await pipe.execute()

    async def table_figures(self, pieces: Sequence[tuple[Resolution, int]]) -> dict[str, dict[str, int]]:
        """Each table's ``TABLE_FIELDS`` summed over the buckets ``pieces`` (resolution, start): one
        pipelined ``HGETALL`` each."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for resolution, start in pieces:
                pipe.hgetall(keys.floor_tables(resolution.name, start))
            replies = cast("list[dict[Any, Any]]", await pipe.execute())
        out: dict[str, dict[str, int]] = {}
        for reply in replies:
            for name, value in reply.items():
                text = name.decode() if isinstance(name, bytes) else str(name)
                table_id, _, figure = text.rpartition(":")
                figures = out.setdefault(table_id, {})
                figures[figure] = figures.get(figure, 0) + int(value)
        return out

    async def buckets(self, resolution: Resolution, starts: Sequence[int],
                      table_ids: Sequence[str | None]) -> list[list[dict[str, int]]]:
        """For each of ``table_ids`` (None: the deployment), its bucket at each of ``starts``: one
        pipelined ``HGETALL`` per bucket, ``{}`` for an empty one."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for table_id in table_ids:
                for start in starts:
                    pipe.hgetall(keys.floor_bucket(resolution.name, start, table_id))
            replies = cast("list[dict[Any, Any]]", await pipe.execute())
        out: list[list[dict[str, int]]] = []
        at = 0
        for _ in table_ids:
            out.append([_ints(r) for r in replies[at:at + len(starts)]])
            at += len(starts)
        return out

