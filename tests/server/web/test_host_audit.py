"""Every host message at a private table is audited, carried out or refused, whatever the refusal (a
spectator's, one that does not parse, one over the message rate, the table's own), each entry naming who
sent it and who the host was, apart; and one sender writes at most ``host_messages_per_minute`` + 1 entries
a minute, however many messages and connections it has (docs/home-games.md, "The audit of host messages")."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from paigow.protocol.version import PROTOCOL_VERSION
from paigow_server.process.settings import Settings
from paigow_server.web.client_address import address_network
from support.homes import Homes, home_settings

OPERATOR_TOKEN = "test-operator-token-0123456789"
OPERATOR = {"Authorization": f"Bearer {OPERATOR_TOKEN}"}
LOOPBACK = address_network("127.0.0.1", ipv4_prefix=24, ipv6_prefix=64)


@pytest.fixture
def limits(request: pytest.FixtureRequest) -> dict[str, int]:
    """Settings a test changes (``indirect`` parametrization)."""
    return dict(getattr(request, "param", {}))


@pytest.fixture
def settings(settings: Settings, limits: dict[str, int]) -> Settings:
    return home_settings(settings, **limits)


@pytest.fixture
async def homes(live_server: Any) -> AsyncIterator[Homes]:
    async with httpx.AsyncClient(base_url=live_server.url) as client:
        yield Homes(client)


@dataclasses.dataclass
class Home:
    table_id: str
    code: str
    host_id: str
    host_token: str
    host_name: str
    guest_id: str
    guest_token: str
    guest_name: str


async def a_home(homes: Homes) -> Home:
    """Ann's private table, and Bob, a player it admitted (not its host)."""
    ann_id, ann = await homes.account()
    body = await homes.table(ann)
    bob_id, bob = await homes.account()
    resolved = await homes.resolve(body["invite"]["code"], bob)
    assert resolved.status_code == 200
    me = await homes.client.get("/api/session", headers={"Authorization": f"Bearer {bob}"})
    return Home(body["table_id"], body["invite"]["code"], ann_id, ann, body["table"]["host_name"], bob_id,
                bob, me.json()["display_name"])


async def hello(client: Any, token: str | None = None, **fields: Any) -> dict[str, Any]:
    message: dict[str, Any] = {"type": "hello", "protocol": PROTOCOL_VERSION, **fields}
    if token is not None:
        message["token"] = token
    await client.send(message)
    answer = await client.recv()
    assert answer["type"] == "snapshot", answer
    return answer


async def logged(homes: Homes, table_id: str) -> list[dict[str, Any]]:
    """The audit's entries of host messages at the table, oldest first (not the creation's)."""
    page = await homes.client.get("/api/operator/audit?limit=1000", headers=OPERATOR)
    return [e for e in page.json()["entries"] if e["table_id"] == table_id and e["action"].startswith("host_")
            and e["action"] != "host_create_table"]


def host_params(home: Home, sender_name: str | None, **fields: Any) -> dict[str, Any]:
    return {**fields, "sender_name": sender_name, "host_player_id": home.host_id, "host_name": home.host_name}


async def test_a_spectators_host_message_is_audited(homes: Homes, connect: Any) -> None:
    home = await a_home(homes)
    async with connect(home.table_id) as anonymous:
        await hello(anonymous, None, invite=home.code)
        assert (await anonymous.command({"type": "host_pause"}))["code"] == "SPECTATOR_CANNOT_ACT"
    async with connect(home.table_id) as watching:  # Bob, watching with his token
        await hello(watching, home.guest_token, spectate=True)
        answer = await watching.command({"type": "host_remove", "player_id": home.host_id, "bar_minutes": 5})
        assert answer["code"] == "SPECTATOR_CANNOT_ACT"
    async with connect(home.table_id) as host_watching:  # the host herself, watching
        await hello(host_watching, home.host_token, spectate=True)
        assert (await host_watching.command({"type": "host_close"}))["code"] == "SPECTATOR_CANNOT_ACT"
    async with connect(home.table_id) as operator:
        await hello(operator, None, operator_token=OPERATOR_TOKEN)
        assert (await operator.command({"type": "host_resume"}))["code"] == "SPECTATOR_CANNOT_ACT"
    entries = await logged(homes, home.table_id)
    assert [(e["action"], e["outcome"], e["actor"], e["player_id"], e["params"]) for e in entries] == [
        ("host_pause", "SPECTATOR_CANNOT_ACT", f"spectator:{LOOPBACK}", None, host_params(home, None)),
        ("host_remove", "SPECTATOR_CANNOT_ACT", f"player:{home.guest_id}", home.host_id,
         host_params(home, home.guest_name, player_id=home.host_id, bar_minutes=5)),
        ("host_close", "SPECTATOR_CANNOT_ACT", f"host:{home.host_id}", None,
         host_params(home, home.host_name)),
        ("host_resume", "SPECTATOR_CANNOT_ACT", "bootstrap", None, host_params(home, None)),
    ]
    assert all(e["detail"].startswith("this connection only watches") for e in entries)


