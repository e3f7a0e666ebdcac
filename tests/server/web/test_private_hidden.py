"""A private table answers a caller without access exactly as an unknown id, at every endpoint that takes a
table or a round id, before its first round, during it and after it settled: a stranger, a player the host
removed, a caller without a token or with a dead one learn nothing, not even how many rounds it played
(docs/home-games.md, "Who sees a private table"; docs/http-api.md)."""

from __future__ import annotations

import contextlib
import dataclasses
import json
import secrets
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from paigow.protocol.version import PROTOCOL_VERSION
from paigow.table.commands import PlaceBet, Sit, UseHouseWay
from paigow.table.state import Phase
from paigow_server.process.settings import Settings
from support.harness import wait_for_phase
from support.homes import Homes, auth, home_settings

SLOW = {"bank_offer_ms": 10_000, "betting_ms": 30_000, "setting_ms": 30_000, "between_rounds_ms": 600_000}
ENDPOINTS = {
    "table": ("GET", "/api/tables/{id}"),
    "rounds": ("GET", "/api/tables/{id}/rounds"),
    "round analysis": ("GET", "/api/tables/{id}/rounds/{id}-{round}/analysis"),
    "chat": ("GET", "/api/tables/{id}/chat"),
    "home table": ("GET", "/api/home/tables/{id}"),
    "new invite": ("POST", "/api/home/tables/{id}/invite"),
    "ledger download": ("GET", "/api/home/tables/{id}/ledger?format=csv"),
    "hand log download": ("GET", "/api/home/tables/{id}/hands"),
    "hello": ("WS", "player"),
    "hello spectating": ("WS", "spectate"),
}
CALLERS = ("stranger", "removed", "barred by an operator", "no token", "dead token")
OPERATOR = {"Authorization": "Bearer test-operator-token-0123456789"}


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return home_settings(settings)


@dataclasses.dataclass
class Scene:
    homes: Homes
    connect: Any
    table_id: str
    unknown_id: str
    tokens: dict[str, str | None]
    barred: dict[str, tuple[int, str]]
    """The barred callers' bars: (until_ms, by)."""
    players: tuple[str, str]
    """Ann, the host, and Dan: who play the round."""
    round_number: int = 1
    """The round the analysis is asked of: the next to be dealt, then the one dealt."""


async def _answer(scene: Scene, endpoint: str, table_id: str, caller: str) -> str:
    """The whole answer to ``caller`` (status and body, or the hello's error and close code), with the
    table id written ``<id>``."""
    kind, what = ENDPOINTS[endpoint]
    token = scene.tokens[caller]
    if kind == "WS":
        async with scene.connect(table_id) as client:
            hello: dict[str, Any] = {"type": "hello", "protocol": PROTOCOL_VERSION,
                                     "spectate": what == "spectate"}
            if token is not None:
                hello["token"] = token
            await client.send(hello)
            frame = await client.recv()
            await client.ws.wait_closed()
            answer: Any = [frame, client.ws.close_code]
    else:
        path = what.replace("{id}", table_id).replace("{round}", str(scene.round_number))
        response = await scene.homes.client.request(kind, path,
                                                    headers=auth(token) if token else None)
        answer = [response.status_code, response.json(), response.headers.get("content-type")]
    return json.dumps(answer, sort_keys=True).replace(table_id, "<id>")


async def _same_as_unknown(scene: Scene, endpoint: str) -> None:
    for caller in CALLERS:
        private = await _answer(scene, endpoint, scene.table_id, caller)
        if ENDPOINTS[endpoint][0] == "WS" and caller in scene.barred:
            # The one answer that is not the unknown id's: a barred player's own token is told of the bar it
            # was told when it was removed (when it ends, who set it), which says nothing of the table's play.
            frame, close = json.loads(private)
            assert ((frame["code"], frame["until_ms"], frame["by"]), close) == (
                ("BARRED", *scene.barred[caller]), 4403), private
            continue
        unknown = await _answer(scene, endpoint, scene.unknown_id, caller)
        assert private == unknown, (endpoint, caller)
        assert "TABLE_NOT_FOUND" in private or "NO_ACCESS" in private or "UNAUTHORIZED" in private \
            or "UNKNOWN_SESSION" in private, private


