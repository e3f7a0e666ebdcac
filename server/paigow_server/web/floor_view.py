"""The floor view's window and figures (``GET /api/operator/floor``, docs/floor.md): which buckets a window
reads, and the totals, series and tables made of them. No I/O: ``floor_routes`` reads the buckets.

- **The window**: ``hour`` (the last 60 minutes), ``today`` (since 00:00 UTC), ``7d``, ``30d``, or
  ``from``/``to`` (ms, at most 400 days apart). It is read at the coarsest resolution that still gives at
  least ``MIN_POINTS`` buckets and still keeps the window's first one (minute buckets are kept 48 hours,
  hour buckets 90 days), whole buckets: ``from_ms`` is the first bucket's start.
- **The band**: the theoretical win ± 2 standard deviations of the window's total win, ``sqrt(n * var)``,
  ``var`` the per-round variance of the house's win over the window (from Σwin and Σwin², population
  variance); each series point's band is that of the cumulative figures up to it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from paigow_server.errors import ApiError
from paigow_server.store.floor_stats import DAY_MS, HOUR_MS, RESOLUTIONS, Resolution

__all__ = ["MAX_SPAN_MS", "MIN_POINTS", "SERIES_FIELDS", "WINDOWS", "Window", "WindowError", "band", "series",
           "table_pieces", "tables", "totals", "window_of"]

MIN_POINTS = 24
MAX_SPAN_MS = 400 * DAY_MS
WINDOWS = ("hour", "today", "7d", "30d")
SERIES_FIELDS = ("start_ms", "rounds", "handle_cents", "win_cents", "theo_win_cents", "band_low_cents",
                 "band_high_cents", "cum_win_cents", "cum_theo_win_cents", "commission_cents",
                 "rounds_per_hour", "seats_per_round")
"""A series point's fields, in order: the CSV's columns."""


class WindowError(ApiError):
    """A bad window: ``400 INVALID_FIELD`` whose ``field`` names the parameter."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(400, "INVALID_FIELD", message, extra={"field": field})
        self.field = field


@dataclass(frozen=True, slots=True)
class Window:
    from_ms: int
    to_ms: int
    resolution: Resolution
    starts: tuple[int, ...]
    """Each bucket's start, oldest first."""


def _ms(name: str, text: str) -> int:
    if not text.isascii() or not text.isdigit() or len(text) > 15:
        raise WindowError(name, f"{name}={text[:40]!r} must be a time in ms since 1970 (ASCII digits)")
    return int(text)


def _resolution(from_ms: int, to_ms: int, now_ms: int) -> Resolution:
    """The coarsest resolution with at least ``MIN_POINTS`` buckets in the window that still keeps its
    first bucket; else the finest that keeps it (else the day)."""
    kept = [r for r in RESOLUTIONS if r.start(from_ms) + r.size_ms + r.kept_ms > now_ms]
    for resolution in reversed(kept):
        if (to_ms - from_ms) // resolution.size_ms >= MIN_POINTS:
            return resolution
    return kept[0] if kept else RESOLUTIONS[-1]


def window_of(params: Mapping[str, str], now_ms: int) -> Window:
    """The window of the query (``window``, or ``from`` and ``to``); ``WindowError`` names a bad one."""
    named = params.get("window")
    if named is not None and ("from" in params or "to" in params):
        raise WindowError("window", "give window or from/to, not both")
    if named is not None or ("from" not in params and "to" not in params):
        named = "today" if named is None else named
        if named not in WINDOWS:
            raise WindowError("window", f"window={named[:40]!r} must be one of {', '.join(WINDOWS)}")
        to_ms = now_ms
        from_ms = {"hour": now_ms - HOUR_MS, "today": now_ms - now_ms % DAY_MS, "7d": now_ms - 7 * DAY_MS,
                   "30d": now_ms - 30 * DAY_MS}[named]
    else:
        for name in ("from", "to"):
            if name not in params:
                raise WindowError(name, f"{name} is missing: from and to go together")
        from_ms, to_ms = _ms("from", params["from"]), _ms("to", params["to"])
        if to_ms <= from_ms:
            raise WindowError("to", f"to={to_ms} must be after from={from_ms}")
        if to_ms - from_ms > MAX_SPAN_MS:
            raise WindowError("to", f"from/to span {to_ms - from_ms} ms: at most 400 days ({MAX_SPAN_MS} ms)")
    resolution = _resolution(from_ms, to_ms, now_ms)
    first = resolution.start(from_ms)
    last = resolution.start(max(from_ms, to_ms - 1))
    starts = tuple(range(first, last + 1, resolution.size_ms))
    return Window(first, to_ms, resolution, starts)


def _cents(micro: int) -> int:
    return round(micro / 1_000_000)


def band(rounds: int, win: int, win_sq: int, theo_micro: int) -> tuple[int, int]:
    """(low, high): the theoretical win ± 2 standard deviations of the total win of ``rounds`` rounds."""
    theo = theo_micro / 1_000_000
    if rounds <= 0:
        return _cents(theo_micro), _cents(theo_micro)
    variance = max(0.0, win_sq / rounds - (win / rounds) ** 2)
    spread = 2 * math.sqrt(rounds * variance)
    return round(theo - spread), round(theo + spread)


