"""Prometheus metrics, one registry per app (so several apps in one test process never collide)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Self, TypeVar

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)

from paigow.ledger.floor_figures import FloorFigures

__all__ = ["CONTENT_TYPE", "Metrics"]

CONTENT_TYPE = CONTENT_TYPE_LATEST

class _CachedCounter(Counter):
    """A ``Counter`` whose ``labels(...)`` answers a child it made before from a dict (prometheus_client
    checks the label names, converts the values and takes a lock on every call: on each command here)."""

    def labels(self, *labelvalues: object, **labelkwargs: object) -> Self:
        return _child(self, super().labels, labelvalues, labelkwargs)


class _CachedGauge(Gauge):
    """A ``Gauge`` with the children of ``_CachedCounter``."""

    def labels(self, *labelvalues: object, **labelkwargs: object) -> Self:
        return _child(self, super().labels, labelvalues, labelkwargs)


M = TypeVar("M")


def _child(metric: M, make: Callable[..., M], labelvalues: tuple[object, ...],
           labelkwargs: dict[str, object]) -> M:
    children: dict[tuple[object, ...], M] | None = vars(metric).get("_children")
    if children is None:
        children = vars(metric)["_children"] = {}
    key = labelvalues + tuple(labelkwargs.items())
    child = children.get(key)
    if child is None:
        child = children[key] = make(*labelvalues, **labelkwargs)
    return child


_LATENCY_BUCKETS_S = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


class Metrics:
    """The server's instruments. ``connections`` by role (player/spectator/operator); ``commands`` by
    command type and result (accepted, a RejectCode, conflict...); ``command_to_push`` from the moment a
    command arrives to the push of its events to a viewer; ``redis_errors`` by operation; ``floor_rounds``
    and ``floor_cents`` the floor's figures of each settled or voided round (``count_floor``)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.connections = _CachedGauge("paigow_connections", "Open WebSocket connections", ["role"],
                                 registry=self.registry)
        self.tables = Gauge("paigow_tables", "Tables stored in Redis", registry=self.registry)
        self.commands = _CachedCounter("paigow_commands", "Table commands executed", ["type", "result"],
                                registry=self.registry)
        self.command_to_push = Histogram("paigow_command_to_push_seconds",
                                         "Time from a command's arrival to the push of its events",
                                         buckets=_LATENCY_BUCKETS_S, registry=self.registry)
        self.redis_errors = _CachedCounter("paigow_redis_errors", "Failed Redis operations", ["operation"],
                                    registry=self.registry)
        self.min_replicas_to_write = Gauge(
            "paigow_redis_min_replicas_to_write", "The primary's min-replicas-to-write while replica "
            "acknowledgements are on (-1: unknown, CONFIG GET refused); 0 or -1 deserves a look "
            "(docs/failover.md)", registry=self.registry)
        self.http_requests = _CachedCounter("paigow_http_requests", "HTTP API requests", ["route", "status"],
                                     registry=self.registry)
        self.floor_rounds = _CachedCounter(
            "paigow_floor_rounds", "Casino-money rounds ended, by kind: settled, voided, player_banked "
            "(a player held the bank), co_banked; and seated (players seated at each settled round's "
            "end)", ["kind"], registry=self.registry)
        self.floor_cents = _CachedCounter(
            "paigow_floor_cents", "The floor's money figures of the settled rounds (docs/floor.md), "
            "in cents: handle, won and lost (the house's win is won - lost), theo (theoretical win), "
            "commission, fortune_handle, fortune_won, fortune_lost, queens_dragon_handle, "
            "queens_dragon_won, queens_dragon_lost", ["figure"], registry=self.registry)

    def count_floor(self, figures: FloorFigures) -> None:
        """Count a round's floor figures (``paigow_floor_*``), once its commit is written."""
        if figures.voided:
            self.floor_rounds.labels(kind="voided").inc()
        if not figures.rounds:
            return
        rounds, cents = self.floor_rounds, self.floor_cents
        rounds.labels(kind="settled").inc()
        for kind, value in (("player_banked", figures.player_banked), ("co_banked", figures.co_banked),
                            ("seated", figures.seated)):
            if value:
                rounds.labels(kind=kind).inc(value)
        for figure, value in (("handle", figures.handle), ("commission", figures.commission),
                              ("fortune_handle", figures.fortune_handle),
                              ("queens_dragon_handle", figures.qd_handle)):
            if value:
                cents.labels(figure=figure).inc(value)
        if figures.theo_micro > 0:
            cents.labels(figure="theo").inc(figures.theo_micro / 1_000_000)
        for prefix, value in (("", figures.win), ("fortune_", figures.fortune_win),
                              ("queens_dragon_", figures.qd_win)):
            if value:
                cents.labels(figure=f"{prefix}{'won' if value > 0 else 'lost'}").inc(abs(value))

    def render(self) -> bytes:
        return generate_latest(self.registry)
