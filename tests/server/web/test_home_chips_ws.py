"""A home game's own chips over a real WebSocket (docs/protocol.md, "A home game's own chips"): a buy-in
request the host approves (with an edited amount), a rebuy, a correction and the chip setting, each event as
every viewer gets it (``chip_lines_stamped`` too); a denial, and ``auto_approve`` turned on seating whoever
waits; a non-host's ``host_buy_in`` refused ``NOT_HOST`` and audited; a spectator's ``rebuy``
``SPECTATOR_CANNOT_ACT``; the host's budget counting ``host_buy_in``; ``NOT_PRIVATE`` at a public table."""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from paigow.protocol.version import PROTOCOL_VERSION
from paigow_server.process.settings import Settings
from paigow_server.web.client_address import address_network
from support.homes import Homes, home_settings

OPERATOR = {"Authorization": "Bearer test-operator-token-0123456789"}
LOOPBACK = address_network("127.0.0.1", ipv4_prefix=24, ipv6_prefix=64)
CHIPS = {"default_buy_in_cents": 10_000, "min_buy_in_cents": 2_000, "max_buy_in_cents": 50_000}


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


async def hello(client: Any, token: str | None = None, **fields: Any) -> dict[str, Any]:
    message: dict[str, Any] = {"type": "hello", "protocol": PROTOCOL_VERSION, **fields}
    if token is not None:
        message["token"] = token
    await client.send(message)
    answer = await client.recv()
    assert answer["type"] == "snapshot", answer
    return answer


@dataclasses.dataclass
class Game:
    table_id: str
    code: str
    ann_id: str
    maya_id: str
    theo_id: str
    ann: Any
    maya: Any
    theo: Any


@contextlib.asynccontextmanager
async def friday_game(homes: Homes, connect: Any) -> AsyncIterator[Game]:
    """Ann's "Friday game" with its own chips ($20.00 to $500.00), paused so that no round starts, and Maya
    and Theo who came by the link: each connected."""
    accounts = [await homes.account(name) for name in (None, None, None)]
    body = await homes.table(accounts[0][1], chips=CHIPS)
    table_id, code = body["table_id"], body["invite"]["code"]
    async with contextlib.AsyncExitStack() as stack:
        clients = [await stack.enter_async_context(connect(table_id, player_id=pid)) for pid, _ in accounts]
        snapshot = await hello(clients[0], accounts[0][1])
        assert snapshot["view"]["home"]["chips"]["min_buy_in_cents"] == 2_000
        for client, (_, token) in zip(clients[1:], accounts[1:], strict=True):
            await hello(client, token, invite=code)
        assert (await clients[0].command({"type": "host_pause"}))["type"] == "accepted"
        yield Game(table_id, code, accounts[0][0], accounts[1][0], accounts[2][0], *clients)


async def logged(homes: Homes, table_id: str) -> list[dict[str, Any]]:
    """The audit's entries of host messages at the table, oldest first (not the creation's)."""
    page = await homes.client.get("/api/operator/audit?limit=1000", headers=OPERATOR)
    entries = [e for e in page.json()["entries"] if e["table_id"] == table_id
               and e["action"].startswith("host_") and e["action"] != "host_create_table"]
    return sorted(entries, key=lambda e: tuple(int(part) for part in e["id"].split("-")))


def kinds(events: list[dict[str, Any]]) -> list[str]:
    return [e["kind"] for e in events]


