"""The index of live hands (``store.live_hands``): each seated player's dealt hand (the banker's included,
never the house dealer's; a bought Dragon hand too) is in ``{global}`` before the deal is seen, and leaves
it when the round settles or is voided. On one Redis the commit's own script writes it; on a cluster
(``TableRepo(outbox=True)`` runs that path here) it is written before the table's script, and its removal
travels in the outbox entry of the round's last commit."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from redis.asyncio import Redis

from paigow.table import Timers, new_table
from paigow.table.commands import PlaceBet, Sit, Tick, UseHouseWay
from paigow.table.dragon_state import DragonHand
from paigow.table.events import HandsDealt
from paigow.table.machine import apply, next_deadline
from paigow.table.operator_commands import VoidRound
from paigow.table.state import LiveHand, Phase, Round, TableState
from paigow_server.store import keys
from paigow_server.store.accounts import Accounts
from paigow_server.store.live_hands import LIVE_HAND_TTL_MS, fingerprint, live_effects
from paigow_server.store.tables import CommitResult, TableRepo
from support.commits import commit_now
from support.tables import TableDriver

TABLE = "t_live"
CARDS = ("As", "Kd", "Qh", "JK", "9c", "5d", "2s")


@pytest.fixture(params=["direct", "outbox"])
def repo(request: pytest.FixtureRequest, redis: Redis) -> TableRepo:
    return TableRepo(redis, outbox=request.param == "outbox")


async def _dealt(repo: TableRepo, redis: Redis, *, deal: bool = True) -> tuple[TableDriver, list[str]]:
    """Ann (seat 1) and Bob (seat 2) betting against the house, their hands dealt (unless not ``deal``)."""
    accounts = Accounts(redis, starting_balance_cents=100_000)
    players = [(await accounts.create(name)).player_id for name in ("Ann", "Bob")]
    await repo.create(new_table(TABLE, "Live", timers=Timers()))
    table = TableDriver(repo, TABLE)
    for seat, player in enumerate(players, start=1):
        assert await table.do(Sit(player, player, seat, 10_000)) is CommitResult.OK
    await table.tick_until(Phase.BETTING)
    for player in players:
        assert await table.do(PlaceBet(player, 1_000)) is CommitResult.OK
    if deal:
        await table.tick_until(Phase.SETTING)
    return table, players


async def _live(redis: Redis, rnd: Round) -> dict[str | None, Any]:
    """Each hand's index entry (None: none), by player (None: the house dealer)."""
    return {h.player_id: await redis.get(keys.live_hand(fingerprint(h.cards))) for h in rnd.hands}


async def test_the_deal_indexes_the_players_hands_and_the_settlement_removes_them(
        redis: Redis, repo: TableRepo) -> None:
    table, players = await _dealt(repo, redis)
    rnd = (await table.state()).round
    assert rnd is not None
    live = await _live(redis, rnd)
    entry = f"{TABLE} {rnd.round_id}"
    assert live == {players[0]: entry, players[1]: entry, None: None}
    ttl = await redis.pttl(keys.live_hand(fingerprint(rnd.hands[1].cards)))
    assert LIVE_HAND_TTL_MS - 60_000 < ttl <= LIVE_HAND_TTL_MS
    for player in players:
        assert await table.do(UseHouseWay(player)) is CommitResult.OK
    assert (await table.state()).round is None
    assert set((await _live(redis, rnd)).values()) == {None}
    assert await repo.outbox.pending(TABLE) == []


async def test_a_void_removes_them(redis: Redis, repo: TableRepo) -> None:
    table, _ = await _dealt(repo, redis)
    rnd = (await table.state()).round
    assert rnd is not None
    assert await table.do(VoidRound()) is CommitResult.OK
    assert set((await _live(redis, rnd)).values()) == {None}


async def test_on_a_cluster_the_hands_are_indexed_before_the_deal_is_written(redis: Redis) -> None:
    repo = TableRepo(redis, outbox=True)
    seen: list[bool] = []
    write = repo._outboxed._write

    async def checked(before: Any, after: Any, *args: Any, **kwargs: Any) -> Any:
        if after.round is not None and after.round.hands and (before.round is None or not before.round.hands):
            hand = next(h for h in after.round.hands if h.player_id is not None)
            seen.append(bool(await redis.exists(keys.live_hand(fingerprint(hand.cards)))))
        return await write(before, after, *args, **kwargs)

    repo._outboxed._write = checked  # type: ignore[method-assign]
    await _dealt(repo, redis)
    assert seen == [True]


async def test_a_refused_commit_leaves_its_index_entry_for_the_same_deal_decided_again(redis: Redis) -> None:
    """The round's cards come from its seed, fixed before the deal: a deal decided again deals them again."""
    repo = TableRepo(redis, outbox=True)
    table, _ = await _dealt(repo, redis, deal=False)
    betting = await table.state()
    deadline = next_deadline(betting)
    assert deadline is not None
    dealt, events = apply(betting, Tick(deadline), seed=bytes(32))
    assert dealt.round is not None
    assert dealt.round.hands
    await redis.hset(keys.table(TABLE), "version", betting.version + 100)  # another commit came first
    assert await repo.commit(commit_now(betting, dealt, events)) is CommitResult.CONFLICT
    assert set((await _live(redis, dealt.round)).values()) - {None} == {f"{TABLE} {dealt.round.round_id}"}


def _round(hands: tuple[LiveHand, ...], dragon: DragonHand | None = None) -> Round:
    return Round("r1", 1, "c", "00", hands=hands, dragon=dragon)


def test_the_effects_name_the_players_and_banker_hands_and_a_bought_dragon() -> None:
    state = new_table(TABLE, "Live")
    banker = LiveHand(3, "p_banker", CARDS)
    player = LiveHand(1, "p_ann", ("2c", "3c", "4c", "5c", "6c", "7c", "8c"))
    dealer = LiveHand(0, None, ("2d", "3d", "4d", "5d", "6d", "7d", "8d"))
    dragon = DragonHand(5, buyer_position=1, buyer_player_id="p_ann", wager_cents=500,
                        cards=("2h", "3h", "4h", "5h", "6h", "7h", "8h"))
    undealt = dataclasses.replace(state, round=_round(()))
    dealt = dataclasses.replace(state, round=_round((dealer, player, banker), dragon))
    names = [fingerprint(player.cards), fingerprint(banker.cards), fingerprint(dragon.cards)]
    event = [HandsDealt((1, 2, 3), 1, ())]

    def effects(before: TableState, after: TableState) -> list[list[str]]:
        return live_effects(commit_now(before, dataclasses.replace(after, version=before.version + 1), event))

    assert effects(undealt, dealt) == [["live", n, TABLE, "r1"] for n in names]
    assert effects(dealt, dealt) == []  # a hand set, in the same round
    over = dataclasses.replace(state, round=None)
    assert effects(dealt, over) == [["unlive", n, TABLE, "r1"] for n in names]
    assert effects(undealt, over) == []  # a void before the deal
    assert fingerprint(reversed(CARDS)) == fingerprint(CARDS)
