"""Split analyses (``paigow.rules.analysis``) off the event loop, and their JSON form.

An analysis is about a second of CPU, so the server never runs one on its event loop: ``AnalysisPool`` holds a
``ProcessPoolExecutor`` of ``workers`` processes ("spawn": they start clean, whatever the server holds), made
with the app (``AppContext``) and shut down with it. ``turn(account, network, priority)`` waits for one of
``2 * workers`` places (one running and one ready per worker) in a ``FairQueue``: a seated player's
just-settled hand first, then the others, clients in turn, each account and each address network holding at
most ``per_client`` places (past that ``AnalysisQueueFull``: the server answers 429 with ``Retry-After``),
and at most ``max_pending`` waiting in all (past that ``AnalysisBusy``: 503), so neither one flooding
client nor a crowd can queue unbounded work or take the workers from others. Each worker keeps the House
Way's settings of dealer hands it has made (``dealer_hands``), so its later analyses are faster.

``analysis_json(analysis)`` is the JSON of ``paigow analyze --json`` and of the HTTP API (docs/http-api.md):
``{"cards", "splits": [{"low", "high", "win", "push", "loss", "ev", "ev_se"}], "best", "house_way", "samples",
"exact", "seed", "rules"}``; with ``names=True`` every split also has ``high_name`` and ``low_name`` (``"pair
of aces"``, ``"king-queen"``).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from typing import Any

from paigow.rules.analysis import Analysis, SplitOdds, analyze
from paigow.rules.cards import card_from_text
from paigow.rules.hand_value import evaluate_high, evaluate_low
from paigow.rules.house_rules import HouseRules, HouseWayName, WheelRank
from paigow_server.process.fair_queue import FairQueue, Priority, QueueBusy, QueueFull

__all__ = ["AnalysisBusy", "AnalysisPool", "AnalysisQueueFull", "Priority", "analysis_document",
           "analysis_json", "odds_json"]


def odds_json(odds: SplitOdds, rules: HouseRules, *, names: bool = False) -> dict[str, Any]:
    """One split's entry: ``{"low", "high", "win", "push", "loss", "ev", "ev_se"}`` (and the hands' names)."""
    entry: dict[str, Any] = {
        "low": [str(c) for c in odds.split.low], "high": [str(c) for c in odds.split.high],
        "win": odds.win, "push": odds.push, "loss": odds.loss, "ev": odds.ev, "ev_se": odds.ev_se}
    if names:
        entry["high_name"] = evaluate_high(odds.split.high, rules).name
        entry["low_name"] = evaluate_low(odds.split.low).name
    return entry


def analysis_json(analysis: Analysis, *, names: bool = False) -> dict[str, Any]:
    """The analysis as JSON (see the module doc)."""
    rules = analysis.rules
    return {
        "cards": [str(c) for c in analysis.cards],
        "splits": [odds_json(o, rules, names=names) for o in analysis.splits],
        "best": odds_json(analysis.best, rules, names=names),
        "house_way": odds_json(analysis.house_way, rules, names=names),
        "samples": analysis.samples,
        "exact": analysis.exact,
        "seed": analysis.seed,
        "rules": {"house_way": str(rules.house_way), "wheel": str(rules.wheel),
                  "commission_bps": rules.commission_bps},
    }


def analysis_document(cards: Sequence[str], house_way: str, wheel: str, commission_bps: int, seed: int,
                      samples: int | None = None) -> dict[str, Any]:
    """A worker's job: the named analysis JSON of seven cards (canonical texts, already checked)."""
    rules = HouseRules(house_way=HouseWayName(house_way), wheel=WheelRank(wheel),
                       commission_bps=commission_bps)
    hand = [card_from_text(t) for t in cards]
    return analysis_json(analyze(hand, rules, samples=samples, seed=seed), names=True)


AnalysisBusy = QueueBusy
"""Every waiting place of the process is taken; try again in a moment."""


AnalysisQueueFull = QueueFull
"""This account or address network already has its analyses waiting or running."""


class AnalysisPool:
    """A bounded process pool for analyses, made with the app (its processes start with the first
    analysis); ``stop()`` at shutdown."""

    def __init__(self, workers: int, *, per_client: int = 2, max_pending: int | None = None) -> None:
        self.workers = workers
        self.max_pending = max_pending if max_pending is not None else 16 * workers
        # Two per worker: one running and the next already handed to the pool, so a worker never waits for
        # the event loop between two analyses (on a loaded loop that gap took two thirds of a worker's time).
        self.queue = FairQueue(2 * workers, per_client=per_client, max_waiting=self.max_pending)
        self._pool: ProcessPoolExecutor | None = ProcessPoolExecutor(max_workers=workers,
                                                                     mp_context=get_context("spawn"))

    def stop(self) -> None:
        """Shut the workers down (a running analysis finishes; waiting ones are dropped)."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    def turn(self, account: str, network: str,
             priority: Priority) -> contextlib.AbstractAsyncContextManager[None]:
        """Hold a worker, waiting in turn; raises ``AnalysisQueueFull`` or ``AnalysisBusy`` at once."""
        return self.queue.turn(account, network, priority)

    async def analyze(self, cards: Sequence[str], rules: HouseRules, seed: int) -> dict[str, Any]:
        """The named analysis JSON of these seven cards, computed in a worker process."""
        if self._pool is None:
            raise RuntimeError("the analysis pool is stopped")
        return await asyncio.get_running_loop().run_in_executor(
            self._pool, analysis_document, list(cards), str(rules.house_way), str(rules.wheel),
            rules.commission_bps, seed)