async def test_a_buy_in_the_host_approves_with_an_edited_amount_then_a_rebuy_and_a_correction(
        homes: Homes, connect: Any) -> None:
    async with friday_game(homes, connect) as game:
        asked = await game.maya.command({"type": "sit", "seat": 3, "buy_in_cents": 10_000})
        assert asked["type"] == "accepted", asked
        requested = await game.ann.until_event(lambda e: e["kind"] == "buy_in_requested")
        assert requested == {"kind": "buy_in_requested", "request_id": requested["request_id"],
                             "player_id": game.maya_id, "name": requested["name"], "amount_cents": 10_000,
                             "rebuy": False, "position": 3}
        request_id = requested["request_id"]
        view = await game.maya.until_view(lambda v: v["home"]["chips"]["requests"] != [])
        waiting = view["home"]["chips"]["requests"]
        assert [(r["request_id"], r["position"]) for r in waiting] == [(request_id, 3)]
        assert view["you"] is None  # not seated until the host approves
        held = await game.theo.command({"type": "sit", "seat": 3, "buy_in_cents": 10_000})
        assert held["code"] == "SEAT_RESERVED", held
        assert (await game.maya.command({"type": "sit", "seat": 4, "buy_in_cents": 10_000}))["code"] == \
            "ALREADY_DONE"
        answer = await game.ann.command({"type": "host_buy_in", "request_id": request_id, "approve": True,
                                         "amount_cents": 15_000})
        assert answer["type"] == "accepted", answer
        approved = await game.maya.until_event(lambda e: e["kind"] == "buy_in_approved")
        assert (approved["amount_cents"], approved["by_player_id"], approved["automatic"]) == (
            15_000, game.ann_id, False)
        sat = await game.maya.until_event(lambda e: e["kind"] == "player_sat")
        assert (sat["seat"], sat["buy_in_cents"]) == (3, 15_000)
        view = await game.maya.until_view(lambda v: v["you"] is not None)
        assert view["seats"][3]["chips_cents"] == 15_000
        assert view["home"]["chips"]["requests"] == []
        [line] = view["home"]["chips"]["lines"]
        assert (line["kind"], line["player_id"], line["amount_cents"], line["by_player_id"]) == (
            "buy_in", game.maya_id, 15_000, game.ann_id)
        stamped = await game.theo.until_event(lambda e: e["kind"] == "chip_lines_stamped")  # sent, as a stamp
        view = await game.theo.until_view(lambda v: v["home"]["chips"]["lines"][0]["at_ms"] is not None)
        assert view["home"]["chips"]["lines"][0]["at_ms"] == stamped["at_ms"]
        replayed = await game.ann.command({"type": "host_buy_in", "request_id": request_id, "approve": True})
        assert replayed["code"] == "NO_REQUEST", replayed

        assert (await game.maya.command({"type": "rebuy", "amount_cents": 5_000}))["type"] == "accepted"
        rebuy = await game.ann.until_event(lambda e: e["kind"] == "buy_in_requested" and e["rebuy"])
        assert rebuy["position"] is None
        answer = await game.ann.command({"type": "host_buy_in", "request_id": rebuy["request_id"],
                                         "approve": True})
        assert answer["type"] == "accepted", answer
        added = await game.maya.until_event(lambda e: e["kind"] == "chips_added")
        assert (added["request_id"], added["amount_cents"], added["position"]) == (
            rebuy["request_id"], 5_000, 3)
        await game.maya.until_view(lambda v: v["you"]["chips_cents"] == 20_000)

        fixed = await game.ann.command({"type": "host_chips", "player_id": game.maya_id,
                                        "amount_cents": -2_500, "reason": "  paid  for the pizza "})
        assert fixed["type"] == "accepted", fixed
        adjusted = await game.theo.until_event(lambda e: e["kind"] == "chips_adjusted")
        assert (adjusted["amount_cents"], adjusted["reason"], adjusted["by_player_id"]) == (
            -2_500, "paid for the pizza", game.ann_id)
        too_much = await game.ann.command({"type": "host_chips", "player_id": game.maya_id,
                                           "amount_cents": -100_000, "reason": "all of it"})
        assert too_much["code"] in ("INSUFFICIENT_CHIPS", "INVALID_VALUE"), too_much

        off = await game.ann.command({"type": "host_chip_settings", "rebuys": False})
        assert off["type"] == "accepted", off
        changed = await game.maya.until_event(lambda e: e["kind"] == "chip_settings_changed")
        assert (changed["rebuys"], changed["min_buy_in_cents"], changed["commission"]) == (
            False, 2_000, "none")
        assert (await game.maya.command({"type": "rebuy", "amount_cents": 5_000}))["code"] == "REBUYS_OFF"
        again = await game.ann.command({"type": "host_chip_settings", "rebuys": False})
        assert again["code"] == "ALREADY_DONE"
        view = await game.theo.until_view(lambda v: len(v["home"]["chips"]["lines"]) == 3)
        assert [line["kind"] for line in view["home"]["chips"]["lines"]] == ["buy_in", "rebuy", "take_back"]
    entries = await logged(homes, game.table_id)
    answered = [e for e in entries if e["action"] == "host_buy_in"]
    assert [(e["outcome"], e["actor"], e["params"]["request_id"]) for e in answered] == [
        ("ok", f"host:{game.ann_id}", request_id), ("NO_REQUEST", f"host:{game.ann_id}", request_id),
        ("ok", f"host:{game.ann_id}", rebuy["request_id"])]
    corrected = next(e for e in entries if e["action"] == "host_chips")
    assert (corrected["player_id"], corrected["params"]["amount_cents"], corrected["params"]["reason"]) == (
        game.maya_id, -2_500, "paid for the pizza")
    assert [e["outcome"] for e in entries if e["action"] == "host_chip_settings"] == ["ok", "ALREADY_DONE"]


