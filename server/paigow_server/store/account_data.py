"""Everything the store holds about one player, gathered for their own download (docs/http-api.md, "Your
data"; ``web/account_data_routes.py`` serves it).

Which keys feed which section (``keys`` names them):

- ``account``: ``G:player:{p}`` (every field but the password hash ``pw``), ``G:guests:fresh`` (a fresh
  guest's lapse time);
- ``sessions``: ``G:player:{p}:sessions`` and each ``G:session:{hash}`` it names (how many, and when each
  lapses unused: the store keeps no creation time; never a token or its hash);
- ``sign_ins``: ``G:sign-in:player:{username}`` (the account's failed sign-ins counter, while it lives);
- ``ledger``: ``G:ledger``, every entry whose ``player_id`` is p or whose account on either side is
  ``player:{p}`` or ``seat:{t}:{p}``;
- ``hands``: ``G:history:{p}`` (the last hands), ``G:history:{p}:analyses`` (stored analyses by round id),
  ``G:rounds`` (every round the player played, as its public record: ``History.rounds``);
- ``chat``: ``paigow:table:{t}:chat:messages`` of every table in ``G:tables`` (the player's own lines only)
  and ``paigow:table:{t}:chat:muted`` (the tables where an operator muted the player);
- ``audit``: ``G:audit``, every entry whose ``player_id`` is p or whose actor is ``player:{p}`` or
  ``host:{p}``;
- ``waitlists``: ``G:player:{p}:waitlists``;
- ``home_tables``: ``G:home:by:{p}`` with each ``paigow:table:{t}:home`` (without its invite codes),
  ``G:home:open``, and the ``paigow:table:{t}:home:access`` sets of ``G:home:tables`` naming p;
- ``bars``: ``G:bars`` and each running ``G:bar:{t}:{p}``;
- ``practice``: ``G:practice:{p}`` (the dealer's cards only once the deal was answered);
- ``limits``: ``G:player:{p}:rg`` (the block, the limits and the loosenings waiting, the reality-check
  interval, the session in progress and the seats it spans, the counts; JSON fields decoded),
  ``G:player:{p}:rg:totals`` (each period's wager and net, the money at risk per table) and
  ``G:player:{p}:rg:sessions`` (the ended sessions, newest first).

Not included: short-lived counters that hold no record of the player (rate-limit cells ``G:rate:...``, a
guest's collection claim, the per-address and per-device sign-in counters, found only by scanning the
keyspace), and copies of what is included (``G:guests:seen``, the tables' ``rounds`` lists).

Cost: the three streams (``G:ledger``, ``G:audit``, ``G:rounds``) are read whole, ``PAGE`` entries an
``XRANGE`` at a time; every table's chat list (at most ``CHAT_KEPT`` lines) and muted set, and every
private table's admissions, ``PAGE`` tables a pipeline. Nothing is written.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from typing import Any, cast

from redis.asyncio import Redis

from paigow.protocol.chat import CHAT_KEPT
from paigow_server.store import keys
from paigow_server.store.errors import store_boundary
from paigow_server.store.history import History
from paigow_server.store.streams import iterate
from paigow_server.store.waitlists import SAT

__all__ = ["FORMAT", "PAGE", "AccountData"]

FORMAT = 1
PAGE = 500
"""Stream entries per ``XRANGE``, and tables per pipeline."""
_SECRET_FIELDS = frozenset({"pw"})
_NUMBERS = {"balance": "balance_cents", "created_ms": "created_ms", "last_seen_ms": "last_seen_ms",
            "top_up_ms": "last_top_up_ms"}
_FLAGS = {"registered": "registered", "fresh": "fresh"}
_TEXTS = {"name": "display_name", "username": "username", "lang": "language"}
_SIGN_IN_FIELDS = ("failures", "since_ms", "retry_ms", "reset_ms")
_HOME_SECRETS = frozenset({"code", "short"})
_RG_JSON = frozenset({"block", "limits", "pending", "sess_tables"})


def _text(value: object) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def names_player(entry: dict[str, Any], player_id: str) -> bool:
    """Whether a ledger entry is the player's: its ``player_id``, or their balance or seat on either side."""
    if entry.get("player_id") == player_id:
        return True
    return any(side == f"player:{player_id}"
               or (side.startswith("seat:") and side.split(":")[2:] == [player_id])
               for side in (str(entry.get("from_account")), str(entry.get("to_account"))))


def audit_names(entry: dict[str, Any], player_id: str) -> bool:
    return entry.get("player_id") == player_id or entry.get("actor") in (f"player:{player_id}",
                                                                         f"host:{player_id}")


