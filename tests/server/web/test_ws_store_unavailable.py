"""A table command while Redis fails: the store raises ``StoreUnavailable`` and the connection answers
``INTERNAL_ERROR`` ("the data store is unavailable; nothing changed"), counts it, and stays usable."""

from __future__ import annotations

from typing import Any

import pytest
from redis.exceptions import ConnectionError as RedisConnectionError

from paigow.table.state import Timers

CALM = Timers(betting_ms=60_000)


async def test_a_command_while_redis_fails_answers_that_the_store_is_unavailable(
        tables: Any, connect: Any, live_server: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    table_id = await tables.table(timers=CALM)
    player_id, token = await tables.player("Ann")
    rt = live_server.app.state.realtime
    client_of_the_store = rt.store.redis

    async def down(*args: Any, **kwargs: Any) -> Any:
        raise RedisConnectionError("Connection refused")

    async with connect(table_id, player_id=player_id) as client:
        await client.hello(token)
        await client.drain()
        monkeypatch.setattr(client_of_the_store, "execute_command", down)
        error = await client.command({"type": "sit", "seat": 1, "buy_in_cents": 5_000})
        assert (error["type"], error["code"], error["id"]) == ("error", "INTERNAL_ERROR", "c1")
        assert error["message"] == "the data store is unavailable; nothing changed"
        assert rt.metrics.registry.get_sample_value("paigow_redis_errors_total",
                                                    {"operation": "command"}) == 1.0
        monkeypatch.undo()
        answer = await client.command({"type": "sit", "seat": 1, "buy_in_cents": 5_000})
        assert answer["type"] == "accepted"
