"""Practice deals (docs/http-api.md, "Practice"): each player's one open deal, kept in Redis for an hour.

A deal is the player's seven cards and the house dealer's seven, drawn from the 53-card deck with
``secrets``; the dealer's cards stay here until the player's hand is set. A new deal replaces the player's
last one. ``answer`` marks the deal answered in one script, so a deal is answered once however many
requests race for it.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from enum import StrEnum

from redis.asyncio import Redis

from paigow.rules.cards import DECK
from paigow_server.store import keys
from paigow_server.store.errors import store_boundary

__all__ = ["DEAL_TTL_MS", "Claim", "PracticeDeal", "PracticeDeals"]

DEAL_TTL_MS = 3_600_000
"""How long a practice deal waits for its answer."""

_RANDOM = secrets.SystemRandom()


class Claim(StrEnum):
    OK = "OK"
    NOT_FOUND = "NOT_FOUND"
    ANSWERED = "ANSWERED"


@dataclass(frozen=True, slots=True)
class PracticeDeal:
    deal_id: str
    cards: tuple[str, ...]
    dealer: tuple[str, ...]
    house_way: str
    expires_ms: int
    answered: bool = False


# KEYS: the player's practice deal. ARGV: the deal id. Marks it answered once.
_CLAIM = """
if redis.call('HGET', KEYS[1], 'deal_id') ~= ARGV[1] then return 'NOT_FOUND' end
if redis.call('HGET', KEYS[1], 'answered') == '1' then return 'ANSWERED' end
redis.call('HSET', KEYS[1], 'answered', '1')
return 'OK'
"""


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


@store_boundary
class PracticeDeals:
    def __init__(self, redis: Redis) -> None:
        self.redis = redis
        self._claim = redis.register_script(_CLAIM)

    async def deal(self, player_id: str, house_way: str, now_ms: int) -> PracticeDeal:
        """A new deal for the player (their last one, answered or not, is gone)."""
        drawn = [str(DECK[i]) for i in _RANDOM.sample(range(len(DECK)), 14)]
        deal = PracticeDeal(f"d_{secrets.token_urlsafe(12)}", tuple(drawn[:7]), tuple(drawn[7:]), house_way,
                            now_ms + DEAL_TTL_MS)
        key = keys.practice_deal(player_id)
        pipe = self.redis.pipeline(transaction=True)
        pipe.delete(key)
        pipe.hset(key, mapping={"deal_id": deal.deal_id, "cards": " ".join(deal.cards),
                                "dealer": " ".join(deal.dealer), "house_way": house_way, "answered": "0",
                                "expires_ms": str(deal.expires_ms)})
        pipe.pexpire(key, DEAL_TTL_MS)
        await pipe.execute()
        return deal

    async def load(self, player_id: str, deal_id: str) -> PracticeDeal | None:
        """The player's deal of that id (answered or not), or None (unknown, expired or replaced)."""
        raw = await self.redis.hgetall(keys.practice_deal(player_id))
        fields = {_text(k): _text(v) for k, v in raw.items()}
        if fields.get("deal_id") != deal_id:
            return None
        return PracticeDeal(deal_id, tuple(fields["cards"].split()), tuple(fields["dealer"].split()),
                            fields["house_way"], int(fields["expires_ms"]), fields["answered"] == "1")

    async def claim(self, player_id: str, deal_id: str) -> Claim:
        """Mark the deal answered: ``OK`` for the one request that does it."""
        return Claim(_text(await self._claim(keys=[keys.practice_deal(player_id)], args=[deal_id])))
