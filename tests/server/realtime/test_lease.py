"""Leases with fencing tokens, against a private Redis."""

from __future__ import annotations

import asyncio

import pytest
from redis.asyncio import Redis

from paigow_server.realtime.lease import Lease, LeaseHolder, LeaseManager, new_owner_id
from paigow_server.store import keys
from paigow_server.store.leases import Leases


async def test_first_acquirer_gets_token_one_and_others_see_it(redis: Redis) -> None:
    a = LeaseManager(Leases(redis), "proc-a")
    b = LeaseManager(Leases(redis), "proc-b")
    assert await a.acquire("t1") == Lease("t1", "proc-a", 1)
    theirs = await b.acquire("t1")
    assert isinstance(theirs, LeaseHolder)
    assert (theirs.owner, theirs.token) == ("proc-a", 1)
    assert 0 < theirs.ttl_ms <= a.ttl_ms
    assert await a.acquire("t1") == Lease("t1", "proc-a", 1), "re-acquiring our own lease keeps the token"
    assert a.held("t1") == Lease("t1", "proc-a", 1)
    assert b.held("t1") is None
    holder = await b.holder("t1")
    assert holder is not None
    assert (holder.owner, holder.token) == ("proc-a", 1)
    assert await b.holder("t-none") is None


async def test_an_expired_lease_goes_to_the_next_process_with_a_larger_token(redis: Redis) -> None:
    a = LeaseManager(Leases(redis), "proc-a", ttl_ms=150)
    b = LeaseManager(Leases(redis), "proc-b", ttl_ms=150)
    assert await a.acquire("t1") == Lease("t1", "proc-a", 1)
    await asyncio.sleep(0.2)
    assert a.held("t1") is None, "our own clock already gave the lease up"
    assert await b.acquire("t1") == Lease("t1", "proc-b", 2)
    assert isinstance(await a.acquire("t1"), LeaseHolder)
    assert await redis.get(keys.table_fence("t1")) == "2"


async def test_background_renewal_keeps_the_lease_and_stop_releases_it(redis: Redis) -> None:
    a = LeaseManager(Leases(redis), "proc-a", ttl_ms=300, renew_every_ms=50)
    b = LeaseManager(Leases(redis), "proc-b", ttl_ms=300)
    await a.acquire("t1")
    await a.acquire("t2")
    await a.start()
    await asyncio.sleep(0.6)
    assert isinstance(await b.acquire("t1"), LeaseHolder)
    assert sorted(a.held_ids()) == ["t1", "t2"]
    await a.stop()
    assert a.held_ids() == []
    assert await b.acquire("t1") == Lease("t1", "proc-b", 2), "released leases are free at once"
    assert await redis.exists(keys.table_lease("t2")) == 0


async def test_renewal_reports_a_lease_taken_over_while_we_slept(redis: Redis) -> None:
    lost: list[str] = []

    async def on_lost(table_id: str) -> None:
        lost.append(table_id)

    a = LeaseManager(Leases(redis), "proc-a", ttl_ms=150, on_lost=on_lost)
    b = LeaseManager(Leases(redis), "proc-b", ttl_ms=5_000)
    await a.acquire("t1")
    await a.acquire("t2")
    await asyncio.sleep(0.2)  # "paused": no renewal ran
    await b.acquire("t1")
    assert await a.renew_all() == ["t1"]
    assert lost == ["t1"]
    assert a.held("t1") is None
    assert a.held("t2") == Lease("t2", "proc-a", 1), "an expired lease nobody took is renewed"
    assert await a.release("t1") is False
    assert (await b.holder("t1")) is not None, "a stale release does not delete the new owner's lease"
    await asyncio.sleep(0.2)
    await b.acquire("t2")
    assert isinstance(await a.acquire("t2"), LeaseHolder)
    assert lost == ["t1", "t2"], "finding the lease taken when acquiring it again also reports the loss"


async def test_release_only_deletes_our_own_lease(redis: Redis) -> None:
    a = LeaseManager(Leases(redis), "proc-a", ttl_ms=100)
    b = LeaseManager(Leases(redis), "proc-b")
    await a.acquire("t1")
    await asyncio.sleep(0.15)
    await b.acquire("t1")
    assert await a.release("t1") is False
    holder = await a.holder("t1")
    assert holder is not None
    assert holder.owner == "proc-b"
    assert await b.release("t1") is True
    assert await a.holder("t1") is None


def test_bad_owner_and_ttl_are_refused() -> None:
    with pytest.raises(ValueError, match="must not contain spaces"):
        LeaseManager(Leases(Redis()), "proc a")
    with pytest.raises(ValueError, match="at least 100 ms"):
        LeaseManager(Leases(Redis()), "a", ttl_ms=5)


def test_owner_ids_name_the_process_and_differ() -> None:
    import os

    first, second = new_owner_id(), new_owner_id()
    assert first != second
    assert f".{os.getpid()}." in first
    assert " " not in first
