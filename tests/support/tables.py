"""``TableDriver``: a table played through ``TableRepo`` directly (no server), for the store's tests: each
command applied to the stored state and committed, ticks until a phase, a whole House Way round."""

from __future__ import annotations

import secrets

from paigow.table.commands import Command, PlaceBet, Tick, UseHouseWay
from paigow.table.events import RoundSettled
from paigow.table.machine import apply, next_deadline
from paigow.table.state import Phase, TableState
from paigow_server.store.tables import CommitResult, TableRepo
from support.commits import commit_now

__all__ = ["TableDriver"]


class TableDriver:
    """Drives one table through the machine and the repo, as the server's TableService does."""

    def __init__(self, repo: TableRepo, table_id: str) -> None:
        self.repo = repo
        self.table_id = table_id
        self.now_ms = 1_000_000

    async def state(self) -> TableState:
        state = await self.repo.load(self.table_id)
        assert state is not None
        return state

    async def do(self, command: Command) -> CommitResult:
        before = await self.state()
        after, events = apply(before, command, seed=secrets.token_bytes(32))
        assert events, f"{command} changed nothing"
        return await self.repo.commit(commit_now(before, after, events, now_ms=self.now_ms))

    async def tick_until(self, phase: Phase) -> None:
        for _ in range(20):
            state = await self.state()
            if state.phase == phase:
                return
            due = next_deadline(state)
            assert due is not None, f"no deadline in phase {state.phase}"
            self.now_ms = max(self.now_ms, due)
            assert await self.do(Tick(self.now_ms)) is CommitResult.OK
        raise AssertionError(f"never reached {phase}")

    async def play_house_round(self, bets: dict[str, int], banker: str | None = None) -> RoundSettled:
        """Bets, then the House Way for every bettor and the banker (a player, or the house); returns
        this round's settlement."""
        version_before = (await self.state()).version
        await self.tick_until(Phase.BETTING)
        for player_id, amount in bets.items():
            assert await self.do(PlaceBet(player_id, amount)) is CommitResult.OK
        await self.tick_until(Phase.SETTING)
        for player_id in [*bets, *([banker] if banker else [])]:
            assert await self.do(UseHouseWay(player_id)) is CommitResult.OK
        log = await self.repo.event_log(self.table_id)
        settled = [e for c in log if c.version > version_before for e in c.events
                   if isinstance(e, RoundSettled)]
        assert len(settled) == 1
        return settled[0]
