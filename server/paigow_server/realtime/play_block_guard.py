"""``PlayBlockGuard``: keeps a player on a break or self-excluded (store/play_blocks.py), or whose account is
closed (store/account_closure.py: ``ACCOUNT_CLOSED``, for ever), from playing; it also runs the
``AccountCloser`` that finishes closed accounts.

Every process holds the set of blocked players in memory (player -> until_ms), refreshed from the index
``G:rg:blocks`` every ``interval_s`` and updated at once in the process that started a block, so that the
commands that put money in play (a bet, the bank) cost one dict look-up; the commands that take a seat or
buy in read the block from Redis as well (``check(..., fresh=True)``), so a sit on another process cannot
slip through the refresh window. What still could (a sit decided just before the block started) is caught
by the sweep: the same task stands every blocked player still seated anywhere up (``StandUp``: a dealt hand
plays out, the chips go back at the round's end) - each newly seen block for ``RECENT_S`` seconds, every
block once per ``FULL_EVERY`` steps. Idempotent: a player already leaving or gone is a refusal, ignored.
The check is by player id, so a reconnect, a new token or a second device changes nothing.
"""

from __future__ import annotations

import logging
import time

from paigow.protocol.codes import ErrorCode
from paigow.table.events import StandUpReason
from paigow.table.state import SeatStatus
from paigow_server.errors import ServerError
from paigow_server.process.tasks import Every
from paigow_server.realtime.account_closer import AccountCloser
from paigow_server.realtime.stand_ups import stand_up
from paigow_server.realtime.tables import TableService
from paigow_server.store.errors import FAILURES, StoreUnavailable
from paigow_server.store.play_blocks import BlockKind, PlayBlock, PlayBlocks
from paigow_server.store.tables import TableRepo

__all__ = ["PlayBlockGuard", "PlayBlocked"]

log = logging.getLogger("paigow_server.play_blocks")

RECENT_S = 30.0
"""How long a block newly seen here is swept for at every step (a sit racing it lands within this)."""
FULL_EVERY = 30
"""Every this many steps, every block is swept for (a process that missed one, a crash mid stand-up)."""


_CODES = {BlockKind.BREAK: ErrorCode.ON_BREAK, BlockKind.EXCLUSION: ErrorCode.SELF_EXCLUDED,
          BlockKind.CLOSED: ErrorCode.ACCOUNT_CLOSED}
_REASONS = {BlockKind.BREAK: StandUpReason.BREAK, BlockKind.EXCLUSION: StandUpReason.SELF_EXCLUSION,
            BlockKind.CLOSED: StandUpReason.ACCOUNT_CLOSED}


class PlayBlocked(ServerError):
    """``ON_BREAK`` / ``SELF_EXCLUDED`` (403, with ``until_ms``) / ``ACCOUNT_CLOSED`` (403): the player may
    not sit, bet, bank or buy in (until ``until_ms``; a closed account never); nothing changed."""

    http_status = 403

    def __init__(self, kind: BlockKind, until_ms: int) -> None:
        self.code = _CODES[kind]
        if kind is BlockKind.CLOSED:
            super().__init__("this account is closed: it can never sit, bet, bank or buy in again")
            return
        what = "excluded yourself" if kind is BlockKind.EXCLUSION else "are on a break"
        super().__init__(f"you {what} until {until_ms} (ms): "
                         "until then you cannot sit, bet, bank or buy in; you may still watch and read "
                         "your history")
        self.fields = {"until_ms": until_ms}


class PlayBlockGuard:
    def __init__(self, blocks: PlayBlocks, repo: TableRepo, service: TableService, *,
                 interval_s: float = 2.0, closer: AccountCloser | None = None) -> None:
        """``closer``: finishes closed accounts (``realtime/account_closer.py``), started and stopped with
        this guard."""
        self.blocks = blocks
        self.closer = closer
        self._repo = repo
        self._service = service
        self._until: dict[str, int] = {}
        self._kinds: dict[str, BlockKind] = {}
        """Of ``_until``: the block's kind, once this process read or started it (the index says only when
        a block ends)."""
        self._seen_at: dict[str, float] = {}
        self._steps = 0
        self._every = Every("paigow-play-blocks", interval_s, self.step,
                            failures=(StoreUnavailable, *FAILURES))

    async def stop(self) -> None:
        if self.closer is not None:
            await self.closer.stop()
        await self._every.stop()

    async def start(self) -> None:
        try:
            await self.refresh()
        except (StoreUnavailable, OSError) as exc:  # the sit-like checks read Redis anyway; the next step
            log.warning("reading the play blocks failed: %s", exc)  # fills the set
        await self._every.start()
        if self.closer is not None:
            await self.closer.start()

    def now_ms(self) -> int:
        return self._service.now_ms()

    async def check(self, player_id: str, *, fresh: bool = False) -> None:
        """Raise ``PlayBlocked`` if the player is blocked now: from memory, and with ``fresh`` from Redis."""
        until = self._until.get(player_id)
        if until is None and not fresh:  # the common case: one dict look-up
            return
        now = self.now_ms()
        kind = self._kinds.get(player_id)
        if until is not None and until > now and not fresh and kind is not None:
            raise PlayBlocked(kind, until)
        if fresh or until is not None:  # a seat, a block of an unknown kind or seen to end: ask Redis
            block = await self.blocks.get(player_id, now)
            if block is not None:
                self.note(player_id, block)
                raise PlayBlocked(block.kind, block.until_ms)

    def note(self, player_id: str, block: PlayBlock) -> None:
        """This process knows of ``block`` now (it started it, or read it)."""
        self._until[player_id] = block.until_ms
        self._kinds[player_id] = block.kind
        self._seen_at.setdefault(player_id, time.monotonic())

    async def refresh(self) -> None:
        """Read the index: the blocks in force now."""
        until = await self.blocks.blocked(self.now_ms())
        at = time.monotonic()
        self._seen_at = {p: self._seen_at.get(p, at) for p in until}
        self._kinds = {p: self._kinds[p] for p in until if p in self._kinds}
        self._until = until

    async def step(self) -> None:
        await self.refresh()
        self._steps += 1
        full = self._steps % FULL_EVERY == 0
        at = time.monotonic()
        due = [p for p, seen in self._seen_at.items() if full or at - seen < RECENT_S]
        if due:
            await self.sweep(due)

    async def sweep(self, player_ids: list[str]) -> int:
        """Stand each of ``player_ids`` still blocked up at every table they sit at; the stand-ups sent."""
        now = self.now_ms()
        reasons = {player_id: _REASONS[block.kind]
                   for player_id, block in (await self.blocks.get_many(player_ids, now)).items()}
        if not reasons:
            return 0
        sent = 0
        for state in await self._repo.load_many(await self._repo.list_ids()):
            if state is None:
                continue
            for seat in state.seats:
                reason = None if seat is None else reasons.get(seat.player_id)
                if seat is not None and reason is not None and seat.status != SeatStatus.LEAVING:
                    sent += await self._stand_up(state.table_id, seat.player_id, reason, now)
        return sent

    async def stand_up_everywhere(self, player_id: str, block: PlayBlock) -> int:
        """Just after ``block`` started: this process knows it, and the player is stood up everywhere."""
        self.note(player_id, block)
        return await self.sweep([player_id])

    async def _stand_up(self, table_id: str, player_id: str, reason: StandUpReason, now: int) -> int:
        return int(await stand_up(self._service, table_id, player_id, reason, now))

