"""``store.hand_analyses``: a hand's analysis written into the player's history entry of that round only,
whatever the settling commits push to (and trim off) the list meanwhile, and kept by round id for the
export."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import Any

from redis.asyncio import Redis

from paigow_server.store import keys
from paigow_server.store.hand_analyses import HandAnalyses, with_analyses
from paigow_server.store.history import HISTORY_LENGTH

PLAYER = "p_ann"


def entry(number: int) -> dict[str, Any]:
    """A history entry as the commit writes it (its round record last, with an empty list in it)."""
    return {"table_id": "t1", "round_id": f"t1-{number}", "number": number, "is_banker": False,
            "envy": [], "round": {"round_id": f"t1-{number}", "hands": []}}


def analysis(given_up: float) -> dict[str, Any]:
    return {"ev_given_up": given_up, "chosen_ev": 0.1 - given_up, "best_ev": 0.1, "samples": 30_000}


async def push(redis: Redis, number: int) -> None:
    """What a settling commit does to the list: push the new hand, trim to the history's length."""
    history = keys.history(PLAYER)
    await redis.lpush(history, json.dumps(entry(number), separators=(",", ":")))
    await redis.ltrim(history, 0, HISTORY_LENGTH - 1)


async def entries(redis: Redis) -> list[dict[str, Any]]:
    return [json.loads(t) for t in await redis.lrange(keys.history(PLAYER), 0, -1)]


def before_script(store: HandAnalyses, meanwhile: Callable[[int], Awaitable[None]]) -> list[int]:
    """Run ``meanwhile(call)`` between ``keep``'s read of the list and each run of its script; returns the
    scripts' answers."""
    script = store._keep
    answers: list[int] = []

    async def racing(**kwargs: Any) -> Any:
        await meanwhile(len(answers))
        answer = await script(**kwargs)
        answers.append(int(answer))
        return answer

    store._keep = racing  # type: ignore[assignment]
    return answers


async def test_the_analysis_goes_into_its_own_entry_when_a_new_hand_is_pushed_meanwhile(redis: Redis) -> None:
    for number in range(1, HISTORY_LENGTH + 1):
        await push(redis, number)
    store = HandAnalyses(redis)

    async def new_hand(call: int) -> None:
        if call == 0:
            await push(redis, HISTORY_LENGTH + 1)  # t1-5 moves from index 6 to 7; t1-1 is trimmed off

    answers = before_script(store, new_hand)
    assert await store.keep(PLAYER, "t1-5", analysis(0.04)) is True
    assert answers == [1]
    after = await entries(redis)
    assert [e["number"] for e in after] == list(range(HISTORY_LENGTH + 1, 1, -1))
    for e in after:
        expected = entry(e["number"])
        if e["round_id"] == "t1-5":
            expected["analysis"] = analysis(0.04)
        assert e == expected  # every other entry exactly as the commit wrote it, the new one included
    assert json.loads(await redis.hget(keys.history_analyses(PLAYER), "t1-5")) == analysis(0.04)


async def test_an_entry_changed_meanwhile_is_read_again(redis: Redis) -> None:
    await push(redis, 1)
    await push(redis, 2)
    store = HandAnalyses(redis)
    other = HandAnalyses(redis)

    async def another_analysis(call: int) -> None:
        if call == 0:
            assert await other.keep(PLAYER, "t1-1", analysis(0.5)) is True

    answers = before_script(store, another_analysis)
    assert await store.keep(PLAYER, "t1-1", analysis(0.02)) is True
    assert answers == [-1, 1]  # the stale text was not written over; the second read was
    by_round = {e["round_id"]: e for e in await entries(redis)}
    assert by_round["t1-1"]["analysis"] == analysis(0.02)
    assert "analysis" not in by_round["t1-2"]


async def test_a_hand_trimmed_off_the_history_is_kept_for_the_export_only(redis: Redis) -> None:
    await push(redis, 1)
    store = HandAnalyses(redis)

    async def many_hands(call: int) -> None:
        if call == 0:
            for number in range(2, HISTORY_LENGTH + 2):
                await push(redis, number)

    answers = before_script(store, many_hands)
    assert await store.keep(PLAYER, "t1-1", analysis(0.1)) is False
    assert answers == [-1, 0]
    assert all("analysis" not in e for e in await entries(redis))
    export = [{"status": "settled", "round": {"round_id": "t1-1", "hands": [
        {"player_id": PLAYER, "is_banker": False}, {"player_id": None, "is_banker": True},
        {"player_id": "p_bob", "is_banker": False}]}}, {"status": "voided", "round_id": "t1-2"}]
    hands = (await with_analyses(store, export))[0]["round"]["hands"]
    assert [h["analysis"] for h in hands] == [analysis(0.1), None, None]


async def test_keeping_while_commits_push_concurrently(redis: Redis) -> None:
    for number in range(1, 4):
        await push(redis, number)
    store = HandAnalyses(redis)

    async def commits() -> None:
        for number in range(4, 12):
            await push(redis, number)
            await asyncio.sleep(0)

    results = await asyncio.gather(commits(), *(store.keep(PLAYER, f"t1-{n}", analysis(n / 100))
                                                 for n in (2, 3)))
    assert results[1:] == [True, True]
    after = await entries(redis)
    assert [e["number"] for e in after] == list(range(11, 1, -1))
    for e in after:
        assert e.get("analysis") == (analysis(e["number"] / 100) if e["number"] in (2, 3) else None)