def account_section(player_id: str, stored: dict[str, str], fresh_until: float | None) -> dict[str, Any]:
    """The player hash as the download shows it: named fields, numbers as numbers, no password hash."""
    section: dict[str, Any] = {"player_id": player_id, "display_name": None, "username": None,
                               "registered": False, "fresh": False, "balance_cents": None, "created_ms": None,
                               "last_seen_ms": None, "last_top_up_ms": None, "language": None}
    other: dict[str, str] = {}
    for field, value in stored.items():
        if field in _NUMBERS:
            section[_NUMBERS[field]] = int(value)
        elif field in _FLAGS:
            section[_FLAGS[field]] = value == "1"
        elif field in _TEXTS:
            section[_TEXTS[field]] = value
        elif field not in _SECRET_FIELDS:
            other[field] = value
    if section["fresh"] and fresh_until is not None:
        section["fresh_until_ms"] = int(fresh_until)
    if other:
        section["other"] = other
    return section


@store_boundary
class AccountData:
    """Reads only; ``collect`` gathers one player's download."""

    def __init__(self, redis: Redis, *, page: int = PAGE) -> None:
        self.redis = redis
        self.page = page

    async def collect(self, player_id: str, now_ms: int) -> dict[str, Any] | None:
        """The player's download (``FORMAT``), or None when there is no such player."""
        stored = await self._hash(keys.player(player_id))
        if not stored:
            return None
        account = account_section(player_id, stored, await self.redis.zscore(keys.FRESH_GUESTS, player_id))
        return {
            "format": FORMAT,
            "generated_ms": now_ms,
            "account": account,
            "sessions": await self._sessions(player_id, now_ms),
            "sign_ins": await self._sign_ins(account["username"]),
            "ledger": [e async for e in iterate(self.redis, keys.LEDGER, batch=self.page)
                       if names_player(e, player_id)],
            "hands": await self._hands(player_id),
            "chat": await self._chat(player_id),
            "audit": [e async for e in iterate(self.redis, keys.AUDIT, batch=self.page)
                      if audit_names(e, player_id)],
            "waitlists": await self._waitlists(player_id),
            "home_tables": await self._home_tables(player_id),
            "bars": await self._bars(player_id, now_ms),
            "practice": await self._practice(player_id),
            "limits": await self._limits(player_id),
        }

    async def _limits(self, player_id: str) -> dict[str, Any]:
        state: dict[str, Any] = {}
        for name, value in (await self._hash(keys.rg(player_id))).items():
            number = value.lstrip("-").isdigit()
            state[name] = json.loads(value) if name in _RG_JSON else int(value) if number else value
        totals = {name: json.loads(value) if name.startswith("open:") else int(value)
                  for name, value in (await self._hash(keys.rg_totals(player_id))).items()}
        sessions = [json.loads(_text(t)) for t in await self.redis.lrange(keys.rg_sessions(player_id), 0, -1)]
        return {"state": state, "totals": totals, "play_sessions": sessions}

    async def _hash(self, key: str) -> dict[str, str]:
        return {_text(k): _text(v) for k, v in (await self.redis.hgetall(key)).items()}

    async def _sessions(self, player_id: str, now_ms: int) -> dict[str, Any]:
        hashes = sorted(_text(h) for h in await self.redis.smembers(keys.player_sessions(player_id)))
        lapses: list[int] = []
        for chunk in _chunks(hashes, self.page):
            async with self.redis.pipeline(transaction=False) as pipe:
                for digest in chunk:
                    pipe.get(keys.session(digest))
                    pipe.pttl(keys.session(digest))
                found = await pipe.execute()
            for owner, pttl in zip(found[::2], found[1::2], strict=True):
                if owner is not None and _text(owner) == player_id:
                    lapses.append(now_ms + max(int(pttl), 0))
        return {"count": len(lapses), "sessions": [{"lapses_ms": ms} for ms in sorted(lapses)]}

    async def _sign_ins(self, username: str | None) -> dict[str, int] | None:
        if username is None:
            return None
        found = await self.redis.hgetall(keys.sign_in("player", username))
        counter = {_text(k): int(_text(v)) for k, v in found.items() if _text(k) in _SIGN_IN_FIELDS}
        return counter or None

    async def _hands(self, player_id: str) -> dict[str, Any]:
        history = History(self.redis)
        analyses = await self.redis.hgetall(keys.history_analyses(player_id))
        rounds: list[dict[str, Any]] = []
        after: str | None = None
        while True:
            page = await history.rounds(after=after, limit=self.page, player_id=player_id)
            rounds.extend(page.entries)
            if page.next_after is None:
                break
            after = page.next_after
        return {"recent": await history.recent(player_id),
                "analyses": {_text(r): json.loads(text) for r, text in sorted(analyses.items())},
                "rounds": rounds}

    async def _table_ids(self, key: str) -> AsyncIterator[list[str]]:
        """The members of a zset of table ids, ``page`` at a time, in its order."""
        start = 0
        while True:
            chunk = [_text(t) for t in await self.redis.zrange(key, start, start + self.page - 1)]
            if chunk:
                yield chunk
            if len(chunk) < self.page:
                return
            start += self.page

    async def _each_table(self, key: str,
                          read: Callable[[Any, str], object]) -> AsyncIterator[tuple[str, Any]]:
        """(table id, what ``read`` asked of the pipeline) for every table of the zset ``key``."""
        async for chunk in self._table_ids(key):
            async with self.redis.pipeline(transaction=False) as pipe:
                for table_id in chunk:
                    read(pipe, table_id)
                found = await pipe.execute()
            for table_id, value in zip(chunk, found, strict=True):
                yield table_id, value

    async def _chat(self, player_id: str) -> dict[str, Any]:
        lines: list[dict[str, Any]] = []
        async for table_id, stored in self._each_table(
                keys.TABLES, lambda pipe, t: pipe.lrange(keys.table_chat_messages(t), 0, CHAT_KEPT - 1)):
            mine = [json.loads(item) for item in reversed(stored)]
            lines.extend({"table_id": table_id, **m} for m in mine if m.get("player_id") == player_id)
        muted = [t async for t, member in self._each_table(
            keys.TABLES, lambda pipe, t: pipe.sismember(keys.table_chat_muted(t), player_id)) if member]
        return {"messages": lines, "muted_at": muted}

    async def _waitlists(self, player_id: str) -> dict[str, Any]:
        stored = await self._hash(keys.waitlists(player_id))
        sat = stored.pop(SAT, None)
        last_sit = None
        if sat is not None:
            ms, _, table_id = sat.partition(" ")
            last_sit = {"table_id": table_id, "at_ms": int(ms)}
        return {"joined": [{"table_id": t, "joined_ms": int(ms)} for t, ms in sorted(stored.items())],
                "last_sit": last_sit}

    async def _home_tables(self, player_id: str) -> dict[str, Any]:
        hosted: list[dict[str, Any]] = []
        created_by = cast(list[tuple[Any, float]],
                          await self.redis.zrange(keys.home_by(player_id), 0, -1, withscores=True))
        for member, created in created_by:
            t = _text(member)
            home = await self._hash(keys.table_home(t))
            open_now = await self.redis.zscore(keys.HOME_OPEN, t) is not None
            hosted.append({"table_id": t, "created_ms": int(created), "open": open_now,
                           **{k: v for k, v in home.items()
                              if k not in _HOME_SECRETS | {"creator", "created_ms"}}})
        admitted = [t async for t, member in self._each_table(
            keys.HOME_TABLES, lambda pipe, t: pipe.sismember(keys.table_home_access(t), player_id)) if member]
        return {"hosted": hosted, "admitted_to": admitted}

    async def _bars(self, player_id: str, now_ms: int) -> list[dict[str, Any]]:
        running = [_text(m) for m in await self.redis.zrangebyscore(keys.BARS, now_ms, "+inf")]
        tables = [m.split(":", 1)[0] for m in running if m.split(":", 1)[1:] == [player_id]]
        if not tables:
            return []
        texts = await self.redis.mget([keys.bar(t, player_id) for t in tables])
        return [json.loads(text) for text in texts if text is not None]

    async def _practice(self, player_id: str) -> dict[str, Any] | None:
        """The practice deal; the dealer's cards only once it was answered (before, they are its answer)."""
        stored = await self._hash(keys.practice_deal(player_id))
        if not stored:
            return None
        answered = stored.get("answered") == "1"
        return {"deal_id": stored.get("deal_id"), "cards": stored.get("cards", "").split(),
                "dealer": stored.get("dealer", "").split() if answered else None,
                "house_way": stored.get("house_way"), "answered": answered,
                "expires_ms": int(stored.get("expires_ms", "0"))}


def _chunks(items: list[str], size: int) -> list[list[str]]:
    return [items[i:i + size] for i in range(0, len(items), size)]