async def test_a_denial_frees_the_seat_and_turning_auto_approve_on_seats_whoever_waits(
        homes: Homes, connect: Any) -> None:
    async with friday_game(homes, connect) as game:
        assert (await game.maya.command({"type": "sit", "seat": 4, "buy_in_cents": 60_000}))["code"] == \
            "INVALID_VALUE"  # over the game's $500.00
        assert (await game.maya.command({"type": "sit", "seat": 4, "buy_in_cents": 20_000}))["type"] == \
            "accepted"
        asked = await game.ann.until_event(lambda e: e["kind"] == "buy_in_requested")
        denied = await game.ann.command({"type": "host_buy_in", "request_id": asked["request_id"],
                                         "approve": False})
        assert denied["type"] == "accepted", denied
        told = await game.maya.until_event(lambda e: e["kind"] == "buy_in_denied")
        assert (told["request_id"], told["player_id"], told["by_player_id"]) == (
            asked["request_id"], game.maya_id, game.ann_id)
        await game.maya.until_view(lambda v: v["home"]["chips"]["requests"] == [])
        assert (await game.theo.command({"type": "sit", "seat": 4, "buy_in_cents": 5_000}))["type"] == \
            "accepted"  # the seat is free again: Theo asks for it
        theo_asked = await game.ann.until_event(lambda e: e["kind"] == "buy_in_requested"
                                                and e["player_id"] == game.theo_id)
        assert (await game.ann.command({"type": "host_chip_settings", "auto_approve": True}))["type"] == \
            "accepted"
        approved = await game.theo.until_event(lambda e: e["kind"] == "buy_in_approved")
        assert (approved["request_id"], approved["automatic"], approved["amount_cents"]) == (
            theo_asked["request_id"], True, 5_000)
        sat = await game.theo.until_event(lambda e: e["kind"] == "player_sat")
        assert (sat["player_id"], sat["seat"], sat["buy_in_cents"]) == (game.theo_id, 4, 5_000)
        [patch] = [f for f in game.theo.frames if f["type"] == "patch"  # one commit: setting, then seat
                   and "chip_settings_changed" in kinds(f["events"])]
        assert kinds(patch["events"])[:3] == ["chip_settings_changed", "buy_in_approved", "player_sat"]


async def test_a_non_hosts_host_buy_in_is_not_host_and_audited_and_nothing_changes(
        homes: Homes, connect: Any) -> None:
    async with friday_game(homes, connect) as game:
        assert (await game.maya.command({"type": "sit", "seat": 2, "buy_in_cents": 10_000}))["type"] == \
            "accepted"
        request = await game.theo.until_event(lambda e: e["kind"] == "buy_in_requested")
        approve = {"type": "host_buy_in", "request_id": request["request_id"], "approve": True}
        assert (await game.theo.command(approve))["code"] == "NOT_HOST"
        assert (await game.maya.command(approve))["code"] == "NOT_HOST"  # her own buy-in
        chips = {"type": "host_chips", "player_id": game.theo_id, "amount_cents": 10_000, "reason": "gift"}
        assert (await game.theo.command(chips))["code"] == "NOT_HOST"
        settings = {"type": "host_chip_settings", "auto_approve": True}
        assert (await game.theo.command(settings))["code"] == "NOT_HOST"
        await game.maya.drain()
        assert game.maya.view is not None
        waiting = game.maya.view["home"]["chips"]["requests"]
        assert [r["request_id"] for r in waiting] == [request["request_id"]]
        assert game.maya.view["home"]["chips"]["auto_approve"] is False
        assert game.maya.view["you"] is None
    entries = await logged(homes, game.table_id)
    refused = [(e["action"], e["outcome"], e["actor"]) for e in entries if e["outcome"] != "ok"]
    assert refused == [("host_buy_in", "NOT_HOST", f"player:{game.theo_id}"),
                       ("host_buy_in", "NOT_HOST", f"player:{game.maya_id}"),
                       ("host_chips", "NOT_HOST", f"player:{game.theo_id}"),
                       ("host_chip_settings", "NOT_HOST", f"player:{game.theo_id}")]
    first = next(e for e in entries if e["outcome"] == "NOT_HOST")
    assert (first["params"]["request_id"], first["params"]["approve"], first["params"]["host_player_id"]) == (
        request["request_id"], True, game.ann_id)


