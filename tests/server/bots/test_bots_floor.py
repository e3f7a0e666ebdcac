"""The floor view against a seeded bot run (``paigow bots``, every casino variant: Fortune, Queen's Dragon,
Dragon hands, co-banking, players banking): ``GET /api/operator/floor``'s handle, win and rounds equal the
sums over the rounds' records (the operator's export), its commission and side-bet figures the ledger's
entries of those kinds, and the house's win lies within its band (here ± 4 standard deviations: a run's
deals are not seeded, and at ± 2 one run in twenty would fail by chance alone)."""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import httpx
import pytest

from paigow_server.bots.player import Behaviour
from paigow_server.bots.run import BotsConfig, run_bots
from paigow_server.process.settings import Settings
from support.harness import LiveServer


@pytest.fixture
def settings(settings: Settings) -> Settings:
    """The bots make all their sessions from one address: more than the default limit a minute."""
    return dataclasses.replace(settings, sessions_per_minute=1_000)


async def _ledger(http: httpx.AsyncClient, headers: dict[str, str]) -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = []
    after: str | None = None
    while True:
        params = {"limit": "100", **({"after": after} if after else {})}
        page = (await http.get("/api/operator/ledger", params=params, headers=headers)).json()
        entries += page["entries"]
        after = page["next_after"]
        if not after:
            return entries


def _handle(record: dict[str, Any]) -> int:
    return sum((h["wager_cents"] if h["player_id"] is not None and not h["is_banker"] else 0)
               + h.get("bonus_cents", 0) + h.get("queens_dragon_cents", 0) for h in record["hands"])


async def test_the_floor_of_a_bots_run_is_the_sum_of_its_rounds(live_server: LiveServer) -> None:
    config = BotsConfig(url=live_server.url, operator_token=live_server.operator_token, tables=5,
                        players_per_table=3, spectators=0, rounds=6, seed=34, timeout_s=120, variants=True,
                        behaviour=Behaviour(bank_rate=0.7, drop_rate=0.0, bad_input_rate=0.0, bonus_rate=0.9))
    result = await run_bots(config)
    assert result.completed_tables == 5, result.summary()
    headers = {"Authorization": f"Bearer {live_server.operator_token}"}
    async with httpx.AsyncClient(base_url=live_server.url, timeout=30) as http:
        exported = (await http.get("/api/operator/history/export", headers=headers)).json()["rounds"]
        ledger = await _ledger(http, headers)
        floor = (await http.get("/api/operator/floor", params={"window": "hour"}, headers=headers)).json()
        one = (await http.get("/api/operator/floor", params={"window": "hour", "table": result.table_ids[0]},
                              headers=headers)).json()
    settled = [e["round"] for e in exported if e["status"] == "settled"]
    totals = floor["totals"]
    assert totals["rounds"] == len(settled) >= 30
    assert totals["voided"] == sum(1 for e in exported if e["status"] == "voided")
    assert totals["handle_cents"] == sum(_handle(r) for r in settled)
    assert totals["win_cents"] == sum(r["house_net_cents"] for r in settled)
    assert totals["player_banked_rounds"] == sum(1 for r in settled if r["banker_player_id"] is not None)
    assert totals["co_banked_rounds"] == sum(1 for r in settled if r.get("co_banked")) > 0

    def kind(*kinds: str) -> int:
        return sum(e["amount_cents"] for e in ledger if e["kind"] in kinds)

    assert totals["commission_cents"] == kind("commission") > 0
    fortune = sum(h.get("bonus_cents", 0) for r in settled for h in r["hands"])
    assert totals["fortune_handle_cents"] == fortune > 0
    assert totals["fortune_win_cents"] == kind("bonus_lost") - kind("bonus_won", "envy")
    assert totals["queens_dragon_handle_cents"] == sum(h.get("queens_dragon_cents", 0) for r in settled
                                                       for h in r["hands"]) > 0
    assert totals["queens_dragon_win_cents"] == kind("queens_dragon_lost") - kind("queens_dragon_won")
    assert sorted(t["table_id"] for t in floor["tables"]) == sorted(result.table_ids)
    mine = [e["round"] for e in exported if e["status"] == "settled" and e["table_id"] == result.table_ids[0]]
    assert one["totals"]["rounds"] == len(mine) > 0
    assert one["totals"]["handle_cents"] == sum(_handle(r) for r in mine)

    wins = [r["house_net_cents"] for r in settled]
    mean = sum(wins) / len(wins)
    spread = math.sqrt(len(wins) * (sum(w * w for w in wins) / len(wins) - mean * mean))
    assert totals["band_high_cents"] - totals["band_low_cents"] == pytest.approx(4 * spread, abs=2)
    theo = totals["theo_win_cents"]
    assert 0 < theo < 0.12 * totals["handle_cents"]  # between the game's 2.5% and the Queen's Dragon's 10%
    assert theo - 4 * spread <= totals["win_cents"] <= theo + 4 * spread
