"""Every ``BARRED`` answer says who barred the player, from the bar's actor: ``by`` (``"host"`` for a private
table's host's ``host_remove``, ``"operator"`` for an operator's kick with a bar) and a message that says the
same, the table and when the bar ends. Over the WebSocket: the hello refused, a barred player's ``sit``, the
close of a removed player's connection; over HTTP: ``POST /api/invites/resolve``'s 403. Any other error has
no ``by``: null on the wire, as ``until_ms``, and absent from an HTTP error body."""

from __future__ import annotations

import time
from types import SimpleNamespace
from typing import Any

import httpx
import pytest
from redis.asyncio import Redis

from paigow.protocol.version import PROTOCOL_VERSION
from paigow.table.state import KickedBy
from paigow_server.process.settings import Settings
from paigow_server.store.bars import Bar, Bars
from paigow_server.web.ws_home import close_removed
from support.homes import Homes, home_settings

OPERATOR = {"Authorization": "Bearer test-operator-token-0123456789"}
SIT = {"type": "sit", "seat": 2, "buy_in_cents": 10_000}
TABLE_NAME = "Friday game"


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return home_settings(settings)


@pytest.fixture
async def homes(live_server: Any) -> Any:
    async with httpx.AsyncClient(base_url=live_server.url) as client:
        yield Homes(client)


def utc(ms: int) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(ms / 1000))


def host_words(table: str, until_ms: int) -> str:
    return f"the host removed you from table {table!r} until {utc(until_ms)}"


def operator_words(table: str, until_ms: int) -> str:
    return f"the table's operator barred you from table {table!r} until {utc(until_ms)}"


SIT_TAIL = ": you may watch, or play at another table"


async def hello(client: Any, token: str, **fields: Any) -> dict[str, Any]:
    await client.send({"type": "hello", "protocol": PROTOCOL_VERSION, "token": token, **fields})
    return await client.recv()


async def refused_hello(connect: Any, table_id: str, player_id: str, token: str, code: str) -> dict[str, Any]:
    """A hello at ``table_id`` refused with an ``error`` of ``code``, then the close 4403: the error."""
    async with connect(table_id, player_id=player_id) as client:
        answer = await hello(client, token, invite=code)
        assert answer["type"] == "error", answer
        await client.ws.wait_closed()
        assert client.ws.close_code == 4403
        return answer


async def refused_later(homes: Homes, connect: Any, table_id: str, code: str, player: tuple[str, str],
                        by: str, until: int) -> None:
    """The barred player's next hello with the link, and their look-up of its code: refused, saying ``by``."""
    words = host_words if by == "host" else operator_words
    again = await refused_hello(connect, table_id, *player, code)
    assert (again["code"], again["by"], again["until_ms"]) == ("BARRED", by, until)
    assert again["message"] == words(table_id, until)
    resolved = await homes.resolve(code, player[1])
    assert resolved.status_code == 403
    assert resolved.json() == {"error": "BARRED", "message": words(TABLE_NAME, until), "until_ms": until,
                               "by": by}


async def a_private_table(homes: Homes) -> tuple[str, str, str, str]:
    """A host's private table: (host id, host token, table id, invite code)."""
    host_id, host = await homes.account()
    body = await homes.table(host, name=TABLE_NAME)
    return host_id, host, body["table_id"], body["invite"]["code"]


async def test_a_hosts_bar_says_the_host_at_the_close_the_hello_the_sit_and_the_lookup(
        homes: Homes, connect: Any, live_server: Any, redis: Redis) -> None:
    host_id, host_token, table_id, code = await a_private_table(homes)
    (bob_id, bob), (cat_id, cat) = await homes.account(), await homes.account()
    removals: list[tuple[str, str, int | None, KickedBy | None]] = []
    live_server.app.state.realtime.fanout.on_removed(lambda *args: removals.append(args))
    async with connect(table_id, player_id=host_id) as host, connect(table_id, player_id=bob_id) as guest, \
            connect(table_id, player_id=cat_id) as third:
        assert (await hello(host, host_token))["type"] == "snapshot"
        assert (await hello(guest, bob, invite=code))["type"] == "snapshot"
        assert (await hello(third, cat, invite=code))["type"] == "snapshot"
        assert (await guest.command(SIT))["type"] == "accepted"
        removed = await host.command({"type": "host_remove", "player_id": bob_id, "bar_minutes": 30})
        assert removed["type"] == "accepted", removed
        kicked = await guest.until_event(lambda e: e["kind"] in ("player_kicked", "player_leaving"))
        until = kicked["barred_until_ms"]
        # The removed player's connection: told who removed them, then closed.
        told = await guest.until(lambda f: f["type"] == "error")
        assert told == {"type": "error", "id": None, "code": "BARRED", "message": host_words(table_id, until),
                        "until_ms": until, "by": "host", "amount_cents": None, "limit_cents": None,
                        "retry_after_s": None, "max_chars": None}
        await guest.ws.wait_closed()
        assert guest.ws.close_code == 4403
        assert removals == [(table_id, bob_id, until, KickedBy.HOST)]  # the kick's `by`, through the fanout

        # A sit while a host's bar runs (host_remove writes the bar before the table removes the player).
        cat_until = int(time.time() * 1000) + 600_000
        await Bars(redis).put(Bar(table_id, cat_id, cat_until, cat_until - 600_000, f"host:{host_id}",
                                  "removed by the host"))
        refused = await third.command({"type": "sit", "seat": 3, "buy_in_cents": 10_000})
        assert (refused["code"], refused["by"], refused["until_ms"]) == ("BARRED", "host", cat_until)
        assert refused["message"] == host_words(table_id, cat_until) + SIT_TAIL

    await refused_later(homes, connect, table_id, code, (bob_id, bob), "host", until)