def _pct(part: int, whole: int) -> float | None:
    return None if whole == 0 else round(100 * part / whole, 4)


def _sum(buckets: Sequence[Mapping[str, int]]) -> dict[str, int]:
    out: dict[str, int] = {}
    for bucket in buckets:
        for name, value in bucket.items():
            out[name] = out.get(name, 0) + value
    return out


def totals(buckets: Sequence[Mapping[str, int]], window: Window) -> dict[str, Any]:
    """The window's totals (the contract's ``totals``)."""
    s = _sum(buckets)
    n, win, handle = s.get("rounds", 0), s.get("win", 0), s.get("handle", 0)
    low, high = band(n, win, s.get("win_sq", 0), s.get("theo_micro", 0))
    hours = (window.to_ms - window.from_ms) / HOUR_MS
    fortune_handle, qd_handle = s.get("fortune_handle", 0), s.get("qd_handle", 0)
    fortune_win, qd_win = s.get("fortune_win", 0), s.get("qd_win", 0)
    return {
        "rounds": n, "voided": s.get("voided", 0),
        "rounds_per_hour": round(n / hours, 4) if hours > 0 else 0.0,
        "handle_cents": handle, "win_cents": win, "hold_pct": _pct(win, handle),
        "theo_win_cents": _cents(s.get("theo_micro", 0)), "band_low_cents": low, "band_high_cents": high,
        "commission_cents": s.get("commission", 0),
        "fortune_handle_cents": fortune_handle, "fortune_win_cents": fortune_win,
        "fortune_hold_pct": _pct(fortune_win, fortune_handle),
        "queens_dragon_handle_cents": qd_handle, "queens_dragon_win_cents": qd_win,
        "queens_dragon_hold_pct": _pct(qd_win, qd_handle),
        "player_banked_rounds": s.get("player_banked", 0), "co_banked_rounds": s.get("co_banked", 0),
        "player_banked_share": _share(s.get("player_banked", 0), n),
        "co_banked_share": _share(s.get("co_banked", 0), n),
        "seats_per_round": _share(s.get("seated", 0), n),
    }


def _share(part: int, rounds: int) -> float | None:
    return None if rounds == 0 else round(part / rounds, 4)


def series(buckets: Sequence[Mapping[str, int]], window: Window) -> list[dict[str, Any]]:
    """One point per bucket, oldest first, empty ones with zeros (the contract's ``series``)."""
    out: list[dict[str, Any]] = []
    n = win = win_sq = theo = 0
    hours = window.resolution.size_ms / HOUR_MS
    for start, bucket in zip(window.starts, buckets, strict=True):
        rounds = bucket.get("rounds", 0)
        n, win, win_sq = n + rounds, win + bucket.get("win", 0), win_sq + bucket.get("win_sq", 0)
        theo += bucket.get("theo_micro", 0)
        low, high = band(n, win, win_sq, theo)
        out.append({
            "start_ms": start, "rounds": rounds, "handle_cents": bucket.get("handle", 0),
            "win_cents": bucket.get("win", 0), "theo_win_cents": _cents(bucket.get("theo_micro", 0)),
            "band_low_cents": low, "band_high_cents": high, "cum_win_cents": win,
            "cum_theo_win_cents": _cents(theo), "commission_cents": bucket.get("commission", 0),
            "rounds_per_hour": round(rounds / hours, 4),
            "seats_per_round": _share(bucket.get("seated", 0), rounds),
        })
    return out


def table_pieces(window: Window) -> list[tuple[Resolution, int]]:
    """The fewest buckets that cover the window's span exactly (whole days, then whole hours, then
    minutes): where the list of its tables is read (``floor_stats.FloorStats.table_figures``). At most
    about 140 for a window read by the minute, 70 by the hour, 401 by the day."""
    minute, hour, day = RESOLUTIONS
    at, end = window.from_ms, window.starts[-1] + window.resolution.size_ms
    pieces: list[tuple[Resolution, int]] = []
    while at < end:
        piece = next(r for r in (day, hour, minute) if at % r.size_ms == 0 and at + r.size_ms <= end)
        pieces.append((piece, at))
        at += piece.size_ms
    return pieces


def tables(per_table: Mapping[str, Mapping[str, int]], names: Mapping[str, str]) -> list[dict[str, Any]]:
    """Each table with rounds in the window, by handle (largest first), from its figures summed over the
    window (``table_pieces``)."""
    ranked = sorted(((table_id, f) for table_id, f in per_table.items() if f.get("rounds", 0) > 0),
                    key=lambda item: (-item[1].get("handle", 0), item[0]))
    return [{"table_id": table_id, "name": names.get(table_id), "rounds": f.get("rounds", 0),
             "handle_cents": f.get("handle", 0), "win_cents": f.get("win", 0),
             "hold_pct": _pct(f.get("win", 0), f.get("handle", 0)),
             "theo_win_cents": _cents(f.get("theo_micro", 0))}
            for table_id, f in ranked]
