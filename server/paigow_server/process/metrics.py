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
    command arrives to the push of its events to a viewer; ``redis_errors`` by operation."""

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

    def render(self) -> bytes:
        return generate_latest(self.registry)