async def test_an_operators_bar_says_the_operator_at_the_sit_the_hello_and_the_lookup(
        homes: Homes, connect: Any) -> None:
    """At a private table too: an operator's kick there is no host's removal (the page said "the host")."""
    host_id, host_token, table_id, code = await a_private_table(homes)
    bob_id, bob = await homes.account()
    async with connect(table_id, player_id=host_id) as host, connect(table_id, player_id=bob_id) as guest:
        assert (await hello(host, host_token))["type"] == "snapshot"
        assert (await hello(guest, bob, invite=code))["type"] == "snapshot"
        assert (await guest.command(SIT))["type"] == "accepted"
        kick = await homes.client.post(f"/api/operator/tables/{table_id}/kick", headers=OPERATOR, json={
            "player_id": bob_id, "reason": "abusive chat", "bar_minutes": 30})
        assert kick.status_code == 200, kick.text
        until = kick.json()["barred_until_ms"]
        kicked = await guest.until_event(lambda e: e["kind"] == "player_kicked")
        assert kicked["by"] == "operator"
        refused = await guest.command(SIT)  # the operator's kick leaves the connection open: it may watch
        assert (refused["code"], refused["by"], refused["until_ms"]) == ("BARRED", "operator", until)
        assert refused["message"] == operator_words(table_id, until) + SIT_TAIL

    await refused_later(homes, connect, table_id, code, (bob_id, bob), "operator", until)


async def test_any_other_error_says_no_by(homes: Homes, connect: Any) -> None:
    host_id, host_token, table_id, _ = await a_private_table(homes)
    bob_id, bob = await homes.account()
    no_access = await refused_hello(connect, table_id, bob_id, bob, "x" * 32)
    assert (no_access["code"], no_access["until_ms"], no_access["by"]) == ("NO_ACCESS", None, None)
    async with connect(table_id, player_id=host_id) as host:
        assert (await hello(host, host_token))["type"] == "snapshot"
        assert (await host.command(SIT))["type"] == "accepted"
        taken = await host.command({"type": "sit", "seat": 3, "buy_in_cents": 10_000})
        assert taken["type"] == "error"
        assert (taken["until_ms"], taken["by"]) == (None, None), taken
    unknown = await homes.resolve("Q" * 32, bob)
    assert unknown.status_code == 404
    assert unknown.json()["error"] == "INVITE_NOT_FOUND"
    assert "by" not in unknown.json()
    assert "until_ms" not in unknown.json()


class Removable:
    """A table connection as ``close_removed`` sees it: what it was told."""

    def __init__(self, table_id: str, player_id: str) -> None:
        self.table_id = table_id
        self.identity = SimpleNamespace(player_id=player_id)
        self.told: list[tuple[int | None, KickedBy]] = []

    def close_removed(self, until_ms: int | None, by: KickedBy) -> None:
        self.told.append((until_ms, by))


def test_a_removed_players_connections_are_told_who_removed_them() -> None:
    """The kick's ``by`` reaches the removed player's connections; an event stored before it was told says
    none: the host, whose ``host_remove`` alone ends an admission."""
    mine, other_table, other_player = Removable("h_t", "p_bob"), Removable("h_u", "p_bob"), \
        Removable("h_t", "p_x")
    conns = [mine, other_table, other_player]
    close_removed(conns, "h_t", "p_bob", 5_000, KickedBy.OPERATOR)
    close_removed(conns, "h_t", "p_bob", 6_000, None)
    assert mine.told == [(5_000, KickedBy.OPERATOR), (6_000, KickedBy.HOST)]
    assert other_table.told == other_player.told == []
