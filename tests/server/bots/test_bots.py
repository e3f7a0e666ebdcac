"""``paigow bots``: a small bounded run against a real server, and the command line's refusals."""

from __future__ import annotations

import dataclasses
import json

import pytest

from paigow_server.bots.player import Behaviour, TableProgress
from paigow_server.bots.run import BotsConfig, RunResult, _warmed_up, run_bots
from paigow_server.bots.stats import RunStats, percentile
from paigow_server.cli import main
from paigow_server.commands.bots import think_ms
from paigow_server.process.settings import Settings
from support.harness import LiveServer


async def test_a_small_bots_run_plays_every_round_and_the_money_adds_up(live_server: LiveServer) -> None:
    config = BotsConfig(url=live_server.url, operator_token=live_server.operator_token, tables=2,
                        players_per_table=3, spectators=1, rounds=2, seed=7, timeout_s=60,
                        behaviour=Behaviour(bank_rate=0.5, drop_rate=0.2, bad_input_rate=0.5))
    result = await run_bots(config)
    summary = result.summary()
    assert result.completed_tables == 2, summary
    assert result.stats.rounds >= 4
    assert result.stats.bonus_bets > 0, "the bots sometimes bet the Fortune bonus"
    assert summary["bonus_bets"] == result.stats.bonus_bets
    assert result.money_ok, result.money_message
    money = result.money
    assert money["issued_cents"] == (money["balances_cents"] + money["chips_at_tables_cents"]
                                     + money["house_net_cents"])
    assert result.players_delta_cents == -result.house_delta_cents, "every bot left: no chips at the tables"
    assert result.stats.hidden_card_leaks == 0
    assert result.stats.commands > 0
    assert result.stats.latency_summary()["count"] > 0
    assert result.stats.steady_since is not None, "every bot got its view and seat"
    assert 0 < result.stats.latency_summary(steady=True)["count"] <= result.stats.latency_summary()["count"]
    assert result.stats.bad_frames_sent > 0
    assert sum(result.stats.bad_input_errors.values()) > 0, "bad frames get error answers"
    assert set(result.stats.bad_input_errors) <= {"MALFORMED_JSON", "UNKNOWN_TYPE", "WRONG_TYPE",
                                                  "UNKNOWN_FIELD", "INVALID_VALUE"}
    json.dumps(summary)  # the --json output is plain JSON


async def test_bots_host_and_play_private_tables_with_buy_ins_and_rebuys(live_server: LiveServer) -> None:
    """Two home games with their own chips (the first with the players banking in turn): each bot asks for
    a buy-in of three minimum bets, the host approves (now and then another amount) or denies, bots low on
    chips ask for rebuys; at the end every game sums to zero and no casino balance moved."""
    config = BotsConfig(url=live_server.url, operator_token=live_server.operator_token, tables=2,
                        players_per_table=3, spectators=1, rounds=6, seed=11, timeout_s=90, private=True,
                        buy_in_cents=1_500,
                        behaviour=Behaviour(bank_rate=0.5, drop_rate=0.2, bad_input_rate=0.0))
    result = await run_bots(config)
    summary = result.summary()
    assert result.completed_tables == 2, summary
    assert all(table_id.startswith("h_") for table_id in result.table_ids)
    assert result.stats.rounds >= 12
    assert result.money_ok, result.money_message
    assert result.players_delta_cents == 0, summary
    assert result.stats.hidden_card_leaks == 0
    assert "NO_ACCESS" not in result.stats.errors
    chips = summary["home_chips"]
    assert chips.get("buy_ins_approved", 0) >= 6, chips
    assert chips.get("rebuys_approved", 0) >= 1, chips


@pytest.fixture
def settings(settings: Settings) -> Settings:
    """The bots make all their sessions from one address: more than the default limit a minute."""
    return dataclasses.replace(settings, sessions_per_minute=1_000)


async def test_a_bots_run_plays_every_casino_variant_and_the_money_adds_up(live_server: LiveServer) -> None:
    result = await _variants_run(live_server)
    summary = result.summary()
    assert result.completed_tables == 5, summary
    assert result.money_ok, result.money_message
    assert result.stats.hidden_card_leaks == 0
    variants = summary["variants"]
    assert variants["queens_dragon_bets"] > 0, variants
    assert variants["dragon_hands"] > 0, variants
    assert variants["co_banked_rounds"] > 0, variants
    json.dumps(summary)


async def _variants_run(live_server: LiveServer) -> RunResult:
    config = BotsConfig(url=live_server.url, operator_token=live_server.operator_token, tables=5,
                        players_per_table=3, spectators=1, rounds=4, seed=24, timeout_s=90, variants=True,
                        behaviour=Behaviour(bank_rate=0.9, drop_rate=0.0, bad_input_rate=0.0, bonus_rate=0.9))
    return await run_bots(config)


def test_percentiles_are_nearest_rank() -> None:
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 0.50) == 50.0
    assert percentile(values, 0.99) == 99.0
    assert percentile([3.0], 0.99) == 3.0


@pytest.mark.parametrize("args", [["--tables", "0"], ["--players-per-table", "7"], ["--bank-rate", "2"],
                                  ["--think-ms", "4000,1000"], ["--think-ms", "fast"], ["--think-ms", "1"]])
def test_the_command_refuses_bad_arguments(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["bots", *args])
    assert exit_info.value.code == 2
    assert "bots" in capsys.readouterr().err


def test_latencies_after_the_warm_up_count_only_commands_sent_after_it() -> None:
    stats = RunStats()
    stats.record_latency(sent_at=1.0, received_at=1.5)
    stats.steady_since = 2.0
    stats.record_latency(sent_at=1.9, received_at=2.3)  # sent during the warm-up
    stats.record_latency(sent_at=2.0, received_at=2.01)
    assert stats.latency_summary()["count"] == 3
    assert stats.latency_summary()["max"] == 500.0
    steady = stats.latency_summary(steady=True)
    assert steady["count"] == 1
    assert round(steady["p99"], 6) == 10.0


def test_think_ms_reads_a_range_of_milliseconds() -> None:
    assert think_ms("1000,4000") == (1000, 4000)
    assert think_ms("0,0") == (0, 0)


def test_the_warm_up_ends_when_every_bot_is_in_or_every_table_has_settled_a_round() -> None:
    class Bot:
        def __init__(self, settled_in: bool) -> None:
            self.settled_in = settled_in

    class Task:
        def __init__(self, done: bool) -> None:
            self._done = done

        def done(self) -> bool:
            return self._done

    table = TableProgress("t1", target_rounds=2)
    waiting = [Bot(True), Bot(False)]
    assert not _warmed_up(waiting, [Task(False), Task(False)], [table])  # type: ignore[arg-type]
    assert _warmed_up(waiting, [Task(False), Task(True)], [table])  # type: ignore[arg-type]
    # a bot never got its seat back, but the table plays on
    table.round_settled({"round_id": "r1", "hands": []}, RunStats())
    assert _warmed_up(waiting, [Task(False), Task(False)], [table])  # type: ignore[arg-type]
