"""The analyses' fair queue (``process.fair_queue``): networks served in turn, a small bounded share per
account and per network (refused at once past it), a seated player's hand before the rest, and a place
given back by a request that is cancelled while it waits."""

from __future__ import annotations

import asyncio

import pytest

from paigow_server.process.fair_queue import FairQueue, Priority, QueueBusy, QueueFull

FLOODER = "198.51.100.0/24"


async def _run(queue: FairQueue, order: list[str], name: str, account: str, network: str,
               priority: Priority = Priority.OTHER, gate: asyncio.Event | None = None) -> None:
    async with queue.turn(account, network, priority):
        order.append(name)
        if gate is not None:
            await gate.wait()


async def _settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


async def test_networks_are_served_in_turn_whatever_their_waiters() -> None:
    queue = FairQueue(1, per_client=10, max_waiting=100)
    order: list[str] = []
    gate = asyncio.Event()
    first = asyncio.create_task(_run(queue, order, "flood-0", "p_f0", FLOODER, gate=gate))
    await _settle()
    tasks = [asyncio.create_task(_run(queue, order, f"flood-{i}", f"p_f{i}", FLOODER)) for i in range(1, 6)]
    await _settle()
    tasks.append(asyncio.create_task(_run(queue, order, "ann", "p_ann", "203.0.113.0/24")))
    await _settle()
    assert queue.waiting == 6
    gate.set()
    await asyncio.gather(first, *tasks)
    # Ann came after five of the flood's waiters, and is served next: her network was served least recently.
    assert order == ["flood-0", "ann", "flood-1", "flood-2", "flood-3", "flood-4", "flood-5"]


async def test_two_busy_networks_alternate() -> None:
    queue = FairQueue(1, per_client=10, max_waiting=100)
    order: list[str] = []
    gate = asyncio.Event()
    first = asyncio.create_task(_run(queue, order, "a0", "p_a0", "192.0.2.0/24", gate=gate))
    await _settle()
    tasks = [asyncio.create_task(_run(queue, order, f"{n}{i}", f"p_{n}{i}", net))
             for n, net in (("a", "192.0.2.0/24"), ("b", "203.0.113.0/24")) for i in range(1, 4)]
    await _settle()
    gate.set()
    await asyncio.gather(first, *tasks)
    assert order == ["a0", "b1", "a1", "b2", "a2", "b3", "a3"]


async def test_an_account_or_a_network_past_its_places_is_refused_at_once() -> None:
    queue = FairQueue(1, per_client=2, max_waiting=100)
    gate = asyncio.Event()
    order: list[str] = []
    held = [asyncio.create_task(_run(queue, order, f"g{i}", f"p_g{i}", FLOODER, gate=gate)) for i in range(2)]
    await _settle()
    with pytest.raises(QueueFull, match=f"network {FLOODER} already has 2 analyses waiting or running"):
        async with queue.turn("p_other_guest", FLOODER, Priority.OTHER):
            pass
    mine = [asyncio.create_task(_run(queue, order, f"ann{i}", "p_ann", f"192.0.2.{i}/32")) for i in range(2)]
    await _settle()
    with pytest.raises(QueueFull, match="account p_ann already has 2"):
        async with queue.turn("p_ann", "192.0.2.9/32", Priority.OTHER):
            pass
    assert queue.waiting == 3  # the refusals took no place
    gate.set()
    await asyncio.gather(*held, *mine)
    async with queue.turn("p_other_guest", FLOODER, Priority.OTHER):  # the places were given back
        pass


async def test_past_every_waiting_place_the_queue_is_busy() -> None:
    queue = FairQueue(1, per_client=5, max_waiting=2)
    gate = asyncio.Event()
    order: list[str] = []
    tasks = [asyncio.create_task(_run(queue, order, f"n{i}", f"p_{i}", f"192.0.2.{i}/32", gate=gate))
             for i in range(3)]
    await _settle()
    with pytest.raises(QueueBusy, match="all 2 waiting places are taken"):
        async with queue.turn("p_9", "192.0.2.9/32", Priority.OTHER):
            pass
    gate.set()
    await asyncio.gather(*tasks)


async def test_a_seated_players_hand_goes_first() -> None:
    queue = FairQueue(1, per_client=10, max_waiting=100)
    order: list[str] = []
    gate = asyncio.Event()
    first = asyncio.create_task(_run(queue, order, "practice-0", "p_a", "192.0.2.1/32", gate=gate))
    await _settle()
    rest = [asyncio.create_task(_run(queue, order, f"history-{i}", f"p_h{i}", f"192.0.2.{10 + i}/32"))
            for i in range(3)]
    await _settle()
    rest.append(asyncio.create_task(_run(queue, order, "played", "p_s", "192.0.2.99/32", Priority.PLAYED)))
    await _settle()
    gate.set()
    await asyncio.gather(first, *rest)
    assert order == ["practice-0", "played", "history-0", "history-1", "history-2"]


async def test_a_cancelled_waiter_gives_its_place_back() -> None:
    queue = FairQueue(1, per_client=1, max_waiting=100)
    gate = asyncio.Event()
    order: list[str] = []
    running = asyncio.create_task(_run(queue, order, "a", "p_a", "192.0.2.1/32", gate=gate))
    await _settle()
    waiting = asyncio.create_task(_run(queue, order, "b", "p_b", "192.0.2.2/32"))
    await _settle()
    waiting.cancel()
    await asyncio.gather(waiting, return_exceptions=True)
    assert queue.waiting == 0
    again = asyncio.create_task(_run(queue, order, "b-again", "p_b", "192.0.2.2/32"))
    await _settle()
    gate.set()
    await asyncio.gather(running, again)
    assert order == ["a", "b-again"]
    assert (queue.running, queue.waiting) == (0, 0)
