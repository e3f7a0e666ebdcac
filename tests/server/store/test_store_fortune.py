"""The money of the Fortune bonus: every bonus cent and Envy bonus has its ledger entry (house <-> seat), the
money check stays balanced, and history and the export show the bonus results."""

from __future__ import annotations

import secrets
from dataclasses import replace

from redis.asyncio import Redis

from paigow.ledger.accounts import HOUSE, seat_account
from paigow.ledger.effects import effects_of
from paigow.rules.house_rules import HouseRules
from paigow.table.commands import Command, DeclineBank, PlaceBet, Sit, Tick, UseHouseWay
from paigow.table.events import Event, RoundSettled
from paigow.table.machine import apply, next_deadline
from paigow.table.state import Phase, TableState, new_table
from paigow_server.store.accounts import Accounts
from paigow_server.store.history import History
from paigow_server.store.ledger import Ledger
from paigow_server.store.money import ledger_mismatches, money_totals
from paigow_server.store.tables import CommitResult, TableRepo
from support.commits import commit_now

FORTUNE = HouseRules(fortune_enabled=True)


def _to_setting(state: TableState, commands: list[Command]) -> TableState:
    now = 1_000_000
    for _ in range(5):
        if state.phase == Phase.BETTING:
            break
        now = max(now, next_deadline(state) or now)
        state, _ = apply(state, Tick(now), seed=secrets.token_bytes(32))
    for command in commands:
        state, _ = apply(state, command, seed=secrets.token_bytes(32))
    assert state.phase == Phase.SETTING
    return state


def test_every_bonus_and_envy_cent_has_its_ledger_entry() -> None:
    state = new_table("t1", "Main", FORTUNE)
    for i in (1, 2, 3):
        state, _ = apply(state, Sit(f"p{i}", f"P{i}", i, 500_00), seed=secrets.token_bytes(32))
    state = _to_setting(state, [PlaceBet("p1", 10_00, bonus_cents=5_00),
                                PlaceBet("p2", 10_00, bonus_cents=2_00),
                                PlaceBet("p3", 10_00, bonus_cents=10_00)])
    cards = {1: "9c 9d 9h 9s 2c 5d Kh", 2: "4h 5h 6h 7h 8h Kc 2s", 3: "2d 4c 7s 8d Jc Qs 3h"}
    rnd = state.round
    assert rnd is not None
    hands = tuple(replace(h, cards=tuple(cards[h.position].split())) if h.position in cards else h
                  for h in rnd.hands)
    before = state = replace(state, round=replace(rnd, hands=hands))
    events: list[Event] = []
    for p in ("p1", "p2", "p3"):
        state, new = apply(state, UseHouseWay(p), seed=secrets.token_bytes(32))
        events += new
    record = next(e.record for e in events if isinstance(e, RoundSettled))
    effects = effects_of(before, state, events, now_ms=5)
    bonus = [e for e in effects.ledger if e.kind in ("bonus_lost", "bonus_won", "envy")]
    assert [(e.kind, e.from_account, e.to_account, e.amount_cents, e.reason) for e in bonus] == [
        ("bonus_won", HOUSE, seat_account("t1", "p1"), 25 * 5_00, "Fortune bonus won: four of a kind"),
        ("envy", HOUSE, seat_account("t1", "p1"), 20_00, "Envy bonus: straight flush at position 2"),
        ("bonus_won", HOUSE, seat_account("t1", "p2"), 50 * 2_00,  # under $5: no Envy
         "Fortune bonus won: straight flush"),
        ("bonus_lost", seat_account("t1", "p3"), HOUSE, 10_00, "Fortune bonus lost: no paying hand"),
        ("envy", HOUSE, seat_account("t1", "p3"), 5_00, "Envy bonus: four of a kind at position 1"),
        ("envy", HOUSE, seat_account("t1", "p3"), 20_00, "Envy bonus: straight flush at position 2"),
    ]
    to_house = sum(e.amount_cents for e in bonus if e.to_account == HOUSE)
    from_house = sum(e.amount_cents for e in bonus if e.from_account == HOUSE)
    assert record.bonus_house_net_cents == to_house - from_house
    history = {h.player_id: h.record for h in effects.history}
    assert history["p3"]["bonus_cents"] == 10_00
    assert history["p3"]["bonus_win_cents"] == -10_00
    assert [e["amount_cents"] for e in history["p3"]["envy"]] == [5_00, 20_00]
    assert history["p3"]["balance_after_cents"] == state.seats[3].chips_cents  # type: ignore[union-attr]
    assert effects.rounds[0]["round"]["bonus_house_net_cents"] == record.bonus_house_net_cents
    assert effects.house_delta_cents == record.house_net_cents


async def test_bonus_rounds_keep_the_money_check_balanced(redis: Redis) -> None:
    repo = TableRepo(redis, log_length=50)
    accounts = Accounts(redis, starting_balance_cents=100_000)
    ann, bob = await accounts.create("Ann"), await accounts.create("Bob")
    await repo.create(new_table("t1", "Main", FORTUNE))
    now = 1_000_000

    async def do(command: Command) -> list[Event]:
        before = await repo.load("t1")
        assert before is not None
        after, events = apply(before, command, seed=secrets.token_bytes(32))
        assert await repo.commit(commit_now(before, after, events, now_ms=now)) is CommitResult.OK
        return list(events)

    await do(Sit(ann.player_id, "Ann", 1, 50_000))
    await do(Sit(bob.player_id, "Bob", 2, 50_000))
    settled: list[RoundSettled] = []
    for _ in range(3):
        state = await repo.load("t1")
        while state is not None and state.phase != Phase.BETTING:
            now = max(now, next_deadline(state) or now)
            await do(Tick(now))
            state = await repo.load("t1")
        if state is not None and state.round is not None and state.round.offer_player_id:
            await do(DeclineBank(state.round.offer_player_id))
        await do(PlaceBet(ann.player_id, 1_000, bonus_cents=500))
        await do(PlaceBet(bob.player_id, 2_000, bonus_cents=100))
        events = await do(UseHouseWay(ann.player_id)) + await do(UseHouseWay(bob.player_id))
        settled += [e for e in events if isinstance(e, RoundSettled)]
    assert len(settled) == 3
    assert await ledger_mismatches(redis) == []
    assert (await money_totals(redis)).balanced
    entries = await Ledger(redis).entries()
    bonus_entries = [e for e in entries if e["kind"] in ("bonus_lost", "bonus_won")]
    assert len(bonus_entries) == 6  # one result for each bonus of each round
    house_bonus = sum(e["amount_cents"] * (1 if e["to_account"] == HOUSE else -1)
                      for e in entries if e["kind"] in ("bonus_lost", "bonus_won", "envy"))
    assert house_bonus == sum(s.record.bonus_house_net_cents for s in settled)
    history = await History(redis).recent(ann.player_id)
    assert all(h["bonus_cents"] == 500 and h["fortune"] for h in history)
    exported = await History(redis).rounds()
    assert all(r["round"]["pay_table"] == "fortune-8000" for r in exported.entries)
