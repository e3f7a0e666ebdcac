"""Bad input of every kind gets an ``error`` with the code that names it, changes nothing, and leaves the
connection usable; only the limits close a connection (frame size 1009, flood 1008, connections 4429),
and a hello that cannot be served (token 4401, protocol 4426, table 4404, none in time 4408)."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
from typing import Any

import pytest
import websockets
from websockets.exceptions import ConnectionClosed, InvalidStatus

from paigow.table.state import Timers
from paigow_server.web import ws as ws_module
from support.harness import ServerProcess

CALM = Timers(betting_ms=60_000)


@pytest.fixture
def settings(settings: Any) -> Any:
    return dataclasses.replace(settings, connections_per_player=2, allowed_origins=("https://play.example",),
                               messages_per_second=50)


async def _usable(client: Any) -> None:
    """The connection still answers, and nothing was pushed: the table did not change."""
    await client.send({"type": "ping", "id": "still-there"})
    frame = await client.recv()
    assert frame == {"type": "pong", "id": "still-there"}


async def _close_code(client: Any) -> int:
    """Read until the server closes; the close code it sent."""
    try:
        while True:
            await client.recv()
    except ConnectionClosed as closed:
        frame = closed.rcvd
    if frame is None:
        raise AssertionError("the connection dropped without a close frame")
    return frame.code


async def _seated(tables: Any, connect: Any, stack: Any, *, seat: int = 1) -> tuple[str, Any]:
    table_id = await tables.table(timers=CALM)
    player_id, token = await tables.player("Ann")
    client = await stack.enter_async_context(connect(table_id, player_id=player_id))
    await client.hello(token)
    answer = await client.command({"type": "sit", "seat": seat, "buy_in_cents": 10_000})
    assert answer["type"] == "accepted"
    await client.until_view(lambda v: v["phase"] == "betting")
    await client.drain()
    return table_id, client


BAD_FRAMES = [
    ("this is not json", "MALFORMED_JSON", None),
    ("[1, 2, 3]", "MALFORMED_JSON", None),
    ('{"id": "x1"}', "UNKNOWN_TYPE", "x1"),
    ('{"type": "shuffle", "id": "x2"}', "UNKNOWN_TYPE", "x2"),
    ('{"type": "place_bet", "id": "x3"}', "MISSING_FIELD", "x3"),
    ('{"type": "place_bet", "id": "x4", "amount_cents": 500, "player_id": "someone"}', "UNKNOWN_FIELD", "x4"),
    ('{"type": "place_bet", "id": "x5", "amount_cents": "500"}', "WRONG_TYPE", "x5"),
    ('{"type": "place_bet", "id": "x6", "amount_cents": 5.5}', "WRONG_TYPE", "x6"),
    ('{"type": "place_bet", "id": "x7", "amount_cents": -500}', "INVALID_VALUE", "x7"),
    ('{"type": "place_bet", "id": "x8", "amount_cents": 99999999999999999999}', "INVALID_VALUE", "x8"),
    ('{"type": "sit", "id": "x9", "seat": 0, "buy_in_cents": 500}', "INVALID_VALUE", "x9"),
    ('{"type": "set_hand", "id": "x10", "low": ["As", "Xx"]}', "INVALID_VALUE", "x10"),
    ('{"type": "set_hand", "id": "x11", "low": ["As", "As"]}', "INVALID_VALUE", "x11"),
    ('{"type": "set_hand", "id": "x12", "low": ["ks", "2c"]}', "INVALID_VALUE", "x12"),
    ('{"type": "set_hand", "id": "x13", "low": ["Joker", "10h"]}', "INVALID_VALUE", "x13"),
    ('{"type": "set_hand", "id": "x14", "low": ["As"]}', "INVALID_VALUE", "x14"),
    ('{"type": "place_bet", "id": "x15", "amount_cents": 500, "amount_cents": 600}', "MALFORMED_JSON", "x15"),
    ('{"type": "ping", "id": "x16", "id": "x17"}', "MALFORMED_JSON", None),
    ('{"type": "hello", "protocol": 2}', "ALREADY_GREETED", None),
    # Well-formed, but the table refuses.
    ('{"type": "sit", "id": "r1", "seat": 2, "buy_in_cents": 500}', "ALREADY_SEATED", "r1"),
    ('{"type": "place_bet", "id": "r2", "amount_cents": 100}', "BELOW_MINIMUM", "r2"),
    ('{"type": "place_bet", "id": "r3", "amount_cents": 100000}', "ABOVE_MAXIMUM", "r3"),
    ('{"type": "set_hand", "id": "r4", "low": ["As", "Kd"]}', "WRONG_PHASE", "r4"),
    ('{"type": "accept_bank", "id": "r5"}', "WRONG_PHASE", "r5"),
]


async def test_every_bad_frame_gets_its_error_and_changes_nothing(tables: Any, connect: Any,
                                                                 live_server: Any) -> None:
    async with contextlib.AsyncExitStack() as stack:
        table_id, client = await _seated(tables, connect, stack)
        before = await tables.repo.load(table_id)
        for frame, code, client_id in BAD_FRAMES:
            await client.send(frame)
            error = await client.recv()
            assert error["type"] == "error", (frame, error)
            assert error["code"] == code, (frame, error)
            assert error["id"] == client_id, (frame, error)
            assert error["message"]
            if code in ("BELOW_MINIMUM", "ABOVE_MAXIMUM"):  # the amounts, for the page to word it
                assert (error["amount_cents"], error["limit_cents"]) == (
                    json.loads(frame)["amount_cents"], 500 if code == "BELOW_MINIMUM" else 30_000), error
            else:
                assert (error["amount_cents"], error["limit_cents"]) == (None, None), error
            await _usable(client)
            await asyncio.sleep(0.05)  # stay under the rate limit
        await client.ws.send(b'{"type": "ping"}')  # a binary frame
        error = await client.recv()
        assert (error["type"], error["code"]) == ("error", "MALFORMED_JSON")
        await _usable(client)
        assert await tables.repo.load(table_id) == before


async def test_a_buy_in_over_the_balance_is_refused(tables: Any, connect: Any) -> None:
    table_id = await tables.table(timers=CALM)
    player_id, token = await tables.player("Ann")
    async with connect(table_id, player_id=player_id) as client:
        await client.hello(token)
        error = await client.command({"type": "sit", "seat": 1, "buy_in_cents": 100_000_000})
        assert (error["type"], error["code"]) == ("error", "INSUFFICIENT_BALANCE")
        await _usable(client)
    assert await tables.balance(player_id) == 100_000


async def test_commands_before_hello_are_refused_until_hello(tables: Any, connect: Any) -> None:
    table_id = await tables.table(timers=CALM)
    async with connect(table_id) as client:
        await client.send({"type": "leave", "id": "early"})
        error = await client.recv()
        assert (error["code"], error["id"]) == ("HELLO_REQUIRED", "early")
        await client.send("garbage")
        assert (await client.recv())["code"] == "MALFORMED_JSON"
        assert (await client.hello())["type"] == "snapshot"


async def test_a_spectator_cannot_act(tables: Any, connect: Any) -> None:
    table_id = await tables.table(timers=CALM)
    player_id, token = await tables.player("Ann")
    async with connect(table_id) as anonymous, connect(table_id, player_id=player_id) as watching:
        await anonymous.hello()
        await watching.hello(token, spectate=True)  # a player who chose to watch
        for client in (anonymous, watching):
            error = await client.command({"type": "sit", "seat": 1, "buy_in_cents": 1_000})
            assert (error["type"], error["code"]) == ("error", "SPECTATOR_CANNOT_ACT")
            await _usable(client)
        state = await tables.repo.load(table_id)
        assert state.version == 0


@pytest.mark.parametrize(
    ("hello", "code", "close"),
    [
        ({"type": "hello", "protocol": 2, "token": "not-a-session"}, "UNAUTHORIZED", 4401),
        ({"type": "hello", "protocol": 99}, "UNSUPPORTED_PROTOCOL", 4426),
        ({"type": "hello", "protocol": 1}, "UNSUPPORTED_PROTOCOL", 4426),  # a client of the old protocol
    ],
)
async def test_a_hello_that_cannot_be_served_is_answered_then_closed(tables: Any, connect: Any,
                                                                     hello: dict[str, Any], code: str,
                                                                     close: int) -> None:
    table_id = await tables.table(timers=CALM)
    async with connect(table_id) as client:
        await client.send(hello)
        error = await client.recv()
        assert (error["type"], error["code"]) == ("error", code)
        with pytest.raises(ConnectionClosed) as info:
            await client.recv()
        assert info.value.rcvd is not None
        assert info.value.rcvd.code == close


async def test_an_unknown_table(connect: Any) -> None:
    async with connect("t-nope") as client:
        await client.send({"type": "hello", "protocol": 2})
        assert (await client.recv())["code"] == "TABLE_NOT_FOUND"
        with pytest.raises(ConnectionClosed) as info:
            await client.recv()
        assert info.value.rcvd is not None
        assert info.value.rcvd.code == 4404


async def test_no_hello_in_time_closes(tables: Any, connect: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ws_module, "HELLO_TIMEOUT_S", 0.3)
    table_id = await tables.table(timers=CALM)
    async with connect(table_id) as client:
        with pytest.raises(ConnectionClosed) as info:
            await client.recv()
        assert info.value.rcvd is not None
        assert info.value.rcvd.code == 4408


async def test_a_foreign_origin_is_refused_at_the_upgrade(tables: Any, connect: Any,
                                                           live_server: Any) -> None:
    table_id = await tables.table(timers=CALM)
    with pytest.raises(InvalidStatus) as info:
        async with connect(table_id, origin="https://evil.example"):
            pass
    assert info.value.response.status_code == 403
    for origin in (live_server.url, "https://play.example"):  # the server's own, and an allowed one
        async with connect(table_id, origin=origin) as client:
            assert (await client.hello())["type"] == "snapshot"


async def test_an_oversized_frame_closes_with_1009(tables: Any, connect: Any, settings: Any) -> None:
    table_id = await tables.table(timers=CALM)
    async with connect(table_id) as client:
        await client.hello()
        await client.send(json.dumps({"type": "ping", "id": "x" * (settings.max_frame_bytes + 10)}))
        assert await _close_code(client) == 1009


async def test_over_the_rate_gets_errors_and_a_flood_closes_with_1008(tables: Any, connect: Any,
                                                                     settings: Any) -> None:
    table_id = await tables.table(timers=CALM)
    async with connect(table_id) as client:
        await client.hello()
        rate = settings.messages_per_second
        for i in range(rate + 5):  # a burst just over the limit: answered, some with RATE_LIMITED
            await client.send({"type": "ping", "id": f"b{i}"})
        frames = [await client.recv() for _ in range(rate + 5)]
        assert {f["type"] for f in frames[:rate - 1]} == {"pong"}  # the hello took one
        limited = [f for f in frames if f["type"] == "error"]
        assert limited
        assert {f["code"] for f in limited} == {"RATE_LIMITED"}
        assert limited[0]["id"] is not None
        await asyncio.sleep(1.5)  # the bucket refills: usable again
        await _usable(client)
        with contextlib.suppress(ConnectionClosed):
            for i in range(rate * 20):  # a flood
                await client.send({"type": "ping", "id": f"f{i}"})
        assert await _close_code(client) == 1008


async def test_connections_per_player_are_limited(tables: Any, connect: Any, settings: Any) -> None:
    table_id = await tables.table(timers=CALM)
    player_id, token = await tables.player("Ann")
    async with connect(table_id, player_id=player_id) as one, connect(table_id, player_id=player_id) as two:
        await one.hello(token)
        await two.hello(token)
        async with connect(table_id, player_id=player_id) as three:
            await three.send({"type": "hello", "protocol": 2, "token": token})
            assert (await three.recv())["code"] == "TOO_MANY_CONNECTIONS"
            with pytest.raises(ConnectionClosed) as info:
                await three.recv()
            assert info.value.rcvd is not None
            assert info.value.rcvd.code == 4429
        await _usable(one)
    async with connect(table_id, player_id=player_id) as again:  # the slots were given back
        assert (await again.hello(token))["type"] == "snapshot"


async def test_the_raw_upgrade_without_origin_is_allowed(tables: Any, live_server: Any) -> None:
    table_id = await tables.table(timers=CALM)
    async with websockets.connect(f"{live_server.ws_url}/ws/tables/{table_id}") as raw:
        await raw.send(json.dumps({"type": "hello", "protocol": 2}))
        assert json.loads(await raw.recv())["type"] == "snapshot"


async def test_a_server_failure_is_an_error_not_a_dropped_connection(tables: Any, connect: Any,
                                                                     live_server: Any,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    table_id = await tables.table(timers=CALM)
    player_id, token = await tables.player("Ann")
    service = live_server.app.state.realtime.service

    async def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("a bug")

    async with connect(table_id, player_id=player_id) as client:
        await client.hello(token)
        monkeypatch.setattr(service, "execute", broken)
        error = await client.command({"type": "sit", "seat": 1, "buy_in_cents": 5_000})
        assert (error["type"], error["code"], error["id"]) == ("error", "INTERNAL_ERROR", "c1")
        await _usable(client)
        monkeypatch.undo()
        answer = await client.command({"type": "sit", "seat": 1, "buy_in_cents": 5_000})
        assert answer["type"] == "accepted"


async def test_a_store_failure_while_greeting_closes_with_1011(tables: Any, connect: Any, live_server: Any,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    from redis.exceptions import ConnectionError as RedisConnectionError

    table_id = await tables.table(timers=CALM)

    async def down(token: str) -> Any:
        raise RedisConnectionError("redis is down")

    monkeypatch.setattr(live_server.app.state.ctx.sessions, "identify", down)
    async with connect(table_id) as client:
        await client.send({"type": "hello", "protocol": 2, "token": "whatever"})
        error = await client.recv()
        assert (error["type"], error["code"]) == ("error", "INTERNAL_ERROR")
        assert await _close_code(client) == 1011


async def test_a_text_frame_of_invalid_utf8_is_malformed_json_and_the_seat_stays(
        tables: Any, connect: Any, caplog: pytest.LogCaptureFixture) -> None:
    async with contextlib.AsyncExitStack() as stack:
        table_id, client = await _seated(tables, connect, stack)
        before = await tables.repo.load(table_id)
        caplog.clear()
        for frame in (b'{"type":"ping","id":"u"\xff}', b'{"type":"ping","id":"\xed\xa0\x80"}',
                      b'{"type":"place_bet","id":"u2","amount_cents":\xc3}'):
            await client.ws.send(frame, text=True)  # a real text frame whose payload is not UTF-8
            error = await client.recv()
            assert (error["type"], error["code"], error["id"]) == ("error", "MALFORMED_JSON", None), error
            assert "UTF-8" in error["message"]
            await _usable(client)
        assert await tables.repo.load(table_id) == before  # still seated, nothing changed
        assert not [r for r in caplog.records if r.exc_info or r.levelname in ("ERROR", "CRITICAL")]


async def test_paigow_serve_answers_invalid_utf8_too(tmp_path: Any, redis_url: str, redis: Any) -> None:
    """The production server (``paigow serve``) runs the same WebSocket protocol as the tests."""
    process = ServerProcess(data_dir=tmp_path / "serve", redis_url=redis_url,
                            operator_token="operator-token-utf8-0123", starter_tables=1)
    await asyncio.to_thread(process.start)
    try:
        async with websockets.connect(f"{process.ws_url}/ws/tables/t1") as raw:
            await raw.send(json.dumps({"type": "hello", "protocol": 2}))
            assert json.loads(await raw.recv())["type"] == "snapshot"
            await raw.send(b'{"type":"ping","id":"u"\xff}', text=True)
            assert json.loads(await raw.recv())["code"] == "MALFORMED_JSON"
            await raw.send(json.dumps({"type": "ping", "id": "after"}))
            assert json.loads(await raw.recv()) == {"type": "pong", "id": "after"}
    finally:
        process.kill()
    assert "Traceback" not in process.output()


async def test_the_servers_own_host_with_another_scheme_is_refused(tables: Any, connect: Any,
                                                                  live_server: Any) -> None:
    table_id = await tables.table(timers=CALM)
    https_origin = live_server.url.replace("http://", "https://")  # the server speaks ws://, so http://
    with pytest.raises(InvalidStatus) as info:
        async with connect(table_id, origin=https_origin):
            pass
    assert info.value.response.status_code == 403
