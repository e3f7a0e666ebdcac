"""Player-banked rounds through ``TableDriver`` for the second looks' tests: one player banks every round (the
players bank in turn and the others decline), some bettors foul on purpose (the table loses a foul)."""

from __future__ import annotations

import time

from redis.asyncio import Redis

from paigow.ledger.pair_flows import round_figures
from paigow.rules.cards import parse_card
from paigow.rules.house_rules import FoulPolicy, HouseRules
from paigow.rules.splits import all_splits, is_foul
from paigow.table import Timers, new_table
from paigow.table.commands import AcceptBank, DeclineBank, PlaceBet, SetHand, Sit, Tick, UseHouseWay
from paigow.table.events import RoundSettled
from paigow.table.machine import next_deadline
from paigow.table.records import RoundRecord
from paigow.table.state import Phase
from paigow_server.store.accounts import Accounts
from paigow_server.store.tables import CommitResult, TableRepo
from support.tables import TableDriver

__all__ = ["BANK_IN_TURN", "banked_table", "foul_low", "pair_sums", "play_banked_round"]

BANK_IN_TURN = HouseRules(players_bank_in_turn=True, foul_policy=FoulPolicy.LOSE, fortune_enabled=False)


async def banked_table(repo: TableRepo, redis: Redis, table_id: str,
                       names: tuple[str, ...] = ("Bank", "Dump", "Fair")) -> tuple[TableDriver, list[str]]:
    """A ``BANK_IN_TURN`` table with a new account per name seated in turn (500,000 cents each), its clock a
    minute into this UTC hour (the second looks' buckets are the time's; a test's rounds, some 40 s of the
    table's timers each, stay in this hour and day): the table and the players' ids."""
    accounts = Accounts(redis, starting_balance_cents=1_000_000)
    players = [(await accounts.create(name)).player_id for name in names]
    await repo.create(new_table(table_id, table_id, BANK_IN_TURN, Timers()))
    table = TableDriver(repo, table_id)
    now = time.time_ns() // 1_000_000
    table.now_ms = now - now % 3_600_000 + 60_000
    for seat, player in enumerate(players, start=1):
        assert await table.do(Sit(player, player, seat, 500_000)) is CommitResult.OK
    return table, players


def foul_low(cards: tuple[str, ...]) -> tuple[str, ...] | None:
    """Two cards whose split fouls, or None when every split of these cards is legal."""
    parsed = [parse_card(c) for c in cards]
    for split in all_splits(parsed):
        if is_foul(split, BANK_IN_TURN):
            return tuple(str(c) for c in split.low)
    return None


async def play_banked_round(table: TableDriver, banker: str, bets: dict[str, int],
                            fouling: frozenset[str] = frozenset()) -> RoundRecord:
    """One round ``banker`` banks, ``bets`` against it; the players in ``fouling`` foul when they can."""
    version_before = (await table.state()).version
    for _ in range(40):
        state = await table.state()
        rnd = state.round
        if state.phase == Phase.BETTING:
            break
        if state.phase == Phase.BANK_OFFER and rnd is not None and rnd.offer_player_id:
            offer = rnd.offer_player_id
            assert await table.do(AcceptBank(offer) if offer == banker else DeclineBank(offer)) \
                is CommitResult.OK
            continue
        due = next_deadline(state)
        assert due is not None, state.phase
        table.now_ms = max(table.now_ms, due)
        assert await table.do(Tick(table.now_ms)) is CommitResult.OK
    for player_id, amount in bets.items():
        assert await table.do(PlaceBet(player_id, amount)) is CommitResult.OK
    await table.tick_until(Phase.SETTING)
    rnd = (await table.state()).round
    assert rnd is not None
    assert rnd.banker_player_id == banker
    for hand in rnd.hands:
        if hand.player_id is None or hand.player_id not in (*bets, banker):
            continue
        low = foul_low(hand.cards) if hand.player_id in fouling else None
        command = UseHouseWay(hand.player_id) if low is None else SetHand(hand.player_id, low)
        assert await table.do(command) is CommitResult.OK
    log = await table.repo.event_log(table.table_id)
    settled = [e.record for c in log if c.version > version_before for e in c.events
               if isinstance(e, RoundSettled)]
    assert len(settled) == 1
    return settled[0]


def pair_sums(records: list[RoundRecord], banker: str, player: str) -> list[int]:
    """rounds, hands, fouls, flow, expected milli-cents, variance of the pair over ``records``: the sums of
    the pure figures (``round_figures``), as ``pair_watch`` keeps them."""
    sums = [0] * 6
    for record in records:
        for pair in round_figures(record, BANK_IN_TURN.commission_bps).pairs:
            if (pair.banker_id, pair.player_id) == (banker, player):
                for i, v in enumerate((1, pair.hands, pair.fouls, pair.flow_cents, pair.expected_milli,
                                       pair.variance)):
                    sums[i] += v
    return sums
