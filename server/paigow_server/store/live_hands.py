"""The index of live hands: the seven cards of every hand a seated player holds in a round not yet over.

``POST /api/analyze`` refuses (``409 LIVE_HAND``, when the deployment's ``no_live_aid`` is in force) an
analysis of seven cards that are any seated player's hand while that hand is still being played: the
coach is for after the round. The index is one key per hand, ``keys.live_hand(fingerprint(cards))`` ->
``"<table id> <round id>"`` (``PX LIVE_HAND_TTL_MS``, a safety net only), in ``{global}``:

- **written before the cards are visible to anyone.** ``live_effects(commit)`` reads a dealing commit's
  hands off its states (each player's hand, the player-banker's included, never the house dealer's; a
  bought Dragon hand too) as seating effects ``["live", fingerprint, table, round]``. On one Redis (plain
  or Sentinel, with or without ``Durability``) the commit's own script writes them with the state
  (``seating_effects``, ``direct_commit``): the state and the index appear together. On a Redis Cluster
  the table's script cannot write ``{global}``, and its outbox is delivered only after the state is written,
  so ``OutboxCommits`` writes them first (``LiveHands.mark``, one script in ``{global}``), then the commit.
  A commit refused after that leaves them: the round's cards come from its seed, fixed when the round
  began, so the deal decided again deals the same hands, and the round's end removes them (a round voided
  before its deal is written leaves them to the safety expiry: cards nobody held);
- **removed when the round is over**: the commit that settles or voids the round (its state before holds
  the hands, its state after another round or none) carries ``["unlive", fingerprint, table, round]``,
  applied with it on one Redis and through the table's outbox on a cluster (exactly once, in order after
  the deal's). A key is removed only if it still names that table and round (``end_live``), so two
  tables holding the same seven cards at once (one deal in about 133 million) cannot end each other's.

It is written whatever the setting (one ``SET`` per hand per round, in a script already running); only the
check in ``web.analysis_routes`` reads the setting. Reading it costs one ``EXISTS``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence

from redis.asyncio import Redis

from paigow.table.commit import Commit
from paigow.table.state import Round
from paigow_server.store import keys
from paigow_server.store.errors import store_boundary

__all__ = ["LIVE_HAND_TTL_MS", "LIVE_LUA", "LiveHands", "fingerprint", "live_effects"]

LIVE_HAND_TTL_MS = 6 * 3_600_000
"""The longest a hand stays in the index without its round ending (a table deleted mid-round, a commit
lost in a fail-over): far longer than any round, with every time-out."""

# put_live(key, table, round): the hand is live; end_live(key, table, round): it is not, if the key is
# still that table's and round's.
LIVE_LUA = f"""
local function put_live(key, table_id, round_id)
  redis.call('SET', key, table_id .. ' ' .. round_id, 'PX', {LIVE_HAND_TTL_MS})
end
local function end_live(key, table_id, round_id)
  if redis.call('GET', key) == table_id .. ' ' .. round_id then redis.call('DEL', key) end
end
"""

# KEYS: the hands' keys. ARGV: table id and round id per key.
_MARK = LIVE_LUA + """
for i, key in ipairs(KEYS) do put_live(key, ARGV[2 * i - 1], ARGV[2 * i]) end
return #KEYS
"""


def fingerprint(cards: Iterable[str]) -> str:
    """SHA-256 (hex) of the cards' texts (``str(card)``: ``"As"``, ``"Td"``, ``"JK"``), sorted, joined by a
    space: the same for the same seven cards in any order."""
    return hashlib.sha256(" ".join(sorted(cards)).encode()).hexdigest()


def _hands(rnd: Round) -> list[tuple[str, ...]]:
    """The seated players' hands of a dealt round (the banker's included, the house dealer's not) and a
    bought Dragon hand."""
    hands = [h.cards for h in rnd.hands if h.player_id is not None and h.cards]
    if rnd.dragon is not None and rnd.dragon.buyer_player_id is not None and rnd.dragon.cards:
        hands.append(rnd.dragon.cards)
    return hands


def live_effects(commit: Commit) -> list[list[str]]:
    """``["live", fingerprint, table, round]`` for each hand a commit deals, ``["unlive", ...]`` for each
    hand of the round a commit ends (settled or voided); usually none (two comparisons)."""
    before = commit.before.round
    after = commit.after.round
    table_id = commit.after.table_id
    same = before is not None and after is not None and before.round_id == after.round_id
    effects: list[list[str]] = []
    if before is not None and before.hands and not same:
        effects += [["unlive", fingerprint(h), table_id, before.round_id] for h in _hands(before)]
    if after is not None and after.hands and not (same and before is not None and before.hands):
        effects += [["live", fingerprint(h), table_id, after.round_id] for h in _hands(after)]
    return effects


@store_boundary
class LiveHands:
    def __init__(self, redis: Redis) -> None:
        self.redis = redis
        self._mark = redis.register_script(_MARK)

    async def is_live(self, cards: Iterable[str]) -> bool:
        """Whether these seven cards (their texts) are a seated player's hand in a round in play."""
        return bool(await self.redis.exists(keys.live_hand(fingerprint(cards))))

    async def mark(self, effects: Sequence[Sequence[str]]) -> None:
        """Write the ``live`` effects among ``effects`` now, in one script (a cluster's dealing commit,
        before its own script)."""
        live = [e for e in effects if e[0] == "live"]
        if live:
            await self._mark(keys=[keys.live_hand(e[1]) for e in live],
                             args=[x for e in live for x in (e[2], e[3])])