@contextlib.asynccontextmanager
async def _scene(live_server: Any, connect: Any) -> AsyncIterator[Scene]:
    """Ann's private table with Dan (came by the link), Bob (removed by Ann: barred) and Eve (kicked with a
    bar by an operator: still admitted), and Carl, who was never invited."""
    async with httpx.AsyncClient(base_url=live_server.url) as client:
        homes = Homes(client)
        (ann_id, ann), (bob_id, bob), (dan_id, dan), (eve_id, eve), (_, carl) = [
            await homes.account() for _ in range(5)]
        body = await homes.table(ann, timers=SLOW, rules={"player_banking": False})
        table_id, code = body["table_id"], body["invite"]["code"]
        for token in (bob, dan, eve):
            assert (await homes.resolve(code, token)).status_code == 200
        rt = live_server.app.state.realtime
        await rt.service.execute(table_id, Sit(bob_id, "Bob", 2, 10_000))
        await rt.service.execute(table_id, Sit(eve_id, "Eve", 4, 10_000))
        kick = await client.post(f"/api/operator/tables/{table_id}/kick", headers=OPERATOR,
                                 json={"player_id": eve_id, "reason": "abuse", "bar_minutes": 30})
        assert kick.status_code == 200, kick.text
        async with connect(table_id, player_id=ann_id) as host:
            await host.send({"type": "hello", "protocol": PROTOCOL_VERSION, "token": ann})
            assert (await host.recv())["type"] == "snapshot"
            removed = await host.command({"type": "host_remove", "player_id": bob_id, "bar_minutes": 30})
            assert removed["type"] == "accepted", removed
            kicked = await host.until_event(lambda e: e["kind"] == "player_kicked")
        unknown_id = "h_" + secrets.token_urlsafe(12)
        yield Scene(homes, connect, table_id, unknown_id,
                    {"stranger": carl, "removed": bob, "barred by an operator": eve, "no token": None,
                     "dead token": "x" * 43, "host": ann},
                    {"removed": (kicked["barred_until_ms"], "host"),
                     "barred by an operator": (kick.json()["barred_until_ms"], "operator")}, (ann_id, dan_id))


@pytest.mark.parametrize("endpoint", list(ENDPOINTS))
async def test_a_caller_without_access_gets_the_unknown_ids_answer(live_server: Any, connect: Any,
                                                                  endpoint: str) -> None:
    async with _scene(live_server, connect) as scene:
        await _same_as_unknown(scene, endpoint)  # before any round
        rt = live_server.app.state.realtime
        players = scene.players
        for seat, player_id in zip((1, 3), players, strict=True):
            await rt.service.execute(scene.table_id, Sit(player_id, f"P{seat}", seat, 10_000))
        await wait_for_phase(rt, scene.table_id, Phase.BETTING)
        for player_id in players:
            await rt.service.execute(scene.table_id, PlaceBet(player_id, 1_000))
        dealt = await wait_for_phase(rt, scene.table_id, Phase.SETTING)
        assert dealt.round is not None
        scene.round_number = dealt.round.number
        await _same_as_unknown(scene, endpoint)  # round 1 in play
        for player_id in players:
            await rt.service.execute(scene.table_id, UseHouseWay(player_id))
        settled = await scene.homes.client.get(f"/api/tables/{scene.table_id}/rounds",
                                               headers=auth(str(scene.tokens["host"])))
        assert [r["round_id"] for r in settled.json()["rounds"]] == [f"{scene.table_id}-{scene.round_number}"]
        await _same_as_unknown(scene, endpoint)  # round 1 settled
