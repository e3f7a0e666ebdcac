"""A flood of random frames — valid, malformed, mistyped, oversized fields, unknown types — on one spectator
connection: each gets exactly one answer, the connection stays open, and the table never changes."""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

import pytest

from paigow.protocol.client import CLIENT_MESSAGE_TYPES

FIELDS = ["id", "seat", "buy_in_cents", "amount_cents", "low", "protocol", "token", "last_version",
          "max_bet_cents", "spectate", "player_id", "type"]


@pytest.fixture
def settings(settings: Any) -> Any:
    return dataclasses.replace(settings, messages_per_second=10_000)


def _value(rng: random.Random) -> Any:
    return rng.choice([
        None, True, False, 0, -1, 7, 500, 2**70, 1.5, "", "x", "As", "JK", "ZZ", ["As", "Kd"], ["As", "As"],
        ["As"], {"a": 1}, [[[]]], "é" * 40, "a" * 300,
    ])


def _frame(rng: random.Random) -> str:
    kind = rng.random()
    if kind < 0.1:
        return rng.choice(["", "{", "null", "[]", '"hello"', "{}", "{" * 50, "\u0000"])
    message: dict[str, Any] = {}
    if rng.random() < 0.9:
        message["type"] = rng.choice([*CLIENT_MESSAGE_TYPES, "shuffle", "HELLO", 5])
    for name in rng.sample(FIELDS, rng.randint(0, 4)):
        message[name] = _value(rng)
    return json.dumps(message)


async def test_random_frames_each_get_one_answer_and_change_nothing(tables: Any, connect: Any) -> None:
    table_id = await tables.table()
    before = await tables.repo.load(table_id)
    rng = random.Random(20261129)
    async with connect(table_id) as client:
        await client.hello()
        for i in range(300):
            frame = _frame(rng)
            await client.send(frame)
            answer = await client.recv()
            if answer["type"] in ("events", "snapshot"):  # a valid sync is answered with what was missed
                assert json.loads(frame)["type"] == "sync", (i, frame, answer)
                continue
            assert answer["type"] in ("error", "pong"), (i, frame, answer)
            if answer["type"] == "error":
                assert answer["code"], (frame, answer)
                assert answer["message"], (frame, answer)
        await client.send({"type": "ping", "id": "end"})
        assert await client.recv() == {"type": "pong", "id": "end"}
    assert await tables.repo.load(table_id) == before
