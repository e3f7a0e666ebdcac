"""A played hand's analysis, kept with the hand: in the player's history entry (``keys.history``) and by
round id for the export (``keys.history_analyses``).

The history list is pushed to (and trimmed) by every settling commit, so it is never rewritten whole. To
add the analysis to one entry, ``keep`` reads the list, finds the entry of that round id and asks one
script to replace **exactly that entry's text** (``LSET`` at the index where the script finds it): an
entry moved by a newer hand is found at its new index; an entry changed meanwhile (another analysis of
the same hand) is not found, and ``keep`` reads again and retries; an entry trimmed off the list is simply
not there. The same script writes the analysis by round id, which the export reads (``of_hands``) for
hands long gone from the history list.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from redis.asyncio import Redis

from paigow_server.store import keys
from paigow_server.store.errors import guarded, store_boundary

__all__ = ["HandAnalyses", "stored_analysis", "with_analyses"]

_compact = json.JSONEncoder(separators=(",", ":")).encode

# KEYS: the history list, the analyses hash. ARGV: round id, analysis JSON, the entry's text as read ('' when
# the hand is not in the list), its new text. Returns 1 (entry replaced), 0 (not in the list: hash only) or
# -1 (the entry read is no longer in the list as read: nothing written, read again).
_KEEP = """
if ARGV[3] ~= '' then
  local items = redis.call('LRANGE', KEYS[1], 0, -1)
  for i, item in ipairs(items) do
    if item == ARGV[3] then
      redis.call('LSET', KEYS[1], i - 1, ARGV[4])
      redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
      return 1
    end
  end
  return -1
end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
return 0
"""

_ATTEMPTS = 5


def stored_analysis(doc: dict[str, Any], analysed_ms: int) -> dict[str, Any]:
    """What is kept of a played hand's analysis (docs/http-api.md, "the stored analysis")."""
    best = doc["best"]
    return {"ev_given_up": doc["ev_given_up"], "chosen_ev": doc["chosen"]["ev"], "best_ev": best["ev"],
            "house_way_ev": doc["house_way"]["ev"], "legal": doc["chosen"]["legal"],
            "best": {"high": best["high"], "low": best["low"], "high_name": best["high_name"],
                     "low_name": best["low_name"]},
            "samples": doc["samples"], "exact": doc["exact"], "house_way": doc["rules"]["house_way"],
            "analysed_ms": analysed_ms}


@store_boundary
class HandAnalyses:
    def __init__(self, redis: Redis) -> None:
        self.redis = redis
        self._keep = redis.register_script(_KEEP)

    async def keep(self, player_id: str, round_id: str, analysis: dict[str, Any]) -> bool:
        """Keep the analysis of the player's hand of ``round_id``; True when its history entry holds it
        (False: the hand is no longer among the player's last hands, only the export has it)."""
        history = keys.history(player_id)
        text = _compact(analysis)
        for _ in range(_ATTEMPTS):
            old: bytes | str = ""
            new = ""
            for item in await self.redis.lrange(history, 0, -1):
                entry = json.loads(item)
                if entry.get("round_id") == round_id:
                    old = item
                    new = _compact({**entry, "analysis": analysis})
                    break
            done = int(await self._keep(keys=[history, keys.history_analyses(player_id)],
                                        args=[round_id, text, old, new]))
            if done >= 0:
                return done == 1
        raise RuntimeError(f"the history entry of round {round_id!r} kept changing: analysis not kept")

    async def of_hands(self, hands: Iterable[tuple[str, str]]) -> dict[tuple[str, str], dict[str, Any]]:
        """The stored analyses of these (player id, round id) hands, those that have one."""
        by_player: dict[str, list[str]] = defaultdict(list)
        for player_id, round_id in hands:
            by_player[player_id].append(round_id)
        if not by_player:
            return {}
        pipe = self.redis.pipeline(transaction=False)
        players = list(by_player)
        for player_id in players:
            pipe.hmget(keys.history_analyses(player_id), by_player[player_id])
        found: dict[tuple[str, str], dict[str, Any]] = {}
        for player_id, texts in zip(players, await pipe.execute(), strict=True):
            for round_id, text in zip(by_player[player_id], texts, strict=True):
                if text is not None:
                    found[(player_id, round_id)] = json.loads(text)
        return found


@guarded
async def with_analyses(store: HandAnalyses, rounds: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Export entries (``History.rounds``) with every hand of a settled round given its ``analysis``: the
    stored one, or None (not analysed; a banker's and the dealer's hands never are)."""
    settled = [entry["round"] for entry in rounds if entry["status"] == "settled"]
    found = await store.of_hands((h["player_id"], record["round_id"]) for record in settled
                                 for h in record["hands"]
                                 if h["player_id"] is not None and not h["is_banker"])
    for record in settled:
        for hand in record["hands"]:
            hand["analysis"] = found.get((hand["player_id"], record["round_id"]))
    return rounds
