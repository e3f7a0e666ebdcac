"""A bots run: open tables, fill them with bot players and spectators, play R rounds, check the money.

The run is bounded: it stops when every table has settled its rounds and every bot has left, or at
``timeout_s``, whichever comes first. Bots only ever talk to the ``--url`` they are given.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from rich.console import Console, Group
from rich.live import Live
from rich.table import Table
from rich.text import Text

from paigow_server.bots.api import BotApi, Session
from paigow_server.bots.chip_dump import DUMP_RULES
from paigow_server.bots.home_chips import chip_setting, game_problems
from paigow_server.bots.player import Behaviour, PlayerBot, TableProgress
from paigow_server.bots.stats import RunStats
from paigow_server.bots.variants import variant_rules
from paigow_server.process.gc_policy import serving_gc

__all__ = ["FAST_TIMERS", "BotsConfig", "RunResult", "run_bots"]

FAST_TIMERS: dict[str, int] = {
    "bank_offer_ms": 5_000, "betting_ms": 8_000, "setting_ms": 15_000, "between_rounds_ms": 300,
    "reconnect_grace_ms": 10_000,
}
"""Timers of the tables a run opens: bots act at once, so only the pause between rounds matters."""


@dataclass(frozen=True, slots=True)
class BotsConfig:
    url: str
    operator_token: str | None
    tables: int = 2
    players_per_table: int = 6
    spectators: int = 1
    rounds: int = 3
    seed: int | None = None
    timeout_s: float = 300.0
    buy_in_cents: int = 20_000
    behaviour: Behaviour = field(default_factory=Behaviour)
    private: bool = False
    """Private tables (home games): the first bot of each table, an account, creates and hosts it; the
    others (accounts too) join by its invite, the spectators with the invite code."""
    table_urls: tuple[str, ...] = ()
    """WebSocket bases to spread the bots over (several processes); default: the one of ``url``."""
    variants: bool = False
    """Open each table with one of the casino variants in turn (``bots.variants.VARIANT_RULES``)."""
    by_table: bool = False
    """With several ``table_urls``: every bot of a table on the same process (as a balancer that routes by
    table does), instead of the bots of each table spread over all of them."""
    chip_dump: bool = False
    """Plant a chip-dumping pair at the first table (opened with ``chip_dump.DUMP_RULES``: a foul loses):
    its first bot banks whenever the bank reaches it, its second (never banking) bets the most and throws its
    hand then (``bots.chip_dump``). Needs two or more players per table; not with ``private``."""


@dataclass
class RunResult:
    stats: RunStats
    duration_s: float
    table_ids: list[str]
    completed_tables: int
    players_delta_cents: int
    """Sum over the bot players of (final balance - starting balance)."""
    house_delta_cents: int
    money: dict[str, int]
    money_ok: bool
    money_message: str
    planted: tuple[str, str] | None = None
    """``(banker, dumper)`` player ids of the planted chip-dumping pair (``chip_dump``)."""

    def summary(self) -> dict[str, Any]:
        s = self.stats
        return {
            "duration_s": round(self.duration_s, 2), "tables": len(self.table_ids),
            "tables_completed": self.completed_tables, "rounds": s.rounds, "voided": s.voided,
            "bonus_bets": s.bonus_bets, "bonus_house_net_cents": s.bonus_house_net_cents,
            "variants": dict(s.variants), "home_chips": dict(s.home_chips),
            "commands": s.commands, "accepted": s.accepted,
            "commands_per_s": round(s.commands / self.duration_s, 1) if self.duration_s else 0.0,
            "messages_received": s.messages_received, "connections_peak": s.connections_peak,
            "reconnects": s.reconnects, "bad_frames_sent": s.bad_frames_sent,
            "errors": dict(s.errors), "bad_input_errors": dict(s.bad_input_errors),
            "hidden_card_leaks": s.hidden_card_leaks,
            "latency_ms": {k: round(v, 2) for k, v in s.latency_summary().items()},
            "latency_ms_after_warm_up": {k: round(v, 2) for k, v in s.latency_summary(steady=True).items()},
            "players_delta_cents": self.players_delta_cents, "house_delta_cents": self.house_delta_cents,
            "money": self.money, "money_ok": self.money_ok, "money_message": self.money_message,
            "chip_dump": None if self.planted is None else {"banker_id": self.planted[0],
                                                            "player_id": self.planted[1]},
        }


def _render(stats: RunStats, progress: list[TableProgress], started: float) -> Group:
    elapsed = time.monotonic() - started
    lat, steady = stats.latency_summary(), stats.latency_summary(steady=True)
    table = Table(title="paigow bots", show_header=True, header_style="bold")
    for column in ("elapsed", "tables done", "rounds", "commands", "cmd/s", "connections", "reconnects",
                   "errors", "p50 ms", "p95 ms", "p99 ms", "p99 after warm-up"):
        table.add_column(column, justify="right")
    done = sum(1 for p in progress if p.done.is_set())
    table.add_row(f"{elapsed:5.1f}s", f"{done}/{len(progress)}", str(stats.rounds), str(stats.commands),
                  f"{stats.commands / elapsed if elapsed else 0:.0f}", str(stats.connections_open),
                  str(stats.reconnects), str(sum(stats.errors.values())), f"{lat['p50']:.1f}",
                  f"{lat['p95']:.1f}", f"{lat['p99']:.1f}", f"{steady['p99']:.1f}")
    codes = ", ".join(f"{code} {n}" for code, n in stats.errors.most_common(6)) or "none"
    return Group(table, Text(f"errors by code: {codes}"))


async def _sessions(api: BotApi, count: int, prefix: str) -> list[Session]:
    limit = asyncio.Semaphore(16)

    async def one(i: int) -> Session:
        async with limit:
            return await api.new_session(f"{prefix}{i}")

    return list(await asyncio.gather(*(one(i) for i in range(count))))


async def _balances(api: BotApi, sessions: list[Session]) -> list[int]:
    limit = asyncio.Semaphore(16)

    async def one(session: Session) -> int:
        async with limit:
            return await api.balance(session.token)

    return list(await asyncio.gather(*(one(s) for s in sessions)))


HOME_TIMERS = ("bank_offer_ms", "betting_ms", "setting_ms", "between_rounds_ms")
"""The timers a host may set (the reconnect grace is the deployment's)."""
BOT_PASSWORD = "bots play pai gow at home"


async def _home_tables(api: BotApi, config: BotsConfig, prefix: str,
                       rules: dict[str, Any]) -> tuple[list[Session], list[TableProgress]]:
    """Accounts for every bot player; each table's first creates it, the others resolve its invite."""
    limit = asyncio.Semaphore(8)

    async def account(i: int) -> Session:
        async with limit:
            return await api.new_account(f"{prefix}{i}", BOT_PASSWORD)

    count = config.tables * config.players_per_table
    sessions = list(await asyncio.gather(*(account(i) for i in range(count))))
    timers = {k: v for k, v in FAST_TIMERS.items() if k in HOME_TIMERS}
    progress: list[TableProgress] = []
    for t in range(config.tables):
        players = sessions[t * config.players_per_table:(t + 1) * config.players_per_table]
        table_id, code = await api.open_home_table(players[0].token, f"bots home {t + 1}", timers=timers,
                                                   rules=rules, chips=chip_setting(t, config.buy_in_cents))
        for player in players[1:]:
            await api.resolve_invite(player.token, code)
        progress.append(TableProgress(table_id, config.rounds, invite=code))
    return sessions, progress


def _rotated(bases: tuple[str, ...], i: int) -> tuple[str, ...]:
    k = i % len(bases)
    return bases[k:] + bases[:k]


def _make_bots(config: BotsConfig, progress: list[TableProgress], sessions: list[Session],
               bases: tuple[str, ...], stats: RunStats, rng: random.Random,
               stop_at: float) -> list[PlayerBot]:
    bots: list[PlayerBot] = []
    for t, table in enumerate(progress):
        for seat in range(1, config.players_per_table + 1):
            session = sessions[t * config.players_per_table + seat - 1]
            bots.append(PlayerBot(_rotated(bases, t if config.by_table else len(bots)), table, stats,
                                  token=session.token,
                                  player_id=session.player_id, seat=seat, buy_in_cents=config.buy_in_cents,
                                  rng=random.Random(rng.random()),
                                  behaviour=_behaviour(config, t, seat, sessions), stop_at=stop_at))
        for _ in range(config.spectators):
            bots.append(PlayerBot(_rotated(bases, t if config.by_table else len(bots)), table, stats,
                                  token=None, player_id=None,
                                  seat=0, buy_in_cents=0, rng=random.Random(rng.random()), stop_at=stop_at))
    return bots


def _behaviour(config: BotsConfig, t: int, seat: int, sessions: list[Session]) -> Behaviour:
    """The bot's behaviour: the run's, but the planted pair's at the first table (``chip_dump``)."""
    if not config.chip_dump or t != 0 or seat > 2:
        return config.behaviour
    if seat == 1:
        return replace(config.behaviour, bank_rate=1.0)
    return replace(config.behaviour, bank_rate=0.0, dump_to=sessions[0].player_id)


def _warmed_up(bots: list[PlayerBot], tasks: list[asyncio.Task[None]], progress: list[TableProgress]) -> bool:
    """Every bot has its view and seat (or has finished), or else every table has settled a round (a bot
    that never gets its seat back, kicked or out of chips, must not hold the warm-up open)."""
    return (all(bot.settled_in or task.done() for bot, task in zip(bots, tasks, strict=True))
            or all(table.settled for table in progress))


async def _play(bots: list[PlayerBot], stats: RunStats, progress: list[TableProgress], started: float,
                console: Console | None, on_tick: Callable[[RunStats], None] | None) -> None:
    """Run every bot until all have finished, showing the live display and calling ``on_tick``."""
    tasks = []
    for bot in bots:
        tasks.append(asyncio.create_task(bot.run()))
        await asyncio.sleep(0.002)  # no thundering herd of handshakes
    live = None
    if console is not None:
        live = Live(_render(stats, progress, started), console=console, refresh_per_second=4)
        live.start()
    try:
        while not all(task.done() for task in tasks):
            await asyncio.sleep(0.25)
            if stats.steady_since is None and _warmed_up(bots, tasks, progress):
                stats.steady_since = time.perf_counter()
            if live is not None:
                live.update(_render(stats, progress, started))
            if on_tick is not None:
                on_tick(stats)
    finally:
        for task in tasks:
            task.cancel()
        outcomes = await asyncio.gather(*tasks, return_exceptions=True)
        for outcome in outcomes:  # a bot that stopped on an error it did not expect: the run says so
            if isinstance(outcome, Exception):
                stats.errors[f"bot stopped: {type(outcome).__name__}: {outcome}"[:200]] += 1
        if live is not None:
            live.update(_render(stats, progress, started))
            live.stop()


async def run_bots(config: BotsConfig, *, console: Console | None = None,
                   on_tick: Callable[[RunStats], None] | None = None) -> RunResult:
    """Play a bounded run; ``console``: show a live display there; ``on_tick(stats)``: called once when
    the set-up (sessions, tables) is done and the bots start, then four times a second."""
    rng = random.Random(config.seed)
    stats = RunStats()
    fallbacks = tuple("http" + u.removeprefix("ws") for u in config.table_urls[1:])
    async with BotApi(config.url, config.operator_token, fallbacks=fallbacks) as api:
        money_before = await api.money()
        fortune = {"fortune_enabled": True}  # the bots sometimes bet the Fortune bonus
        prefix = f"bot-{rng.randrange(10**6)}-"
        if config.private:
            sessions, progress = await _home_tables(api, config, prefix, fortune)
        else:
            variants = [variant_rules(i) if config.variants else {} for i in range(config.tables)]
            if config.chip_dump:
                variants[0] = {**variants[0], **DUMP_RULES}
            table_ids = [await api.open_table(f"bots {i + 1}", timers=FAST_TIMERS, rules={**fortune, **rules})
                         for i, rules in enumerate(variants)]
            sessions = await _sessions(api, config.tables * config.players_per_table, prefix)
            progress = [TableProgress(table_id, config.rounds) for table_id in table_ids]
        bases = config.table_urls or (api.ws_base,)
        started = time.monotonic()
        bots = _make_bots(config, progress, sessions, bases, stats, rng, started + config.timeout_s)
        if on_tick is not None:
            on_tick(stats)  # the set-up is done; the bots start now
        with serving_gc():  # the bots are the measuring instrument: no long collector pauses in them
            await _play(bots, stats, progress, started, console, on_tick)
        duration = time.monotonic() - started
        await asyncio.sleep(0.2)
        balances = await _balances(api, sessions)
        money_after = await api.money()
        table_ids = [p.table_id for p in progress]
        home_problems = game_problems(await api.home_games(), table_ids) if config.private else []
    players_delta = sum(b - s.balance_cents for b, s in zip(balances, sessions, strict=True))
    house_delta = money_after.get("house_net_cents", 0) - money_before.get("house_net_cents", 0)
    chips_delta = money_after.get("chips_at_tables_cents", 0) - money_before.get("chips_at_tables_cents", 0)
    # the bots' money not in their balances yet: held for a buy-in, or on its way from a table (outbox)
    players_delta += sum(money_after.get(k, 0) - money_before.get(k, 0) for k in ("holds_cents",
                                                                                 "in_transit_cents"))
    issued = money_after.get("issued_cents", 0)
    total = sum(money_after.get(k, 0) for k in ("balances_cents", "chips_at_tables_cents", "house_net_cents"))
    problems = list(home_problems)
    if config.private and players_delta != 0:  # a home game's chips never reach a casino balance
        problems.append(f"the bots' casino balances moved {players_delta:+d} cents at home games")
    if total != issued:
        problems.append(f"balances + chips + house = {total} cents, but {issued} cents were issued")
    if players_delta + chips_delta + house_delta != 0:
        problems.append(f"the bots' balances moved {players_delta:+d}, chips at tables {chips_delta:+d} "
                        f"and the house {house_delta:+d} cents: they must add up to 0")
    message = "; ".join(problems) or (f"ok: the bots' balances moved {players_delta:+d} cents, chips at "
                                      f"tables {chips_delta:+d}, the house {house_delta:+d}")
    completed = sum(1 for p in progress if p.done.is_set())
    planted = (sessions[0].player_id, sessions[1].player_id) if config.chip_dump else None
    return RunResult(stats, duration, table_ids, completed, players_delta, house_delta, money_after,
                     not problems, message, planted)
