"""What a bots run measured: counters, errors by code, command-to-push latencies, and percentiles."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field

__all__ = ["RunStats", "percentile"]


def percentile(sorted_values: list[float], q: float) -> float:
    """The ``q``-quantile (0..1) of already sorted values, nearest-rank; NaN when there are none."""
    if not sorted_values:
        return math.nan
    rank = max(1, math.ceil(q * len(sorted_values)))
    return sorted_values[rank - 1]


@dataclass
class RunStats:
    """Shared by every bot of a run (one event loop: no locks needed)."""

    commands: int = 0
    """Table commands sent (sit, bets, hands, bank decisions, leave...)."""
    accepted: int = 0
    accepted_versions: list[tuple[str, int]] = field(default_factory=list)
    """(table id, version) of every command answered ``accepted``: a failover test checks each is kept."""
    rounds: int = 0
    """Rounds settled, over all tables."""
    voided: int = 0
    bonus_bets: int = 0
    """Fortune bonus bets settled, over all tables."""
    bonus_house_net_cents: int = 0
    variants: dict[str, int] = field(default_factory=dict)
    """What the settled rounds had of the casino variants (``bots.variants.count_variants``), added up."""
    home_chips: Counter[str] = field(default_factory=Counter)
    """At home games: the buy-ins and rebuys approved and denied, and the rounds nobody banked, each
    counted once (by the event's request id, or round id)."""
    """The house's result on them."""
    messages_received: int = 0
    bad_frames_sent: int = 0
    reconnects: int = 0
    connections_open: int = 0
    connections_peak: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    """Error codes answered to real commands (rejections, BUSY...)."""
    bad_input_errors: Counter[str] = field(default_factory=Counter)
    """Error codes answered to the bad input the bots sent on purpose."""
    hidden_card_leaks: int = 0
    """Messages that showed a viewer a card it may not see (must stay 0)."""
    latencies_ms: list[float] = field(default_factory=list)
    """Command sent → the ``events`` push of its version received, per command that changed the table."""
    steady_since: float | None = None
    """When (``time.perf_counter``) every bot had its first view and every player its seat: the end of the
    warm-up, in which all the connections open and every player sits down at once."""
    steady_latencies_ms: list[float] = field(default_factory=list)
    """The latencies of the commands sent after ``steady_since``."""

    def opened(self) -> None:
        self.connections_open += 1
        self.connections_peak = max(self.connections_peak, self.connections_open)

    def closed(self) -> None:
        self.connections_open -= 1

    def record_latency(self, sent_at: float, received_at: float) -> None:
        latency_ms = (received_at - sent_at) * 1000
        self.latencies_ms.append(latency_ms)
        if self.steady_since is not None and sent_at >= self.steady_since:
            self.steady_latencies_ms.append(latency_ms)

    def latency_summary(self, *, steady: bool = False) -> dict[str, float]:
        """count, p50, p95, p99 and max of every latency, or (``steady``) of those after the warm-up."""
        values = sorted(self.steady_latencies_ms if steady else self.latencies_ms)
        return {"count": float(len(values)), "p50": percentile(values, 0.50),
                "p95": percentile(values, 0.95), "p99": percentile(values, 0.99),
                "max": values[-1] if values else math.nan}