async def test_a_spectators_rebuy_is_spectator_cannot_act_and_its_host_buy_in_audited(
        homes: Homes, connect: Any) -> None:
    async with friday_game(homes, connect) as game, connect(game.table_id) as anonymous:
        snapshot = await hello(anonymous, None, invite=game.code)
        assert snapshot["role"] == "spectator"
        assert snapshot["view"]["home"]["chips"]["max_buy_in_cents"] == 50_000
        for message in ({"type": "rebuy", "amount_cents": 5_000},
                        {"type": "cancel_buy_in", "request_id": "b1"},
                        {"type": "host_buy_in", "request_id": "b1", "approve": False}):
            answer = await anonymous.command(message)
            assert answer["code"] == "SPECTATOR_CANNOT_ACT", (message, answer)
        bad = await game.ann.command({"type": "host_chips", "player_id": game.maya_id, "amount_cents": 500,
                                      "reason": "two\nlines"})
        assert bad["code"] == "INVALID_VALUE"
    entries = await logged(homes, game.table_id)
    assert [(e["action"], e["outcome"], e["actor"]) for e in entries if e["outcome"] != "ok"] == [
        ("host_buy_in", "SPECTATOR_CANNOT_ACT", f"spectator:{LOOPBACK}"),
        ("host_chips", "INVALID_VALUE", f"host:{game.ann_id}")]


@pytest.mark.parametrize("limits", [{"host_messages_per_minute": 4}], indirect=True)
async def test_the_hosts_budget_counts_host_buy_in(homes: Homes, connect: Any) -> None:
    async with friday_game(homes, connect) as game:  # host_pause: the first of Ann's four
        assert (await game.maya.command({"type": "sit", "seat": 5, "buy_in_cents": 10_000}))["type"] == \
            "accepted"
        request = await game.ann.until_event(lambda e: e["kind"] == "buy_in_requested")
        unknown = {"type": "host_buy_in", "request_id": "b999", "approve": False}
        codes = [(await game.ann.command(unknown))["code"] for _ in range(3)]
        assert codes == ["NO_REQUEST"] * 3
        late = await game.ann.command({"type": "host_buy_in", "request_id": request["request_id"],
                                       "approve": True})
        assert late["code"] == "RATE_LIMITED", late
        assert "over 4 host messages a minute" in late["message"]
        await game.maya.drain()
        assert game.maya.view is not None
        assert game.maya.view["you"] is None  # refused: not carried out
        assert len(game.maya.view["home"]["chips"]["requests"]) == 1
        assert (await game.maya.command({"type": "cancel_buy_in", "request_id": request["request_id"]}))[
            "type"] == "accepted"  # a player's command: no host budget
        cancelled = await game.ann.until_event(lambda e: e["kind"] == "buy_in_cancelled")
        assert (cancelled["request_id"], cancelled["reason"]) == (request["request_id"], "cancelled")
    outcomes = [(e["action"], e["outcome"]) for e in await logged(homes, game.table_id)]
    assert outcomes == [("host_pause", "ok"), *[("host_buy_in", "NO_REQUEST")] * 3,
                        ("host_buy_in", "RATE_LIMITED")]


async def test_at_a_public_table_chip_messages_are_not_private(tables: Any, connect: Any) -> None:
    table_id = await tables.table()
    player_id, token = await tables.player("Ann")
    async with connect(table_id, player_id=player_id) as ann:
        await ann.hello(token)
        assert (await ann.command({"type": "sit", "seat": 1, "buy_in_cents": 10_000}))["type"] == "accepted"
        for message in ({"type": "rebuy", "amount_cents": 5_000},
                        {"type": "cancel_buy_in", "request_id": "b1"},
                        {"type": "host_buy_in", "request_id": "b1", "approve": True},
                        {"type": "host_chips", "player_id": player_id, "amount_cents": 5, "reason": "x"},
                        {"type": "host_chip_settings", "rebuys": False}):
            answer = await ann.command(message)
            assert answer["code"] == "NOT_PRIVATE", (message, answer)
