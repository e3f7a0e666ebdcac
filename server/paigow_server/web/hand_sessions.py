"""The player's history in sessions, with the coach's score of each (docs/http-api.md, "Sessions").

A **session** is a run of the history's hands (newest first) at one table, each settled within
``SESSION_GAP_MS`` of the next: a sitting. Its score counts the hands played against the banker (a hand
the player banked has no analysis), how many of them have been analysed, how many of those were set the
best way, and the EV given up by the analysed ones, in all and on average (units of the bet).
"""

from __future__ import annotations

from typing import Any

__all__ = ["SESSION_GAP_MS", "sessions_of"]

SESSION_GAP_MS = 30 * 60_000
"""The longest pause between two hands of one session."""


def _score(table_id: str, table_name: str, hands: list[dict[str, Any]]) -> dict[str, Any]:
    played = [h for h in hands if not h["is_banker"]]
    analyses = [h["analysis"] for h in played if h.get("analysis") is not None]
    given_up = [a["ev_given_up"] for a in analyses]
    total = sum(given_up)
    return {"table_id": table_id, "table_name": table_name,
            "first_settled_ms": hands[-1]["settled_ms"], "last_settled_ms": hands[0]["settled_ms"],
            "hands": len(hands), "played": len(played), "analysed": len(analyses),
            "best_splits": sum(1 for g in given_up if g <= 0),
            "ev_given_up_total": total, "ev_given_up_mean": total / len(given_up) if given_up else None}


def sessions_of(hands: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The sessions of these history hands (newest first), newest first."""
    runs: list[list[dict[str, Any]]] = []
    for hand in hands:
        last = runs[-1][-1] if runs else None
        if (last is not None and last["table_id"] == hand["table_id"]
                and last["settled_ms"] - hand["settled_ms"] <= SESSION_GAP_MS):
            runs[-1].append(hand)
        else:
            runs.append([hand])
    return [_score(run[0]["table_id"], run[0]["table_name"], run) for run in runs]
