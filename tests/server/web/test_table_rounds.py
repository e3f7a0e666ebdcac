"""``GET /api/tables/{id}/rounds``: a table's last settled rounds, newest first, the very records its
``round_settled`` events carried (every live hand and the revealed seed; never a dead hand or a discard);
a voided round is not listed. The views hold no round records, so a fresh spectator's snapshot stays small
however many rounds the table settled."""

from __future__ import annotations

import json
import re
from dataclasses import fields
from pathlib import Path
from typing import Any

import httpx
import pytest

from paigow import fair
from paigow.protocol.server import decode_server_message
from paigow.protocol.version import PROTOCOL_VERSION
from paigow.table.commands import PlaceBet, Sit, VoidRound
from paigow.table.records import HandRecord, RoundRecord
from paigow.table.state import Phase, Timers
from paigow_server.realtime.realtime import Realtime
from support.harness import AppHandle, play_house_round, wait_for_phase

TIMERS = Timers(bank_offer_ms=10_000, betting_ms=30_000, setting_ms=30_000, between_rounds_ms=20,
                reconnect_grace_ms=30_000)
"""Nothing times out while the test plays (bank offers declined, bets and hands set through the service)."""
SNAPSHOT_BOUND = 8_000
"""Bytes: a fresh spectator's snapshot at a table with ten settled rounds (29.5 kB with the records in the
view)."""
HTTP_API = Path(__file__).parents[3] / "docs" / "http-api.md"


def _settled(client: Any) -> list[dict[str, Any]]:
    return [e["record"] for e in client.events if e["kind"] == "round_settled"]


def _check_public(record: dict[str, Any], seated: set[int]) -> None:
    """The record holds the live hands as the seed dealt them (the house dealer's and each player's in the
    round), no dead hand and no discard, and the seed matches the round's commitment."""
    seed = bytes.fromhex(record["server_seed"])
    assert fair.new_commitment(seed) == record["commitment"]
    deal = fair.deal(seed, record["round_id"], record["banker_position"])
    assert {h["position"] for h in record["hands"]} == {0} | seated
    for hand in record["hands"]:
        assert hand["dealt"] == [str(c) for c in deal.hands[hand["position"]]]
    text = json.dumps(record)
    unseen = [*deal.discards, *(c for p in range(7) if p not in {0} | seated for c in deal.hands[p])]
    assert not [str(c) for c in unseen if f'"{c}"' in text]


async def _fresh_frame(connect: Any, table_id: str) -> str:
    """The raw text of the first frame a new spectator receives."""
    async with connect(table_id) as spectator:
        await spectator.send({"type": "hello", "protocol": PROTOCOL_VERSION})
        text: str = await spectator.ws.recv()
    decode_server_message(text)
    return text


async def test_the_last_rounds_are_the_records_the_events_carried_newest_first(tables: Any,
                                                                                connect: Any) -> None:
    table_id = await tables.table(timers=TIMERS)
    rt = tables.live.app.state.realtime
    assert isinstance(rt, Realtime)
    players = [(await tables.player(name))[0] for name in ("Ann", "Bob")]
    for seat, player_id in enumerate(players, start=1):
        await rt.service.execute(table_id, Sit(player_id, f"P{seat}", seat, 50_000))
    bets = {player_id: 1_000 for player_id in players}
    async with connect(table_id) as spectator:  # every frame checked: no card or seed it may not see
        assert (await spectator.hello())["type"] == "snapshot"
        for n in range(12):
            if n == 5:  # a round voided once its bets are in: no round result
                await wait_for_phase(rt, table_id, Phase.BETTING)
                await rt.service.execute(table_id, PlaceBet(players[0], 1_000))
                await rt.service.execute(table_id, VoidRound())
            await play_house_round(rt, table_id, bets)
        while len(_settled(spectator)) < 12:
            await spectator.recv(5)
        voided = [e for e in spectator.events if e["kind"] == "round_voided"]
        pushed = _settled(spectator)
    assert len(voided) == 1
    newest_first = pushed[::-1]
    async with httpx.AsyncClient(base_url=tables.live.url) as http:
        default = await http.get(f"/api/tables/{table_id}/rounds")
        assert default.status_code == 200
        assert default.json() == {"table_id": table_id, "rounds": newest_first[:10]}
        three = (await http.get(f"/api/tables/{table_id}/rounds", params={"limit": "3"})).json()
        assert three["rounds"] == newest_first[:3]
        every = (await http.get(f"/api/tables/{table_id}/rounds", params={"limit": "100"})).json()
        assert every["rounds"] == newest_first
    numbers = [r["number"] for r in every["rounds"]]
    assert numbers == sorted(numbers, reverse=True)
    assert voided[0]["round_id"] not in {r["round_id"] for r in every["rounds"]}
    for record in every["rounds"]:
        _check_public(record, {1, 2})

    snapshot = await _fresh_frame(connect, table_id)
    assert json.loads(snapshot)["type"] == "snapshot"
    assert len(snapshot.encode()) < SNAPSHOT_BOUND, len(snapshot.encode())
    assert "server_seed" not in snapshot  # no settled round (nor the round in progress's seed) in a view


async def _open(handle: AppHandle) -> str:
    response = await handle.client.post("/api/operator/tables", headers=handle.operator_headers,
                                        json={"name": "Main"})
    return str(response.json()["table_id"])


async def test_a_table_without_settled_rounds_has_none_and_an_unknown_one_is_not_found(
        app_client: AppHandle) -> None:
    table_id = await _open(app_client)
    response = await app_client.client.get(f"/api/tables/{table_id}/rounds")
    assert response.status_code == 200
    assert response.json() == {"table_id": table_id, "rounds": []}
    missing = await app_client.client.get("/api/tables/t404/rounds")
    assert missing.status_code == 404
    assert missing.json()["error"] == "TABLE_NOT_FOUND"


@pytest.mark.parametrize("limit", ["0", "101", "", "-1", "+5", "1.5", "ten", " 5", "1e2", "１０", "٣", "²",
                                   "99999999999999999999"])
async def test_a_limit_that_is_not_1_to_100_in_ascii_digits_is_refused(app_client: AppHandle,
                                                                        limit: str) -> None:
    table_id = await _open(app_client)
    for table in (table_id, "t404"):  # refused whatever the table
        response = await app_client.client.get(f"/api/tables/{table}/rounds", params={"limit": limit})
        assert response.status_code == 400, (limit, response.text)
        assert response.json()["error"] == "INVALID_FIELD"


@pytest.mark.parametrize("limit", ["1", "100", "010"])
async def test_a_limit_from_1_to_100_is_taken(app_client: AppHandle, limit: str) -> None:
    table_id = await _open(app_client)
    response = await app_client.client.get(f"/api/tables/{table_id}/rounds", params={"limit": limit})
    assert response.status_code == 200, response.text


def test_the_http_api_doc_names_every_field_of_a_record() -> None:
    """Outside testers write clients from docs/http-api.md: it lists every field of the records."""
    text = HTTP_API.read_text()
    start = text.index("`GET /api/tables/{id}/rounds")
    paragraph = text[start:text.index("\n\n", start)]
    named = set(re.findall(r"`([a-z_]+)`", paragraph))
    assert {f.name for f in fields(RoundRecord)} | {f.name for f in fields(HandRecord)} <= named
