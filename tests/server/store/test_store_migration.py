"""The start-up migration from the first, untagged key layout: a Redis written by an older server (made
here by writing with today's server and renaming every key back to its old name) comes out with every key
under its tagged name, expiries kept, and play goes on from it with the money intact; a second run, or a
fresh Redis, changes nothing."""

from __future__ import annotations

import httpx
import pytest
from redis.asyncio import Redis

from paigow.table.commands import Leave, Sit
from paigow.table.state import new_table
from paigow_server.app import create_app
from paigow_server.process.settings import Settings
from paigow_server.store import keys
from paigow_server.store.accounts import Accounts
from paigow_server.store.history import History
from paigow_server.store.migration import SCHEMA_VERSION, migrate_key_names
from paigow_server.store.money import ledger_mismatches, money_totals
from paigow_server.store.tables import CommitResult, TableRepo
from support.tables import TableDriver

START = 100_000


def _old_name(name: str) -> str:
    """Today's name back to the first layout's (the inverse of ``keys.renamed``)."""
    return name.replace(keys.GLOBAL, keys.PREFIX).replace("{", "").replace("}", "")


@pytest.mark.parametrize("old", ["paigow:table:t12", "paigow:table:t12:chat:messages", "paigow:player:p_1",
                                 "paigow:player:p_1:sessions", "paigow:tables:seq", "paigow:bar:t1:p_2",
                                 "paigow:money:house", "paigow:sign-in:player:ann", "paigow:starter-tables",
                                 "paigow:history:p_1:analyses", "paigow:practice:p_1"])
def test_every_old_name_maps_to_its_new_one_and_back(old: str) -> None:
    new = keys.renamed(old)
    assert new is not None
    assert new != old
    assert _old_name(new) == old
    assert keys.renamed(new) is None  # already tagged


def test_names_that_are_not_ours_are_left() -> None:
    assert [keys.renamed(n) for n in ("other:key", "paigow:probe:x", "paigow:proc:a", "paigow:table:")] == [
        None, None, None, None]


async def test_an_old_deployment_is_renamed_once_and_plays_on(redis: Redis) -> None:
    repo = TableRepo(redis)
    accounts = Accounts(redis, starting_balance_cents=START)
    await repo.create(new_table(await repo.next_id(), "Main"))
    table = TableDriver(repo, "t1")
    ann, bob = (await accounts.create("Ann")).player_id, (await accounts.create("Bob")).player_id
    for seat, player_id in enumerate((ann, bob), start=1):
        assert await table.do(Sit(player_id, "P", seat, 10_000)) is CommitResult.OK
    await table.play_house_round({ann: 500, bob: 700})
    await redis.set(keys.session("abc"), ann, px=600_000)
    # the keys an older server never wrote: it had no outbox and no holds (all delivered and consumed here),
    # and no second-look figures (``pair_watch``)
    assert await redis.hlen(keys.HOLDS) == await redis.llen(keys.table_outbox("t1")) == 0
    await redis.delete(keys.OUTBOX_APPLIED, keys.table_outbox_seq("t1"), keys.table_holds("t1"), keys.SCHEMA,
                       *await redis.keys(f"{keys.GLOBAL}floor:*"))
    before = {name: await redis.type(name) for name in await redis.keys(f"{keys.PREFIX}*")}
    for name in before:  # the Redis as an older server left it
        await redis.rename(name, _old_name(name))
    assert await redis.exists(keys.table("t1"), keys.player(ann)) == 0

    renamed = await migrate_key_names(redis)
    assert renamed == len(before)  # the schema mark is new: it did not exist under the old layout
    assert await redis.get(keys.SCHEMA) == str(SCHEMA_VERSION)
    assert {name: await redis.type(name) for name in await redis.keys(f"{keys.PREFIX}*")} == {
        **before, keys.SCHEMA: "string"}
    assert 0 < await redis.pttl(keys.session("abc")) <= 600_000
    assert len(await History(redis).recent(ann)) == 1
    assert await migrate_key_names(redis) == 0

    assert await table.do(Leave(ann)) is CommitResult.OK
    assert await accounts.balance(ann) == START - 10_000 + (await History(redis).recent(ann))[0][
        "balance_after_cents"]
    assert (await money_totals(redis)).balanced
    assert await ledger_mismatches(redis) == []


async def test_a_fresh_redis_only_gets_its_layout_recorded(redis: Redis) -> None:
    assert await migrate_key_names(redis) == 0
    assert await redis.keys(f"{keys.PREFIX}*") == [keys.SCHEMA]


async def test_the_server_migrates_an_old_redis_when_it_starts(redis: Redis, settings: Settings) -> None:
    """An older server's player, under the old names, is found by the new server's API once it started."""
    accounts = Accounts(redis, starting_balance_cents=START)
    ann = await accounts.create("Ann")
    for name in await redis.keys(f"{keys.PREFIX}*"):
        await redis.rename(name, _old_name(name))
    await redis.delete(keys.SCHEMA)
    app = create_app(settings, redis=redis)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://localhost") as client:
            found = await client.get(f"/api/operator/players/{ann.player_id}",
                                     headers={"Authorization": f"Bearer {settings.operator_token}"})
    assert found.status_code == 200, found.text
    assert found.json()["balance_cents"] == START
    assert await redis.get(keys.SCHEMA) == str(SCHEMA_VERSION)