async def test_an_empty_host_timers_or_settings_and_a_frame_that_does_not_parse_are_audited(
        homes: Homes, connect: Any) -> None:
    home = await a_home(homes)
    async with connect(home.table_id, player_id=home.host_id) as host, \
            connect(home.table_id, player_id=home.guest_id) as guest:
        await hello(host, home.host_token)
        await hello(guest, home.guest_token)
        assert (await host.command({"type": "host_timers"}))["code"] == "INVALID_VALUE"
        assert (await host.command({"type": "host_settings"}))["code"] == "INVALID_VALUE"
        wrong = {"type": "host_mute", "player_id": home.host_id, "muted": 1}
        assert (await guest.command(wrong))["code"] == "WRONG_TYPE"
        assert (await guest.command({"type": "host_pause", "now": True}))["code"] == "UNKNOWN_FIELD"
        assert (await guest.command({"type": "chat", "text": ""}))["type"] == "error"  # no host message
    entries = await logged(homes, home.table_id)
    assert [(e["action"], e["outcome"], e["actor"], e["player_id"], e["params"]) for e in entries] == [
        ("host_timers", "INVALID_VALUE", f"host:{home.host_id}", None, host_params(home, home.host_name)),
        ("host_settings", "INVALID_VALUE", f"host:{home.host_id}", None, host_params(home, home.host_name)),
        ("host_mute", "WRONG_TYPE", f"player:{home.guest_id}", None, host_params(home, home.guest_name)),
        ("host_pause", "UNKNOWN_FIELD", f"player:{home.guest_id}", None, host_params(home, home.guest_name)),
    ]
    assert "at least one" in entries[0]["detail"]
    assert "seating" in entries[1]["detail"]
    assert "muted" in entries[2]["detail"]


async def test_a_not_host_entry_names_the_sender_and_the_host_apart(homes: Homes, connect: Any) -> None:
    home = await a_home(homes)
    async with connect(home.table_id, player_id=home.host_id) as host, \
            connect(home.table_id, player_id=home.guest_id) as guest:
        await hello(host, home.host_token)
        await hello(guest, home.guest_token)
        mute = {"type": "host_mute", "player_id": home.host_id, "muted": True}
        assert (await guest.command(mute))["code"] == "NOT_HOST"
        assert (await guest.command({"type": "host_pause"}))["code"] == "NOT_HOST"
        paused = await host.command({"type": "host_pause"})
        assert paused["type"] == "accepted"
    entries = await logged(homes, home.table_id)
    assert [(e["action"], e["outcome"], e["actor"], e["player_id"], e["params"]) for e in entries] == [
        ("host_mute", "NOT_HOST", f"player:{home.guest_id}", home.host_id,
         host_params(home, home.guest_name, player_id=home.host_id, muted=True)),
        ("host_pause", "NOT_HOST", f"player:{home.guest_id}", None, host_params(home, home.guest_name)),
        ("host_pause", "ok", f"host:{home.host_id}", None, host_params(home, home.host_name)),
    ]
    assert entries[1]["player_name"] is None  # the entry's player is the one the message names: none here
    assert entries[0]["player_name"] == home.host_name
    assert f"(the host is {home.host_name})" in entries[1]["detail"]
    assert entries[2]["detail"] == f"version {paused['version']}"


@pytest.mark.parametrize("limits", [{"messages_per_second": 1}], indirect=True)
async def test_a_host_message_over_the_message_rate_is_audited(homes: Homes, connect: Any) -> None:
    home = await a_home(homes)
    async with connect(home.table_id, player_id=home.guest_id) as guest:
        await hello(guest, home.guest_token)  # the second's one message: the next is over the rate
        answer = await guest.command({"type": "host_pause"})
        assert (answer["code"], answer["message"]) == ("RATE_LIMITED",
                                                       "over 1 messages per second: dropped, send it again")
    [entry] = await logged(homes, home.table_id)
    assert (entry["action"], entry["outcome"], entry["actor"], entry["params"], entry["detail"]) == (
        "host_pause", "RATE_LIMITED", f"player:{home.guest_id}", host_params(home, home.guest_name),
        answer["message"])


@pytest.mark.parametrize("limits", [{"host_messages_per_minute": 4}], indirect=True)
async def test_one_sender_writes_at_most_its_budget_and_one_note_a_minute(homes: Homes, connect: Any) -> None:
    home = await a_home(homes)
    async with connect(home.table_id, player_id=home.guest_id) as guest, \
            connect(home.table_id, player_id=home.guest_id) as again, \
            connect(home.table_id) as anonymous, connect(home.table_id, player_id=home.host_id) as host:
        await hello(guest, home.guest_token)
        await hello(again, home.guest_token)
        await hello(anonymous, None, invite=home.code)
        await hello(host, home.host_token)
        codes = [(await guest.command({"type": "host_pause"}))["code"] for _ in range(6)]
        codes += [(await again.command({"type": "host_timers"}))["code"] for _ in range(2)]  # one budget
        assert codes == ["NOT_HOST"] * 4 + ["RATE_LIMITED"] * 4
        watched = [(await anonymous.command({"type": "host_close"}))["code"] for _ in range(6)]
        assert watched == ["SPECTATOR_CANNOT_ACT"] * 4 + ["RATE_LIMITED"] * 2
        for kind in ("host_pause", "host_resume", "host_pause", "host_resume"):
            assert (await host.command({"type": kind}))["type"] == "accepted"
        refused = await host.command({"type": "host_pause"})  # the host's own budget: refused, not done
        assert refused["code"] == "RATE_LIMITED"
        assert "over 4 host messages a minute" in refused["message"]
        await host.drain()
        assert host.view is not None
        assert host.view["paused"] is False
    entries = await logged(homes, home.table_id)
    by_actor: dict[str, list[str]] = {}
    for entry in entries:
        by_actor.setdefault(entry["actor"], []).append(entry["outcome"])
    assert by_actor == {f"player:{home.guest_id}": ["NOT_HOST"] * 4 + ["RATE_LIMITED"],
                        f"spectator:{LOOPBACK}": ["SPECTATOR_CANNOT_ACT"] * 4 + ["RATE_LIMITED"],
                        f"host:{home.host_id}": ["ok"] * 4 + ["RATE_LIMITED"]}
    note = next(e for e in entries if e["outcome"] == "RATE_LIMITED")
    assert note["detail"].endswith("(the sender's further host messages refused so are not audited before a "
                                   "minute has passed)")
